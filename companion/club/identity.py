"""A game's identity in the archive.

The ``"id"`` key of the record's ``game`` header line when present (the companion writes a
uuid4 hex string into every new record), else the sha256 of its canonical event lines. The
canonical form of a line is its JSON with sorted keys and no spaces, so that the same game
written with other spacing or key order is the same game. The digest of the canonical lines
also tells an identical copy (a duplicate) from a corrected one (same id, other events).

A record's strings must be text: JSON may escape half of a character (``"\ud800"``, a lone
surrogate), which has no UTF-8 form, so no archive can keep it nor digest it. Such an event
is refused, naming where the string is (:func:`not_text`).

(Whether an event is the same event with more known, cards recorded face down now named, is
the game's to say: :meth:`companion.club.parts.ClubPart.fills_in`.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

__all__ = ["canonical", "digest", "digest_lines", "game_id", "not_text"]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(event: Any) -> str:
    """One event as a canonical line."""
    return _CANONICAL.encode(event)


def not_text(event: Any) -> str | None:
    """Where ``event`` (a record event's JSON object) holds a string that is not text, in
    words (``the game event's "zz" holds a lone surrogate (\\ud800), which is not text``);
    ``None`` when every string, key or value, is text.

    >>> print(not_text({"event": "play", "note": ["ok", "\\udc00"]}))
    the play event's "note"[1] holds a lone surrogate (\\udc00), which is not text
    >>> not_text({"event": "pass", "player": "zoë"}) is None
    True
    """
    try:
        _CANONICAL.encode(event).encode("utf-8")
        return None
    except UnicodeEncodeError:
        pass
    kind = event.get("event") if isinstance(event, dict) else None
    owner = f"the {kind} event's" if isinstance(kind, str) and not _surrogate(kind) else "the event's"
    where, bad = _find(event, "")
    return f"{owner} {where or 'text'} holds a lone surrogate ({bad.encode('unicode_escape').decode('ascii')}), which is not text"


def _surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text``."""
    return next((ch for ch in text if "\ud800" <= ch <= "\udfff"), None)


def _key(key: str) -> str:
    """A key as JSON writes it, a lone surrogate escaped."""
    return json.dumps(key, ensure_ascii=_surrogate(key) is not None)


def _find(value: Any, where: str) -> tuple[str, str]:
    """The place, in JSON's words (``"note"[1]``), of the first string in ``value`` (a key
    or a value) holding a lone surrogate, and that surrogate (``""``: none)."""
    if isinstance(value, str):
        return where, _surrogate(value) or ""
    items: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            bad = _surrogate(str(key))
            place = _key(str(key)) if not where else f"{where}[{_key(str(key))}]"
            if bad is not None:
                return f"key {place}", bad
            items.append((place, item))
    elif isinstance(value, list):
        items = [(f"{where}[{i}]", item) for i, item in enumerate(value)]
    for place, item in items:
        found = _find(item, place)
        if found[1]:
            return found
    return where, ""


def digest_lines(lines: Iterable[str]) -> str:
    """The sha256 of canonical lines."""
    return hashlib.sha256("".join(line + "\n" for line in lines).encode("utf-8")).hexdigest()


def digest(events: Iterable[Any]) -> str:
    return digest_lines(canonical(e) for e in events)


def game_id(events: list[Any], *, known_digest: str | None = None) -> str:
    """The header's ``"id"``, else the digest of the events (``known_digest`` if the caller
    has it already)."""
    header = events[0] if events else None
    if isinstance(header, dict):
        gid = header.get("id")
        if isinstance(gid, str) and gid.strip():
            return gid.strip()
    return known_digest or digest(events)
