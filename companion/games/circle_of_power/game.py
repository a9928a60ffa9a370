"""The Circle of Power game state: seasons, seats and dummies, the city deck, hands and piles,
the plays of each action, the winner's act, the reshuffle, the scores (C1-C20).

Like a chess board, a :class:`CircleState` takes moves with :meth:`CircleState.push`
(checked against every ruling; an illegal move raises
:class:`~companion.contract.errors.IllegalMoveError` naming it) and takes them back with
:meth:`CircleState.pop`, restoring the state exactly.

The state can follow a game it cannot fully see: hands and dummies' piles dealt face down,
draws nobody saw. It checks everything that can be checked from what was seen (every card
played at most once where C6 and C15 forbid a second time, hand sizes, who plays, the
initiative, the acts) and the rest as the hidden cards are played.

This module holds the moves' way in and out (``push``, ``pop``, ``apply``, the legal moves);
each part of the rules is a module of its own, of which :class:`CircleState` is made:

- :mod:`.position`: the constants, the phases, the position copied on every push;
- :mod:`.reading`: the position read (seats, cities, lines, hands, totals);
- :mod:`.seasons`: a season's set-up (C4-C6);
- :mod:`.plays`: the city turned up, the plays and the initiative (C7-C9);
- :mod:`.acts`: the winner's act chosen and checked (C3, C10-C14, C18, C19);
- :mod:`.act_resolution`: the act carried out (C12-C14, C18, C19);
- :mod:`.reshuffle`: the battle deck made anew (C15);
- :mod:`.ending`: the end of an action, a season, the game (C5, C15-C20);
- :mod:`.hidden`: a player's view, and the hidden cards dealt again.

>>> from companion.games.circle_of_power.moves import Season, Reveal, Play, Conquer
>>> game = CircleState(CircleSetup(("ann", "bob", "cy")))
>>> game.push(Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"))
>>> game.push(Reveal.from_id("JD"))
>>> game.to_move, game.trump_suits
('bob', {'ann': 'H', 'bob': 'S', 'cy': 'D', '@1': 'C'})
>>> for move in (Play.from_ids("bob", "7H"), Play.from_ids("cy", "10S"), Play.from_ids("@1", "2S"), Play.from_ids("ann", "5H")):
...     game.push(move)
>>> game.initiative.reason
"ann's 5H is trump for ann (ann's city is KH) and beats cy's 10S"
>>> game.push(Conquer("bob", "cy"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: C9: ann's 5H is trump for ann (ann's city is KH) and beats bob's 7H
>>> game.push(Conquer("ann", "bob"))
>>> game.trophies("ann"), game.city("bob"), game.next_city
((Card.from_id('QS'),), Card.from_id('JD'), None)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, TYPE_CHECKING

from companion.games.circle_of_power.act_resolution import ActResolution
from companion.games.circle_of_power.acts import Acts
from companion.games.circle_of_power.cards import Card, cards_of_mask
from companion.games.circle_of_power.effects import Effects
from companion.games.circle_of_power.ending import Ending
from companion.games.circle_of_power.hidden import Hidden
from companion.games.circle_of_power.moves import (
    UNSEEN,
    Conquer,
    Move,
    Play,
    Regroup,
    Reshuffle,
    Retake,
    Reveal,
    Season,
)
from companion.games.circle_of_power.plays import Plays
from companion.games.circle_of_power.position import (
    _ACT,
    _OVER,
    _PLAY,
    _RESHUFFLE,
    _REVEAL,
    _SEASON,
    ACTIONS,
    CITY_DECK_SIZE,
    HAND_SIZE,
    PILE_SIZE,
    RESHUFFLE_AFTER,
    RESHUFFLE_PILE,
    Phase,
    _Core,
)
from companion.games.circle_of_power.reading import Reading
from companion.games.circle_of_power.reshuffle import Reshuffling
from companion.games.circle_of_power.rules import act_choices, threats
from companion.games.circle_of_power.seasons import Seasons
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, CircleSetup
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.state import TurnBased

if TYPE_CHECKING:
    from companion.games.circle_of_power import CircleOfPower

__all__ = [
    "CircleState",
    "CircleSetup",
    "Phase",
    "LegalMoves",
    "HAND_SIZE",
    "PILE_SIZE",
    "RESHUFFLE_PILE",
    "ACTIONS",
    "RESHUFFLE_AFTER",
    "CITY_DECK_SIZE",
]


class CircleState(Reading, Seasons, Plays, Acts, ActResolution, Reshuffling, Ending, Hidden, TurnBased[Move]):
    """A game of Circle of Power in progress (the protocol's :class:`~companion.contract.
    State`).

    Read it through properties (``phase``, ``to_move``, ``seats``, ``cities``, ``next_city``,
    ``trump_suits``, ``initiative``, ``choices()``, ``hand(p)``, ``trophies(p)``, ``results``,
    ``totals``, ``outcome()``) and change it with :meth:`push` and :meth:`pop`.
    ``keep_history=False`` drops the undo stack for fast one-way replays.
    """

    def __init__(self, setup: CircleSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self._variant = setup.variant
        self._coloured = setup.variant == COLOURED_CITIES
        self._lonely = setup.variant == LONELY_TYRANT
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[_Core] = []
        self._core = _Core.before_first_season(setup.players)

    @property
    def game(self) -> CircleOfPower:
        """Circle of Power: the game its set-up was made for (:attr:`CircleSetup.game`)."""
        return self.setup.game

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of :attr:`to_move`, a lazy view (``move in state.legal_moves``,
        ``bool(...)``, ``.count()``).

        - A player to play: one :class:`Play` per card of their hand and per card they could
          draw (the companion never knows the battle deck's order, only what it may hold);
          without a draw due, one per card. Cards the companion has not seen are not listed:
          check such a move with :meth:`is_legal` (a ``Play`` naming no drawn card, for a draw
          nobody saw, is legal too).
        - A dummy to play: the top card of its pile, or, when nobody saw it, every card it may
          be (C8, C11: only a dummy's card comes from outside).
        - The winner: every act open to them (C10-C14), with every trophy they may discard; a
          dummy's one act (C11).
        - The table (a season, a reveal, the reshuffle): none listed;
          :meth:`random_table_move` draws one.
        """
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        """The moves :attr:`legal_moves` lists, one at a time."""
        c = self._core
        if c.phase is _PLAY:
            i = c.turn
            name = c.seats[i]
            if c.dummy[i]:
                top = c.piles[i][0]
                if isinstance(top, Card):
                    yield Play(name, top)
                else:
                    for x in cards_of_mask(c.pool if top is UNSEEN else c.old_pool):
                        yield Play(name, x)
                return
            draws: Sequence[Card | None] = cards_of_mask(c.pool) if c.deck_count else [None]
            for card in sorted(c.hands[i]):
                for drew in draws:
                    yield Play(name, card, drew)
        elif c.phase is _ACT:
            i = c.turn
            name = c.seats[i]
            for choice in act_choices(self._variant, c.seats, c.dummy, c.cities, c.trophies, i):
                if choice.act == "regroup":
                    if c.dummy[i] or threats(i, c.cities) or not c.trophies[i]:
                        yield self._dummy_act(i) if c.dummy[i] else Regroup(name)
                    else:
                        for t in dict.fromkeys(c.trophies[i]):
                            yield Regroup(name, t)
                elif choice.act == "conquer":
                    assert choice.victim is not None
                    yield Conquer(name, c.seats[choice.victim], bool(choice.keep))
                else:
                    assert choice.victim is not None
                    line = c.trophies[choice.victim]
                    if not line:
                        yield Retake(name, c.seats[choice.victim])
                    for t in dict.fromkeys(line):
                        yield Retake(name, c.seats[choice.victim], t)

    def decision(self, move: Move) -> Move:
        """What the emperor chose in ``move``: a :class:`Play` without the card drawn, which
        chance settles (C8); any other move as it is."""
        if type(move) is Play and move.drew is not None:
            return Play(move.player, move.card)
        return move

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (naming the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""
        self._check(move)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``. With ``check`` (the default) it is validated first and an
        :class:`~companion.contract.errors.IllegalMoveError` names the ruling it breaks, leaving
        the state unchanged; ``check=False`` is the fast path for moves known to be legal
        (from :attr:`legal_moves`, or a record already replayed).

        The common move, a :class:`Play` of a card seen in the player's hand or on top of the
        dummy's pile (C8), is checked and carried out right here, in one pass (replays are made
        of them); any other move goes through :meth:`check` and :meth:`_carry_out`."""
        c = self._core
        if type(move) is Play and c.phase is _PLAY and move.player == c.seats[c.turn]:
            i = c.turn
            card = move.card
            drew = move.drew
            if c.dummy[i]:
                pile = c.piles[i]
                if pile[0] is card and drew is None:
                    if self._keep:
                        c = self._save(move)
                    c.piles[i] = pile[1:]
                    self._played(c, i, card)
                    return
            else:
                hand = c.hands[i]
                if card in hand and (drew is None or (c.deck_count and type(drew) is Card and c.pool & drew.bit)):
                    if self._keep:
                        c = self._save(move)
                    if len(hand) == 1:
                        hand = ()
                    else:
                        k = hand.index(card)
                        hand = hand[:k] + hand[k + 1 :]
                    if c.deck_count:
                        c.deck_count -= 1
                        if drew is None:
                            c.hidden[i] += 1
                        else:
                            hand += (drew,)
                            c.pool ^= drew.bit
                    c.hands[i] = hand
                    self._played(c, i, card)
                    return
        if check:
            self._check(move)
        if self._keep:
            self._save(move)
        self._carry_out(move)

    def _save(self, move: Move) -> _Core:
        """Keep the position before ``move`` for :meth:`pop`, and return the copy to change."""
        self._stack.append(self._core)
        new = self._core = self._core.copy()
        self.move_stack.append(move)
        return new

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly as it was before it."""
        if not self._keep:
            raise IndexError("pop: this game was created with keep_history=False")
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._core = self._stack.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def apply(self, move: Move) -> Effects:
        """Check and push ``move`` like :meth:`push`, and tell what it did (the season or the
        game it ended included)."""
        self._check(move)
        effects = self._effects(move)
        results = len(self._core.results)
        knocked = len(self._core.knocked)
        if self._keep:
            self._save(move)
        self._carry_out(move)
        c = self._core
        extra: dict[str, Any] = {}
        if len(c.results) > results:
            extra["result"] = c.results[-1]
        if len(c.knocked) > knocked:
            extra["knocked_out"] = c.knocked[knocked:]
        if c.outcome is not None:
            extra["outcome"] = c.outcome
        if type(move) is Play and c.phase is _ACT:
            extra["initiative"] = self.initiative
        return effects._replace(**extra) if extra else effects

    def effects(self, move: Move) -> Effects:
        """What ``move`` would do now, without doing it (checked like :meth:`push`); the season
        result, knock-outs and outcome it brings are told by :meth:`apply`."""
        self._check(move)
        return self._effects(move)

    def copy(self, *, keep_history: bool = True) -> CircleState:
        """An independent copy of the current position, for trying moves out; its move stack
        starts empty."""
        new = CircleState.__new__(CircleState)
        new.__dict__.update(self.__dict__)
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        new._core = self._core.copy()
        return new

    # ------------------------------------------------------------------ one method per kind of move

    def _check(self, move: Move) -> None:
        """Raise the error of the first ruling ``move`` breaks now, if any."""
        if type(move) is Play:
            self._check_play(move)
        elif type(move) is Conquer or type(move) is Retake or type(move) is Regroup:
            self._check_act(move)
        elif type(move) is Reveal:
            self._check_reveal(move)
        elif type(move) is Reshuffle:
            self._check_reshuffle(move)
        elif type(move) is Season:
            self._check_season(move)
        else:
            raise InvalidMoveError(f"not a move of Circle of Power: {move!r}")

    def _carry_out(self, move: Move) -> None:
        """Carry out a checked move (or one known to be legal)."""
        if type(move) is Play:
            self._apply_play(move)
        elif type(move) is Reveal:
            self._apply_reveal(move)
        elif type(move) is Conquer:
            self._commit(self._resolve_conquer(move))
        elif type(move) is Retake:
            self._commit(self._resolve_retake(move))
        elif type(move) is Regroup:
            self._commit(self._resolve_regroup(move))
        elif type(move) is Reshuffle:
            self._apply_reshuffle(move)
        elif type(move) is Season:
            self._apply_season(move)
        else:
            raise InvalidMoveError(f"not a move: {move!r}")

    def _effects(self, move: Move) -> Effects:
        """What a (checked) move does, before it is carried out."""
        if type(move) is Play:
            return self._play_effects(move)
        if type(move) is Conquer or type(move) is Retake or type(move) is Regroup:
            act = self._resolve(move)
            return self._act_effects(move, act)
        if type(move) is Reveal:
            return Effects(None, kind="reveal", action=self._core.action, card=move.card)
        if type(move) is Reshuffle:
            return self._reshuffle_effects(move)
        assert type(move) is Season
        return self._season_effects(move)

    def bottom_reveal(self) -> Reveal | None:
        """The city card nobody needs to turn up: the bottom joker, face up since the set-up,
        when it is all the city deck holds and the next available city is due (C6, C7);
        ``None`` at any other time."""
        c = self._core
        if c.phase is _REVEAL and c.city_left == 1 and c.bottom is not None:
            return Reveal(c.bottom)
        return None

    def random_table_move(self, rng: random.Random) -> Move:
        """A random legal move of the table (:attr:`to_move` is ``None``): a whole season's
        set-up with every card dealt face up to the companion, the next city card turned up,
        or the reshuffle with the dummies' new cards."""
        c = self._core
        if c.phase is _SEASON:
            return self._random_season(rng)
        if c.phase is _REVEAL:
            return self._random_reveal(rng)
        if c.phase is _RESHUFFLE:
            return self._random_reshuffle(rng)
        raise ValueError(f"the table has no move now: the game is {'over' if c.phase is _OVER else 'waiting for ' + str(self.to_move)}")

    def __repr__(self) -> str:
        c = self._core
        where = f"season {c.season} action {c.action} {c.phase.value}"
        who = self.to_move
        return f"<CircleState {'/'.join(self.players)} {self._variant} {where}{' ' + who if who else ''}>"


class LegalMoves:
    """A lazy view of the legal moves (python-chess style)."""

    __slots__ = ("_state",)

    def __init__(self, state: CircleState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return self._state.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        # A move of the table is legal too when it is, though none is listed.
        return isinstance(move, (Play, Conquer, Retake, Regroup, Reveal, Reshuffle, Season)) and self._state.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"
