"""A season's set-up (C4-C6): who sits where (C4: the players in their order, the dummies, the
seat changes between seasons and after a knock-out), who deals (C5), and what is dealt (C6):
one city to each emperor, the bottom joker, three battle cards to each player and nine to
each dummy's pile. Checked, carried out, told as effects, and drawn at random for a simulated
table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import BATTLE_DECK, BATTLE_MASK, CITY_DECK, CITY_MASK, JOKERS, Card
from companion.games.circle_of_power.effects import BATTLE_DECK as BATTLE_DECK_ZONE
from companion.games.circle_of_power.effects import CITY, HAND, PILE, Effects, Transfer
from companion.games.circle_of_power.effects import CITY_DECK as CITY_DECK_ZONE
from companion.games.circle_of_power.moves import UNSEEN, Season
from companion.games.circle_of_power.position import (
    _OVER,
    _REVEAL,
    _SEASON,
    ACTIONS,
    CITY_DECK_SIZE,
    HAND_SIZE,
    PILE_SIZE,
    SEATS,
    CircleBase,
    PileCard,
)
from companion.games.circle_of_power.setup import is_dummy
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    import random

__all__ = ["Seasons"]


class Seasons(CircleBase):
    """The state's part for a season's set-up (C4-C6)."""

    def expected_seats(self) -> tuple[str, ...] | None:
        """The next season's seats, clockwise, as C4 places them; ``None`` before the first
        season, whose seats the table chooses (within C4)."""
        c = self._core
        if c.season == 0:
            return None
        seats = list(c.seats)
        if c.knocked:
            number = self._next_dummy_number()
            for name in c.knocked:
                if name in seats:
                    seats[seats.index(name)] = f"@{number}"
                    number += 1
            return tuple(seats)
        alone = [i for i, d in enumerate(c.dummy) if d]
        if len(alone) == 1:
            i = alone[0]
            j = (i - 1) % SEATS
            seats[i], seats[j] = seats[j], seats[i]
        return tuple(seats)

    def expected_dealer(self) -> str | None:
        """The next season's dealer (C5): the next player clockwise after the last dealer who
        is still in the game; ``None`` before the first season (chosen freely)."""
        c = self._core
        if c.dealer_name is None:
            return None
        players = self.players
        k = players.index(c.dealer_name)
        for step in range(1, len(players) + 1):
            name = players[(k + step) % len(players)]
            if name not in c.knocked:
                return name
        return None

    def _next_dummy_number(self) -> int:
        return 1 + max((int(e[1:]) for e in self._core.emperors if e.startswith("@")), default=0)

    def _first_seats(self) -> tuple[str, ...]:
        """The first season's seats the companion proposes (C4): the players in order, one
        dummy last, or two dummies each between two players."""
        players = self.players
        dummies = self.setup.dummies
        if len(dummies) == 2:
            return (players[0], dummies[0], players[1], dummies[1])
        return players + dummies

    def _random_season(self, rng: random.Random) -> Season:
        """A whole season's set-up at random, every card dealt face up to the companion: the
        seats and the dealer where C4 and C5 put them (chosen at random within C4 for the
        first season), the bottom joker, the cities, the hands and the piles (C6)."""
        seats = self.expected_seats() or self._first_seats()
        dealer = self.expected_dealer() or rng.choice(self.players)
        bottom = rng.choice(JOKERS)
        cities = [x for x in CITY_DECK if x is not bottom]
        rng.shuffle(cities)
        battle = list(BATTLE_DECK)
        rng.shuffle(battle)
        hands: dict[str, list[Card]] = {}
        piles: dict[str, list[Card]] = {}
        for name in seats:
            if is_dummy(name):
                piles[name] = [battle.pop() for _ in range(PILE_SIZE)]
            else:
                hands[name] = [battle.pop() for _ in range(HAND_SIZE)]
        return Season.make(dealer, seats, dict(zip(seats, cities)), bottom, hands, piles)

    # ------------------------------------------------------------------ checking

    def _check_season(self, move: Season) -> None:
        """C4-C6: between seasons, four emperors seated as C4 places them, the dealer, the
        cities, and the hands and piles dealt."""
        c = self._core
        if c.phase is not _SEASON:
            if c.phase is _OVER:
                raise self._phase_problem("no new season")
            raise self._phase_problem(f"season {c.season} is under way ({c.action} of {ACTIONS} actions)", "C16")
        seats = move.seats
        if not isinstance(seats, tuple) or len(seats) != SEATS or not all(isinstance(n, str) for n in seats):
            raise InvalidMoveError(f"a season seats four emperors, clockwise: {seats!r}")
        if len(set(seats)) != SEATS:
            raise IllegalMoveError("C4", f"each emperor sits once: {', '.join(seats)}")
        self._check_seating(seats)
        self._check_dealer(move.dealer, seats)
        self._check_cities(move)
        self._check_deal(move, seats)

    def _check_seating(self, seats: tuple[str, ...]) -> None:
        """C4: who sits where."""
        c = self._core
        players = self.players
        expected = self.expected_seats()
        if expected is None:
            dummies = self.setup.dummies
            if set(seats) != set(players) | set(dummies):
                who = ", ".join(players)
                them = f" and the dumm{'ies' if len(dummies) > 1 else 'y'} {' and '.join(dummies)}" if dummies else ""
                raise IllegalMoveError("C4", f"the emperors are the players {who}{them}, not {', '.join(seats)}")
            order = tuple(n for n in seats if n in players)
            if order not in _rotations(players):
                raise IllegalMoveError("C4", f"the players sit in their clockwise order {', '.join(players)}, not {', '.join(order)}")
            if len(dummies) == 2 and abs(seats.index(dummies[0]) - seats.index(dummies[1])) != 2:
                raise IllegalMoveError("C4", f"two dummies sit opposite each other: {', '.join(seats)}")
            return
        if seats in _rotations(expected):
            return
        why = ""
        if c.knocked and any(n in c.seats for n in c.knocked):
            out = [n for n in c.knocked if n in c.seats]
            why = f" ({' and '.join(out)} {'was' if len(out) == 1 else 'were'} knocked out: a new dummy takes each seat, and no dummy moves any more)"
        elif c.knocked:
            why = " (from the first knock-out on, no dummy moves)"
        elif sum(c.dummy) == 1:
            d = next(n for n, x in zip(c.seats, c.dummy) if x)
            why = f" ({d} moves one seat counter-clockwise, changing places with the emperor on its right)"
        elif sum(c.dummy) == 2:
            why = " (two dummies stay opposite each other)"
        raise IllegalMoveError("C4", f"this season the emperors sit {', '.join(expected)} clockwise{why}, not {', '.join(seats)}")

    def _check_dealer(self, dealer: object, seats: tuple[str, ...]) -> None:
        """C5: a player deals, the deal passing clockwise."""
        if not isinstance(dealer, str) or dealer not in seats:
            raise IllegalMoveError("C5", f"the dealer must be a player at the table, not {dealer!r}")
        if is_dummy(dealer):
            raise IllegalMoveError("C5", f"dummies never deal: {dealer} cannot deal")
        expected = self.expected_dealer()
        if expected is not None and dealer != expected:
            raise IllegalMoveError(
                "C5", f"the deal passes clockwise to the next player still in the game: {expected} deals, not {dealer}"
            )

    def _check_cities(self, move: Season) -> None:
        """C6: one city each, face up; one joker at the bottom of the city deck."""
        names: set[str] = set()
        cards = 0
        seats = move.seats
        for name, card in move.cities:
            if name not in seats:
                raise InvalidMoveError(f"cities: {name!r} is not seated this season ({', '.join(seats)})")
            if name in names:
                raise InvalidMoveError(f"cities: {name} is given two cities")
            names.add(name)
            if not isinstance(card, Card):
                raise InvalidMoveError(f"not a card: {card!r}")
            if not card.is_city:
                raise IllegalMoveError("C6", f"a city is a J, Q, K, A or a joker (C2), and {name}'s {card.id} is a battle card")
            if cards & card.bit:
                raise IllegalMoveError("C6", f"{card.id} is dealt as a city twice")
            cards |= card.bit
        missing = [n for n in seats if n not in names]
        if missing:
            raise IllegalMoveError("C6", f"every emperor gets a city: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} none")
        bottom = move.bottom
        if not isinstance(bottom, Card):
            raise InvalidMoveError(f"not a card: {bottom!r}")
        if not bottom.is_joker:
            raise IllegalMoveError("C6", f"a joker lies face up at the bottom of the city deck, not {bottom.id}")
        if cards & bottom.bit:
            raise IllegalMoveError("C6", f"{bottom.id} cannot be both a city and the bottom of the city deck")

    def _check_deal(self, move: Season, seats: tuple[str, ...]) -> None:
        """C6: three cards to each player, nine to each dummy's pile, every card once."""
        dealt = 0
        for label, entries, size, want_dummy in (("hands", move.hands, HAND_SIZE, False), ("piles", move.piles, PILE_SIZE, True)):
            named: set[str] = set()
            for name, cards in entries:
                if name not in seats:
                    raise InvalidMoveError(f"{label}: {name!r} is not seated this season ({', '.join(seats)})")
                if name in named:
                    raise InvalidMoveError(f"{label}: {name}'s cards are given twice")
                named.add(name)
                if is_dummy(name) != want_dummy:
                    what = (
                        f"{name} is a dummy: its cards form a face-down pile (piles), not a hand"
                        if not want_dummy
                        else f"{name} is a player: a player's cards are a hand (hands), not a pile"
                    )
                    raise IllegalMoveError("C6", what)
                if not isinstance(cards, tuple) or len(cards) != size:
                    count = len(cards) if isinstance(cards, tuple) else cards
                    whose = "a dummy's pile holds" if want_dummy else "a player's hand holds"
                    raise IllegalMoveError("C6", f"{whose} {size} cards, and {name} is given {count}")
                for x in cards:
                    if x is UNSEEN:
                        continue
                    if not isinstance(x, Card):
                        raise InvalidMoveError(f"not a card: {x!r}")
                    if not x.is_battle:
                        raise IllegalMoveError("C6", f"hands and piles are dealt from the battle deck (2-10, C2), not {x.id}")
                    if dealt & x.bit:
                        raise IllegalMoveError("C6", f"{x.id} is dealt twice")
                    dealt |= x.bit

    # ------------------------------------------------------------------ carrying out

    def _apply_season(self, move: Season) -> None:
        """A new season (C4-C6): the emperors take their seats, the cities and the battle cards
        are dealt, and the table turns up the first city of the city deck (C7)."""
        self._seat_emperors(move)
        self._deal_cities(move)
        self._deal_battle_cards(move)
        c = self._core
        c.played_a = 0
        c.played_b = 0
        c.reshuffled = False
        c.log = []
        c.plays = ()
        c.trumps = (None,) * SEATS
        c.best = -1
        c.best_key = -1
        c.turn = -1
        c.phase = _REVEAL

    def _seat_emperors(self, move: Season) -> None:
        """C4, C5: the season's four emperors in their seats, the new dummies counted among the
        emperors, the dealer, and the leader of action 1 on the dealer's left."""
        c = self._core
        seats = tuple(move.seats)
        # New emperors are dummies (C4, C18), kept in order of number.
        new = tuple(sorted((n for n in seats if n not in c.emp_index), key=lambda n: int(n[1:])))
        if new:
            c.emperors = c.emperors + new
            c.emp_index = {e: k for k, e in enumerate(c.emperors)}
            c.totals += (0,) * len(new)
            c.destroyed_totals += (0,) * len(new)
        c.season_destroyed = (0,) * len(c.emperors)
        c.knocked_before = len(c.knocked)
        c.season += 1
        c.action = 1
        c.seats = seats
        c.dummy = tuple(is_dummy(n) for n in seats)
        c.seat_of = {n: k for k, n in enumerate(seats)}
        c.dealer = c.seat_of[move.dealer]
        c.dealer_name = move.dealer
        c.leader = (c.dealer + 1) % SEATS

    def _deal_cities(self, move: Season) -> None:
        """C6: each emperor's city face up, the joker at the bottom of the city deck and 13
        cards face down on it; no line holds a card yet."""
        c = self._core
        cities = dict(move.cities)
        c.cities = [cities[n] for n in c.seats]
        c.bottom = move.bottom
        c.city_pool = CITY_MASK & ~sum(x.bit for x in c.cities if x is not None) & ~move.bottom.bit
        c.city_left = CITY_DECK_SIZE
        c.next_city = None
        c.discards = ()
        c.trophies = [()] * SEATS
        c.destroyed = [()] * SEATS

    def _deal_battle_cards(self, move: Season) -> None:
        """C6: three cards to each player's hand and nine to each dummy's pile, as far as they
        were seen (the rest unseen); the battle deck holds the cards left."""
        c = self._core
        pool = BATTLE_MASK
        hands: list[tuple[Card, ...]] = []
        hidden: list[int] = []
        piles: list[tuple[PileCard, ...]] = []
        for n, d in zip(c.seats, c.dummy):
            if d:
                pile = move.pile_of(n) or (UNSEEN,) * PILE_SIZE
                piles.append(pile)
                hands.append(())
                hidden.append(0)
                for x in pile:
                    if isinstance(x, Card):
                        pool &= ~x.bit
            else:
                given = move.hand_of(n) or (UNSEEN,) * HAND_SIZE
                known = tuple(x for x in given if isinstance(x, Card))
                hands.append(known)
                hidden.append(len(given) - len(known))
                piles.append(())
                for x in known:
                    pool &= ~x.bit
        c.hands = hands
        c.hidden = hidden
        c.hidden_old = [0] * SEATS
        c.piles = piles
        c.pool = pool
        c.old_pool = 0
        players = SEATS - sum(c.dummy)
        c.deck_count = len(BATTLE_DECK) - HAND_SIZE * players - PILE_SIZE * (SEATS - players)

    def _season_effects(self, season: Season) -> Effects:
        """C6: each emperor's city from the city deck, each player's hand and each dummy's pile
        from the battle deck."""
        transfers = [Transfer(card, CITY_DECK_ZONE, None, CITY, name) for name, card in season.cities]
        for name in season.seats:
            if is_dummy(name):
                for x in season.pile_of(name) or (UNSEEN,) * PILE_SIZE:
                    transfers.append(Transfer(x, BATTLE_DECK_ZONE, None, PILE, name))
            else:
                for x in season.hand_of(name) or (UNSEEN,) * HAND_SIZE:
                    transfers.append(Transfer(x, BATTLE_DECK_ZONE, None, HAND, name))
        return Effects(None, kind="season", transfers=tuple(transfers))


def _rotations(names: Sequence[str]) -> set[tuple[str, ...]]:
    names = tuple(names)
    return {names[k:] + names[:k] for k in range(len(names))}
