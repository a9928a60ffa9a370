"""A game's identity in the archive.

The ``"id"`` key of the record's ``game`` header line when present (the companion writes a
uuid4 hex string into every new record), else the sha256 of its canonical event lines. The
canonical form of a line is its JSON with sorted keys and no spaces, so that the same game
written with other spacing or key order is the same game. The digest of the canonical lines
also tells an identical copy (a duplicate) from a corrected one (same id, other events).

(Whether an event is the same event with more known, cards recorded face down now named, is
the game's to say: :meth:`companion.club.parts.ClubPart.fills_in`.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

__all__ = ["canonical", "digest", "digest_lines", "game_id"]


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
