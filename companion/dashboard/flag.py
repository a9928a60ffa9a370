"""A move the table tried that may not be made, or an entry not understood, as the play panel
shows it (:class:`Flag`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Flag"]


@dataclass(frozen=True, slots=True)
class Flag:
    """A move the table tried that may not be made (or an entry not understood): shown in the
    play panel until the next move, and worded for the table."""

    player: str | None
    """Who tried it, when known."""
    text: str
    rule: str | None
    """The ruling it breaks (``"R17"``), ``None`` when it breaks none (a typing slip)."""
