"""Goofspiel's rules (G1-G6), pure: its cards, its moves and the state of a game.

- **G1** Each player holds five bid cards of their own, valued 1 to 5; the prize deck holds
  five prize cards, valued 1 to 5, shuffled face down.
- **G2** A round: the top prize card is turned face up (the table's move).
- **G3** Then every player bids one card of their hand face down, all at once: nobody sees
  another's bid before the reveal, and no order among the bids counts.
- **G4** When everyone has bid, all bids are revealed; each revealed card is the one bid.
- **G5** The highest bid wins the prize's value in points; when two or more share the highest
  bid nobody wins it. Bids are spent.
- **G6** After five rounds the highest score wins; equal highest scores are a draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.contract import UNSEEN, IllegalMoveError, InvalidMoveError, OneOfAKind, Unseen

if TYPE_CHECKING:
    from goofspiel import Goofspiel

ROUNDS = 5


class Card(OneOfAKind):
    """A bid card (``B1``-``B5``, one set per player) or a prize card (``P1``-``P5``)."""

    __slots__ = ("id", "index", "value", "kind")
    _by_id: dict[str, Card] = {}

    def __init__(self, kind: str, value: int, index: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "id", f"{kind[0].upper()}{value}")
        object.__setattr__(self, "index", index)
        Card._by_id[self.id] = self

    game = "goofspiel"

    @classmethod
    def from_id(cls, card_id: str) -> Card:
        return cls._by_id[card_id.strip().upper()]

    @property
    def short(self) -> str:
        return self.id

    @property
    def label(self) -> str:
        return self.id

    @property
    def long_label(self) -> str:
        return f"{self.id} {self.title}"

    @property
    def title(self) -> str:
        return f"{self.kind} {self.value}"


BIDS = tuple(Card("bid", v, v - 1) for v in range(1, 6))
PRIZES = tuple(Card("prize", v, 4 + v) for v in range(1, 6))


@dataclass(frozen=True, slots=True)
class Turn:
    """G2: a prize card turned face up."""

    card: Card
    player = None


@dataclass(frozen=True, slots=True)
class Bid:
    """G3: ``player`` bids ``card`` face down (:data:`UNSEEN` when the companion did not see it)."""

    player: str
    card: Card | Unseen = UNSEEN


@dataclass(frozen=True, slots=True)
class Reveal:
    """G4: every player's bid, face up."""

    cards: tuple[tuple[str, Card], ...]
    player = None


Move = Turn | Bid | Reveal


@dataclass(frozen=True, slots=True)
class Setup:
    game: Goofspiel
    players: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4 or len(set(self.players)) != len(self.players):
            raise IllegalMoveError("G1", f"two to four different players, not {', '.join(self.players) or 'none'}")


