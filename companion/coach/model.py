"""What a game provides to be coached: its :class:`CoachModel`.

The coach's search knows no game. It samples worlds from one player's view, plays every
decision out in each of them on common random numbers, tallies what each end is worth, and
ranks; everything in that loop that needs the rules or the game's words comes from the game's
model, found through the game object (``game.coach()``, ``None`` for a game that has no coach
yet: :func:`model_of` then says so).

A model is stateless and shared; what is particular to one position lives in the objects it
hands out (:class:`Worlds`, the game's watches). Moves, states (the game's
:class:`~companion.contract.State`) and a world's chance are the game's own values, typed
``Any`` as in :mod:`companion.contract`: the coach passes them back to the model without
looking inside.

The coach advises any player who is deciding (``player in state.deciding``): the one player
to move in a game played by turns, or any of those still to commit at a node where the players
decide at once (:attr:`State.simultaneous <companion.contract.State.simultaneous>`).

One playout, as the search runs it (``rng`` seeded per sample, the same for every decision)::

    world = model.fork(worlds.sample(...))           # a fresh copy of the sample's world
    move = model.realize(world.state, decision, world.chance, rng)
    world.state.push(move, check=False)
    watch = model.watch(world.state, player, world.chance, rng, policy)
    model.play_out(world.state, world.chance, rng, policy)
    value = model.value(world.state, player)

Inside ``watch`` and ``play_out`` every player who decides is asked for their decision with
their view alone, never the world, and the model realizes what chance decides in it::

    for who in state.deciding:                       # one, or each still to commit
        decision = policy(state.view(who), rng)
        state.push(model.realize(state, decision, chance, rng), check=False)

So a playout's players cannot see the cards the world dealt to the others, any more than the
player being advised can; only the model's own parts (the table's moves, a dummy's card that
the rules play for it) read the world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from companion.contract import Game, Move

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = [
    "CoachError",
    "CoachModel",
    "Category",
    "Value",
    "World",
    "Worlds",
    "Watch",
    "Watched",
    "Risk",
    "Policy",
    "Decisions",
    "model_of",
]


class CoachError(ValueError):
    """The coach cannot advise here: the player has no decision now, a view that does not add
    up, or a game that has no coach yet."""


Decisions = dict[Hashable, list[Move]]
"""The legal moves of one deciding player grouped by decision (:meth:`State.decision`): the
moves of one decision differ only in what chance decides, and are one choice."""

Policy = Callable[[Any, random.Random], Move]
"""A quick player for playouts: ``policy(view, rng)`` is the decision of ``view.player``, who
is deciding, from their view alone (the game's :meth:`State.view`, which lists the player's
own decisions when they decide, and the public table). What chance decides in the move (a
card drawn after it) is left open: :meth:`CoachModel.realize` draws it in the world."""


class Category(NamedTuple):
    """A kind of points the value of an end is broken into, for the reasons."""

    name: str
    """The key in the figures and the JSON: ``"power_ring"``."""
    label: str
    """In words, after "points of": ``"the Power Ring and its chain"``."""
    ruling: str
    """The ruling that awards them: ``"R12"``."""


@dataclass(frozen=True, slots=True)
class World:
    """One complete world sampled from a player's view."""

    state: Any
    """The position with every card the player cannot see filled in (a :class:`State`)."""
    chance: Any
    """How chance falls in this world, in the game's own form (the order of a deck, top
    last): what :meth:`CoachModel.realize` and the playouts draw from."""


class Value(Protocol):
    """What the end of a playout (the end of its scoring period) is worth to the player's side."""

    @property
    def margin(self) -> float:
        """The side's points of the period less the best other side's."""

    @property
    def win(self) -> float:
        """The chance to win the game, 0..1: exact when the period decides the game, a model
        of the periods left otherwise."""

    @property
    def categories(self) -> tuple[float, ...]:
        """Per :attr:`CoachModel.categories`: the side's points of that kind less the other
        sides' average."""

    @property
    def feats(self) -> tuple[bool, ...]:
        """Per :attr:`CoachModel.feats`: whether the side achieved it."""


class Worlds(Protocol):
    """Samples worlds for one player from their view of one position, reading nothing else."""

    def sample(self, rng: random.Random) -> World:
        """One world consistent with the view (the same ``rng`` state, the same world)."""


class Watch(Protocol):
    """What a game's playouts note about a decision besides the value of the end (the stuff
    of its risks): one per playout, merged over the samples."""

    def merge(self, other: Any) -> None:
        """Add what ``other`` (the same decision's, in a later sample) noted."""


class Watched(Protocol):
    """Decisions that play out alike, and what their playouts noted."""

    @property
    def members(self) -> list[tuple[Hashable, Move]]:
        """Each decision and a move making it; the first one's move is the one played out, as
        chance fell in the first sample."""

    @property
    def watch(self) -> Any:
        """The merged :class:`Watch`, ``None`` before any playout."""


class Risk(Protocol):
    """A risk a move runs, told to a beginner."""

    @property
    def chance(self) -> float:
        """How likely it comes about, 0..1."""

    @property
    def text(self) -> str:
        """In a sentence: ``risk: leaves 7P W007 Fire Dragon in the centre: ...``."""

    @property
    def short(self) -> str:
        """In a few words, for a narrow panel."""

    def to_json(self) -> dict[str, Any]: ...


