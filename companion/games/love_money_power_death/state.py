"""The state of a game of Love, Money, Power, Death (L1-L14): the noble pile, the players'
piles, hands and commitments, the round's noble, the courts and the discarded nobles.

Like a chess board, an :class:`LmpdState` takes moves with :meth:`LmpdState.push` (checked
against every ruling; an illegal move raises :class:`~companion.contract.errors.IllegalMoveError`
naming it, and leaves the state as it was) and takes them back with :meth:`LmpdState.pop`,
restoring it exactly.

Every player commits at once (L6): while they commit, :attr:`~LmpdState.deciding` lists those
who have not, :attr:`~LmpdState.simultaneous` is true, and no view shows another player's
commitment before the reveal. The table's moves (the deal, the noble turned, the reveal, the
draw) are decided by nobody.

The state follows a game it cannot fully see (L14): piles, hands, the noble pile and the cards
set aside may be unseen, a commitment or a draw unseen. It checks all that what was seen
allows: a card comes out once; a card known to be in one player's pile or hand, or set aside,
is neither played nor drawn by another; a known pile is drawn from the top; nothing is drawn
from an empty pile; and the rest when the cards are revealed.

>>> from companion.games.love_money_power_death.moves import Commit, Deal, Draw, Reveal, TurnUp
>>> from companion.games.love_money_power_death.setup import LmpdSetup
>>> game = LmpdState(LmpdSetup.make(["ann", "bob"], nobles=["N3P", "N2L"]))
>>> game.push(Deal.make(order=None, hands={"ann": ["4Mb", "A3", "1Da"]}))
>>> game.deciding, game.simultaneous
(('ann', 'bob'), True)
>>> game.push(Commit.of("bob"))
>>> game.push(Commit.of("ann", "4Mb"))
>>> game.push(TurnUp.of("N3P"))
>>> game.push(Reveal.of(game.players, {"ann": "4Mb", "bob": "A2"}))
>>> game.last_round.winner, game.last_round.reason
('bob', 'bob revealed the only agent (A2) (L9)')
>>> game.push(Draw.of(game.players, {"ann": "N2L"}))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: L6: ann drew N2L: nobles are never in a hand
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NoReturn, cast

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.love_money_power_death.cards import DEALT_MASK, Card, cards_of_mask
from companion.games.love_money_power_death.effects import Effects
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move, Reveal, Seen, TurnUp
from companion.games.love_money_power_death.scoring import Outcome, RoundResult, decide_game
from companion.games.love_money_power_death.setup import LmpdSetup

if TYPE_CHECKING:
    from companion.games.love_money_power_death import LoveMoneyPowerDeath
    from companion.games.love_money_power_death.view import LmpdView

__all__ = ["LmpdState", "Phase", "LegalMoves", "ordinal"]


class Phase(enum.Enum):
    """What the game waits for next."""

    DEAL = "deal"
    """The deal (:class:`Deal`, L5), by the table."""
    COMMIT = "commit"
    """The players commit a card each, all at once (:class:`Commit`, L6)."""
    NOBLE = "noble"
    """Everyone has committed: the top noble is turned (:class:`TurnUp`, L7), by the table."""
    REVEAL = "reveal"
    """The committed cards are revealed (:class:`Reveal`, L7), by the table."""
    DRAW = "draw"
    """Every player draws a card (:class:`Draw`, L11), by the table."""
    OVER = "over"
    """The last noble's round is decided (L12)."""


_DEAL = Phase.DEAL
_COMMIT = Phase.COMMIT
_NOBLE = Phase.NOBLE
_REVEAL = Phase.REVEAL
_DRAW = Phase.DRAW
_OVER = Phase.OVER

Hands = tuple[tuple[Card, ...], ...]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    k = hand.index(card)
    return hand[:k] + hand[k + 1 :]


def _ids(cards: tuple[Card, ...]) -> str:
    return ", ".join(c.id for c in sorted(cards)) or "no card seen"


