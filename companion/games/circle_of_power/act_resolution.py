"""An act worked out and carried out: the city the loser loses becomes the winner's trophy and
the loser takes the next available city (C12), a retake swaps cities and discards (C13), a
regroup discards the winner's city and, in a rebellion, a trophy (C14); in Lonely Tyrant the
city taken is destroyed instead (C18); in Coloured Cities the colours decide who gets which
city and which are destroyed (C19). The city deck gives no card in action 15 (C7).

An act is worked out first (:class:`_Act`) so that its effects can be told before it is
carried out; what follows the act (the next action, the reshuffle, the end of the season) is
:mod:`.ending`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from companion.games.circle_of_power.cards import BLACK, Card, colour_in_attack
from companion.games.circle_of_power.effects import CITY, DESTROYED, DISCARD, GATHERED, TABLE, TROPHIES, Effects, Transfer
from companion.games.circle_of_power.effects import CITY_DECK as CITY_DECK_ZONE
from companion.games.circle_of_power.moves import Act, Conquer, Regroup, Retake
from companion.games.circle_of_power.position import ACTIONS, SEATS, CircleBase
from companion.games.circle_of_power.rules import threats

__all__ = ["ActResolution"]


class _Act(NamedTuple):
    """An act worked out before it is carried out: the cities after it, the trophies won and
    lost, the city destroyed, the cards discarded, the city card taken from the deck."""

    winner: int
    victim: int
    cities: tuple[Card | None, ...]
    gained: Card | None
    lost: tuple[int, Card] | None
    destroyed: Card | None
    discarded: tuple[Card, ...]
    took: Card | None


class ActResolution(CircleBase):
    """The state's part for carrying out an act (C12-C14, C18, C19)."""

    if TYPE_CHECKING:

        def _destroy(self, seat: int, card: Card) -> str | None: ...

        def _end_action(self, winner: int, tyrant: str | None) -> None: ...

    def _resolve(self, move: Act) -> _Act:
        """Work out a (checked) act: C12-C14, with C18 and C19 for the variants."""
        if type(move) is Conquer:
            return self._resolve_conquer(move)
        if type(move) is Retake:
            return self._resolve_retake(move)
        return self._resolve_regroup(move)

    def _resolve_conquer(self, move: Conquer) -> _Act:
        """C12: the loser's city becomes the winner's trophy and the loser takes the next
        available city; C18: it is destroyed into the loser's line instead; C19: the loser's
        colour decides its fate, the attacker's who gets which city."""
        c = self._core
        w = c.seat_of[move.player]
        victim = c.seat_of[move.victim]
        cities = list(c.cities)
        mine = cities[w]
        theirs = cities[victim]
        assert mine is not None and theirs is not None
        # C7, C12: the city deck gives no card in action 15 (C19: even when it has one).
        nxt = c.next_city if c.action < ACTIONS else None
        gained: Card | None = None
        destroyed: Card | None = None
        took: Card | None = None
        if self._coloured:
            if colour_in_attack(theirs, mine) == BLACK:
                destroyed = theirs
            else:
                gained = theirs
            if move.keep:
                cities[victim] = took = nxt
            else:
                cities[victim] = mine
                cities[w] = took = nxt
        else:
            if self._lonely:
                destroyed = theirs  # C18
            else:
                gained = theirs  # C12
            cities[victim] = took = nxt
        return _Act(w, victim, tuple(cities), gained, None, destroyed, (), took)

    def _resolve_retake(self, move: Retake) -> _Act:
        """C13: the winner discards one of the loser's trophies (if any) and their own city,
        takes the loser's city, and the loser takes the next available city; C19: the winner
        gives their old city to the loser instead, and no card comes from the city deck."""
        c = self._core
        w = c.seat_of[move.player]
        victim = c.seat_of[move.victim]
        cities = list(c.cities)
        mine = cities[w]
        assert mine is not None
        theirs = cities[victim]
        lost: tuple[int, Card] | None = None
        discarded: tuple[Card, ...] = ()
        took: Card | None = None
        discard = move.discard
        if discard is not None:
            lost = (victim, discard)
            discarded += (discard,)
        cities[w] = theirs
        if self._coloured:
            cities[victim] = mine  # C19: no card from the city deck
        else:
            discarded += (mine,)  # C13
            # C7: the city deck gives no card in action 15.
            cities[victim] = took = c.next_city if c.action < ACTIONS else None
        return _Act(w, victim, tuple(cities), None, lost, None, discarded, took)

    def _resolve_regroup(self, move: Regroup) -> _Act:
        """C14: the winner discards their city and takes the next available city; a rebellion
        also costs the trophy they chose."""
        c = self._core
        w = c.seat_of[move.player]
        cities = list(c.cities)
        mine = cities[w]
        assert mine is not None
        lost: tuple[int, Card] | None = None
        discarded: tuple[Card, ...] = ()
        discard = move.discard
        if discard is not None:
            lost = (w, discard)  # C14: the rebellion
            discarded += (discard,)
        discarded += (mine,)
        # C7: the city deck gives no card in action 15.
        cities[w] = took = c.next_city if c.action < ACTIONS else None
        return _Act(w, -1, tuple(cities), None, lost, None, discarded, took)

    def _commit(self, act: _Act) -> None:
        """Carry out a worked-out act: the cities after it, the trophy won or lost, the cards
        discarded, the city taken from the deck, the city destroyed (C18); then the action
        ends."""
        c = self._core
        w = act.winner
        c.cities = list(act.cities)
        if act.gained is not None:
            c.trophies[w] = c.trophies[w] + (act.gained,)
        if act.lost is not None:
            s, card = act.lost
            line = c.trophies[s]
            k = line.index(card)
            c.trophies[s] = line[:k] + line[k + 1 :]
        if act.discarded:
            c.discards = c.discards + act.discarded
        if act.took is not None:
            c.next_city = None
            c.city_left -= 1
        tyrant = None
        if act.destroyed is not None:
            tyrant = self._destroy(act.victim, act.destroyed)
        self._end_action(w, tyrant)

    def _act_effects(self, move: Act, act: _Act) -> Effects:
        """The cards an act moves (C12-C14, C18, C19): trophies won and lost, cities destroyed,
        discarded and changing hands, the city taken from the deck, and the action's played
        cards gathered (C8)."""
        c = self._core
        w = act.winner
        name = c.seats[w]
        before = c.cities
        transfers: list[Transfer] = []
        victim = c.seats[act.victim] if act.victim >= 0 else None
        if act.lost is not None:
            s, card = act.lost
            transfers.append(Transfer(card, TROPHIES, c.seats[s], DISCARD, None))
        if act.gained is not None:
            transfers.append(Transfer(act.gained, CITY, victim, TROPHIES, name))
        if act.destroyed is not None:
            transfers.append(Transfer(act.destroyed, CITY, victim, DESTROYED, victim))
        for x in [x for x in act.discarded if any(x is y for y in before)]:
            owner = c.seats[next(k for k, y in enumerate(before) if y is x)]
            transfers.append(Transfer(x, CITY, owner, DISCARD, None))
        for k, (old, new) in enumerate(zip(before, act.cities)):
            if new is None or new is old:
                continue
            if new is act.took:
                transfers.append(Transfer(new, CITY_DECK_ZONE, None, CITY, c.seats[k]))
            else:
                j = next(j for j, y in enumerate(before) if y is new)
                transfers.append(Transfer(new, CITY, c.seats[j], CITY, c.seats[k]))
        for k, card in enumerate(c.plays):
            owner = c.seats[(c.leader + k) % SEATS]
            transfers.append(Transfer(card, TABLE, owner, GATHERED, None))
        kind = {Conquer: "conquer", Retake: "retake", Regroup: "regroup"}[type(move)]
        rebellion = kind == "regroup" and act.lost is not None
        return Effects(
            name,
            kind=kind,
            action=c.action,
            victim=victim,
            transfers=tuple(transfers),
            rebellion=rebellion,
            lost=act.lost[1] if act.lost is not None and kind == "regroup" else None,
            threatened=bool(threats(w, before)),
        )
