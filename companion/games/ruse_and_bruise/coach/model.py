"""Ruse and Bruise's coaching knowledge, as the coach's search asks for it
(:class:`~companion.coach.model.CoachModel`): the game's parts of the coach put together.

- worlds: :mod:`.worlds` (the engine's resampling of one player's view; a card drawn is drawn
  in the world, B9); each playout runs on a :class:`~.worlds.PlayoutState`, which notes the
  decision played out;
- decisions: :mod:`.policies` (a card and its column, B8; a Cloak's card or none, B14; a
  Traitor's column or none, B15; the card drawn after it drawn in the world by
  :func:`~.policies.realize`);
- playouts: :class:`~.policies.RolloutPolicy` to the end of the round, each player deciding
  from their own view (:class:`~companion.games.ruse_and_bruise.view.RabView`), the table's
  moves (a card turned over, an ability, the reveal, the distribution) by the rules;
- what became of the decision up to the player's next one (:func:`~.reasons.watch_turn`);
- the value of a round's end: :mod:`.outcome` (B26-B28);
- words: :func:`~.policies.describe`, :func:`~.reasons.category_reasons`,
  :func:`~.reasons.risks`;
- the rule-of-thumb players it is measured against: :mod:`.opponents`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from companion.coach.model import CoachModel, Policy, Watched, World
from companion.contract.cards import Unseen
from companion.games.ruse_and_bruise.coach.games import Luck, play_game
from companion.games.ruse_and_bruise.coach.opponents import OPPONENTS
from companion.games.ruse_and_bruise.coach.outcome import CATEGORIES, FEATS, RoundValue, round_value
from companion.games.ruse_and_bruise.coach.policies import RolloutPolicy, alike, decisions, describe, play_out, realize
from companion.games.ruse_and_bruise.coach.reasons import Risk, TurnWatch, category_reasons, risks, watch_turn
from companion.games.ruse_and_bruise.coach.worlds import PlayoutState, RabWorlds
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Pass, Place, Round, Swap
from companion.games.ruse_and_bruise.view import RabView

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["MODEL", "RuseAndBruiseCoach", "PLAIN"]

PLAIN = RolloutPolicy(noise=0.0)
"""The quick player without its randomness: what the coach plays unless the search finds
better."""

_WAITS = {
    Phase.ROUND: "the next round's goal cards to be turned over",
    Phase.TURN: "a card to be turned over",
    Phase.ABILITY: "an immediate ability to be carried out",
    Phase.REVEAL: "the face-down cards to be turned over at the round's end",
    Phase.DISTRIBUTE: "the goal cards to be distributed",
    Phase.OVER: "nothing: the game is over",
}


class RuseAndBruiseCoach:
    """Ruse and Bruise's :class:`~companion.coach.model.CoachModel`; its scoring period is the
    round."""

    categories = CATEGORIES
    feats = FEATS
    period = "round"

    # -- the position

    def waits_for(self, state: RabState) -> str:
        return _WAITS.get(state.phase, state.phase.value)

    def position(self, state: RabState) -> str:
        """``(round 2); 1 music-3a 2/3: KING ann, back bob; 2 trade-1 ...``: what everybody
        sees."""
        parts = []
        for col in state.columns:
            goal = col.goal.id if col.goal is not None else "-"
            cards = ", ".join(f"{card.id} {owner}" if up and card is not None else f"back {owner}" for owner, card, up in col.cards) or "empty"
            done = " closed" if col.closed else ""
            parts.append(f"{col.number} {goal} {col.holds}/{col.needs}{done}: {cards}")
        return f"(round {state.round_number}); " + "; ".join(parts)

    def period_of(self, state: RabState) -> int:
        return max(1, state.round_number)

    def unseen_cards(self, moves: Sequence[Move]) -> int:
        """Cards placed or drawn that the record never names (B29), after completion: the
        starting hands are the set-up's and not counted here."""
        n = 0
        for move in moves:
            t = type(move)
            if t is Place:
                assert isinstance(move, Place)
                n += isinstance(move.card, Unseen)
            elif t is Cloak:
                assert isinstance(move, Cloak)
                n += move.placed and isinstance(move.card, Unseen)
            elif t is Round:
                assert isinstance(move, Round)
                n += sum(1 for _, cards in move.drew for c in cards if isinstance(c, Unseen))
        return n

    # -- the search

    def worlds(self, state: RabState, player: str) -> RabWorlds:
        return RabWorlds(state, player)

    def decisions(self, state: RabState, player: str) -> dict[Hashable, list[Move]]:
        return decisions(state, player)

    def alike(self, move: Move) -> Hashable:
        return alike(move)

    def fork(self, world: World) -> World:
        return World(PlayoutState.of(world.state), None)

    def realize(self, state: RabState, decision: Move, chance: Any, rng: random.Random) -> Move:
        return realize(state, decision, chance, rng)

    def policy(self) -> RolloutPolicy:
        return RolloutPolicy()

    def tables(self) -> dict[str, Callable[[random.Random], RabState]]:
        """The tables the coach is measured at (``./run bench coach``): 2 and 4 players with
        the rulings' example values table (B4), each a maker of the game's opening: every
        card dealt and seen, as at a table the companion follows by its sensors (each goal
        stack and hand, B6; the first round's goal cards, B7), up to the first placement."""
        from companion.games.ruse_and_bruise import GAME
        from companion.games.ruse_and_bruise.policies import deal
        from companion.games.ruse_and_bruise.values import EXAMPLE

        def opening(players: int) -> Callable[[random.Random], RabState]:
            names = GAME.default_players(players)

            def make(rng: random.Random) -> RabState:
                state = GAME.new_state(deal(names, EXAMPLE, rng), keep_history=False)
                while not state.deciding and not state.is_game_over():
                    state.push(GAME.chance_move(state, rng))
                return state

            return make

        return {f"{n} players": opening(n) for n in (2, 4)}

    def opponents(self) -> dict[str, Policy]:
        """The rule-of-thumb players (:mod:`.opponents`, docs/coach.md)."""
        return dict(OPPONENTS)

    def plain_move(self, view: RabView) -> Move:
        """The quick player's decision, without randomness."""
        return PLAIN(view, random.Random(0))

    def watch(self, state: RabState, player: str, chance: Any, rng: random.Random, policy: Policy) -> TurnWatch:
        """What became of the decision up to the player's next one (the table is played on to
        there)."""
        move = state.played if isinstance(state, PlayoutState) else None
        if move is None:
            watch = TurnWatch()
            watch.samples = 1
            return watch
        return watch_turn(state, player, move, rng, policy)

    def play_out(self, state: RabState, chance: Any, rng: random.Random, policy: Policy) -> None:
        play_out(state, rng, policy)

    def play_game(self, state: RabState, chance: Any, rng: random.Random, policy: Policy) -> None:
        """Play a complete world on to the game's end (B28), each player deciding by
        ``policy`` from their own view, the luck of the cards (each player's order of draws,
        B9, and of goal cards, B7) drawn first from ``rng``: two games played from the same
        ``rng`` state meet the same cards whatever the players decide. ``./run bench coach``
        measures the coach by whole games so: a game is scored at its end (B28), not by round."""
        luck = Luck.drawn(state.players, rng)
        play_game(state, luck, rng, lambda _state, view, r: policy(view, r))

    def value(self, state: RabState, player: str) -> RoundValue:
        return round_value(state, player)

    # -- words

    def describe(self, move: Move) -> str:
        return describe(move)

    def move_json(self, move: Move) -> dict[str, Any]:
        """``decision`` (``place``, ``cloak``, ``traitor``, ``pass``), ``column`` (the card's,
        or the Traitor's exchange), ``card`` (``null`` for nothing, or a card the companion
        has not seen)."""
        if type(move) is Place:
            assert isinstance(move, Place)
            return {"decision": "place", "column": move.column, "card": None if isinstance(move.card, Unseen) else move.card.id}
        if type(move) is Cloak:
            assert isinstance(move, Cloak)
            card = move.card.id if move.placed and move.card is not None and not isinstance(move.card, Unseen) else None
            return {"decision": "cloak", "column": None, "card": card, "placed": move.placed}
        if type(move) is Swap:
            assert isinstance(move, Swap)
            return {"decision": "traitor", "column": move.swap, "card": None}
        if type(move) is Pass:
            return {"decision": "pass", "column": None, "card": None}
        return {"decision": type(move).__name__.lower(), "column": None, "card": None}

    def reasons(self, item: MoveAdvice, other: MoveAdvice) -> list[str]:
        return category_reasons(item, other)

    def risks(self, worlds: RabWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
        return risks(worlds, watched)


MODEL: CoachModel = RuseAndBruiseCoach()
"""Ruse and Bruise's model, as ``GAME.coach()`` gives it."""
