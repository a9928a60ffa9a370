"""A player's view of a game of Ruse and Bruise: what they may know, and nothing more (B29).

Face-up cards are public: every card turned over in the columns, the goal cards, the goal
cards won, every column's cards after the reveal (and so each discard pile's cards but the
Assassin's victims nobody saw). Hands, stacks and face-down cards are hidden: a player sees
their own hand and their own face-down cards (as far as the companion saw them), and of the
others how many cards each holds in hand, stack and discard pile, each face-down card as a
back of its owner's colour, and where each of their cards may be as the whole table can tell
(:class:`~companion.games.ruse_and_bruise.whereabouts.Whereabouts`).

Two states with equal views are the same to the player: :meth:`RabState.resample
<companion.games.ruse_and_bruise.game.RabState.resample>` keeps the view, and the tests check
it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from companion.contract.cards import Unseen
from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.moves import UNSEEN, Assassinate, Cloak, Move, Pass, Place, Round, Swap
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import ValuesTable
from companion.games.ruse_and_bruise.scoring import Outcome, RoundResult
from companion.games.ruse_and_bruise.whereabouts import DISCARD, HAND, Trail, Whereabouts, bits

if TYPE_CHECKING:
    from companion.games.ruse_and_bruise.game import RabState

__all__ = ["RabView", "make_view", "kept_by"]


@dataclass(frozen=True, slots=True)
class RabView:
    """What ``player`` may know of the game."""

    player: str
    phase: str
    round: int
    in_turn: str
    to_move: str | None
    waiting: str
    """The record event the game waits for (``"place"``, ``"cloak"``, ...)."""
    players: tuple[str, ...]
    colours: tuple[str, ...]
    goals: tuple[Goal | None, ...]
    """The goal card heading each column."""
    closed: tuple[bool, ...]
    """Whether a Storm closed each column (B13)."""
    columns: tuple[tuple[tuple[str, Influence | None, bool], ...], ...]
    """Each column's cards from the goal card down: (owner, card, face up); the card is
    ``None`` for a face-down card of another player (a back of their colour) and for one of
    the player's own that the companion did not see."""
    hand: tuple[Influence, ...]
    """The player's own hand as the companion saw it."""
    hand_unseen: int
    """Cards of the player's own hand the companion did not see."""
    drawing: Influence | None
    """The card the player draws when this turn is over, when it is their turn's draw and
    the companion saw it."""
    draw_due: str | None
    """The player who draws when this turn is over (B9), ``None`` outside a turn."""
    hand_sizes: Mapping[str, int]
    stack_sizes: Mapping[str, int]
    discard_sizes: Mapping[str, int]
    discards: Mapping[str, tuple[Influence, ...]]
    """The cards known to be in each discard pile."""
    own: Whereabouts
    """Where the player's own cards are, as the companion saw them."""
    others: Mapping[str, Whereabouts]
    """Where each other player's cards may be, as the whole table can tell."""
    goal_stacks: tuple[int, ...]
    """Goal cards left in each stack."""
    unseen_goals: frozenset[Goal]
    """The goal cards nobody has seen yet: in the stacks or out of the game."""
    won: Mapping[str, tuple[Goal, ...]]
    results: tuple[RoundResult, ...]
    totals: Mapping[str, int]
    outcome: Outcome | None
    at: tuple[int, int] | None = None
    """The card acting now, as (column index from 0, position from the goal card down from 0):
    the card to turn over, or the one whose immediate ability is due (B10-B15)."""
    values: ValuesTable | None = None
    """The table's values table (B4), which every player knows."""

    def colour_of(self, player: str) -> str:
        """The colour of ``player``'s cards: a face-down card of theirs shows its back in it."""
        return self.colours[self.players.index(player)]

    @property
    def decisions(self) -> tuple[Move, ...]:
        """The player's decisions now, none unless they decide (B8, B14, B15): a card of their
        hand into an open column (:data:`UNSEEN` for a card of theirs the companion did not
        see), the card drawn after it left to chance (B9); the pass of an empty hand; a
        Cloak's card or nothing; a Traitor's column or none. Each stands for every legal
        move with the same :meth:`RabState.decision <companion.games.ruse_and_bruise.game.
        RabState.decision>`."""
        me = self.player
        if self.to_move != me:
            return ()
        cards: list[Influence | Unseen] = list(self.hand)
        if self.hand_unseen:
            cards.append(UNSEEN)
        if self.waiting == "place":
            if not cards:
                return (Pass(me),)
            open_columns = [k + 1 for k, closed in enumerate(self.closed) if not closed]
            return tuple(Place(me, k, card, None) for k in open_columns for card in cards)
        if self.waiting == "cloak":
            return (Cloak(me, False),) + tuple(Cloak(me, True, card, None) for card in cards)
        if self.waiting == "traitor" and self.at is not None:
            return (Swap(me, None),) + tuple(Swap(me, j + 1) for j in range(len(self.goals)) if j != self.at[0])
        return ()


_ABILITY_EVENTS = {"EXPL": "explorer", "ASSN": "assassin", "STORM": "storm", "CLOAK": "cloak", "TRAITOR": "traitor"}


def _waiting_event(c: Any) -> str:
    """The record event the game waits for (:attr:`RabState.waiting`'s ``what``), without
    its words: a view is made after every move of a playout."""
    phase = c.phase.value
    if phase == "ability":
        lay = c.cols[c.at[0]][c.at[1]]
        return _ABILITY_EVENTS[lay.card.id]
    return _PHASE_EVENTS[phase]


_PHASE_EVENTS = {"round": "round", "place": "place", "turn": "turn", "reveal": "reveal", "distribute": "distribution", "over": "over"}