@dataclass(frozen=True, slots=True)
class Effects:
    player: str | None
    result: RoundResult | None = None


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int
    prize: Card
    bids: tuple[tuple[str, Card], ...]
    winner: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What ``player`` may know: their hand and bid, every card face up, who has bid."""

    player: str
    hand: tuple[Card, ...]
    bid: Card | Unseen | None
    prizes: tuple[Card, ...]
    results: tuple[RoundResult, ...]
    waiting: tuple[str, ...]
    hands_left: tuple[tuple[str, int], ...]


class GoofState:
    """A game of Goofspiel in progress."""

    def __init__(self, setup: Setup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self.move_stack: list[Move] = []
        self._keep = keep_history
        self.hands: dict[str, tuple[Card, ...]] = {p: BIDS for p in setup.players}
        self.bids: dict[str, Card | Unseen] = {}
        self.prize: Card | None = None
        self.results: tuple[RoundResult, ...] = ()
        self._undo: list[tuple[Any, ...]] = []

    @property
    def game(self) -> Goofspiel:
        return self.setup.game

    # -- turns

    @property
    def deciding(self) -> tuple[str, ...]:
        if self.prize is None or self.is_game_over():
            return ()
        return tuple(p for p in self.players if p not in self.bids)

    @property
    def simultaneous(self) -> bool:
        return True

    @property
    def to_move(self) -> str | None:
        return None

    def player_of(self, move: Move) -> str | None:
        return move.player if type(move) is Bid else None

    @property
    def legal_moves(self) -> list[Move]:
        return [m for p in self.deciding for m in self.moves_of(p)]

    def moves_of(self, player: str) -> list[Move]:
        if player not in self.deciding:
            return []
        return [Bid(player, c) for c in self.hands[player]]

    def decision(self, move: Move) -> Any:
        return move

    # -- rules

    def check(self, move: Move) -> None:
        if type(move) is Turn:
            if self.is_game_over():
                raise IllegalMoveError("G6", "the game is over")
            if self.prize is not None:
                raise IllegalMoveError("G2", f"{self.prize.id} is the prize of this round already")
            if move.card.kind != "prize" or move.card in {r.prize for r in self.results}:
                raise IllegalMoveError("G2", f"{move.card.id} is no prize card left in the prize deck")
        elif type(move) is Bid:
            if move.player not in self.players:
                raise InvalidMoveError(f"{move.player!r} does not play")
            if self.prize is None:
                raise IllegalMoveError("G3", f"{move.player} bids before the prize is turned")
            if move.player in self.bids:
                raise IllegalMoveError("G3", f"{move.player} has bid this round already")
            if type(move.card) is Card and move.card not in self.hands[move.player]:
                raise IllegalMoveError("G1", f"{move.player} has no {move.card.id} left")
        elif type(move) is Reveal:
            if self.prize is None or self.deciding:
                raise IllegalMoveError("G4", f"the bids are revealed once everyone has bid; {', '.join(self.deciding) or 'no prize'} first")
            shown = dict(move.cards)
            if sorted(shown) != sorted(self.players):
                raise InvalidMoveError("a reveal names every player's bid")
            for p, card in shown.items():
                bid = self.bids[p]
                if type(bid) is Card and bid is not card:
                    raise IllegalMoveError("G4", f"{p} revealed {card.id} but bid {bid.id}")
                if card not in self.hands[p]:
                    raise IllegalMoveError("G1", f"{p} has no {card.id} left")
        else:
            raise InvalidMoveError(f"{move!r} is no move of Goofspiel")

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except ValueError:
            return False
        return True

    def push(self, move: Move, *, check: bool = True) -> None:
        if check:
            self.check(move)
        self._undo.append((dict(self.hands), dict(self.bids), self.prize, self.results))
        if self._keep:
            self.move_stack.append(move)
        if type(move) is Turn:
            self.prize = move.card
        elif type(move) is Bid:
            self.bids[move.player] = move.card
        else:
            assert type(move) is Reveal and self.prize is not None
            for p, card in move.cards:
                self.hands[p] = tuple(c for c in self.hands[p] if c is not card)
            top = max(c.value for _, c in move.cards)
            best = [p for p, c in move.cards if c.value == top]
            self.results += (RoundResult(len(self.results) + 1, self.prize, move.cards, best[0] if len(best) == 1 else None),)
            self.prize = None
            self.bids = {}

    def pop(self) -> Move:
        self.hands, self.bids, self.prize, self.results = self._undo.pop()
        return self.move_stack.pop()

    def apply(self, move: Move) -> Effects:
        self.check(move)
        rounds = len(self.results)
        self.push(move, check=False)
        return Effects(self.player_of(move), self.results[-1] if len(self.results) > rounds else None)

    def copy(self, *, keep_history: bool = True) -> GoofState:
        new = GoofState(self.setup, keep_history=keep_history)
        new.hands, new.bids, new.prize, new.results = dict(self.hands), dict(self.bids), self.prize, self.results
        return new

    # -- the end

    def is_game_over(self) -> bool:
        return len(self.results) == ROUNDS

    @property
    def totals(self) -> dict[str, int]:
        points = dict.fromkeys(self.players, 0)
        for r in self.results:
            if r.winner is not None:
                points[r.winner] += r.prize.value
        return points

    def outcome(self) -> Outcome | None:
        if not self.is_game_over():
            return None
        totals = self.totals
        top = max(totals.values())
        best = tuple(p for p in self.players if totals[p] == top)
        return Outcome(best[0] if len(best) == 1 else None, best)

    # -- views

    def view(self, player: str) -> View:
        """G3: another player's bid is never in the view, only that they have bid."""
        return View(
            player,
            self.hands[player],
            self.bids.get(player),
            tuple(r.prize for r in self.results) + ((self.prize,) if self.prize else ()),
            self.results,
            self.deciding,
            tuple((p, len(self.hands[p])) for p in self.players),
        )

    def resample(self, player: str, rng: random.Random) -> GoofState:
        """The other players' bids of this round drawn afresh from their hands."""
        world = self.copy(keep_history=False)
        for p, bid in self.bids.items():
            if p != player:
                world.bids[p] = rng.choice(self.hands[p])
        return world

    def unplayed_prizes(self) -> list[Card]:
        used = {r.prize for r in self.results} | ({self.prize} if self.prize else set())
        return [c for c in PRIZES if c not in used]

def reveal_of(state: GoofState, cards: Mapping[str, Card]) -> Reveal:
    return Reveal(tuple((p, cards[p]) for p in state.players))
