"""The reshuffle (C15): after action 6 the 24 cards played in actions 1-6 become the new battle
deck, each dummy puts six of them on its pile, and the players keep their hands, which hold
the cards never played. Checked, carried out, told as effects and drawn at random."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import Card, cards_of_mask
from companion.games.circle_of_power.effects import BATTLE_DECK as BATTLE_DECK_ZONE
from companion.games.circle_of_power.effects import GATHERED, PILE, Effects, Transfer
from companion.games.circle_of_power.moves import UNSEEN, Reshuffle
from companion.games.circle_of_power.position import _RESHUFFLE, OLD, RESHUFFLE_PILE, SEATS, CircleBase
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    import random

__all__ = ["Reshuffling"]


class Reshuffling(CircleBase):
    """The state's part for the reshuffle (C15)."""

    if TYPE_CHECKING:

        @property
        def dummies(self) -> tuple[str, ...]: ...

        def _begin_action(self) -> None: ...

    def _random_reshuffle(self, rng: random.Random) -> Reshuffle:
        """C15: the cards of actions 1-6 shuffled, and each dummy's six new cards from them."""
        c = self._core
        deck = cards_of_mask(c.played_a)
        rng.shuffle(deck)
        piles = {}
        for name in self.dummies:
            piles[name] = [deck.pop() for _ in range(RESHUFFLE_PILE)]
        return Reshuffle.make(piles)

    def _check_reshuffle(self, move: Reshuffle) -> None:
        """C15: once, after action 6; each dummy's six new cards come from the 24 played in
        actions 1-6, each card once."""
        c = self._core
        if c.phase is not _RESHUFFLE:
            raise self._phase_problem("the battle deck cannot be reshuffled now (once, after action 6)", "C15")
        seen: set[str] = set()
        dealt = 0
        for name, cards in move.piles:
            i = self._emperor(name)
            if name in seen:
                raise InvalidMoveError(f"{name}'s new cards are given twice")
            seen.add(name)
            if not c.dummy[i]:
                raise IllegalMoveError("C15", f"{name} is a player and draws from the new battle deck; only dummies put six cards on their piles")
            if len(cards) != RESHUFFLE_PILE:
                raise IllegalMoveError("C15", f"each dummy puts {RESHUFFLE_PILE} cards on its pile, not {len(cards)} ({name})")
            for x in cards:
                if x is UNSEEN:
                    continue
                if not isinstance(x, Card):
                    raise InvalidMoveError(f"not a card: {x!r}")
                if x.bit & dealt:
                    raise IllegalMoveError("C15", f"{x.id} is put on a pile twice")
                if not x.bit & c.played_a:
                    raise IllegalMoveError(
                        "C15", f"the new battle deck holds the 24 cards played in actions 1-6, and {x.id} was not one of them"
                    )
                dealt |= x.bit

    def _apply_reshuffle(self, move: Reshuffle) -> None:
        """C15: the 24 cards of actions 1-6 make the new battle deck; each dummy puts its top 6
        on its pile; the hands kept from before hold the 12 cards never played."""
        c = self._core
        c.old_pool = c.pool
        c.hidden_old = c.hidden[:]
        c.hidden = [0] * SEATS
        pool = c.played_a
        dummies = 0
        for i in range(SEATS):
            if not c.dummy[i]:
                continue
            dummies += 1
            old = tuple(OLD if x is UNSEEN else x for x in c.piles[i])
            given = move.pile_of(c.seats[i]) or (UNSEEN,) * RESHUFFLE_PILE
            for x in given:
                if isinstance(x, Card):
                    pool &= ~x.bit
            c.piles[i] = tuple(given) + old
        c.pool = pool
        # The 24 cards of actions 1-6, less six for each dummy's pile (C15).
        c.deck_count = bin(c.played_a).count("1") - RESHUFFLE_PILE * dummies
        c.reshuffled = True
        self._begin_action()

    def _reshuffle_effects(self, move: Reshuffle) -> Effects:
        """C15: the cards gathered in actions 1-6 become the battle deck, and each dummy puts
        six of them on its pile."""
        c = self._core
        transfers = [Transfer(x, GATHERED, None, BATTLE_DECK_ZONE, None) for x in cards_of_mask(c.played_a)]
        for i, name in enumerate(c.seats):
            if c.dummy[i]:
                given = move.pile_of(name) or (UNSEEN,) * RESHUFFLE_PILE
                transfers.extend(Transfer(x, BATTLE_DECK_ZONE, None, PILE, name) for x in given)
        return Effects(None, kind="reshuffle", action=c.action, transfers=tuple(transfers))
