"""Ruse and Bruise's dashboard kit: the table panel's words, the keeper's entry words, the
moves the companion makes for the table, and the event log's words (face-down cards unnamed)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.contract import UNSEEN, Option
from companion.dashboard.basic import BasicKit
from companion.dashboard.kit import EntryError
from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.dashboard.demo import RabDemo
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Pass, Place, Reveal, Round, Swap, TurnOver
from companion.games.ruse_and_bruise.progress import progress

if TYPE_CHECKING:
    from companion.dashboard.widgets.event_log import LogEntry
    from companion.games.ruse_and_bruise import RuseAndBruise
    from companion.games.ruse_and_bruise.dashboard.screens import RabSettlement, RabTable
    from companion.session import Applied

__all__ = ["RabKit", "ENTRY_SYNTAX", "column_line", "teaching_lines"]

ENTRY_SYNTAX = (
    "round GOAL GOAL ... (the goal cards turned over, column 1 first); "
    "ann 2 (ann places a card face down in column 2), ann 2 KING (the card seen); ann pass; "
    "turn KING (the card turned over); "
    "cloak KING, cloak (a card unseen) or cloak none; traitor 3 or traitor keep; "
    "reveal KING,QUEEN - WIZ (each column's face-down cards, top down; - for none)"
)


def column_line(state: RabState, number: int) -> str:
    """Column ``number`` in one line: its goal card and value, its count (n of m), closed by a
    Storm, and its cards from the goal card down, a face-down card as its owner's back."""
    col = state.column(number)
    goal = f"{col.goal.id} ({col.goal.value})" if col.goal is not None else "-"
    done = ", closed by a Storm" if col.closed else ", complete" if col.holds >= col.needs and col.needs else ""
    cards = []
    for owner, card, up in col.cards:
        if up and card is not None:
            cards.append(f"{card.id} {owner}")
        else:
            cards.append(f"[{state.setup.colours[state.players.index(owner)]}] {owner}")
    return f"{number} {goal} {col.holds}/{col.needs}{done}: {' · '.join(cards) or 'empty'}"


def teaching_lines(state: RabState) -> dict[int, str]:
    """Teaching mode's line under each column (by number), from what the whole table sees
    (never a hand: the screen is shared, B8): the sums on the cards face up, reckoned as the
    distribution would (B18-B26), who leads there on them, and the cards still face down."""
    values = state.values
    if values is None:
        return {}
    from companion.games.ruse_and_bruise.coach.reckon import reckon

    lines = {}
    for col in state.columns:
        if col.goal is None:
            continue
        up = [(owner, card) for owner, card, shown in col.cards if shown and card is not None]
        down = len(col.cards) - len(up)
        sums = reckon(col.goal, up, values).sums if up else {}
        if sums:
            best = max(sums.values())
            leaders = [p for p, v in sums.items() if v == best]
            lead = f"{leaders[0]} leads" if len(leaders) == 1 else "a tie, B26"
            text = f"face up: {' · '.join(f'{p} {v:g}' for p, v in sorted(sums.items(), key=lambda x: -x[1]))} ({lead})"
        else:
            text = "nothing face up"
        lines[col.number] = f"  {text}" + (f"; {down} down" if down else "")
    return lines


