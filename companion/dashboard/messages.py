"""Messages of the dashboard, app-wide.

Move sources (the demo table, a record being replayed, manual entry, later the sensor
tracker) post :class:`MoveProposed` and friends to the app; the app checks each move against
the rules, applies it, records it, and hands the game state down to the widgets.
"""

from __future__ import annotations

from textual.message import Message

from companion.engine.game import GameSetup, GameState
from companion.engine.moves import Move

__all__ = ["CorrectEvent", "EntrySubmitted", "GameChanged", "GameReset", "MoveProposed", "SourceFinished", "SourceNote"]


class MoveProposed(Message):
    """A source reports a move. ``attempt`` marks a move the source knows may break a rule
    (a player's slip seen by the sensors, a demo of what the companion flags): it is checked
    and flagged, never applied if illegal."""

    def __init__(self, move: Move, source: str, *, attempt: bool = False, quiet: bool = False) -> None:
        super().__init__()
        self.move = move
        self.source = source
        self.attempt = attempt
        self.quiet = quiet
        """Fast-forwarding: no settlement screen for the rounds it ends."""


class GameReset(Message):
    """A source starts a (new) game: an empty game with ``setup``, or a given state."""

    def __init__(self, setup: GameSetup, source: str, game: GameState | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.source = source
        self.game = game


class SourceNote(Message):
    """Something a source wants the table to read in the event log."""

    def __init__(self, text: str, source: str, *, severity: str = "information") -> None:
        super().__init__()
        self.text = text
        self.source = source
        self.severity = severity


class SourceFinished(Message):
    """The source has nothing more to give (the game is over, the record ends)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source


class GameChanged(Message):
    """The game state changed (a move applied, undone or the game reset)."""


class EntrySubmitted(Message):
    """The manual entry bar submitted a line of text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text




class CorrectEvent(Message):
    """The user asked to correct the event at ``index`` of the move stack."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
