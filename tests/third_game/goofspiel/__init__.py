"""Goofspiel, a tiny game where everyone bids at once: a plug-in of the companion packaged
apart, registered under the entry-point group ``companion.games`` (its ``pyproject.toml``).

It brings its rules (:mod:`goofspiel.rules`, G1-G6), its record (:mod:`goofspiel.record`), its
cards and the parts it wants from the hosts, built on their basic parts."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from companion.contract import CardForm, Game, UnknownCardError
from goofspiel.record import GoofspielRecord
from goofspiel.rules import BIDS, PRIZES, Bid, Card, Effects, GoofState, Move, Reveal, RoundResult, Setup, Turn


class GoofspielCards:
    """The five bid cards each player owns and the five prize cards."""

    game = "goofspiel"
    forms = (CardForm("kind and value", "B3, P5", "B a bid card, P a prize card"),)
    nfc_record_type = "urn:nfc:ext:goofspiel.example:card"
    @property
    def markers(self) -> Any:
        from goofspiel.table import TABLE

        return TABLE.seals

    def __iter__(self) -> Iterator[Card]:
        return iter(BIDS + PRIZES)

    def from_id(self, card_id: str) -> Card:
        try:
            return Card.from_id(card_id)
        except KeyError:
            raise UnknownCardError(card_id, f"{card_id!r} is no card of Goofspiel (B1-B5, P1-P5)") from None

    def parse(self, text: str) -> Card:
        return self.from_id(text)

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        parts = text.split(",") if isinstance(text, str) else text
        return tuple(self.parse(p) for p in parts if p.strip())

    def sticker_label(self, card: Card) -> str:
        return card.id

    def sticker_name(self, card: Card) -> str:
        return card.title

    def nfc_text(self, card: Card, owner: str) -> str:
        return f"{card.id} {owner}"


class Goofspiel(Game[GoofState, Move]):
    name = "goofspiel"
    title = "Goofspiel"
    rulings = "G1-G6"
    min_players = 2
    max_players = 4
    rules_modules = ("goofspiel.rules",)
    options = ()

    def __init__(self) -> None:
        self._cards = GoofspielCards()
        self._codec = GoofspielRecord(self)

    @property
    def cards(self) -> GoofspielCards:
        return self._cards

    @property
    def codec(self) -> GoofspielRecord:
        return self._codec

    @property
    def table(self) -> Any:
        from goofspiel.table import TABLE

        return TABLE

    def make_setup(self, players: Sequence[str], **options: Any) -> Setup:
        if options:
            raise ValueError(f"Goofspiel has no options, not {', '.join(options)}")
        return Setup(self, tuple(players))

    def new_state(self, setup: Setup, *, keep_history: bool = True) -> GoofState:
        return GoofState(setup, keep_history=keep_history)

    def chance_move(self, state: GoofState, rng: random.Random) -> Move:
        """G2: the next prize at random; G4: the reveal of the bids (an unseen bid drawn from
        its player's hand)."""
        if state.prize is None:
            return Turn(rng.choice(state.unplayed_prizes()))
        return Reveal(tuple((p, b if type(b) is Card else rng.choice(state.hands[p])) for p, b in ((p, state.bids[p]) for p in state.players)))

    def summary(self, state: GoofState) -> dict[str, Any]:
        outcome = state.outcome()
        return {
            "game": self.name,
            "rounds": [{"prize": r.prize.id, "bids": {p: c.id for p, c in r.bids}, "winner": r.winner} for r in state.results],
            "totals": state.totals,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
        }

    def score_lines(self, state: GoofState) -> list[str]:
        lines = [f"Round {r.number}: {r.prize.id} to {r.winner or 'nobody (a tie, G5)'}" for r in state.results]
        lines.append("Totals: " + ", ".join(f"{p} {t}" for p, t in state.totals.items()))
        outcome = state.outcome()
        if outcome is None:
            lines.append(f"Not finished: round {len(state.results) + 1}")
        else:
            lines.append(f"Result: {outcome.winner or 'a draw between ' + ', '.join(outcome.winners)} (G6)")
        return lines

    def describe(self, move: Move) -> str:
        if type(move) is Turn:
            return f"{move.card.id} is turned up"
        if type(move) is Bid:
            return f"{move.player} bids" + (f" {move.card.id}" if type(move.card) is Card else "")
        return "the bids are revealed: " + ", ".join(f"{p} {c.id}" for p, c in move.cards)

    def narrate(self, state: GoofState, move: Move, effects: Effects) -> str:
        if type(move) is Bid:
            return f"{move.player} has bid (face down, G3)"
        if effects.result is not None:
            r = effects.result
            return f"{self.describe(move)}; {r.prize.id} to {r.winner or 'nobody: the highest bids tie (G5)'}"
        return self.describe(move)

    def period_json(self, state: GoofState, result: RoundResult) -> dict[str, Any]:
        return {"kind": "round", "round": result.number, "winner": result.winner, "totals": state.totals}

    def dashboard(self) -> Any:
        from goofspiel.parts import GoofKit

        return GoofKit(self)

    def club(self) -> Any:
        from goofspiel.parts import GoofClub

        return GoofClub(self)

    def __repr__(self) -> str:
        return "<Game goofspiel>"


GAME = Goofspiel()