class RabKit(BasicKit):
    """Ruse and Bruise's dashboard kit (the module's words say what it shows)."""

    period = "round"
    entry_syntax = ENTRY_SYNTAX
    legend = (
        ("[blue] ann", "a card face down, its back in its owner's colour"),
        ("KING ann", "a card face up, by name"),
        ("2/3", "the cards a column holds, of those its goal card asks for (B16)"),
    )

    table_options: tuple[Option, ...] = ()
    manual_options: tuple[Option, ...] = ()
    def __init__(self, game: RuseAndBruise) -> None:
        super().__init__(game)
        self.demo = RabDemo(self)

    @property
    def key_words(self) -> dict[str, tuple[str, str]]:
        return {
            **super().key_words,
            "hint": (
                "Hint",
                "The coach's hint for the player to move: which card where, when the companion knows their hand (the "
                "demo); a Traitor's exchange (B15) at any table",
            ),
            "toggle_teaching": (
                "Teaching",
                "Teaching mode: each column's sums on the cards face up and who leads there (B26), never a hand (B8)",
            ),
        }

    def listed_moves(self, state: Any) -> list[Move]:
        """Nothing is numbered: a listing would show the hand of the player to move."""
        return []

    def table_lines(self, state: Any, *, teaching: bool = False) -> list[str]:
        """What the table waits for, each column, each player's counts; in teaching mode a
        line under each column (:func:`teaching_lines`)."""
        assert isinstance(state, RabState)
        said = progress(state)
        lines = [f"{said.period}: {said.what}" if state.round_number else said.what]
        taught = teaching_lines(state) if teaching else {}
        for col in state.columns:
            if col.goal is not None:
                lines.append(column_line(state, col.number))
                if col.number in taught:
                    lines.append(taught[col.number])
        for p, colour in zip(state.players, state.setup.colours):
            lines.append(f"{p} [{colour}]: hand {state.hand_size(p)} · stack {state.stack_size(p)} · discards {state.discard_size(p)}")
        return lines

    def parse_move(self, text: str, state: Any) -> Move | None:
        assert isinstance(state, RabState)
        words = text.split()
        if not words:
            return None
        low = [w.lower() for w in words]
        try:
            return self._parse(words, low, state)
        except (KeyError, ValueError) as exc:  # a card or goal card unknown, a column not a number
            raise EntryError(str(exc.args[-1] if isinstance(exc, KeyError) else exc)) from None

    def _parse(self, words: list[str], low: list[str], state: RabState) -> Move | None:
        head = low[0]
        if head == "round":
            goals = [Goal.from_id(w) for w in low[1:]]
            # Each short hand is filled from its own stack, unseen (B9).
            drew: dict[str, list[Influence | str | None]] = {}
            for p in state.players:
                short = min(3 - state.hand_size(p), state.stack_size(p) + state.discard_size(p))
                if short > 0 and state.round_number > 0:
                    drew[p] = [None] * short
            return Round.make(goals, drew)
        if head in state.players:
            if len(low) == 2 and low[1] == "pass":
                return Pass(head)
            if len(low) in (2, 3) and low[1].isdigit():
                card: Any = Influence.from_id(words[2].upper()) if len(low) == 3 else UNSEEN
                return Place(head, int(low[1]), card, None)
            raise EntryError(f"'{' '.join(words)}': type {head} N (a card face down in column N), {head} N CARD, or {head} pass")
        if head == "turn" and len(low) == 2:
            at = state.waiting.column
            if at is None:
                raise EntryError("no card is to be turned over now")
            return TurnOver(at, Influence.from_id(words[1].upper()))
        if head == "cloak":
            who = state.to_move
            if who is None or state.waiting.what != "cloak":
                raise EntryError("no Invisibility Cloak waits now (B14)")
            if len(low) == 2 and low[1] == "none":
                return Cloak(who, False)
            card = Influence.from_id(words[1].upper()) if len(low) == 2 else UNSEEN
            return Cloak(who, True, card, None)
        if head == "traitor" and len(low) == 2:
            who = state.to_move
            if who is None or state.waiting.what != "traitor":
                raise EntryError("no Traitor waits now (B15)")
            return Swap(who, None if low[1] == "keep" else int(low[1]))
        if head == "reveal":
            columns = [[Influence.from_id(c.upper()) for c in w.split(",") if c] if w != "-" else [] for w in words[1:]]
            return Reveal.make(columns)
        return None

    def table_move(self, state: Any) -> Move | None:
        """What the rules decide alone: a card turned over that the record names, an
        Explorer's move, the Assassin's victim (discarded unturned), a Storm, the distribution
        (B10-B13, B18-B26)."""
        assert isinstance(state, RabState)
        if state.phase in (Phase.ROUND, Phase.REVEAL, Phase.OVER) or state.to_move is not None:
            return None
        moves = list(state.generate_legal_moves())
        return moves[0] if len(moves) == 1 else None

    def log_lines(self, state: Any, applied: Applied) -> list[LogEntry]:
        """The event log, which the whole table reads: a card placed face down and the cards
        drawn are told without their names (B8, B9, B14)."""
        move = applied.move
        if type(move) is Place:
            applied = replace(applied, move=Place(move.player, move.column, UNSEEN, None))
        elif type(move) is Cloak and move.placed:
            applied = replace(applied, move=Cloak(move.player, True, UNSEEN, None))
        elif type(move) is Round and move.drew:
            applied = replace(applied, move=Round(move.goals, tuple((p, tuple(UNSEEN for _ in cards)) for p, cards in move.drew)))
        return super().log_lines(state, applied)

    def table_screen(self, *, editable: bool) -> RabTable:
        from companion.games.ruse_and_bruise.dashboard.screens import RabTable

        return RabTable(editable=editable)

    def settlement_screen(self) -> RabSettlement:
        from companion.games.ruse_and_bruise.dashboard.screens import RabSettlement

        return RabSettlement()