class _Worked(Mapping[str, Any]):
    """A view's mapping by player whose values are worked out only when read (the whole
    table's whereabouts of a player, what is known of their discard pile): a playout's
    players make a view for every decision and read few of them. It compares as the mapping
    it stands for."""

    __slots__ = ("_names", "_sources", "_work", "_done")

    def __init__(self, names: Sequence[str], sources: Sequence[Any], work: Any) -> None:
        self._names = tuple(names)
        self._sources = list(sources)
        self._work = work
        self._done: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        done = self._done.get(name)
        if done is None:
            done = self._done[name] = self._work(self._sources[self._names.index(name)])
        return done

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:  # pragma: no cover - views are compared, not hashed
        raise TypeError("unhashable type: a view's mapping")

    def __repr__(self) -> str:
        return repr(dict(self.items()))


def _whereabouts(source: Whereabouts | Trail) -> Whereabouts:
    return source.value if isinstance(source, Trail) else source


def _discards(source: Whereabouts | Trail) -> tuple[Influence, ...]:
    return _cards_of(_whereabouts(source).known(DISCARD))


@lru_cache(maxsize=1 << 14)
def _cards_of(mask: int) -> tuple[Influence, ...]:
    """The influence cards of a card set kept as an integer, in catalogue order."""
    return tuple(INFLUENCE[i] for i in bits(mask))


@lru_cache(maxsize=256)
def _unseen_goals(seen: int) -> frozenset[Goal]:
    return frozenset(g for g in GOALS if not seen & g.bit)


def make_view(state: RabState, player: str) -> RabView:
    c = state._core  # the view is part of the engine and reads its state directly
    players = state.players
    me = players.index(player) if player in players else -1
    columns = []
    for col in c.cols:
        shown = []
        for lay in col:
            if lay.up:
                card: Influence | None = lay.card
            elif lay.owner == me:
                known = c.known[me].known(lay.slot)
                card = lay.card or (INFLUENCE[known.bit_length() - 1] if known else None)
            else:
                known = c.public[lay.owner].value.known(lay.slot)  # an Explorer that moved: everyone saw which
                card = INFLUENCE[known.bit_length() - 1] if known else None
            shown.append((players[lay.owner], card, lay.up))
        columns.append(tuple(shown))
    own = c.known[me] if me >= 0 else c.public[0].value
    hand = _cards_of(own.known(HAND)) if me >= 0 else ()
    pending = c.pending
    seen_by: list[Whereabouts | Trail] = [c.known[p] if p == me else c.public[p] for p in range(len(players))]
    goals_unseen = _unseen_goals(c.seen_goals)
    return RabView(
        player=player,
        phase=c.phase.value,
        round=c.round,
        in_turn=players[c.turn],
        to_move=state.to_move,
        waiting=_waiting_event(c),
        players=players,
        colours=state.setup.colours,
        goals=c.goals,
        closed=tuple(bool(c.closed >> k & 1) for k in range(len(players))),
        columns=tuple(columns),
        hand=hand,
        hand_unseen=own.hand - len(hand) if me >= 0 else 0,
        drawing=pending[1] if pending is not None and pending[0] == me else None,
        draw_due=players[pending[0]] if pending is not None else None,
        hand_sizes={p: c.known[i].hand for i, p in enumerate(players)},
        stack_sizes={p: c.known[i].stack for i, p in enumerate(players)},
        discard_sizes={p: c.known[i].discard for i, p in enumerate(players)},
        discards=_Worked(players, seen_by, _discards),
        own=own,
        others=_Worked(tuple(p for i, p in enumerate(players) if i != me), [c.public[i] for i in range(len(players)) if i != me], _whereabouts),
        goal_stacks=tuple(len(s) for s in c.stacks),
        unseen_goals=goals_unseen,
        won={p: c.won[i] for i, p in enumerate(players)},
        results=c.results,
        totals=state.totals,
        outcome=c.outcome,
        at=c.at,
        values=state.values,
    )



def kept_by(setup: RabSetup, moves: Sequence[Move], player: str | None) -> tuple[RabSetup, list[Move]]:
    """The record of a game as ``player``'s own companion keeps it: their hand, their
    placements and draws named; every other player's hand, placements, draws and unturned
    victims unseen; the goal stacks unseen; everything face up named (B29). With ``None``,
    as a table kept by keyboard keeps it, the screen shared: no hand named at all."""
    from companion.games.ruse_and_bruise.game import RabState

    me = setup.players.index(player) if player is not None else -1
    hands = None if me < 0 or setup.hands is None or setup.hands[me] is None else tuple(h if i == me else None for i, h in enumerate(setup.hands))
    kept = RabSetup(setup.players, setup.colours, setup.values, None, hands)
    state = RabState(setup, keep_history=False)
    out: list[Move] = []
    for move in moves:
        if isinstance(move, Place) and move.player != player:
            out.append(Place(move.player, move.column, UNSEEN, None))
        elif isinstance(move, Cloak) and move.placed and move.player != player:
            out.append(Cloak(move.player, True, UNSEEN, None))
        elif isinstance(move, Round) and move.drew:
            out.append(Round(move.goals, tuple((n, cards if n == player else (UNSEEN,) * len(cards)) for n, cards in move.drew)))
        elif isinstance(move, Assassinate):
            c = state._core
            assert c.at is not None
            k, pos = c.at
            victim = c.cols[k][pos + 1]
            seen = victim.owner == me or c.public[victim.owner].value.known(victim.slot)
            out.append(move if seen else Assassinate(UNSEEN))
        else:
            out.append(move)
        state.push(move, check=False)
    return kept, out
