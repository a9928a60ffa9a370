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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.moves import UNSEEN, Assassinate, Cloak, Move, Place, Round
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.scoring import Outcome, RoundResult
from companion.games.ruse_and_bruise.whereabouts import DISCARD, HAND, Whereabouts, bits

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

    def colour_of(self, player: str) -> str:
        """The colour of ``player``'s cards: a face-down card of theirs shows its back in it."""
        return self.colours[self.players.index(player)]


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
    hand = tuple(INFLUENCE[i] for i in bits(own.known(HAND))) if me >= 0 else ()
    pending = c.pending
    seen_by: list[Whereabouts] = [c.known[p] if p == me else c.public[p].value for p in range(len(players))]
    goals_unseen = frozenset(g for g in GOALS if not c.seen_goals & g.bit)
    return RabView(
        player=player,
        phase=c.phase.value,
        round=c.round,
        in_turn=players[c.turn],
        to_move=state.to_move,
        waiting=state.waiting.what,
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
        discards={p: tuple(INFLUENCE[k] for k in bits(seen_by[i].known(DISCARD))) for i, p in enumerate(players)},
        own=own,
        others={p: c.public[i].value for i, p in enumerate(players) if i != me},
        goal_stacks=tuple(len(s) for s in c.stacks),
        unseen_goals=goals_unseen,
        won={p: c.won[i] for i, p in enumerate(players)},
        results=c.results,
        totals=state.totals,
        outcome=c.outcome,
    )



def kept_by(setup: RabSetup, moves: Sequence[Move], player: str) -> tuple[RabSetup, list[Move]]:
    """The record of a game as ``player``'s own companion keeps it: their hand, their
    placements and draws named; every other player's hand, placements, draws and unturned
    victims unseen; the goal stacks unseen; everything face up named (B29)."""
    from companion.games.ruse_and_bruise.game import RabState

    me = setup.players.index(player)
    hands = None if setup.hands is None or setup.hands[me] is None else tuple(h if i == me else None for i, h in enumerate(setup.hands))
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
