"""A player's view of a game of Circle of Power: what they may know, and nothing more.

Everything face up is public: the cities, the next available city, the lines of victories
(destroyed cities lie face down, but the table saw each one go), every card played this
season, the discards' contents (each was face up before it was discarded). Hands and the
dummies' piles are face down: a player sees their own hand only, and of the others how many
cards each holds. :attr:`CircleView.unseen` is the battle cards the player cannot place, and
:attr:`CircleView.decisions` what the player may decide now.

Two states with equal views are the same to the player: :meth:`CircleState.resample
<companion.games.circle_of_power.game.CircleState.resample>` keeps the view, and the tests
check it.

The coach's playouts make a view for every move, so a view is cheap: it keeps the state's
immutable values as they are and copies the few per-seat lists (the cities, the lines), and
works out the rest (the mappings by emperor, the trump suits, the unseen cards) only when
asked, from what it keeps. It keeps nothing the player may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.games.circle_of_power.cards import BATTLE_MASK, BLACK, Card, cards_of_mask, colour_in_attack
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake
from companion.games.circle_of_power.rules import threats, trump_suit, victims
from companion.games.circle_of_power.scoring import Outcome, SeasonResult
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT

from companion.games.circle_of_power.game import Phase

if TYPE_CHECKING:
    from companion.games.circle_of_power.game import CircleState

__all__ = ["CircleView", "make_view", "player_acts"]

_CATALOGUE_ORDER = attrgetter("index")
_PHASE_NAMES = {phase: phase.value for phase in Phase}  # an Enum's value is slow to read

class _Table(NamedTuple):
    """The facts of the table a player's decision rarely needs, as the state holds them."""

    season: int
    action: int
    dealer: str | None
    city_deck_count: int
    city_discards: tuple[Card, ...]
    hand_unseen: int
    battle_deck_count: int
    reshuffled: bool
    results: tuple[SeasonResult, ...]
    outcome: Outcome | None
    destroyed_by_seat: tuple[tuple[Card, ...], ...]
    log: list[tuple[int, int, Card]]
    """The season's log of plays (action, seat, card): it only grows in place, and a new season
    starts a new list, so its first :attr:`logged` entries stay this view's."""
    logged: int
    out: int
    """The battle cards out of play this season, as a set (C15)."""
    emperors: tuple[str, ...]
    totals: tuple[int, ...]
    destroyed_totals: tuple[int, ...]


