"""Circle of Power's coaching knowledge, as the coach's search asks for it
(:class:`~companion.coach.model.CoachModel`): the game's parts of the coach put together.

- worlds: :mod:`.worlds` (the engine's resampling of one player's view; chance the order of
  the battle deck, of the city deck and of the reshuffle, C6-C8, C15); each playout runs on a
  :class:`~.worlds.PlayoutState`, which tallies what the acts do;
- decisions: :mod:`.policies` (a card, the card drawn after it drawn in the world by
  :func:`~.policies.realize`, C8; an act, C10-C14; a dummy's move is the rules', C11; retakes
  and regroups that differ only by the trophy discarded play out alike);
- playouts: :class:`~.policies.RolloutPolicy` to the end of the season, each player deciding
  from their own view (:class:`~companion.games.circle_of_power.view.CircleView`), the dummies
  by the rules; and who wins the first action after the decision and what they do with it
  (:func:`~.reasons.watch_action`);
- the value of a season's end: :mod:`.outcome` (C16-C20);
- words: :func:`~.policies.describe`, :func:`~.reasons.category_reasons`,
  :func:`~.reasons.risks`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from companion.coach.model import CoachModel, Policy, Watched, World
from companion.games.circle_of_power.coach.outcome import CATEGORIES, FEATS, SeasonValue, season_value
from companion.games.circle_of_power.coach.policies import RolloutPolicy, alike, decisions, describe, play_out, realize
from companion.games.circle_of_power.coach.reasons import ActionWatch, Risk, category_reasons, risks, watch_action
from companion.games.circle_of_power.coach.worlds import Chance, CircleWorlds, PlayoutState
from companion.games.circle_of_power.coach.opponents import OPPONENTS
from companion.games.circle_of_power.coach.tables import TABLES
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import UNSEEN, Conquer, Move, Play, Regroup, Reshuffle, Retake, Season
from companion.games.circle_of_power.setup import LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.view import CircleView

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["MODEL", "CircleOfPowerCoach", "PLAIN"]

PLAIN = RolloutPolicy(noise=0.0)
"""The quick player without its randomness (at a table of more than two players, the counting
player): what the coach plays unless the search finds better."""

_WAITS = {
    Phase.SEASON: "the next season to be dealt",
    Phase.REVEAL: "the next city card to be turned up",
    Phase.RESHUFFLE: "the battle deck to be reshuffled",
    Phase.OVER: "nothing: the game is over",
}


class CircleOfPowerCoach:
    """Circle of Power's :class:`~companion.coach.model.CoachModel`; its scoring period is the
    season."""

    categories = CATEGORIES
    feats = FEATS
    period = "season"

    # -- the position

    def waits_for(self, state: CircleState) -> str:
        return _WAITS.get(state.phase, state.phase.value)

    def position(self, state: CircleState) -> str:
        """``(season 1, action 3); cities: ann KH, bob QS, @1 X1, @2 AC; next city JD; played:
        bob 7H, @1 2C``: what everybody sees."""
        cities = ", ".join(f"{n} {c.id if c is not None else '-'}" for n, c in state.cities.items())
        nxt = state.next_city.id if state.next_city is not None else "none"
        played = ", ".join(f"{n} {c.id}" for n, c in state.played) or "nothing yet"
        return f"(season {state.season_number}, action {state.action_number}); cities: {cities}; next city {nxt}; played: {played}"

    def period_of(self, state: CircleState) -> int:
        return state.season_number

    def unseen_cards(self, moves: Sequence[Move]) -> int:
        """Battle cards dealt face down (C6), put on a dummy's pile at the reshuffle (C15) or
        drawn (C8) that the record never names, after completion."""
        n = 0
        plays = 0
        seats: tuple[str, ...] = ()
        for move in moves:
            if type(move) is Season:
                plays = 0
                seats = move.seats
                hands = dict(move.hands)
                piles = dict(move.piles)
                for name in move.seats:
                    given = piles.get(name) if is_dummy(name) else hands.get(name)
                    size = 9 if is_dummy(name) else 3
                    n += size if given is None else sum(1 for x in given if x is UNSEEN)
            elif type(move) is Reshuffle:
                counted = dict(move.piles)
                for name in (x for x in seats if is_dummy(x)):
                    given = counted.get(name)
                    n += 6 if given is None else sum(1 for x in given if x is UNSEEN)
            elif type(move) is Play:
                plays += 1
                if not is_dummy(move.player) and move.drew is None and plays <= 48:
                    n += 1  # C15: players draw after each play of actions 1-12
        return n

    # -- the search

    def worlds(self, state: CircleState, player: str) -> CircleWorlds:
        return CircleWorlds(state, player)

    def decisions(self, state: CircleState, player: str) -> dict[Hashable, list[Move]]:
        return decisions(state, player)

    def alike(self, move: Move) -> Hashable:
        return alike(move)

    def fork(self, world: World) -> World:
        return World(PlayoutState.of(world.state), world.chance.copy())

    def realize(self, state: CircleState, decision: Move, chance: Chance, rng: random.Random) -> Move:
        return realize(state, decision, chance, rng)

    def policy(self) -> RolloutPolicy:
        return RolloutPolicy()

    def opponents(self) -> dict[str, Policy]:
        """The rule-of-thumb, greedy, cautious and counting players (:mod:`.opponents`)."""
        return dict(OPPONENTS)

    def tables(self) -> dict[str, Callable[[random.Random], CircleState]]:
        """The tables the coach is measured at: 2 players (and two dummies, C4) and 4, in each
        variant (C18, C19), each a maker of a season's opening."""
        return dict(TABLES)

    def points(self, state: CircleState) -> dict[str, float]:
        """Each emperor's points of the season just ended, as the bench compares them: its
        trophies (C16); in Lonely Tyrant, where nobody scores, the holy cities it lost, counted
        against it (C18)."""
        result = state.results[-1]
        if state.variant == LONELY_TYRANT:
            return {name: -float(result.destroyed.get(name, 0)) for name in state.seats}
        return {name: float(result.points.get(name, 0)) for name in state.seats}

    def plain_move(self, view: CircleView) -> Move:
        """The quick player's decision, without randomness: a card (without the card drawn
        after it), or an act."""
        return PLAIN(view, random.Random(0))

    def watch(self, state: CircleState, player: str, chance: Chance, rng: random.Random, policy: Policy) -> ActionWatch:
        """Who wins the first action decided after the move and what they do with it (the table
        is played on to that act)."""
        return watch_action(state, player, chance, rng, policy)

    def play_out(self, state: CircleState, chance: Chance, rng: random.Random, policy: Policy) -> None:
        play_out(state, chance, rng, policy)

    def value(self, state: CircleState, player: str) -> SeasonValue:
        return season_value(state, player)

    # -- words

    def describe(self, move: Move) -> str:
        return describe(move)

    def move_json(self, move: Move) -> dict[str, Any]:
        """``act`` (``play``, ``conquer``, ``retake``, ``regroup``), ``card``, ``victim``,
        ``keep`` (Coloured Cities, C19) and ``discard`` (the trophy a retake or a rebellion
        costs)."""
        if type(move) is Play:
            return {"act": "play", "card": move.card.id, "victim": None, "keep": None, "discard": None}
        if type(move) is Conquer:
            return {"act": "conquer", "card": None, "victim": move.victim, "keep": move.keep, "discard": None}
        if type(move) is Retake:
            discard = move.discard.id if move.discard is not None else None
            return {"act": "retake", "card": None, "victim": move.victim, "keep": None, "discard": discard}
        if type(move) is Regroup:
            discard = move.discard.id if move.discard is not None else None
            return {"act": "regroup", "card": None, "victim": None, "keep": None, "discard": discard}
        return {"act": type(move).__name__.lower(), "card": None, "victim": None, "keep": None, "discard": None}

    def reasons(self, item: MoveAdvice, other: MoveAdvice) -> list[str]:
        return category_reasons(item, other)

    def risks(self, worlds: CircleWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
        return risks(worlds, watched)


MODEL: CoachModel = CircleOfPowerCoach()
"""Circle of Power's model, as ``GAME.coach()`` gives it."""
