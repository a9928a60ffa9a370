"""A game's identity in the archive.

The ``"id"`` key of the record's ``game`` header line when present (the companion writes a
uuid4 hex string into every new record), else the sha256 of its canonical event lines. The
canonical form of a line is its JSON with sorted keys and no spaces, so that the same game
written with other spacing or key order is the same game. The digest of the canonical lines
also tells an identical copy (a duplicate) from a corrected one (same id, other events).

An event is the same event with more known (:func:`fills_in`) when it is a deal whose cards
dealt face down are named once they have been played: what a tracked game's record does at
each round's end.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

__all__ = ["canonical", "digest", "digest_lines", "fills_in", "game_id"]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(event: Any) -> str:
    """One event as a canonical line."""
    return _CANONICAL.encode(event)


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


def fills_in(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """``new`` is the deal ``old`` with some of the cards written face down (``null``) now
    named, and nothing else changed: the hands completed at a round's end."""
    if not old.get("event") == new.get("event") == "deal" or old.keys() != new.keys():
        return False
    if any(old[k] != new[k] for k in old if k != "hands"):
        return False
    before, after = old.get("hands"), new.get("hands")
    if not isinstance(before, dict) or not isinstance(after, dict) or before.keys() != after.keys():
        return False
    named = 0
    for player, cards in before.items():
        now = after[player]
        if not isinstance(cards, list) or not isinstance(now, list) or len(cards) != len(now):
            return False
        try:
            # Every card named before is still there; the rest were face down.
            if Counter(c for c in cards if c is not None) - Counter(c for c in now if c is not None):
                return False
        except TypeError:
            return False
        named += cards.count(None) - now.count(None)
    return named > 0
