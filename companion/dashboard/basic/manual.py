"""Manual play with the basic kit: a move typed in the game's own words (as the kit reads
them), in the words the game describes it with, or by its number on the table panel; the
table's own moves made by the companion where the kit says how."""

from __future__ import annotations

from typing import Any

from companion.contract import Move
from companion.dashboard.basic.hooks import KitHooks
from companion.dashboard.basic.words import waiting_words
from companion.dashboard.kit import Ask, Command, EntryError, Step, Submit, Tell


__all__ = ["BasicManual", "COMMANDS"]

COMMANDS: dict[str, Command] = {name: Command(name) for name in ("undo", "redo", "next", "help", "hint", "quit")}


class BasicManual:
    """Manual play of the kit's game at one table."""

    def __init__(self, kit: KitHooks, **options: Any) -> None:
        self.kit = kit
        self.options = options

    @property
    def status(self) -> str:
        return "manual play"

    def parse(self, text: str, state: Any, *, correcting: bool, teaching: bool) -> Step | Command:
        """A command, a listed move's number, the kit's own reading of the text, or a move
        whose description matches the text."""
        words = " ".join(text.split())
        low = words.lower()
        if low in COMMANDS:
            return COMMANDS[low]
        listed = self.kit.listed_moves(state)
        if low.isdigit():
            number = int(low)
            if not 1 <= number <= len(listed):
                raise EntryError(f"type a number from 1 to {len(listed)}" if listed else "no move is listed now")
            return Submit(listed[number - 1])
        move = self.kit.parse_move(words, state)
        if move is not None:
            return Submit(move)
        game = self.kit.game
        for move in state.legal_moves:
            if game.describe(move).lower() == low:
                return Submit(move)
        raise EntryError(f"no move reads so now; {waiting_words(game, state)}: {self.kit.entry_syntax}")

    def next_step(self, state: Any, *, asked: bool) -> Step | None:
        """The table's move when the kit makes it by itself; asked, what the table waits for."""
        if not state.deciding and not state.is_game_over():
            move = self.kit.table_move(state)
            if move is not None:
                return Submit(move)
        if not asked:
            return None
        return Tell(f"Waiting for the table: {waiting_words(self.kit.game, state)}", "warning", 4)

    def correction(self, before: Any, move: Move) -> Ask | Tell | None:
        """Every event is corrected by typing it again."""
        return None
