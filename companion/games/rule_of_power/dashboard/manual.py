"""Rule of Power kept by hand at the dashboard: what a typed entry means, what the table does
next (a new round, the next deal: typed in the deal dialog, or shuffled and dealt by the
companion), and how a recorded event is corrected (a deal in the deal dialog; a round's start
only by undoing back to it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dashboard.kit import Ask, Command, Step, Submit, Tell
from companion.games.rule_of_power.dashboard.entry import EntryChoice, EntryCommand, parse_entry
from companion.games.rule_of_power.dashboard.screens.deal import DealScreen
from companion.games.rule_of_power.dashboard.screens.pick import PickScreen
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Deal, Move, NewRound, Play
from companion.games.rule_of_power.simulation.dealer import TableDealer

__all__ = ["RuleOfPowerManual"]

class RuleOfPowerManual:
    """Manual play of Rule of Power at one table. ``companion_deals``: the companion shuffles
    and deals (with ``seed``); ``fate_sets``: each player's seven Fate cards (R18), else those
    of the table's ``facts``; ``first_dealer``: the first round's dealer (default: the last
    player, R15)."""

    def __init__(
        self,
        *,
        seed: int | None = None,
        companion_deals: bool = False,
        fate_sets: Mapping[str, list[Card]] | None = None,
        first_dealer: str | None = None,
        facts: Mapping[str, Any] | None = None,
    ) -> None:
        self.companion_deals = companion_deals
        self.fate_sets = dict(fate_sets or {p: list(c) for p, c in (facts or {}).get("fate_decks", {}).items()})
        self.first_dealer = first_dealer
        self.dealer = TableDealer(seed)

    @property
    def status(self) -> str:
        return "manual play" + (", the companion deals" if self.companion_deals else "")

    def parse(self, text: str, state: GameState, *, correcting: bool, teaching: bool) -> Step | Command:
        """A card played (the capture asked when it has several, R4), a Fate card with its
        details, a draw, a pass, or a command (:mod:`..entry`)."""
        entry = parse_entry(text, state)
        if isinstance(entry, EntryCommand):
            return Command(entry.name)
        if isinstance(entry, EntryChoice):
            return Ask(PickScreen(state, entry.moves, teaching=teaching))
        move = entry.move
        if isinstance(move, Play) and move.drawn is not None and self.companion_deals and state.deck_count and not correcting:
            # The companion holds the deck: the card drawn (R25) is its top card.
            move = move._replace(drawn=self.dealer.top(state))
        return Submit(move)

    def next_step(self, state: GameState, *, asked: bool) -> Step | None:
        """A new round (R15, R18), the next deal (the companion's, or the deal dialog), or, when
        asked while a player is to move or the game is over, why not."""
        if not asked and not (state.phase is Phase.DEAL or (state.phase is Phase.ROUND and state.round_number == 0)):
            return None  # only the deal is due at once (every hand played out), or the first round
        if state.phase is Phase.ROUND:
            return Submit(self.next_round(state))
        if state.phase is Phase.DEAL:
            return Submit(self.dealer.deal(state)) if self.companion_deals else Ask(DealScreen(state, self.dealer))
        if state.phase is Phase.OVER:
            return Tell("The game is over (R14)")
        return Tell(f"{state.turn} is to move: the deal comes when every hand is played out (R17)", "warning", 4)

    def correction(self, before: GameState, move: Move) -> Ask | Tell | None:
        """A deal is typed again in the deal dialog; a round's start is undone, not replaced."""
        if isinstance(move, NewRound):
            return Tell("A round's start cannot be replaced: undo back to it instead (Ctrl+Z)", "warning", 4)
        if isinstance(move, Deal):
            return Ask(DealScreen(before, self.dealer))
        return None

    def next_round(self, game: GameState) -> NewRound:
        """The next round's NewRound: the dealer by R15, each player's Fate deck (R18)."""
        players = game.players
        if game.round_number == 0:
            dealer = self.first_dealer or players[-1]
        else:
            dealer = players[(players.index(game.dealer or players[0]) + 1) % len(players)]
        if self.companion_deals:
            return self.dealer.new_round(game, dealer, self.fate_sets)
        decks = {p: list(self.fate_sets[p]) for p in players if self.fate_sets.get(p)}
        return NewRound.make(dealer, decks, fate_order_known=False)
