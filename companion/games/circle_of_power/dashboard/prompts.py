"""What the table does to give the companion its next move, in the words of how it gives it:
typed at the keyboard (:data:`KEYBOARD`), tapped on the NFC readers of the tap protocol
(:data:`TAPS`, docs/tracker.md), laid under the camera (:data:`CAMERA`), or nothing at all for
a table the dashboard only watches (:data:`WATCHED`: a demo, a replay). The table screen
works out which from its move source (:func:`table_kind`); the Action panel's prompts end with
these words."""

from __future__ import annotations

from typing import Any

__all__ = ["CAMERA", "KEYBOARD", "PLAYED", "PLAY_NEXT", "SET_UP", "TAPS", "TURNED_UP", "WATCHED", "table_kind"]

KEYBOARD = "keyboard"
TAPS = "taps"
CAMERA = "camera"
WATCHED = "watched"

PLAY_NEXT = {
    KEYBOARD: " Type it: 7h, 10♥.",
    TAPS: " Tap it on the play reader as it is played (C8).",
    CAMERA: " Lay it face up in front of their city (C8).",
    WATCHED: "",
}
"""After ``Next: bob plays a card.``"""

PLAYED = {KEYBOARD: " and type it", TAPS: " and tap it on the play reader", CAMERA: " and lay it in front of its city", WATCHED: ""}
"""After ``Next: @1 is a dummy: turn the top card of its pile over``."""

TURNED_UP = {KEYBOARD: " and type it", TAPS: " and tap it on the city reader", CAMERA: "", WATCHED: ""}
"""After ``Next: turn up the top card of the city deck``."""

SET_UP = {
    KEYBOARD: " (F5)",
    TAPS: ": tap the bottom joker, then each city from the dealer's left, on the city reader (C6)",
    CAMERA: ": the bottom joker face up on the city deck, each city in its seat, then the city deck on the joker (C6)",
    WATCHED: "",
}
"""After ``Next: season 2 is set up``."""


def table_kind(source: Any, *, editable: bool) -> str:
    """How the table of ``source`` (the dashboard's move source) gives its moves: taps when the
    tracker follows NFC readers of the tap protocol (a camera as well or not), the camera when
    it follows a camera alone, the keyboard when the table types them, else watched."""
    from companion.dashboard.tracker_source import TrackerSource
    from companion.games.circle_of_power.tracking.reasoner import READER_ZONES

    if isinstance(source, TrackerSource):
        roles = set(source.tracker.config.readers.values())
        return TAPS if roles & set(READER_ZONES) else CAMERA
    return KEYBOARD if editable else WATCHED
