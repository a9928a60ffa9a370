"""The cards a player cannot see: what ``player`` may know (their :class:`~companion.games.
rule_of_power.engine.view.PlayerView`, the rulebook's "count the cards"), and a position with
every hidden card placed, drawn from that view (:mod:`.sampling`) or given, for searches that
play samples out (the coach's determinized playouts)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.position import GameBase
from companion.contract.errors import InvalidMoveError

if TYPE_CHECKING:
    import random

    from companion.games.rule_of_power.engine.game import GameState
    from companion.games.rule_of_power.engine.view import PlayerView

__all__ = ["Hidden"]


class Hidden(GameBase):
    """The state's part for hidden cards: a player's view, and the position with them placed."""

    if TYPE_CHECKING:

        def copy(self, *, keep_history: bool = True) -> GameState: ...

    def view(self, player: str) -> PlayerView:
        """What ``player`` may know (the rulebook's "count the cards"): their own hand, the
        public table, and the World cards they cannot place (:attr:`PlayerView.unseen`)."""
        from companion.games.rule_of_power.engine.view import make_view

        return make_view(cast("GameState", self), self._seat[player])

    def resample(self, player: str, rng: random.Random) -> GameState:
        """A copy of this position (its move stack empty) with every card ``player`` cannot
        see drawn at random from their view (:mod:`~companion.games.rule_of_power.engine.
        sampling`): the other hands, the World deck, every Fate deck's order."""
        from companion.games.rule_of_power.engine.sampling import Sampler

        world = Sampler(cast("GameState", self), player).sample(rng)
        return self.with_hidden_cards(world.hands, world.fate_hands, world.fate_decks, world.deck, known_by=player)

    def with_hidden_cards(
        self,
        hands: Mapping[str, tuple[Card, ...]],
        fate_hands: Mapping[str, tuple[Card, ...]],
        fate_decks: Mapping[str, tuple[Card, ...]],
        deck: Iterable[Card],
        *,
        known_by: str | None = None,
    ) -> GameState:
        """A copy of this position (its move stack empty) in which every card nobody can see is
        placed: each player's World hand, Fate hand and Fate deck (top first) as given, and the
        World deck holding ``deck``. The public table stays as it is: centre, capture stacks,
        sweeps, Fate cards in play, discards, scores.

        This is for searches that sample what one player cannot see and play the samples out
        (the coach's determinized playouts). Each World hand must hold as many cards as that
        player holds now (:class:`InvalidMoveError` otherwise); the Fate decks, once placed,
        are known in order. Of what players know to have been passed on (R22), only
        ``known_by``'s knowledge stays, where the sample keeps those cards with their holder.
        """
        c = self._core
        for i, p in enumerate(self.players):
            if len(hands[p]) != len(c.hands[i]) + c.hidden[i]:
                raise InvalidMoveError(f"{p} holds {len(c.hands[i]) + c.hidden[i]} World cards, not {len(hands[p])}")
        new = self.copy(keep_history=False)
        core = new._core
        n = self._n
        core.hands = [tuple(hands[p]) for p in self.players]
        core.hidden = (0,) * n
        core.fate_hands = [tuple(fate_hands.get(p, ())) for p in self.players]
        core.fate_hidden = (0,) * n
        core.fate_decks = [tuple(fate_decks.get(p, ())) for p in self.players]
        core.fate_order_known = True
        core.fate_sets = None
        core.pool = frozenset(deck)
        viewer = self._seat.get(known_by) if known_by is not None else None
        # What the viewer still knows (the card is where they saw it go), and the sample kept.
        core.revealed = tuple(r for r in c.revealed if r[0] == viewer and r[1] in c.hands[r[2]] and r[1] in core.hands[r[2]])
        return new
