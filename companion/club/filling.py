"""Events filled in: an event recorded with cards unseen (``null``, or a player left out), sent
again once the table saw them. A game's club part says which fields of which events may be
filled in (:func:`fills_in`); the rest of the event must be exactly as it was.

>>> fills_in({"event": "play", "drew": None}, {"event": "play", "drew": "QS"}, {"play": ("drew",)})
True
>>> fills_in({"event": "play", "drew": "QS"}, {"event": "play", "drew": "KS"}, {"play": ("drew",)})
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["fills_in", "filled"]


def filled(old: Any, new: Any) -> int:
    """How many cards unseen in ``old`` (``null``, or a key left out of an object) ``new``
    names, every card named in ``old`` kept; -1 when ``new`` changes anything else."""
    if old is None:
        return 0 if new is None else 1
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return -1
        parts = [filled(a, b) for a, b in zip(old, new)]
        return -1 if -1 in parts else sum(parts)
    if isinstance(old, dict):
        if not isinstance(new, dict) or not old.keys() <= new.keys():
            return -1
        parts = [filled(old[k], new[k]) for k in old] + [int(new[k] is not None) for k in new.keys() - old.keys()]
        return -1 if -1 in parts else sum(parts)
    return 0 if old == new else -1


def fills_in(old: Mapping[str, Any], new: Mapping[str, Any], fillable: Mapping[str, tuple[str, ...]]) -> bool:
    """``new`` is the event ``old`` with cards that were unseen when it was recorded now named
    in the fields ``fillable`` allows for its kind (``{"play": ("drew",)}``), at least one, and
    nothing else changed."""
    kind = old.get("event")
    if kind != new.get("event") or not isinstance(kind, str) or kind not in fillable:
        return False
    fields = fillable[kind]
    if {k for k in old if k not in fields} != {k for k in new if k not in fields}:
        return False
    if any(old[k] != new[k] for k in old if k not in fields):
        return False
    named = 0
    for key in fields:
        n = filled(old.get(key), new.get(key))
        if n < 0:
            return False
        named += n
    return named > 0