class CoachModel(Protocol):
    """A game's coaching knowledge: how its worlds are sampled and played out, what an end is
    worth, and how moves, reasons and risks are told.

    Three members are optional, read by ``./run bench coach`` when a model has them (a model
    without them is measured all the same):

    - ``tables() -> Mapping[str, Callable[[random.Random], State]]``: the tables the coach is
      measured at, by name, each a maker of the opening of a scoring period from a seed (a
      state where someone decides); by default 2 and 4 players in each of the game's variants,
      dealt by :meth:`Game.chance_move <companion.contract.Game.chance_move>`;
    - ``points(state) -> Mapping[str, float]``: each player's (or side's) points of the period
      that just ended in ``state``, as the bench compares them; by default the change of
      ``state.totals``;
    - ``play_game(state, chance, rng, policy) -> None``: for a game scored only at its end,
      a complete world played on from its opening to the game's end, each player by
      ``policy`` from their own view, what chance decides there fixed by ``rng``'s state (the
      same ``rng`` state, the same luck, whatever the players decide); the bench then deals
      and measures whole games instead of scoring periods.
    """

    @property
    def categories(self) -> tuple[Category, ...]:
        """The kinds of points a period's value is broken into, in the order of
        :attr:`Value.categories`."""

    @property
    def feats(self) -> tuple[str, ...]:
        """Names of what a side may achieve by the end of a period whose chance is told on its
        own (a game won outright), in the order of :attr:`Value.feats`."""

    @property
    def period(self) -> str:
        """The game's scoring period in a word: ``"round"``, ``"season"``."""

    # -- the position

    def waits_for(self, state: Any) -> str:
        """What ``state`` waits for when nobody is to decide (``"deal"``): the coach's words
        for a position it cannot judge."""

    def position(self, state: Any) -> str:
        """Where the game stands and what lies in view, as ``rop hint``'s first line ends:
        ``"(round 1, deal 1); centre: 6D W036, 5M W015, 3D W033"``."""

    def period_of(self, state: Any) -> int:
        """The number of the period ``state`` is in (1-based), for a review's marks."""

    def unseen_cards(self, moves: Sequence[Move]) -> int:
        """How many cards dealt in ``moves`` (a completed record's) were never seen, for
        ``rop review`` to say that those hands were sampled."""

    # -- the search

    def worlds(self, state: Any, player: str) -> Worlds:
        """The sampler of ``player``'s view of ``state``, the game as played (its history kept,
        when it is, for a sampler that reads what the players did); the sampler keeps a copy of
        what it needs, never ``state`` itself, which play goes on in. :class:`CoachError` when
        the view does not add up."""

    def decisions(self, state: Any, player: str) -> Decisions:
        """The legal moves of ``player``, who is deciding, grouped by decision, in an order
        that does not depend on how the state was reached (the search's samples follow it)."""

    def alike(self, move: Move) -> Hashable:
        """A key shared by decisions that play out alike up to the names of interchangeable
        cards (two plain 8s): such decisions are played out once and share their figures."""

    def fork(self, world: World) -> World:
        """A copy of ``world`` for one playout: its own state, without history, and its own
        chance, so that the sample stays as it was for the next decision."""

    def realize(self, state: Any, decision: Move, chance: Any, rng: random.Random) -> Move:
        """The concrete move of ``decision`` (any move making it: one of :meth:`decisions`'
        options, or what a :data:`Policy` chose from a view) in ``state``, what chance decides
        in it drawn from ``chance`` or ``rng``: the card a draw turns up, a blind pick."""

    def policy(self) -> Policy:
        """The quick player of the playouts, reading a player's view alone: sound, fast, and a
        little random, so that many playouts cover what real players might do."""

    def opponents(self) -> Mapping[str, Policy]:
        """The rule-of-thumb players the coach is measured against (``./run bench coach``), by
        name: at least three styles written from the rules alone (a greedy one, a cautious one
        that saves its strong cards, one that counts the cards seen so far...), each reading its
        own view only, described in docs/coach.md; ``random`` is added by the bench."""

    def plain_move(self, view: Any) -> Move:
        """A simple player's decision without randomness (as a rule the quick player's), from
        the deciding player's ``view``: what the coach plays as a player unless the search finds
        another clearly better."""

    def watch(self, state: Any, player: str, chance: Any, rng: random.Random, policy: Policy) -> Watch:
        """Note, in a world just after ``player``'s move, what the risks are read from; it may
        play on with ``policy`` (up to the player's next turn, say), leaving ``state`` there."""

    def play_out(self, state: Any, chance: Any, rng: random.Random, policy: Policy) -> None:
        """Play ``state`` on to the end of the current scoring period: every deciding player's
        decision by ``policy`` from their view (realized with :meth:`realize`), the table's
        moves from ``chance``."""

    def value(self, state: Any, player: str) -> Value:
        """What ``state``, whose scoring period has just ended, is worth to ``player``'s side."""

    # -- words

    def describe(self, move: Move) -> str:
        """A move in words for the table: ``W007 Fire Dragon (7) takes W031 + W036``."""

    def move_json(self, move: Move) -> dict[str, Any]:
        """The game's own fields of a move in the advice's JSON, after ``"move"``."""

    def reasons(self, item: MoveAdvice, other: MoveAdvice) -> list[str]:
        """What ``item`` gains or gives up against ``other``, from their figures on the common
        samples (:attr:`MoveAdvice.sample_categories`, :attr:`MoveAdvice.feats`)."""

    def risks(self, worlds: Any, watched: Sequence[Watched]) -> Mapping[Hashable, Sequence[Risk]]:
        """Every decision's risks worth telling, strongest first, from what the playouts of
        every group of alike decisions noted (``worlds``: the position's :class:`Worlds`)."""


def model_of(game: Game) -> CoachModel:
    """The coach's model of ``game``; :class:`CoachError` for a game that has no coach yet."""
    model = game.coach()
    if model is None:
        raise CoachError(f"{game.title} has no coach yet")
    return model
