"""Rule of Power's coaching knowledge, as the coach's search asks for it
(:class:`~companion.coach.model.CoachModel`): the game's parts of the coach put together.

- worlds: the engine's sampler (:mod:`~companion.games.rule_of_power.engine.sampling`), the
  other hands dealt again as the plays of the deal under way tell (:mod:`.reading`), each
  sample embodied as a state, its World deck (top last) the chance of the playouts;
- decisions and their chance: :mod:`.policies` (a Renewal's card, R25, a Mirror Swap's blind
  picks, R22, and Dark Decay's discards, R21, are drawn in the sampled world by
  :func:`~.policies.realize`; two plain cards of one value play out alike, R1);
- the move played unless the search finds better: the quick player's, at a table of teams the
  counting player's (:func:`~.opponents.counting_move`);
- playouts: :class:`~.policies.RolloutPolicy` to the end of the round, each player deciding
  from their own view (:class:`~companion.games.rule_of_power.engine.view.PlayerView`), and
  what the next players could take meanwhile (:class:`~.reasons.ThreatCounter`);
- the value of a round's end: :mod:`.outcome` (R6-R14);
- words: :func:`~.policies.describe`, :func:`~.reasons.category_reasons` and
  :func:`~.reasons.risk_reasons`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from companion.coach.model import CoachError, CoachModel, Watched, World
from companion.games.rule_of_power.coach.outcome import CATEGORIES, FEATS, RoundValue, round_value
from companion.games.rule_of_power.coach.policies import (
    Policy,
    RolloutPolicy,
    decisions,
    describe,
    equivalence_key,
    interchange,
    play_out,
    realize,
)
from companion.games.rule_of_power.coach.opponents import OPPONENTS, counting_move
from companion.games.rule_of_power.coach.reading import DealReading
from companion.games.rule_of_power.coach.tables import TABLES
from companion.games.rule_of_power.coach.reasons import Risk, ThreatCounter, category_reasons, follow_until_turn, risk_reasons
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, Move
from companion.games.rule_of_power.engine.sampling import Sampler, SamplingError, embody
from companion.games.rule_of_power.engine.view import PlayerView

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["MODEL", "RuleOfPowerCoach", "RuleOfPowerWorlds"]

_PLAIN = RolloutPolicy(noise=0.0, fate_rate=0.0)


class RuleOfPowerWorlds:
    """Worlds drawn from ``player``'s view of ``game`` (of which it keeps a copy): every hidden
    hand, Fate deck and the World deck's order, R18; the other hands dealt as the plays of the
    deal under way tell (:class:`~.reading.DealReading`) when the game's history is kept."""

    def __init__(self, game: GameState, player: str) -> None:
        try:
            self.sampler = Sampler(game, player)
        except SamplingError as exc:
            raise CoachError(str(exc)) from None
        self.reading = DealReading(game, player, self.sampler.unseen)
        self.game = game.copy(keep_history=False)
        self.player = player
        self.unseen = tuple(self.sampler.unseen)
        """The World cards the player cannot place, for the risks' counts."""

    def sample(self, rng: random.Random) -> World:
        world = self.sampler.sample(rng)
        if self.reading:
            world = self.reading.redeal(world, rng)
        return World(embody(self.game, world), world.deck)


class RuleOfPowerCoach:
    """Rule of Power's :class:`~companion.coach.model.CoachModel`; its scoring period is the round."""

    categories = CATEGORIES
    feats = FEATS
    period = "round"

    def waits_for(self, state: GameState) -> str:
        return {"over": "nothing: it is over", "deal": "the next deal", "round": "the next round"}.get(state.phase.value, state.phase.value)

    def position(self, state: GameState) -> str:
        centre = ", ".join(c.label for c in state.centre) or "empty"
        return f"(round {state.round_number}, deal {state.deal_number}); centre: {centre}"

    def period_of(self, state: GameState) -> int:
        return state.round_number

    def unseen_cards(self, moves: Sequence[Move]) -> int:
        """Cards dealt face down (R17) that completion could not fill in."""
        return sum(1 for m in moves if isinstance(m, Deal) for _, cards in m.hands for c in cards if c is UNSEEN)

    def worlds(self, state: GameState, player: str) -> RuleOfPowerWorlds:
        return RuleOfPowerWorlds(state, player)

    def decisions(self, state: GameState, player: str) -> dict[Hashable, list[Move]]:
        return decisions(state) if state.turn == player else {}

    def alike(self, move: Move) -> Hashable:
        return equivalence_key(move)

    def fork(self, world: World) -> World:
        return World(world.state.copy(keep_history=False), world.chance[:])

    def realize(self, state: GameState, decision: Move, chance: list[Card], rng: random.Random) -> Move:
        return realize(state, decision, chance, rng)

    def policy(self) -> Policy:
        return RolloutPolicy()

    def opponents(self) -> dict[str, Policy]:
        """The greedy, the cautious and the counting player (:mod:`.opponents`)."""
        return dict(OPPONENTS)

    def tables(self) -> dict[str, Callable[[random.Random], GameState]]:
        """The tables the coach is measured at, each a maker of a round's opening, dealt (R15):
        two players and four in two teams (R16), each with Fate decks or without (R18), with
        the Higher Powers expansion or without (R2)."""
        return dict(TABLES)

    def plain_move(self, view: PlayerView) -> Move:
        """What the coach plays unless the search finds another decision clearly better: at a
        table of teams (R16), the counting player's decision (:func:`~.opponents.counting_move`),
        which the coach measured better for it there; elsewhere the quick player's, without its
        randomness (the counting player's measured level with it at two players)."""
        if view.setup.teams:
            return counting_move(view, random.Random(0))
        return _PLAIN(view, random.Random(0))

    def watch(self, state: GameState, player: str, chance: list[Card], rng: random.Random, policy: Policy) -> ThreatCounter:
        """What the next player could take right after the move, and what the opponents take
        up to the player's next turn (the table is played on to it)."""
        threats = ThreatCounter()
        threats.observe(state, player)
        follow_until_turn(state, player, chance, rng, policy, threats)
        return threats

    def play_out(self, state: GameState, chance: list[Card], rng: random.Random, policy: Policy) -> None:
        play_out(state, chance, rng, policy)

    def value(self, state: GameState, player: str) -> RoundValue:
        return round_value(state, state.setup.side_of(player))

    def describe(self, move: Move) -> str:
        return describe(move)

    def move_json(self, move: Move) -> dict[str, Any]:
        return {
            "card": move.card.id if hasattr(move, "card") else None,
            "capture": [c.id for c in getattr(move, "capture", ())],
            "target": getattr(move, "target", None),
            "kind": type(move).__name__.lower(),
        }

    def reasons(self, item: MoveAdvice, other: MoveAdvice) -> list[str]:
        return category_reasons(item, other)

    def risks(self, worlds: RuleOfPowerWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
        """Each decision's risks; alike decisions share their counts, their interchangeable
        cards renamed (R1). A valuable card is exposed if another decision would take it."""
        takeable = frozenset(c for group in watched for _, m in group.members for c in getattr(m, "capture", ()))
        out: dict[Hashable, list[Risk]] = {}
        for group in watched:
            played = group.members[0][1]
            for key, move in group.members:
                threats = group.watch.renamed(interchange(played, move))
                out[key] = risk_reasons(threats, threats.centre, move, worlds.game, worlds.player, worlds.unseen, takeable)
        return out


MODEL: CoachModel = RuleOfPowerCoach()
"""Rule of Power's model, as ``GAME.coach()`` gives it."""
