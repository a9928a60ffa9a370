"""An action's cards: the next available city turned up (C7), each emperor's battle card played
clockwise from the leader, a player drawing while the battle deck lasts and a dummy playing the
top of its pile (C8, C11, C15), and the initiative they give (C9). Checked, carried out and
told as effects.

The common move of a replay, a card seen in a hand or on top of a pile, is also checked and
carried out in one pass by :meth:`~companion.games.circle_of_power.game.CircleState.push`;
:meth:`Plays._played` is the bookkeeping both share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import Card, cards_of_mask
from companion.games.circle_of_power.effects import BATTLE_DECK as BATTLE_DECK_ZONE
from companion.games.circle_of_power.effects import HAND, PILE, TABLE, Effects, Initiative, Transfer
from companion.games.circle_of_power.moves import UNSEEN, Play, Reveal
from companion.games.circle_of_power.position import (
    _ACT,
    _PLAY,
    _REVEAL,
    OLD,
    RESHUFFLE_AFTER,
    SEATS,
    CircleBase,
    _Core,
)
from companion.games.circle_of_power.rules import TRUMP_BONUS, initiative, trump_suit, why_initiative
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    import random

__all__ = ["Plays"]


class Plays(CircleBase):
    """The state's part for the city turned up (C7), the plays (C8) and the initiative (C9)."""

    @property
    def initiative(self) -> Initiative | None:
        """Who holds the initiative of the current action so far and why (C9); ``None`` before
        its first card."""
        c = self._core
        if not c.plays or c.phase not in (_PLAY, _ACT):
            return None
        plays = self._plays_by_seat()
        k = initiative(plays, c.trumps)
        seat, card = plays[k]
        reason = why_initiative(c.seats, c.cities, c.next_city, plays, c.trumps)
        return Initiative(c.seats[seat], card, card.suit == c.trumps[seat], reason)

    def _plays_by_seat(self) -> list[tuple[int, Card]]:
        c = self._core
        return [((c.leader + k) % SEATS, card) for k, card in enumerate(c.plays)]

    # ------------------------------------------------------------------ the city turned up (C7)

    def _random_reveal(self, rng: random.Random) -> Reveal:
        """C7: a card of the city deck at random, the bottom joker when it is the last."""
        c = self._core
        left = cards_of_mask(c.city_pool)
        assert c.bottom is not None
        return Reveal(rng.choice(left) if left else c.bottom)

    def _check_reveal(self, move: Reveal) -> None:
        """C7: the card turned up is a city card still in the city deck, the bottom joker
        last."""
        c = self._core
        if c.phase is not _REVEAL:
            raise self._phase_problem("no city card is turned up now", "C7")
        card = move.card
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if not card.is_city:
            raise IllegalMoveError("C7", f"{card.id} is a battle card: the city deck holds J, Q, K, A and jokers (C2)")
        if c.city_pool & card.bit:
            return
        if card is c.bottom:
            if c.city_pool:
                left = c.city_left - 1
                raise IllegalMoveError(
                    "C7", f"{card.id} lies at the bottom of the city deck and comes out last: {left} card{'s' if left != 1 else ''} lie above it"
                )
            return
        if c.city_pool == 0:
            raise IllegalMoveError("C7", f"only the bottom joker {c.bottom.id if c.bottom else ''} is left in the city deck, not {card.id}")
        raise IllegalMoveError("C7", f"{card.id} is not in the city deck: {self._city_where(card)}")

    def _city_where(self, card: Card) -> str:
        """Where a city card that is not in the city deck lies, for a message."""
        c = self._core
        for name, city in zip(c.seats, c.cities):
            if city is card:
                return f"it is {name}'s city"
        for name, line in zip(c.seats, c.trophies):
            if card in line:
                return f"it is {name}'s trophy"
        for name, line in zip(c.seats, c.destroyed):
            if card in line:
                return f"it was destroyed, in {name}'s line"
        if card in c.discards:
            return "it was discarded"
        if card is c.next_city:
            return "it is the next available city"
        return "it came out of the city deck this season"

    def _apply_reveal(self, move: Reveal) -> None:
        """C7: the top card of the city deck is turned up, and the plays begin."""
        c = self._core
        c.next_city = move.card
        c.city_pool &= ~move.card.bit
        self._begin_plays()

    def _begin_action(self) -> None:
        """C7: the next available city is turned up first when the deck has one and none lies
        face up; then the plays begin."""
        c = self._core
        if c.next_city is None and c.city_left > 0:
            c.phase = _REVEAL
            c.turn = -1
        else:
            self._begin_plays()

    def _begin_plays(self) -> None:
        """C8, C9: the plays begin with the leader, each emperor's trump suit set for the
        action."""
        c = self._core
        nxt = c.next_city
        c.trumps = tuple([trump_suit(city, nxt) for city in c.cities])
        c.plays = ()
        c.best = -1
        c.best_key = -1
        c.turn = c.leader
        c.phase = _PLAY

    # ------------------------------------------------------------------ the plays (C8, C9)

    def _check_play(self, move: Play) -> None:
        """C8: the emperor whose turn it is, clockwise from the leader, plays a battle card."""
        c = self._core
        if c.phase is not _PLAY:
            raise self._phase_problem(f"{move.player} cannot play a card")
        i = self._emperor(move.player)
        name = move.player
        card = move.card
        drew = move.drew
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if drew is not None and not isinstance(drew, Card):
            raise InvalidMoveError(f"not a card: {drew!r}")
        if i != c.turn:
            leader = c.seats[c.leader]
            raise IllegalMoveError(
                "C8",
                f"it is {c.seats[c.turn]}'s turn to play in action {c.action} "
                f"(clockwise from {leader}, who leads it), not {name}'s",
            )
        if not card.is_battle:
            raise IllegalMoveError("C8", f"{name} plays a battle card (2-10, C2), and {card.id} is a city card")
        if c.dummy[i]:
            self._check_pile_card(i, card, drew)
        else:
            self._check_hand_card(i, card, drew)

    def _check_pile_card(self, i: int, card: Card, drew: Card | None) -> None:
        """C8, C11: a dummy plays the top card of its pile and draws nothing (C6, C15)."""
        c = self._core
        name = c.seats[i]
        if drew is not None:
            raise IllegalMoveError("C8", f"{name} is a dummy and draws no card: its pile holds its cards (C6, C15)")
        top = c.piles[i][0]
        if isinstance(top, Card):
            if top is not card:
                raise IllegalMoveError("C8", f"{name} plays the top card of its pile, {top.id}, not {card.id}")
        elif not (c.pool if top is UNSEEN else c.old_pool) & card.bit:
            raise IllegalMoveError("C8", f"{card.id} cannot be the top card of {name}'s pile{self._where(card, top)}")

    def _check_hand_card(self, i: int, card: Card, drew: Card | None) -> None:
        """C8: a player plays a card of their hand (one they were dealt unseen, or drew unseen,
        may be any card still hidden) and draws from the battle deck while it has cards, which
        ran out with the draws of action 12 (C15)."""
        c = self._core
        name = c.seats[i]
        bit = card.bit
        pool = c.pool
        if card not in c.hands[i]:
            if c.hidden[i] and pool & bit:
                pool &= ~bit
            elif not (c.hidden_old[i] and c.old_pool & bit):
                raise IllegalMoveError("C8", f"{card.id} is not in {name}'s hand{self._where(card, None)}")
        if c.deck_count:
            if drew is not None:
                if drew is card:
                    raise IllegalMoveError("C8", f"{name} cannot draw {card.id}: it is the card {name} plays")
                if not drew.is_battle:
                    raise IllegalMoveError("C8", f"{name} draws from the battle deck, which holds no city card like {drew.id} (C2)")
                if not pool & drew.bit:
                    raise IllegalMoveError(
                        "C15" if c.reshuffled else "C8",
                        f"{name} cannot draw {drew.id}: it is not in the battle deck{self._where(drew, UNSEEN)}",
                    )
        elif drew is not None:
            raise IllegalMoveError("C15", f"the battle deck ran out with the draws of action 12: {name} draws nothing, not {drew.id}")

    def _where(self, card: Card, slot: object) -> str:
        """Where ``card`` is, as far as the companion knows, for a message: `` (it is in bob's
        hand)``; ``slot`` says where it was looked for (a pile's unseen card, the battle deck)."""
        c = self._core
        if not card.is_battle:
            return f" ({card.id} is a city card)"
        for j, name in enumerate(c.seats):
            if card in c.hands[j]:
                return f" (it is in {name}'s hand)"
            if card in c.piles[j]:
                return f" (it is in {name}'s pile)"
        for a, j, x in reversed(c.log):
            if x is card:
                if a == c.action:
                    return f" (it was played in this action by {c.seats[j]})"
                if c.reshuffled and a <= RESHUFFLE_AFTER:
                    break
                if c.reshuffled:
                    return f" (it was played in action {a} by {c.seats[j]}; cards of actions 7-15 are not reused, C15)"
                return f" (it was played in action {a} by {c.seats[j]}, C6)"
        if c.reshuffled and c.old_pool & card.bit:
            if slot is UNSEEN:
                return " (it was not played in actions 1-6, so it is not in the reshuffled battle deck, C15)"
            return ""
        if c.reshuffled and slot is not UNSEEN and c.pool & card.bit:
            return " (it was played in actions 1-6 and went into the reshuffled battle deck, C15)"
        return ""

    def _apply_play(self, move: Play) -> None:
        """C8: the card leaves the top of the dummy's pile or the player's hand (a card the
        companion did not see leaves the cards it could be, C15), and a player draws while the
        battle deck has cards, unseen when the draw is not named."""
        c = self._core
        i = c.turn
        card = move.card
        bit = card.bit
        if c.dummy[i]:
            pile = c.piles[i]
            top = pile[0]
            c.piles[i] = pile[1:]
            if top is UNSEEN:
                c.pool &= ~bit
            elif top is OLD:
                c.old_pool &= ~bit
        else:
            hand = c.hands[i]
            if card in hand:
                k = hand.index(card)
                c.hands[i] = hand[:k] + hand[k + 1 :]
            elif c.hidden[i] and c.pool & bit:
                c.hidden[i] -= 1
                c.pool &= ~bit
            else:
                c.hidden_old[i] -= 1
                c.old_pool &= ~bit
            if c.deck_count:
                c.deck_count -= 1
                drew = move.drew
                if drew is None:
                    c.hidden[i] += 1
                else:
                    c.hands[i] += (drew,)
                    c.pool &= ~drew.bit
        self._played(c, i, card)

    def _played(self, c: _Core, i: int, card: Card) -> None:
        """The bookkeeping of a card played by seat ``i`` (C6, C8, C9): the season's log, the
        action's cards and the initiative so far."""
        if c.reshuffled:
            c.played_b |= card.bit
        else:
            c.played_a |= card.bit
        c.log.append((c.action, i, card))
        plays = c.plays + (card,)
        c.plays = plays
        # C9: trump above plain, then the number; ">=" gives a tie to the card played last.
        key = card.number + TRUMP_BONUS if card.suit is c.trumps[i] else card.number
        if key >= c.best_key:
            c.best_key = key
            c.best = i
        if len(plays) == SEATS:
            c.phase = _ACT
            c.turn = c.best
        else:
            c.turn = (i + 1) % SEATS

    def _play_effects(self, move: Play) -> Effects:
        """C8: the card goes from the hand or the pile to the table, and a player draws while
        the battle deck has cards (unseen when the draw is not named)."""
        c = self._core
        i = c.turn
        name = c.seats[i]
        card = move.card
        drawn = not c.dummy[i] and c.deck_count > 0
        drew = move.drew if drawn else None
        transfers = [Transfer(card, PILE if c.dummy[i] else HAND, name, TABLE, name)]
        if drawn:
            transfers.append(Transfer(drew if drew is not None else UNSEEN, BATTLE_DECK_ZONE, None, HAND, name))
        return Effects(name, kind="play", action=c.action, card=card, drew=drew, drawn=drawn, transfers=tuple(transfers))