class LmpdState:
    """A game of Love, Money, Power, Death in progress (the contract's
    :class:`~companion.contract.State`).

    Read it through its properties (``phase``, ``round_number``, ``noble``,
    ``noble_pile_count``, ``nobles_left``, ``hand(p)``, ``hand_size(p)``, ``pile_sizes``,
    ``committed``, ``commit_of(p)``, ``courts``, ``discarded``, ``rounds``, ``last_round``,
    ``totals``, ``outcome()``) and change it with :meth:`push` and :meth:`pop`.
    ``keep_history=False`` drops the undo stack for fast one-way replays.
    """

    def __init__(self, setup: LmpdSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = setup.players
        self._n = len(setup.players)
        self._seat: dict[str, int] = {p: i for i, p in enumerate(setup.players)}
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[tuple[Any, ...]] = []
        n = self._n
        self._phase = _DEAL
        self._nobles: tuple[Seen, ...] = ()
        """The noble pile, top first, as the companion knows it."""
        self._piles: tuple[tuple[Seen, ...], ...] = ((),) * n
        """Each player's pile, top first, as the companion knows it."""
        self._hands: Hands = ((),) * n
        """The cards the companion saw in each hand (a committed card stays until the reveal)."""
        self._hidden: tuple[int, ...] = (0,) * n
        """The cards of each hand the companion did not see."""
        self._commits: tuple[Seen | None, ...] = (None,) * n
        self._waiting = n
        self._aside: tuple[Seen, ...] = ()
        self._noble: Card | None = None
        self._known = 0
        """Every card whose place the companion knows (a card set of ``bit`` values)."""
        self._out = 0
        """The revealed cards, out of play (L10)."""
        self._turned = 0
        """The nobles turned up so far."""
        self._courts: Hands = ((),) * n
        self._discarded: tuple[Card, ...] = ()
        self._results: tuple[RoundResult, ...] = ()

    # ------------------------------------------------------------------ the contract's facts

    @property
    def game(self) -> LoveMoneyPowerDeath:
        """Love, Money, Power, Death, the game this is a state of."""
        return self.setup.game

    @property
    def deciding(self) -> tuple[str, ...]:
        """While the players commit (L6), every player who has not committed yet, in seating
        order; nobody otherwise (the table acts, or the game is over)."""
        if self._phase is not _COMMIT:
            return ()
        return tuple(p for p, c in zip(self.players, self._commits) if c is None)

    @property
    def simultaneous(self) -> bool:
        """Always true: the only decision of the game, the commit, is made by every player at
        once, face down (L6)."""
        return True

    @property
    def to_move(self) -> None:
        """Nobody decides alone: read :attr:`deciding`."""
        return None

    def player_of(self, move: Move) -> str | None:
        """The committing player of a :class:`Commit`; ``None`` for the table's moves."""
        return move.player

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, a lazy view (python-chess style): every commit of every player
        deciding; the nobles that may be turned; the reveal when the companion knows every
        committed card; the draw, each card as far as the companion knows it. The deal has too
        many outcomes to list."""
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        phase = self._phase
        if phase is _COMMIT:
            for player in self.deciding:
                yield from self.moves_of(player)
        elif phase is _NOBLE:
            for card in self.turn_candidates():
                yield TurnUp(card)
        elif phase is _REVEAL:
            if all(type(c) is Card for c in self._commits):
                yield Reveal(tuple(zip(self.players, cast("tuple[Card, ...]", self._commits))))
        elif phase is _DRAW:
            # The one draw there is: each top card as far as the companion knows it.
            yield Draw(tuple((p, pile[0] if pile else UNSEEN) for p, pile in zip(self.players, self._piles)))

    def moves_of(self, player: str) -> list[Commit]:
        """The commits ``player`` may make now (L6): each card of their hand the companion
        saw, and a card face down unseen when it did not see every one."""
        i = self._seat.get(player)
        if i is None or self._phase is not _COMMIT or self._commits[i] is not None:
            return []
        moves = [Commit(player, c) for c in sorted(self._hands[i])]
        if self._hidden[i]:
            moves.append(Commit(player, UNSEEN))
        return moves

    def decision(self, move: Move) -> Move:
        """What was chosen: the move itself (chance settles nothing in a commit)."""
        return move

    def turn_candidates(self) -> list[Card]:
        """The nobles that may be turned up now: the top of the noble pile when it is known,
        else every noble in use whose place is unknown."""
        if self._phase is not _NOBLE or not self._nobles:
            return []
        top = self._nobles[0]
        if type(top) is Card:
            return [top]
        return [c for c in self.setup.nobles if not c.bit & self._known]

    # ------------------------------------------------------------------ reading the state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def round_number(self) -> int:
        """The round under way, from 1 (the last round once the game is over; 1 before the
        deal)."""
        done = len(self._results)
        if self._phase is _OVER:
            return done
        return done + 1

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        """Every decided round, in order."""
        return self._results

    @property
    def last_round(self) -> RoundResult | None:
        """The round decided last: its noble, the cards, the winner and why (L8-L10)."""
        return self._results[-1] if self._results else None

    @property
    def noble(self) -> Card | None:
        """This round's noble, face up once every player has committed (L7)."""
        return self._noble

    @property
    def noble_pile_count(self) -> int:
        """How many nobles lie face down (before the deal: every noble in use)."""
        return len(self._nobles) if self._phase is not _DEAL else len(self.setup.nobles)

    @property
    def noble_pile(self) -> tuple[Seen, ...]:
        """The noble pile, top first, as the companion knows it (``UNSEEN`` where it does not)."""
        return self._nobles

    @property
    def nobles_left(self) -> tuple[Card, ...]:
        """The nobles in use not turned yet, in catalogue order (L4, L7): public, though their
        order is not."""
        return tuple(c for c in self.setup.nobles if not c.bit & self._turned)

    def pile(self, player: str) -> tuple[Seen, ...]:
        """``player``'s pile, top first, as the companion knows it (nobody looks at it, L5)."""
        return self._piles[self._index(player)]

    def pile_size(self, player: str) -> int:
        return len(self._piles[self._index(player)])

    @property
    def pile_sizes(self) -> dict[str, int]:
        """How many cards each player's pile holds."""
        return {p: len(pile) for p, pile in zip(self.players, self._piles)}

    def hand(self, player: str) -> tuple[Card, ...]:
        """The cards the companion saw in ``player``'s hand, in catalogue order, without the
        card they committed when the companion saw it (with it when it did not)."""
        i = self._index(player)
        hand = self._hands[i]
        commit = self._commits[i]
        if type(commit) is Card:
            hand = _without(hand, commit)
        return tuple(sorted(hand))

    def hand_unseen(self, player: str) -> int:
        """How many cards of ``player``'s hand the companion did not see."""
        return self._hidden[self._index(player)]

    def hand_size(self, player: str) -> int:
        """How many cards ``player`` holds in hand (a committed card no longer counts)."""
        i = self._index(player)
        return len(self._hands[i]) + self._hidden[i] - (self._commits[i] is not None)

    @property
    def hand_sizes(self) -> dict[str, int]:
        return {p: self.hand_size(p) for p in self.players}

    @property
    def committed(self) -> tuple[str, ...]:
        """The players who have committed this round, in seating order (L6)."""
        return tuple(p for p, c in zip(self.players, self._commits) if c is not None)

    def commit_of(self, player: str) -> Seen | None:
        """The card ``player`` committed this round: the card, ``UNSEEN`` when the companion
        did not see it, ``None`` before they commit. Hidden from the other players until the
        reveal: a view never holds it."""
        return self._commits[self._index(player)]

    @property
    def aside(self) -> tuple[Seen, ...]:
        """The cards set aside, out of the game, as the companion knows them (L5)."""
        return self._aside

    @property
    def aside_count(self) -> int:
        return len(self._aside) if self._phase is not _DEAL else self.setup.aside_size

    @property
    def revealed(self) -> tuple[Card, ...]:
        """Every card revealed so far, out of play (L10), in catalogue order."""
        return tuple(cards_of_mask(self._out))

    @property
    def courts(self) -> dict[str, tuple[Card, ...]]:
        """Each player's court: the nobles won, in the order won (L10)."""
        return dict(zip(self.players, self._courts))

    def court(self, player: str) -> tuple[Card, ...]:
        return self._courts[self._index(player)]

    @property
    def discarded(self) -> tuple[Card, ...]:
        """The discarded nobles, in order (L8-L10)."""
        return self._discarded

    @property
    def totals(self) -> dict[str, int]:
        """Each player's score: the sum of the ranks of the nobles in their court (L13)."""
        return {p: sum(c.rank for c in court) for p, court in zip(self.players, self._courts)}

    @property
    def counts(self) -> dict[str, int]:
        """How many nobles each player's court holds (L13's tie-break)."""
        return {p: len(court) for p, court in zip(self.players, self._courts)}

    def is_game_over(self) -> bool:
        """L12: the game ends when the last noble's round is decided."""
        return self._phase is _OVER

    def outcome(self) -> Outcome | None:
        """How the game ended (L13), ``None`` while it goes on."""
        if self._phase is not _OVER:
            return None
        return decide_game(self.players, self.courts)

    def _index(self, player: str) -> int:
        i = self._seat.get(player)
        if i is None:
            raise InvalidMoveError(f"{player!r} does not play (the players are {', '.join(self.players)})")
        return i

    def where(self, card: Card) -> str | None:
        """Where the companion knows ``card`` to be, in words (``"in bob's hand"``, ``"4th in
        ann's pile"``, ``"set aside"``, ``"revealed in round 2"``), ``None`` when it does not."""
        for name, hand, commit in zip(self.players, self._hands, self._commits):
            if card is commit:
                return f"committed by {name}"
            if card in hand:
                return f"in {name}'s hand"
        for name, pile in zip(self.players, self._piles):
            if card in pile:
                return f"{ordinal(pile.index(card) + 1)} in {name}'s pile"
        if card in self._aside:
            return "set aside"
        for r in self._results:
            if any(c is card for _, c in r.plays):
                return f"revealed in round {r.number}"
            if r.noble is card:
                return f"the noble of round {r.number}"
        if card is self._noble:
            return "this round's noble"
        if card in self._nobles:
            return f"{ordinal(self._nobles.index(card) + 1)} in the noble pile"
        if card.is_noble and card not in self.setup.nobles:
            return "not in use (L4)"
        return None

    # ------------------------------------------------------------------ the moves

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (naming the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""
        self._carry(move, False)

    def is_legal(self, move: Move) -> bool:
        try:
            self._carry(move, False)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``, checked against every ruling first: an illegal move raises
        :class:`~companion.contract.errors.IllegalMoveError` naming the ruling and leaves the
        state unchanged. The checks are the bookkeeping of the move itself (where each card
        is), so ``check=False`` runs them too."""
        self._carry(move, True)

    def apply(self, move: Move) -> Effects:
        """Check and push ``move``, and tell what it did."""
        empty: tuple[str, ...] = ()
        if type(move) is Draw and self._phase is _DRAW:
            empty = tuple(p for p, pile in zip(self.players, self._piles) if not pile)
        self._carry(move, True)
        return self._effects(move, empty)

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly."""
        if not self._stack:
            raise IndexError("no move to take back" if self._keep else "this state keeps no undo stack")
        (
            self._phase,
            self._nobles,
            self._piles,
            self._hands,
            self._hidden,
            self._commits,
            self._waiting,
            self._aside,
            self._noble,
            self._known,
            self._out,
            self._turned,
            self._courts,
            self._discarded,
            self._results,
        ) = self._stack.pop()
        return self.move_stack.pop()

    def _save(self, move: Move) -> None:
        self._stack.append(
            (
                self._phase,
                self._nobles,
                self._piles,
                self._hands,
                self._hidden,
                self._commits,
                self._waiting,
                self._aside,
                self._noble,
                self._known,
                self._out,
                self._turned,
                self._courts,
                self._discarded,
                self._results,
            )
        )
        self.move_stack.append(move)

    def copy(self, *, keep_history: bool = True) -> LmpdState:
        """An independent copy of the position; its move stack starts empty."""
        new = LmpdState.__new__(LmpdState)
        new.__dict__.update(self.__dict__)  # every value held is immutable, so sharing is copying
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        return new

    def _carry(self, move: Move, apply: bool) -> None:
        kind = type(move)
        if kind is Commit:
            self._commit(cast(Commit, move), apply)
        elif kind is Reveal:
            self._reveal(cast(Reveal, move), apply)
        elif kind is TurnUp:
            self._turn_up(cast(TurnUp, move), apply)
        elif kind is Draw:
            self._draw(cast(Draw, move), apply)
        elif kind is Deal:
            self._deal(cast(Deal, move), apply)
        else:
            raise InvalidMoveError(f"{move!r} is no move of Love, Money, Power, Death")

    def _out_of_turn(self, move: Move) -> NoReturn:
        """The refusal of a move made at the wrong moment, naming the ruling."""
        phase = self._phase
        kind = type(move)
        if phase is _OVER:
            raise IllegalMoveError("L12", "the game is over: the last noble's round is decided, and nothing follows its reveal")
        if kind is Deal:
            raise IllegalMoveError("L5", "the cards are dealt once, before the first round")
        if phase is _DEAL:
            raise IllegalMoveError("L5", "the cards are dealt first")
        waiting = ", ".join(self.deciding)
        if kind is Commit:
            if phase is _DRAW:
                raise IllegalMoveError("L11", "every player draws before the next round's commits")
            raise IllegalMoveError("L6", f"{move.player} has committed this round already: a committed card cannot be taken back or changed")
        if kind is TurnUp:
            if phase is _COMMIT:
                raise IllegalMoveError("L7", f"the noble is turned once every player has committed, and not before: {waiting} to commit")
            if phase is _REVEAL:
                raise IllegalMoveError("L7", f"this round's noble, {cast(Card, self._noble).id}, is turned already")
            raise IllegalMoveError("L11", "every player draws before the next noble is turned")
        if kind is Reveal:
            if phase is _COMMIT:
                raise IllegalMoveError("L7", f"the cards are revealed once every player has committed and the noble is turned: {waiting} to commit")
            if phase is _NOBLE:
                raise IllegalMoveError("L7", "the noble is turned before the cards are revealed")
            raise IllegalMoveError("L11", "this round's cards are revealed already: every player draws next")
        raise IllegalMoveError("L11", "the players draw once, after the round's reveal")

    def _misnamed(self, move: Reveal | Draw) -> NoReturn:
        """A reveal or a draw that does not name each player once, in seating order."""
        named = [p for p, _ in move.cards]
        what = "reveal" if type(move) is Reveal else "draw"
        missing = [p for p in self.players if p not in named]
        if missing and type(move) is Reveal:
            raise InvalidMoveError(f"a reveal names every player's card: {', '.join(missing)}'s is missing (L7)")
        raise InvalidMoveError(f"a {what} names each player once, in seating order ({', '.join(self.players)}), not {', '.join(named) or 'nobody'}")

    def _unplaced(self, player: str, card: Card, verb: str, known: int) -> None:
        """Refuse ``card`` coming into ``player``'s hand from what the companion did not see,
        when it is a noble (L6) or known to be elsewhere (L14); ``known`` is every card placed
        so far, this move's included."""
        if type(card) is not Card:
            raise InvalidMoveError(f"{player} {verb} {card!r}, which is no card")
        if card.is_noble:
            raise IllegalMoveError("L6", f"{player} {verb} {card.id}: nobles are never in a hand")
        if card.bit & known:
            where = self.where(card)
            if where is None:
                raise IllegalMoveError("L14", f"{player} {verb} {card.id}, which another player {verb} in the same move: a card comes out once")
            if not where.endswith(f"in {player}'s pile"):
                tail = ": a card comes out once"
            elif verb == "drew":
                tail = ": a pile is drawn from the top"
            else:
                tail = f": it is not in {player}'s hand yet"
            raise IllegalMoveError("L14", f"{player} {verb} {card.id}, which is {where}{tail}")

    def _commit(self, move: Commit, apply: bool) -> None:
        """L6: a player who has not committed this round puts one card of their hand face
        down. A card the companion did not see in the hand must be one it has not placed
        elsewhere (L14)."""
        player, card = move
        i = self._seat.get(player)
        if i is None:
            raise InvalidMoveError(f"{player!r} does not play (the players are {', '.join(self.players)})")
        if self._phase is not _COMMIT or self._commits[i] is not None:
            self._out_of_turn(move)
        hands = self._hands
        hidden = self._hidden
        if card is UNSEEN or card in hands[i]:
            if apply:
                if self._keep:
                    self._save(move)
                self._committed(i, card)
            return
        self._unplaced(player, cast(Card, card), "committed", self._known)
        if not hidden[i]:
            raise IllegalMoveError("L6", f"{player} committed {cast(Card, card).id}, which is not in {player}'s hand ({_ids(hands[i])})")
        if apply:
            if self._keep:
                self._save(move)
            self._hands = hands[:i] + (hands[i] + (cast(Card, card),),) + hands[i + 1 :]
            self._hidden = hidden[:i] + (hidden[i] - 1,) + hidden[i + 1 :]
            self._known |= cast(Card, card).bit
            self._committed(i, card)

    def _committed(self, i: int, card: Seen) -> None:
        commits = self._commits
        self._commits = commits[:i] + (card,) + commits[i + 1 :]
        self._waiting -= 1
        if not self._waiting:
            self._phase = _NOBLE

    def _turn_up(self, move: TurnUp, apply: bool) -> None:
        """L7: once every player has committed, the top noble is turned face up. It is a noble
        in use not turned before (L4); the top one when the pile is known (L14)."""
        if self._phase is not _NOBLE:
            self._out_of_turn(move)
        card = move.card
        if type(card) is not Card or not card.is_noble:
            raise IllegalMoveError("L7", f"the card turned up is a noble from the noble pile, not {getattr(card, 'id', card)}")
        if card.bit & self._turned:
            raise IllegalMoveError("L14", f"{card.id} is {self.where(card)}: a card comes out once")
        if card not in self.setup.nobles:
            raise IllegalMoveError("L4", f"{card.id} is not in use in this game (the nobles in use are {_ids(self.setup.nobles)})")
        pile = self._nobles
        top = pile[0]
        if top is not card:
            if top is not UNSEEN:
                raise IllegalMoveError("L14", f"the top of the noble pile is {cast(Card, top).id}, not {card.id}")
            if card.bit & self._known:
                raise IllegalMoveError("L14", f"{card.id} is {self.where(card)}: the noble pile is turned from the top")
        if apply:
            if self._keep:
                self._save(move)
            self._nobles = pile[1:]
            self._noble = card
            self._known |= card.bit
            self._turned |= card.bit
            self._phase = _REVEAL

    def _reveal(self, move: Reveal, apply: bool) -> None:
        """L7: every player reveals the card they committed; L8-L10: the round is decided, the
        noble goes to its winner's court or is discarded, the revealed cards are out of play.
        A card committed unseen must be one of the player's hand (L6, L14)."""
        if self._phase is not _REVEAL:
            self._out_of_turn(move)
        cards = move.cards
        players = self.players
        if len(cards) != self._n:
            self._misnamed(move)
        hands = list(self._hands)
        hidden = list(self._hidden)
        commits = self._commits
        known = self._known
        out = self._out
        for k in range(self._n):
            name, card = cards[k]
            if name != players[k]:
                self._misnamed(move)
            if type(card) is not Card:
                raise InvalidMoveError(f"a reveal names every player's card face up: {name}'s is {card!r}")
            commit = commits[k]
            if card is commit:
                hands[k] = _without(hands[k], card)
            elif commit is not UNSEEN:
                raise IllegalMoveError("L7", f"{name} revealed {getattr(card, 'id', card)} but committed {cast(Card, commit).id}")
            elif card in hands[k]:
                hands[k] = _without(hands[k], card)
            else:
                self._unplaced(name, card, "revealed", known)
                if not hidden[k]:
                    raise IllegalMoveError("L7", f"{name} revealed {card.id}, which is not in {name}'s hand ({_ids(hands[k])})")
                hidden[k] -= 1
            known |= card.bit
            out |= card.bit
        if not apply:
            return
        if self._keep:
            self._save(move)
        noble = cast(Card, self._noble)
        result = RoundResult.decide(len(self._results) + 1, noble, cards)
        if result.winner is not None:
            w = self._seat[result.winner]
            courts = self._courts
            self._courts = courts[:w] + (courts[w] + (noble,),) + courts[w + 1 :]
        else:
            self._discarded += (noble,)
        self._results += (result,)
        self._hands = tuple(hands)
        self._hidden = tuple(hidden)
        self._known = known
        self._out = out
        self._commits = (None,) * self._n
        self._waiting = self._n
        self._noble = None
        self._phase = _OVER if len(self._results) == self.setup.rounds else _DRAW

    def _draw(self, move: Draw, apply: bool) -> None:
        """L11: after every round but the last, each player draws the top card of their own
        pile; nothing from an empty pile, and a known pile's top card (L14)."""
        if self._phase is not _DRAW:
            self._out_of_turn(move)
        cards = move.cards
        players = self.players
        if len(cards) != self._n:
            self._misnamed(move)
        piles = list(self._piles)
        hands = list(self._hands)
        hidden = list(self._hidden)
        known = self._known
        for k in range(self._n):
            name, card = cards[k]
            if name != players[k]:
                self._misnamed(move)
            pile = piles[k]
            if not pile:
                if card is not UNSEEN:
                    raise IllegalMoveError("L11", f"{name}'s pile is empty: {name} drew nothing, not {getattr(card, 'id', card)}")
                continue
            top = pile[0]
            if card is UNSEEN or card is top:
                if top is UNSEEN:
                    hidden[k] += 1
                else:
                    hands[k] += (cast(Card, top),)
            else:
                if top is not UNSEEN:
                    raise IllegalMoveError("L14", f"{name} drew {getattr(card, 'id', card)}, but the top of {name}'s pile is {cast(Card, top).id}")
                self._unplaced(name, cast(Card, card), "drew", known)
                known |= cast(Card, card).bit
                hands[k] += (cast(Card, card),)
            piles[k] = pile[1:]
        if apply:
            if self._keep:
                self._save(move)
            self._piles = tuple(piles)
            self._hands = tuple(hands)
            self._hidden = tuple(hidden)
            self._known = known
            self._phase = _COMMIT

    def _deal(self, move: Deal, apply: bool) -> None:
        """L5: the nobles in use are laid face down (``order``, when seen, is each of them
        once); the 42 other cards are dealt evenly, floor(42 / players) to each pile, the rest
        set aside; each player's hand is the top three of their pile. Every card comes once
        (L1), no noble is dealt to a player (L6), and a hand given beside its pile is the
        pile's top three."""
        if self._phase is not _DEAL:
            self._out_of_turn(move)
        setup = self.setup
        size = setup.pile_size
        hand_size = setup.hand_size
        placed: dict[Card, str] = {}

        def place(card: Seen, where: str) -> None:
            if card is UNSEEN:
                return
            if type(card) is not Card:
                raise InvalidMoveError(f"{where}: {card!r} is no card")
            if card in placed:
                raise IllegalMoveError("L1", f"{card.id} is dealt twice ({placed[card]} and {where}): one deck holds each card once")
            placed[card] = where

        if move.order is None:
            nobles: tuple[Seen, ...] = (UNSEEN,) * setup.rounds
        else:
            nobles = move.order
            if len(nobles) != setup.rounds:
                raise IllegalMoveError("L5", f"the noble pile holds the {setup.rounds} nobles in use, not {len(nobles)}")
            for k, card in enumerate(nobles):
                place(card, f"in the noble pile ({ordinal(k + 1)})")
                if card is not UNSEEN and (not cast(Card, card).is_noble or card not in setup.nobles):
                    what = "is not in use" if cast(Card, card).is_noble else "is no noble"
                    raise IllegalMoveError("L4" if cast(Card, card).is_noble else "L5", f"the noble pile holds the nobles in use ({_ids(setup.nobles)}); {cast(Card, card).id} {what}")
        piles: list[tuple[Seen, ...]] = [(UNSEEN,) * size] * self._n
        for name, pile in move.piles:
            i = self._index(name)
            if len(pile) != size:
                raise IllegalMoveError("L5", f"{name}'s pile holds {size} cards (42 / {self._n} players), not {len(pile)}")
            for k, card in enumerate(pile):
                place(card, f"in {name}'s pile ({ordinal(k + 1)})")
                if card is not UNSEEN and cast(Card, card).is_noble:
                    raise IllegalMoveError("L6", f"{cast(Card, card).id} is a noble: nobles are laid in the noble pile and never dealt to a player")
            piles[i] = pile
        if move.aside is None:
            aside: tuple[Seen, ...] = (UNSEEN,) * setup.aside_size
        else:
            aside = move.aside
            if len(aside) != setup.aside_size:
                raise IllegalMoveError("L5", f"with {self._n} players, {setup.aside_size} cards are set aside (42 mod {self._n}), not {len(aside)}")
            for card in aside:
                place(card, "set aside")
                if card is not UNSEEN and cast(Card, card).is_noble:
                    raise IllegalMoveError("L4", f"{cast(Card, card).id} is a noble: the nobles not in use are out of the game, not set aside with the dealt cards")
        hands: list[tuple[Card, ...]] = []
        hidden: list[int] = []
        given = dict(move.hands)
        for name in given:
            self._index(name)
        for i, name in enumerate(self.players):
            top = piles[i][:hand_size]
            seen_top = [c for c in top if c is not UNSEEN]
            hand = given.get(name)
            if hand is None:
                hands.append(cast("tuple[Card, ...]", tuple(seen_top)))
                hidden.append(hand_size - len(seen_top))
                continue
            if len(hand) != hand_size:
                raise IllegalMoveError("L5", f"{name}'s hand is the top {hand_size} cards of {name}'s pile: {hand_size} cards, not {len(hand)}")
            named = [c for c in hand if c is not UNSEEN]
            open_slots = len(top) - len(seen_top)
            spare = len(hand) - len(named)  # cards of the hand given unseen
            extra = []
            for card in named:
                if card in seen_top:
                    continue
                if type(card) is not Card:
                    raise InvalidMoveError(f"{name}'s hand: {card!r} is no card")
                if card.is_noble:
                    raise IllegalMoveError("L6", f"{card.id} is a noble: nobles are never in a hand")
                if card in placed:
                    raise IllegalMoveError("L5", f"{name}'s hand is the top {hand_size} cards of {name}'s pile, and {card.id} is {placed[card]}")
                extra.append(card)
            missing = [cast(Card, c) for c in seen_top if c not in named]
            if len(missing) > spare or len(extra) > open_slots or len(named) != len(set(named)):
                first = missing[0].id if missing else (extra[0].id if extra else "a card")
                raise IllegalMoveError("L5", f"{name}'s hand is the top {hand_size} cards of {name}'s pile, which do not match ({first})")
            for card in extra:
                place(card, f"in {name}'s hand")
            held = cast("tuple[Card, ...]", tuple(seen_top)) + tuple(extra)
            hands.append(held)
            hidden.append(hand_size - len(held))
        if not apply:
            return
        if self._keep:
            self._save(move)
        self._nobles = nobles
        self._piles = tuple(p[hand_size:] for p in piles)
        self._hands = tuple(hands)
        self._hidden = tuple(hidden)
        self._aside = aside
        self._known = sum(c.bit for c in placed)
        self._phase = _COMMIT

    def _effects(self, move: Move, empty: tuple[str, ...]) -> Effects:
        kind = type(move)
        if kind is Commit:
            return Effects(move.player, "commit", self.round_number, waiting=self.deciding)
        if kind is Reveal:
            result = self._results[-1]
            return Effects(None, "reveal", result.number, result=result, outcome=self.outcome())
        if kind is TurnUp:
            return Effects(None, "noble", self.round_number, noble=self._noble)
        if kind is Draw:
            return Effects(None, "draw", self.round_number, empty=empty)
        return Effects(None, "deal", 1)

    # ------------------------------------------------------------------ the table's moves

    def random_table_move(self, rng: random.Random) -> Move:
        """A random legal move of the table (nobody is deciding): the whole deal, every card
        dealt face up to the companion (L5); the top noble (L7); the reveal of every committed
        card, one drawn from the hand when it was unseen; the draw (L11)."""
        phase = self._phase
        if phase is _DEAL:
            setup = self.setup
            order = list(setup.nobles)
            rng.shuffle(order)
            deck = cards_of_mask(DEALT_MASK)
            rng.shuffle(deck)
            size = setup.pile_size
            piles = {p: deck[k * size : (k + 1) * size] for k, p in enumerate(self.players)}
            return Deal.make(order, piles, deck[self._n * size :], players=self.players)
        if phase is _NOBLE:
            return TurnUp(rng.choice(self.turn_candidates()))
        if phase is _REVEAL:
            pool = cards_of_mask(DEALT_MASK & ~self._known)
            rng.shuffle(pool)
            shown: list[tuple[str, Card]] = []
            for k, name in enumerate(self.players):
                commit = self._commits[k]
                if type(commit) is not Card:
                    held = self._hands[k]
                    unseen = self._hidden[k]
                    commit = held[rng.randrange(len(held))] if rng.randrange(len(held) + unseen) < len(held) else pool.pop()
                shown.append((name, cast(Card, commit)))
            return Reveal(tuple(shown))
        if phase is _DRAW:
            pool = cards_of_mask(DEALT_MASK & ~self._known)
            rng.shuffle(pool)
            drawn: list[tuple[str, Seen]] = []
            for name, pile in zip(self.players, self._piles):
                drawn.append((name, UNSEEN if not pile else pile[0] if pile[0] is not UNSEEN else pool.pop()))
            return Draw(tuple(drawn))
        raise ValueError(f"the table has no move now: {'the game is over' if phase is _OVER else 'the players commit'}")

    # ------------------------------------------------------------------ views

    def view(self, player: str) -> LmpdView:
        """What ``player`` may know (L14), and nothing more: their own hand and commitment,
        everything face up, who has committed, how many cards each pile and hand holds."""
        from companion.games.love_money_power_death.view import make_view

        return make_view(self, player)

    def resample(self, player: str, rng: random.Random) -> LmpdState:
        """A copy of this position (its move stack empty) in which every card ``player`` cannot
        see is dealt again at random, consistently with their view: the other hands and the
        other players' commitments, every pile (their own included, L5), the noble pile's
        order and the cards set aside. Cards of ``player``'s own hand the companion never saw
        stay unseen (the view does not hold them)."""
        new = self.copy(keep_history=False)
        if self._phase is _DEAL:
            return new
        me = self._seat.get(player, -1)
        mine = sum(c.bit for c in self._hands[me]) if me >= 0 else 0
        cards = cards_of_mask(DEALT_MASK & ~self._out & ~mine)
        rng.shuffle(cards)
        hands: list[tuple[Card, ...]] = []
        hidden: list[int] = []
        commits: list[Seen | None] = []
        for k in range(self._n):
            commit = self._commits[k]
            if k == me:
                hands.append(self._hands[k])
                hidden.append(self._hidden[k])
                commits.append(commit)
                continue
            hand = tuple(cards.pop() for _ in range(len(self._hands[k]) + self._hidden[k]))
            hands.append(hand)
            hidden.append(0)
            commits.append(None if commit is None else hand[rng.randrange(len(hand))])
        new._piles = tuple(tuple(cards.pop() for _ in pile) for pile in self._piles)
        new._aside = tuple(cards.pop() for _ in self._aside)
        new._hands = tuple(hands)
        new._hidden = tuple(hidden)
        new._commits = tuple(commits)
        nobles = [c for c in self.setup.nobles if not c.bit & self._turned]
        rng.shuffle(nobles)
        new._nobles = tuple(nobles)
        left = sum(c.bit for c in cards)  # as many as the player's own hand holds unseen
        new._known = (DEALT_MASK & ~left) | sum(c.bit for c in self.setup.nobles)
        return new

    def __repr__(self) -> str:
        return f"<LmpdState {'/'.join(self.players)} round {self.round_number} {self._phase.value}>"


class LegalMoves:
    """A lazy view of the legal moves (python-chess style): ``move in state.legal_moves``,
    ``bool(...)``, iteration, ``count()``."""

    __slots__ = ("_state",)

    def __init__(self, state: LmpdState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return self._state.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        # A move not listed (a deal, a card face down) is legal too when it is.
        return type(move) in (Commit, TurnUp, Reveal, Draw, Deal) and self._state.is_legal(cast(Move, move))

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"

