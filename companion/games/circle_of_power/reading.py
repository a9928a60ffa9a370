"""The position read: the seats and the dummies (C4), the dealer and the leader (C5), the cities
and the city deck (C6, C7), the lines of trophies and of destruction (C12, C18, C19), the hands
and the piles (C6, C8, C15), the plays of the action and of the season (C8), the totals, the
knock-outs and the outcome (C16-C20). Reading changes nothing."""

from __future__ import annotations

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.moves import UNSEEN, _Unseen
from companion.games.circle_of_power.position import _ACT, _PLAY, SEATS, CircleBase, Phase, _Old
from companion.games.circle_of_power.rules import trump_suit
from companion.games.circle_of_power.scoring import Outcome, SeasonResult
from companion.games.circle_of_power.setup import is_dummy

__all__ = ["Reading"]


class Reading(CircleBase):
    """The state's properties and questions about the position (no move)."""

    @property
    def variant(self) -> str:
        return self._variant

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def to_move(self) -> str | None:
        """Who decides next: the emperor to play a card (a dummy included), the winner of the
        initiative for the act; ``None`` when the table acts (a season's set-up, a card turned
        up, the reshuffle) or the game is over."""
        c = self._core
        if c.phase is _PLAY or c.phase is _ACT:
            return c.seats[c.turn]
        return None

    @property
    def season_number(self) -> int:
        """The current (or last) season, from 1; 0 before the first."""
        return self._core.season

    @property
    def action_number(self) -> int:
        """The action under way, 1-15 (C16); after action 6 and before the reshuffle it is 7."""
        return self._core.action

    @property
    def seats(self) -> tuple[str, ...]:
        """This season's four emperors, clockwise (C4); empty before the first season."""
        return self._core.seats

    @property
    def dummies(self) -> tuple[str, ...]:
        """This season's dummies (C4, C11)."""
        c = self._core
        return tuple(n for n, d in zip(c.seats, c.dummy) if d)

    @property
    def emperors(self) -> tuple[str, ...]:
        """Every emperor seated so far: the players, then the dummies in order of number."""
        return self._core.emperors

    def is_dummy(self, name: str) -> bool:
        return is_dummy(name)

    @property
    def dealer(self) -> str | None:
        """This season's dealer (C5)."""
        return self._core.dealer_name

    @property
    def leader(self) -> str | None:
        """Who leads the current action (C5): the dealer's left in action 1, then the winner
        of the action before."""
        c = self._core
        return c.seats[c.leader] if c.leader >= 0 and c.seats else None

    def city(self, name: str) -> Card | None:
        """``name``'s city (``None`` after losing it in action 15)."""
        return self._core.cities[self._seat(name)]

    @property
    def cities(self) -> dict[str, Card | None]:
        c = self._core
        return dict(zip(c.seats, c.cities))

    @property
    def next_city(self) -> Card | None:
        """The next available city, face up on the city deck (C7); ``None`` before it is turned
        up and when the deck is empty."""
        return self._core.next_city

    @property
    def bottom(self) -> Card | None:
        """The joker face up at the bottom of the city deck this season (C6)."""
        return self._core.bottom

    @property
    def city_deck_count(self) -> int:
        """The cards in the city deck, the face-up one and the bottom joker included (C7)."""
        return self._core.city_left

    @property
    def city_discards(self) -> tuple[Card, ...]:
        """Cities and trophies discarded face down behind the city deck this season (C13, C14)."""
        return self._core.discards

    @property
    def battle_deck_count(self) -> int:
        """The cards left in the battle deck (C8, C15)."""
        return self._core.deck_count

    @property
    def reshuffled(self) -> bool:
        """Whether this season's battle deck has been made anew (C15)."""
        return self._core.reshuffled

    def trophies(self, name: str) -> tuple[Card, ...]:
        """``name``'s trophies, oldest first: the line of victories (C12), or the face-up part
        of the line of history in Coloured Cities (C19)."""
        return self._core.trophies[self._seat(name)]

    def destroyed_cities(self, name: str) -> tuple[Card, ...]:
        """``name``'s cities destroyed this season, face down: the line of destruction (C18),
        or the face-down part of the line of history (C19)."""
        return self._core.destroyed[self._seat(name)]

    def line(self, name: str) -> tuple[tuple[Card, bool], ...]:
        """``name``'s whole line, each card with whether it lies face up: the trophies (face up,
        C12) then the cities destroyed this season (face down, C18); in Coloured Cities this
        is the line of history (C19)."""
        i = self._seat(name)
        c = self._core
        return tuple((x, True) for x in c.trophies[i]) + tuple((x, False) for x in c.destroyed[i])

    def hand(self, name: str) -> tuple[Card, ...]:
        """The cards known to be in player ``name``'s hand."""
        return self._core.hands[self._seat(name)]

    def unseen_in_hand(self, name: str) -> int:
        """How many of ``name``'s hand cards the companion has not seen."""
        i = self._seat(name)
        return self._core.hidden[i] + self._core.hidden_old[i]

    def hand_size(self, name: str) -> int:
        """How many cards player ``name`` holds, or dummy ``name``'s pile."""
        i = self._seat(name)
        c = self._core
        return len(c.hands[i]) + c.hidden[i] + c.hidden_old[i] + len(c.piles[i])

    def pile(self, name: str) -> tuple[Card | _Unseen, ...]:
        """Dummy ``name``'s pile, top first, :data:`UNSEEN` where nobody saw the card."""
        return tuple(UNSEEN if isinstance(x, _Old) else x for x in self._core.piles[self._seat(name)])

    @property
    def played(self) -> tuple[tuple[str, Card], ...]:
        """The cards played in this action so far, in order, with who played them (C8)."""
        c = self._core
        return tuple((c.seats[(c.leader + k) % SEATS], card) for k, card in enumerate(c.plays))

    @property
    def season_plays(self) -> tuple[tuple[int, str, Card], ...]:
        """Every card played this season: (action, emperor, card), in order."""
        c = self._core
        return tuple((a, c.seats[i], card) for a, i, card in c.log)

    @property
    def trump_suits(self) -> dict[str, str | None]:
        """Each emperor's trump suit now (C9); ``None`` for none."""
        c = self._core
        if not c.seats:
            return {}
        return {name: trump_suit(city, c.next_city) for name, city in zip(c.seats, c.cities)}

    @property
    def knocked_out(self) -> tuple[str, ...]:
        """The players knocked out so far, in order (C18)."""
        return self._core.knocked

    @property
    def results(self) -> tuple[SeasonResult, ...]:
        """The finished seasons (and one cut short by the Lonely Tyrant, C18)."""
        return self._core.results

    @property
    def totals(self) -> dict[str, int]:
        """Each emperor's points over the finished seasons (C16), dummies included."""
        c = self._core
        return dict(zip(c.emperors, c.totals))

    @property
    def destroyed_totals(self) -> dict[str, int]:
        """Each emperor's destroyed cities counting towards a knock-out, over the finished
        seasons (C18)."""
        c = self._core
        return dict(zip(c.emperors, c.destroyed_totals))

    def destroyed_count(self, name: str) -> int:
        """``name``'s destroyed cities counting towards a knock-out, the season in progress
        included (C18)."""
        c = self._core
        e = c.emp_index[name]
        return c.destroyed_totals[e] + c.season_destroyed[e]

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def is_game_over(self) -> bool:
        return self._core.outcome is not None
