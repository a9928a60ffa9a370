"""Love, Money, Power, Death's coaching knowledge, as the coach's search asks for it
(:class:`~companion.coach.model.CoachModel`): the game's parts of the coach put together.

- cards: :mod:`.worlds` (the engine's resampling of one player's view: the other hands and
  commits, every pile, the noble pile's order; nothing is left to chance after that);
- decisions: :mod:`.policies` (a card of the hand, L6; the copies of a resource, and the
  agents, play out alike);
- playouts: to the end of the game, each player committing from their own view, the advised
  player as :data:`PLAIN`, every other player in the style their world seats them with
  (:mod:`.styles`); and how the round of the commit went (:func:`~.reasons.watch_round`);
- worlds: :class:`~.styles.StyledWorlds` (:mod:`.worlds`' deal, the others' styles, their
  commits face down and hands fitted to them);
- the value of the game's end: :mod:`.outcome` (L13; the chance to win is exact);
- words: :func:`~.policies.describe`, :func:`~.reasons.category_reasons`,
  :func:`~.reasons.risks`;
- the rule-of-thumb players it is measured against: the game's own
  (:data:`~companion.games.love_money_power_death.policies.VIEW_PLAYERS`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from companion.coach.model import CoachModel, Policy, Watched, World
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.coach.outcome import CATEGORIES, FEATS, GameValue, game_value
from companion.games.love_money_power_death.coach.policies import RolloutPolicy, alike, decisions, describe, play_out
from companion.games.love_money_power_death.coach.reasons import Risk, RoundWatch, category_reasons, risks, watch_round
from companion.games.love_money_power_death.coach.styles import Seats, StyledWorlds
from companion.games.love_money_power_death.coach.worlds import PlayoutState
from companion.games.love_money_power_death.moves import Commit, Deal, Draw, Move, Reveal
from companion.games.love_money_power_death.policies import VIEW_PLAYERS
from companion.games.love_money_power_death.state import LmpdState, Phase
from companion.games.love_money_power_death.view import LmpdView

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["MODEL", "LmpdCoach", "PLAIN", "OPPONENTS"]

PLAIN = RolloutPolicy(noise=0.0)
"""The quick player without its randomness: what the coach plays unless the search finds
better."""

OPPONENTS = ("rule-of-thumb", "eager", "cautious", "counter")
"""The rule-of-thumb players the coach is measured against (docs/coach.md)."""

_WAITS = {
    Phase.DEAL: "the deal",
    Phase.NOBLE: "the noble to be turned up",
    Phase.REVEAL: "the reveal",
    Phase.DRAW: "the draw",
    Phase.OVER: "nothing: the game is over",
}


class LmpdCoach:
    """Love, Money, Power, Death's :class:`~companion.coach.model.CoachModel`. Its scoring
    period is the whole game: every playout runs to the game's end (ten rounds at most)."""

    categories = CATEGORIES
    feats = FEATS
    period = "game"

    # -- the position

    def waits_for(self, state: LmpdState) -> str:
        return _WAITS.get(state.phase, state.phase.value)

    def position(self, state: LmpdState) -> str:
        """``(round 3 of 10); 8 nobles face down: N2L N2M ...; committed: bob``: what everybody
        sees."""
        left = state.nobles_left
        committed = ", ".join(state.committed) or "nobody yet"
        return (
            f"(round {state.round_number} of {state.setup.rounds}); {len(left)} noble{'s' if len(left) != 1 else ''} "
            f"face down: {' '.join(c.id for c in left)}; committed: {committed}"
        )

    def period_of(self, state: LmpdState) -> int:
        """1: the coach's period is the game (the review's marks name the move's line)."""
        return 1

    def unseen_cards(self, moves: Sequence[Move]) -> int:
        """Cards that came into a hand (dealt, or drawn, L5, L11) and that the record, once
        completed, never names."""
        players: tuple[str, ...] = ()
        deal: Deal | None = None
        draws = 0
        named: set[tuple[str, Card]] = set()
        for move in moves:
            if isinstance(move, Deal):
                deal = move
            elif isinstance(move, Draw):
                draws += 1
                players = tuple(p for p, _ in move.cards)
                named.update((p, c) for p, c in move.cards if isinstance(c, Card))
            elif isinstance(move, Reveal):
                players = tuple(p for p, _ in move.cards)
                named.update((p, c) for p, c in move.cards if isinstance(c, Card))
            elif isinstance(move, Commit) and isinstance(move.card, Card):
                named.add((move.player, move.card))
        if deal is None or not players:
            return 0
        pile = 42 // len(players)
        for p in players:
            given = deal.pile_of(p)
            top = given[:3] if given is not None else deal.hand_of(p) or ()
            named.update((p, c) for c in top if type(c) is Card)
        entered = len(players) * (min(3, pile) + max(0, min(draws, pile - 3)))
        return max(0, entered - len(named))

    # -- the search

    def worlds(self, state: LmpdState, player: str) -> StyledWorlds:
        return StyledWorlds(state, player)

    def decisions(self, state: LmpdState, player: str) -> dict[Hashable, list[Move]]:
        return decisions(state, player)

    def alike(self, move: Move) -> Hashable:
        return alike(move)

    def fork(self, world: World) -> World:
        return World(PlayoutState.of(world.state), world.chance)

    def realize(self, state: LmpdState, decision: Move, chance: Any, rng: random.Random) -> Move:
        """The commit itself: nothing in it is left to chance (L6)."""
        return decision

    def policy(self) -> RolloutPolicy:
        """The advised player's own later commits in the playouts: the quick player without
        its randomness (:data:`PLAIN`), the commits the coach itself would mostly make; the
        other players commit in their world's style (:mod:`.styles`)."""
        return PLAIN

    def opponents(self) -> dict[str, Policy]:
        """The documented rule-of-thumb players (docs/coach.md), each reading its own view:
        ``rule-of-thumb``, ``eager``, ``cautious`` and ``counter``."""
        return {name: VIEW_PLAYERS[name] for name in OPPONENTS}

    def plain_move(self, view: LmpdView) -> Move:
        """The quick player's commit, without randomness."""
        return PLAIN(view, random.Random(0))

    def watch(self, state: LmpdState, player: str, chance: Seats, rng: random.Random, policy: Policy) -> RoundWatch:
        """How the round of the commit goes for the player (the table is played on to its
        reveal)."""
        return watch_round(state, player, chance, rng, policy)

    def play_out(self, state: LmpdState, chance: Seats, rng: random.Random, policy: Policy) -> None:
        play_out(state, chance, rng, policy)

    def value(self, state: LmpdState, player: str) -> GameValue:
        return game_value(state, player)

    # -- words

    def describe(self, move: Move) -> str:
        return describe(move)

    def move_json(self, move: Move) -> dict[str, Any]:
        """``card``: the card committed."""
        card = getattr(move, "card", None)
        return {"card": card.id if type(card) is Card else None}

    def reasons(self, item: MoveAdvice, other: MoveAdvice) -> list[str]:
        return category_reasons(item, other)

    def risks(self, worlds: StyledWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
        return risks(watched)


MODEL: CoachModel = LmpdCoach()
"""Love, Money, Power, Death's model, as ``GAME.coach()`` gives it."""