class CircleView:
    """What ``player`` may know of the game.

    What a player's decision needs (their hand, the seats, cities and lines, the cards of the
    action under way) is kept in attributes of its own; the rest of the table is kept as the
    state holds it and read through properties."""

    __slots__ = (
        "player",
        "players",
        "variant",
        "phase",
        "to_move",
        "seats",
        "next_city",
        "held",
        "knocked_out",
        "cities_by_seat",
        "trophies_by_seat",
        "_leader",
        "_plays",
        "_sizes",
        "_table",
        "_decisions",
    )

    player: str
    players: tuple[str, ...]
    """The game's players (dummies are not players)."""
    variant: str
    phase: str
    to_move: str | None
    seats: tuple[str, ...]
    next_city: Card | None
    held: tuple[Card, ...]
    """The player's own hand as the companion saw it, in the order the cards came into it
    (:attr:`hand` is the same in catalogue order)."""
    knocked_out: tuple[str, ...]
    cities_by_seat: tuple[Card | None, ...]
    """Each seat's city, in the order of :attr:`seats`."""
    trophies_by_seat: tuple[tuple[Card, ...], ...]
    """Each seat's trophies, oldest first."""

    def __init__(self, state: CircleState, player: str) -> None:
        c = state._core  # the view is part of the engine and reads its state directly
        seat = c.seat_of.get(player, -1)
        self.player = player
        self.players = state.setup.players
        self.variant = state.variant
        self.phase = _PHASE_NAMES[c.phase]
        self.to_move = to_move = state.to_move
        self.seats = c.seats
        self.next_city = c.next_city
        self.held = c.hands[seat] if seat >= 0 else ()
        self.knocked_out = c.knocked
        self.cities_by_seat = tuple(c.cities)
        self.trophies_by_seat = tuple(c.trophies)
        self._leader = c.leader
        self._plays = c.plays
        self._sizes = tuple([len(h) + x + y + len(p) for h, x, y, p in zip(c.hands, c.hidden, c.hidden_old, c.piles)])
        self._table = tuple.__new__(  # _Table's own constructor is a slow Python function
            _Table,
            (
                c.season,
                c.action,
                c.dealer_name,
                c.city_left,
                c.discards,
                c.hidden[seat] + c.hidden_old[seat] if seat >= 0 else 0,
                c.deck_count,
                c.reshuffled,
                c.results,
                c.outcome,
                tuple(c.destroyed),
                c.log,
                len(c.log),
                c.played_b if c.reshuffled else c.played_a,
                c.emperors,
                c.totals,
                c.destroyed_totals,
            ),
        )
        # Listed when asked (a dummy decides nothing: the rules move it, C8, C11).
        self._decisions: tuple[Move, ...] | None = () if to_move != player or seat < 0 or c.dummy[seat] else None

    # -- the rest of the table

    @property
    def hand(self) -> tuple[Card, ...]:
        """The player's own hand as the companion saw it, in catalogue order."""
        return tuple(sorted(self.held, key=_CATALOGUE_ORDER))

    @property
    def season(self) -> int:
        return self._table.season

    @property
    def action(self) -> int:
        return self._table.action

    @property
    def dealer(self) -> str | None:
        return self._table.dealer

    @property
    def city_deck_count(self) -> int:
        return self._table.city_deck_count

    @property
    def city_discards(self) -> tuple[Card, ...]:
        return self._table.city_discards

    @property
    def hand_unseen(self) -> int:
        """Cards of the player's own hand the companion did not see."""
        return self._table.hand_unseen

    @property
    def battle_deck_count(self) -> int:
        return self._table.battle_deck_count

    @property
    def reshuffled(self) -> bool:
        return self._table.reshuffled

    @property
    def results(self) -> tuple[SeasonResult, ...]:
        return self._table.results

    @property
    def outcome(self) -> Outcome | None:
        return self._table.outcome

    @property
    def destroyed_by_seat(self) -> tuple[tuple[Card, ...], ...]:
        return self._table.destroyed_by_seat

    @property
    def season_plays_by_seat(self) -> tuple[tuple[int, int, Card], ...]:
        """Every card played this season: (action, seat, card)."""
        table = self._table
        return tuple(table.log[: table.logged])

    # -- worked out when asked

    @property
    def decisions(self) -> tuple[Move, ...]:
        """The player's decisions now (none unless they decide; a dummy decides nothing, C11):
        a card of their hand, the card drawn after it left to chance (C8), or an act
        (C10-C14, C18, C19) as :attr:`CircleState.legal_moves` lists them."""
        out = self._decisions
        if out is None:
            me = self.player
            if self.phase == "act":
                seat = self.seats.index(me)
                out = player_acts(self.variant, self.seats, self.cities_by_seat, self.trophies_by_seat, seat)
            else:
                out = tuple([Play(me, card) for card in dict.fromkeys(self.hand)])
            self._decisions = out
        return out

    def seat(self, name: str) -> int:
        return self.seats.index(name)

    def city(self, name: str) -> Card | None:
        return self.cities_by_seat[self.seats.index(name)]

    @property
    def leader(self) -> str | None:
        return self.seats[self._leader] if self._leader >= 0 and self.seats else None

    @property
    def cities(self) -> Mapping[str, Card | None]:
        return dict(zip(self.seats, self.cities_by_seat))

    @property
    def trophies(self) -> Mapping[str, tuple[Card, ...]]:
        return dict(zip(self.seats, self.trophies_by_seat))

    @property
    def destroyed(self) -> Mapping[str, tuple[Card, ...]]:
        return dict(zip(self.seats, self.destroyed_by_seat))

    @property
    def trump_suits(self) -> Mapping[str, str | None]:
        """Each emperor's trump suit now (C9)."""
        return dict(zip(self.seats, self.trump_suits_by_seat))

    @property
    def trump_suits_by_seat(self) -> tuple[str | None, ...]:
        """:attr:`trump_suits` in the order of :attr:`seats`."""
        nxt = self.next_city
        return tuple([trump_suit(city, nxt) for city in self.cities_by_seat])

    @property
    def played(self) -> tuple[tuple[str, Card], ...]:
        """The cards of the action under way, in order, with who played them (C8)."""
        seats, leader = self.seats, self._leader
        n = len(seats)  # four, dummies included (C4)
        return tuple([(seats[(leader + k) % n], card) for k, card in enumerate(self._plays)])

    @property
    def season_plays(self) -> tuple[tuple[int, str, Card], ...]:
        """Every card played this season: (action, emperor, card)."""
        seats = self.seats
        return tuple([(a, seats[i], card) for a, i, card in self.season_plays_by_seat])

    @property
    def hand_sizes(self) -> Mapping[str, int]:
        """How many cards each emperor holds (a dummy: its pile)."""
        return dict(zip(self.seats, self._sizes))

    @property
    def hand_sizes_by_seat(self) -> tuple[int, ...]:
        """:attr:`hand_sizes` in the order of :attr:`seats`."""
        return self._sizes

    @property
    def unseen(self) -> frozenset[Card]:
        """The battle cards the player cannot place: in the battle deck, the other hands and the
        dummies' piles."""
        return frozenset(cards_of_mask(self.unseen_mask))

    @property
    def unseen_mask(self) -> int:
        """:attr:`unseen` as a card set kept as an integer (each card's ``bit``), for players
        that count them."""
        return BATTLE_MASK & ~(sum([x.bit for x in self.held]) | self._table.out)

    @property
    def totals(self) -> Mapping[str, int]:
        return dict(zip(self._table.emperors, self._table.totals))

    @property
    def destroyed_totals(self) -> Mapping[str, int]:
        return dict(zip(self._table.emperors, self._table.destroyed_totals))

    # -- equality: what the player knows, all of it

    def _key(self) -> tuple[Any, ...]:
        return (
            self.player,
            self.variant,
            self.phase,
            self.to_move,
            self.seats,
            self._leader,
            self.cities_by_seat,
            self.next_city,
            self.trophies_by_seat,
            self._plays,
            self.hand,
            self._sizes,
            self.knocked_out,
            self._table._replace(log=[], logged=0, out=0),  # the log and the out set as the player reads them:
            self.season_plays_by_seat,
            self.unseen,
            frozenset(self.decisions),
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is CircleView and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"CircleView(player={self.player!r}, phase={self.phase!r}, hand={self.hand!r}, to_move={self.to_move!r})"


def make_view(state: CircleState, player: str) -> CircleView:
    return CircleView(state, player)


def player_acts(
    variant: str, seats: Sequence[str], cities: Sequence[Card | None], trophies: Sequence[Sequence[Card]], winner: int
) -> tuple[Move, ...]:
    """Every act the player at seat ``winner`` (not a dummy) may choose, from the public table
    alone, in the order :attr:`CircleState.legal_moves` lists them: a conquest of each city
    they may attack (in Coloured Cities a black city may be kept too, C19) and, unless the
    Lonely Tyrant is played (C18), a retake of it with each trophy its owner may lose (C13);
    with no city to attack, the regroup, with each trophy a rebellion may cost (C14)."""
    me = seats[winner]
    found = victims(winner, cities)
    if not found:
        line = trophies[winner]
        if threats(winner, cities) or not line:
            return (Regroup(me),)
        return tuple([Regroup(me, t) for t in dict.fromkeys(line)])
    mine = cities[winner]
    assert mine is not None
    out: list[Move] = []
    for v in found:
        name = seats[v]
        out.append(Conquer(me, name, False))
        if variant == COLOURED_CITIES:
            theirs = cities[v]
            assert theirs is not None
            if colour_in_attack(mine, theirs) == BLACK:
                out.append(Conquer(me, name, True))
        if variant != LONELY_TYRANT:
            line = trophies[v]
            if not line:
                out.append(Retake(me, name))
            out.extend([Retake(me, name, t) for t in dict.fromkeys(line)])
    return tuple(out)
