"""How a Circle of Power table is read: the tracker's reasoning for this game.

**Camera.** After each change of the table the reasoner compares the face-up cards (each
seat's city, battle card and line, the next available city: :mod:`.table`) with the game and
takes the next step the table shows, in the order the game goes:

- a season's set-up (C4-C6) once the four cities lie in their seats and the joker at the bottom
  of the city deck is known (it is laid face up before the deck is put on it; or it is the
  joker not dealt as a city); the seats and the dealer follow C4 and C5 (the first season's
  come from the table's configuration);
- the next available city (C7): a card turned up on the city deck;
- a play (C8): a card laid in the battle zone of the emperor to play; cards laid out of turn
  wait for the ones before them (the seat says whose a card is, the turn when it counts);
- the winner's act (C10-C14, C18, C19), recognised from the cards that moved: among the acts
  the rules allow, the one whose cities and lines the table shows. A dummy's act (C11) is the
  only one its rules allow; it is applied when the table shows it, like any other. While the
  table could still be on its way to another act (a black winner of Coloured Cities taking a
  city in action 15, keeping their city or about to give it), it waits for the battle cards to
  be gathered (the act is then done, C8), or for the table to stay so ``unexplained_after``
  seconds;
- the reshuffle (C15), which no sensor sees, as soon as it is due.

Cards the game has done with may stay on the table until they are taken up: the battle cards
of a finished action until they are gathered (C8), the whole table after a season's end (C16),
the joker laid for the bottom of the city deck until the deck covers it. Hands, piles and
draws are never seen: the record fills them in once the season shows them (C15, C16).

**NFC** (docs/tracker.md, "Circle of Power with NFC readers"): a play reader, a city reader and a
line reader; each tap names a card and, by its reader and where the card lies, what happened.
An act the rules leave no choice about (a dummy's, C11; a regroup without a trophy to choose)
is made as soon as the last battle card is played; taps of the cards an act moved, made after
it, confirm it and change nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.games.circle_of_power.cards import JOKERS, Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import ACTS, Conquer, Move, Play, Regroup, Reshuffle, Retake, Reveal, Season
from companion.games.circle_of_power.setup import COLOURED_CITIES, is_dummy
from companion.games.circle_of_power.tracking.table import (
    CITY_DECK,
    act_zones,
    compared,
    describe_difference,
    expected_zones,
    table_zones,
    where_words as _where,
    zone_of,
    zone_words as _zone_words,
)
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.observations import CardGone, CardSeen, CardTapped
from companion.session import SessionEvent
from companion.tracker.events import Choice, MoveApplied, Notice, OutOfSync, RuleHint, TrackerEvent, TrackerState
from companion.tracker.reasoning import TableReasoning
from companion.tracker.view import Zones, difference, without

if TYPE_CHECKING:
    from companion.tracker.tracker import Tracker

__all__ = ["CircleTable", "CircleTracking", "PLAY", "CITY", "LINE", "READER_ZONES", "act_taps"]

PLAY = "play"
"""The reader battle cards are tapped on as they are played, in turn."""
CITY = "city"
"""The reader city cards are tapped on: dealt at a season's set-up (the bottom joker first),
turned up on the city deck, coming to the winner's seat in a retake, given by the winner in
Coloured Cities."""
LINE = "line"
"""The reader for what goes into a line or leaves one: a city conquered or destroyed, a
trophy discarded; in Coloured Cities, a black winner's own city when they keep it."""
READER_ZONES = (PLAY, CITY, LINE)


@dataclass
class _Taps:
    """NFC taps of a move under way."""

    bottom: Card | None = None
    """The joker tapped for the bottom of the city deck, at a season's set-up."""
    cities: list[Card] = field(default_factory=list)
    """The cities tapped as they are dealt, from the dealer's left."""
    act: list[tuple[str, Card]] = field(default_factory=list)
    """The taps of the winner's act so far: (reader's zone, card)."""
    waiting: list[CardTapped] = field(default_factory=list)
    """Taps that follow the act under way (the next city turned up, the next play)."""
    last: tuple[CircleState, Move] | None = None
    """The last act made and the position it was made in: a tap the protocol has for it,
    made after it was known, confirms it."""
    used: set[tuple[str, Card]] = field(default_factory=set)
    """The taps of the last act already taken (each confirms once)."""


class CircleTable(TableReasoning):
    """The tracker's reasoning about a Circle of Power table (a
    :class:`~companion.tracker.tracker.TableReasoner`)."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(tracker)
        self.lingering: Zones = {}
        """Cards the game has done with that may still lie on the table until taken up."""
        self.bottom_seen: Card | None = None
        """The joker seen laid on the city deck while a season is set up."""
        self.lost: dict[Card, str] = {}
        """Battle cards the game never had played, seen taken up while another such card lay
        in another seat: an action under way that the tracker did not follow (a card it never
        read), by the zone each lay in. Cards laid after them are no evidence of a play."""
        self._lost_desync = False
        """The table is out of sync for the lost cards alone."""
        self.taps = _Taps()

    # ------------------------------------------------------------------ reading the tracker

    @property
    def game(self) -> CircleState:
        game: CircleState = self.tracker.game
        return game

    def compared(self, zone: str | None) -> bool:
        return compared(zone)

    def differences(self) -> tuple[str, ...]:
        extra, missing = difference(expected_zones(self.game), self.tracker.view.zones())
        extra = without(extra, self.lingering)
        game = self.game
        lost = tuple(
            f"{card.long_label} lay {_zone_words(game, zone)} and was taken up, but the game has it {_where(game, card)}"
            for card, zone in sorted(self.lost.items(), key=lambda item: item[1])
        )
        return describe_difference(game, extra, missing) + lost

    # ------------------------------------------------------------------ the tracker's calls

    def seen(self, obs: CardSeen | CardGone, was: str | None) -> None:
        if isinstance(obs, CardGone) and was is not None and was.startswith("battle:") and isinstance(obs.card, Card):
            # C8: an action's battle cards lie until its act is made and they are gathered. Two
            # or more the game never had, and one of them taken up: an action went by unread.
            observed = self.tracker.view.zones()
            if not expected_zones(self.game).get(was, Counter())[obs.card] and not self.lingering.get(was, Counter())[obs.card]:
                others = [z for z in observed if z.startswith("battle:") and z != was and self._fresh(observed, z)]
                if others or self.lost:
                    self.lost[obs.card] = was
        elif isinstance(obs, CardSeen) and obs.card in self.lost and self.lost[obs.card] == obs.zone:
            # Not taken up after all (a hand hid it): what was said of it no longer holds.
            del self.lost[obs.card]
            if not self.lost and self._lost_desync:
                self._lost_desync = False
                self._corrected()
        # C6: the joker laid face up for the bottom of the city deck before the cities are dealt
        # (a joker turned up later is a city of the deck, C7).
        if isinstance(obs, CardSeen) and obs.zone == CITY_DECK and isinstance(obs.card, Card) and obs.card.is_joker:
            if self.game.phase is Phase.SEASON:
                observed = self.tracker.view.zones()
                dealt = sum(bool(self._fresh(observed, zone_of("city", seat))) for seat in range(4))
                if dealt < 4:
                    self.bottom_seen = obs.card

    def forget(self, event: SessionEvent) -> None:
        self._corrected()
        self.lost.clear()
        self._lost_desync = False
        self.taps = _Taps()

    def catch_up(self, *, hold: bool) -> list[TrackerEvent]:
        events = self._forced() if not hold else []
        events.extend(self.reconcile(waited=False, apply_forced=not hold))
        return events

    def answered(self, moves: tuple[Move, ...]) -> list[TrackerEvent]:
        """The table's answer, applied (dropped with a message when the game moved on meanwhile),
        then the table compared again and the taps that waited for it taken."""
        events = self._answer(moves, lambda move: "answer")
        events.extend(self._forced())
        events.extend(self.reconcile(waited=False))
        events.extend(self._release())
        return events

    def announced(self, player: str) -> list[TrackerEvent]:
        return [Notice(f"{player}: Circle of Power has nothing to announce; every card is seen or tapped")]

    # ------------------------------------------------------------------ comparing the table

    def _step(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """One comparison of the table with the game; ``True`` when a move was applied."""
        tracker = self.tracker
        if not tracker.camera:
            self._in_sync(events)
            return False
        observed = tracker.view.zones()
        self._forget_lingering(observed)
        if self._matches(observed):
            self._in_sync(events)
            return False
        if tracker.holding:
            tracker.state = TrackerState.OUT_OF_SYNC
            events.append(OutOfSync(tracker.differences()))
            return False
        if self._still_out_of_sync(waited, events):
            return False
        if self.lost:
            self._lost_desync = True
            events.extend(self._out_of_sync(tracker.differences()))
            return False
        phase = self.game.phase
        move: Move | None = None
        if phase is Phase.SEASON:
            move = self._seen_season(observed, waited, events)
        elif phase is Phase.REVEAL:
            move = self._seen_reveal(observed)
        elif phase is Phase.PLAY:
            move = self._seen_play(observed)
        elif phase is Phase.ACT:
            move = self._seen_act(observed, waited, events)
        if move is not None:
            events.append(self._push(move, "camera"))
            return True
        # A set-up under way (the bottom joker laid first, the cities one by one) is awaited.
        waited = waited and not (phase is Phase.SEASON and self._setting_up(observed))
        return self._unexplained(waited, events, lambda: self._explain_mismatch(observed))

    def _matches(self, observed: Zones) -> bool:
        """The table shows what the game expects, less cards that may still lie about."""
        extra, missing = difference(expected_zones(self.game), observed)
        return not missing and not without(extra, self.lingering)

    def _forget_lingering(self, observed: Zones) -> None:
        """Lingering cards no longer on the table are forgotten."""
        for zone in list(self.lingering):
            still = self.lingering[zone] & observed.get(zone, Counter())
            if still:
                self.lingering[zone] = still
            else:
                del self.lingering[zone]

    def _fresh(self, observed: Zones, zone: str) -> Counter[Card]:
        """The cards in ``zone`` the game does not account for, lingering ones left out."""
        return observed.get(zone, Counter()) - expected_zones(self.game).get(zone, Counter()) - self.lingering.get(zone, Counter())

    def _in_sync(self, events: list[TrackerEvent]) -> None:
        self.lost.clear()
        self._lost_desync = False
        self._synced(events)

    # ------------------------------------------------------------------ the steps a camera sees

    def _seen_season(self, observed: Zones, waited: bool, events: list[TrackerEvent]) -> Move | None:
        """C4-C6: the four cities dealt into their seats and the joker at the bottom of the
        city deck make a season; the seats and the dealer are the rules' (the first season's the
        table's configuration, or a question)."""
        game = self.game
        cities: list[Card] = []
        for seat in range(4):
            fresh = self._fresh(observed, zone_of("city", seat))
            if sum(fresh.values()) != 1:
                return None
            (card,) = fresh
            cities.append(card)
        if not all(c.is_city for c in cities):
            return None
        bottoms = self._bottoms(cities)
        if not bottoms:
            return None
        if len(bottoms) > 1 and not waited and not self._set_up(observed):
            return None  # the joker may yet be laid on the city deck
        seasons = [s for s in self._seasons(cities, bottoms) if game.is_legal(s)]
        if len(seasons) == 1:
            return seasons[0]
        if seasons:
            self._ask(seasons, events, "Who deals, and which joker lies at the bottom of the city deck?")
        return None

    def _setting_up(self, observed: Zones) -> bool:
        """The table is on its way to a season's set-up (C6): the cards it shows that no season
        accounts for are a joker face up on the city deck and at most one city card in each
        seat's city zone; no battle card, nothing in a line."""
        for zone in observed:
            fresh = self._fresh(observed, zone)
            if not fresh:
                continue
            cards = list(fresh.elements())
            if zone == CITY_DECK:
                if len(cards) > 1 or not cards[0].is_joker:
                    return False
            elif not zone.startswith("city:") or len(cards) > 1 or not cards[0].is_city:
                return False
        return True

    def _set_up(self, observed: Zones) -> bool:
        """The set-up is over: a card is turned up on the city deck, or battle cards are laid."""
        deck = self._fresh(observed, CITY_DECK)
        return any(not c.is_joker for c in deck) or any(self._fresh(observed, zone_of("battle", seat)) for seat in range(4))

    def _bottoms(self, cities: Sequence[Card]) -> list[Card]:
        """The jokers that may lie at the bottom of the city deck (C6): the one not dealt as a
        city, or the one seen laid there."""
        dealt = [c for c in cities if c.is_joker]
        if len(dealt) == 2:
            return []
        if dealt:
            return [j for j in JOKERS if j is not dealt[0]]
        if self.bottom_seen is not None:
            return [self.bottom_seen]
        return list(JOKERS)

    def _seasons(self, cities: Sequence[Card], bottoms: Sequence[Card]) -> list[Season]:
        """The set-ups of a season with these cities (by seat) and bottom jokers, for every
        dealer the table may have (C5; the first season's is the configuration's, if given)."""
        game = self.game
        seats = game.expected_seats() or self._first_seats()
        dealer = game.expected_dealer() or self.tracker.config.first_dealer
        dealers = [dealer] if dealer is not None else list(game.players)
        by_seat = dict(zip(seats, cities))
        return [Season.make(d, seats, by_seat, b) for d in dealers for b in bottoms]

    def _first_seats(self) -> tuple[str, ...]:
        seats = self.tracker.config.facts.get("seats")
        if seats:
            return tuple(seats)
        return self.game._first_seats()

    def _seen_reveal(self, observed: Zones) -> Move | None:
        """C7: a card turned up on the city deck."""
        fresh = self._fresh(observed, CITY_DECK)
        if sum(fresh.values()) != 1:
            return None
        (card,) = fresh
        move = Reveal(card)
        return move if self.game.is_legal(move) else None

    def _seen_play(self, observed: Zones) -> Move | None:
        """C8: a card laid in front of the emperor to play."""
        game = self.game
        me = game.to_move
        assert me is not None
        fresh = self._fresh(observed, zone_of("battle", game.seats.index(me)))
        if sum(fresh.values()) != 1:
            return None
        (card,) = fresh
        move = Play(me, card)
        return move if game.is_legal(move) else None

    def _seen_act(self, observed: Zones, waited: bool, events: list[TrackerEvent]) -> Move | None:
        """C10-C14, C18, C19: the act whose cities and lines the table shows; while the table
        may still be on its way to another act, only once it has stayed so (``waited``)."""
        game = self.game
        seen = act_zones(observed)
        finals = {a: act_zones(_after(game, a)) for a in _acts(game)}
        found = [a for a, zones in finals.items() if _same(zones, seen)]
        if not found:
            return None
        if len(found) > 1:
            self._ask(found, events, f"Which act did {game.to_move} make?")
            return None
        act = found[0]
        if not waited and not self._gathered(observed):
            start = act_zones(table_zones(game))
            if any(_under_way(start, zones, seen) for a, zones in finals.items() if a != act):
                return None
        return act

    def _gathered(self, observed: Zones) -> bool:
        """The action's battle cards are gathered (C8): its act is done."""
        game = self.game
        return not any(observed.get(zone_of("battle", game.seats.index(name)), Counter())[card] for name, card in game.played)

    def _explain_mismatch(self, observed: Zones) -> list[TrackerEvent]:
        """The table has stayed unexplained: say what a card shown may not do, or what differs."""
        tracker = self.tracker
        if not self._first_sight(observed):
            return []
        game = self.game
        if game.phase is Phase.PLAY:
            me = game.to_move
            assert me is not None
            fresh = self._fresh(observed, zone_of("battle", game.seats.index(me)))
            if sum(fresh.values()) == 1:
                (card,) = fresh
                try:
                    game.check(Play(me, card))
                except (IllegalMoveError, InvalidMoveError) as exc:
                    tracker.state = TrackerState.OUT_OF_SYNC
                    return [RuleHint(f"{exc} - take {card.id} back", getattr(exc, "rule", None))]
        return self._out_of_sync(tracker.differences())

    # ------------------------------------------------------------------ applying moves

    def _push(self, move: Move, how: str) -> MoveApplied:
        """Propose ``move`` to the session (:class:`IllegalMoveError` if refused), and keep
        what it leaves lying on the table: a finished action's battle cards (C8), a finished
        season's table (C16), the joker laid for the bottom of the city deck."""
        game = self.game
        plays: list[tuple[str, Card]] = []
        before: CircleState | None = None
        if type(move) in ACTS:
            plays = [(zone_of("battle", game.seats.index(name)), card) for name, card in game.played]
            before = game.copy(keep_history=False)
        results = len(game.results)
        applied = self.tracker.push(move, how)
        game = self.game
        observed = self.tracker.view.zones()
        for zone, card in plays:
            if observed.get(zone, Counter())[card]:
                self.lingering.setdefault(zone, Counter())[card] += 1
        if len(game.results) > results:
            self.lingering = {z: Counter(c) for z, c in observed.items()}
            self.bottom_seen = None
        if type(move) is Season:
            self.bottom_seen = None
            if observed.get(CITY_DECK, Counter())[move.bottom]:
                self.lingering.setdefault(CITY_DECK, Counter())[move.bottom] += 1
            self.taps.bottom, self.taps.cities = None, []
            self.taps.last = None
        elif type(move) is Play:
            self.taps.last = None  # the next action is under way: the last act is done with
        elif before is not None:
            self.taps.last = (before, move)
            self.taps.used = set(self.taps.act)
        self.taps.act = []
        self.tracker.question = None
        self._asked = None
        return applied

    def _forced(self) -> list[TrackerEvent]:
        """What the rules leave no choice about: the reshuffle (C15, its cards unseen); with no
        camera, the bottom joker as the next available city once it is the city deck's last
        card (C7: it lies face up since the set-up, and nobody taps it; a camera sees it
        uncovered) and an act the winner has no choice of (a dummy's, C11; a forced regroup)."""
        events: list[TrackerEvent] = []
        game = self.game
        while True:
            move: Move | None = None
            if game.phase is Phase.RESHUFFLE:
                move = Reshuffle.make()
            elif game.phase is Phase.REVEAL and not self.tracker.camera:
                move = game.bottom_reveal()
            elif game.phase is Phase.ACT and not self.tracker.camera:
                acts = _acts(game)
                if len(acts) == 1 and not self.taps.act:
                    move = acts[0]
            if move is None:
                return events
            events.append(self._push(move, "forced"))

    def _ask(self, moves: Sequence[Move], events: list[TrackerEvent], prompt: str) -> None:
        game = self.game.game
        self._ask_once(tuple(Choice(_words(game, m), (m,)) for m in moves), prompt, events)

    # ------------------------------------------------------------------ NFC

    def tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        card = obs.card
        if not isinstance(card, Card):
            return [Notice(f"{card.label} tapped on {obs.reader} is not a Circle of Power card: this table plays Circle of Power")]
        zone = self.tracker.config.readers.get(obs.reader, obs.reader)
        if zone not in (PLAY, CITY, LINE):
            return [Notice(f"{card.id} tapped on {obs.reader}, a reader with no zone (play, city or line)")]
        events = self._forced()
        phase = self.game.phase
        if phase is Phase.OVER:
            return events if self._confirms(zone, card) else [*events, Notice(f"{card.id} tapped, but the game is over")]
        if self.tracker.question is not None or (phase is Phase.ACT and (zone == PLAY or self._reveal_tap(zone, card))):
            # The act under way (or the table's answer) comes first: this tap follows it.
            self.taps.waiting.append(obs)
            return [*events, Notice(f"{card.id} noted: it follows the move under way")]
        if phase is Phase.ACT:
            return events + self._act_tap(zone, card)
        if (phase is not Phase.SEASON or zone == LINE) and self._confirms(zone, card):
            return events  # the last act's card, tapped as it moves (a set-up is city taps only)
        if phase is Phase.SEASON:
            return events + self._season_tap(zone, card)
        if phase is Phase.REVEAL and zone == CITY:
            return events + self._apply_taps([Reveal(card)])
        if phase is Phase.PLAY and zone == PLAY:
            me = self.game.to_move
            assert me is not None
            return events + self._apply_taps([Play(me, card)])
        if phase is Phase.REVEAL and zone == PLAY:
            self.taps.waiting.append(obs)
            return [*events, Notice(f"{card.id} noted; tap the next available city on the city reader first (C7)")]
        if zone == PLAY:
            return [*events, RuleHint(f"{card.id} is not a card to play now: tap battle cards on the play reader as they are played")]
        if zone == CITY and card is self.game.next_city:
            return [*events, Notice(f"{card.id} is the next available city already (C7): nothing to tap")]
        return [*events, Notice(f"{card.id} tapped on the {zone} reader: no act is under way")]

    def _confirms(self, zone: str, card: Card) -> bool:
        """Whether a tap is one the protocol has for the last act, made after the act was
        known: it confirms the act (each tap once) and changes nothing."""
        last = self.taps.last
        if last is None or zone == PLAY or (zone, card) in self.taps.used:
            return False
        if not _tap_fits(*last, zone, card):
            return False
        self.taps.used.add((zone, card))
        return True

    def _reveal_tap(self, zone: str, card: Card) -> bool:
        """A city-reader tap while an act is under way that turns up the next city (a card of
        the city deck), rather than moving a city of the act."""
        game = self.game
        return zone == CITY and card is not game.next_city and card not in game.cities.values() and not any(
            card in game.trophies(n) for n in game.seats
        )

    def _season_tap(self, zone: str, card: Card) -> list[TrackerEvent]:
        """C6: the joker for the bottom of the city deck, then the cities from the dealer's left,
        on the city reader."""
        taps = self.taps
        if zone != CITY:
            return [RuleHint(f"{card.id}: a season is set up first (C6): tap the joker for the bottom of the city deck, then each city, on the city reader")]
        if taps.bottom is None:
            if not card.is_joker:
                return [RuleHint(f"{card.id}: the city deck's bottom card is a joker (C6): tap it first, then the cities from the dealer's left", "C6")]
            taps.bottom = card
            return []
        if card is taps.bottom or card in taps.cities:
            return []
        taps.cities.append(card)
        if len(taps.cities) < 4:
            return []
        game = self.game
        seats = game.expected_seats() or self._first_seats()
        events: list[TrackerEvent] = []
        dealer = game.expected_dealer() or self.tracker.config.first_dealer
        dealers = [dealer] if dealer is not None else list(game.players)
        seasons = []
        for dealer in dealers:
            first = seats.index(dealer) + 1
            by_seat = {seats[(first + k) % 4]: c for k, c in enumerate(taps.cities)}
            seasons.append(Season.make(dealer, seats, by_seat, taps.bottom))
        legal = [s for s in seasons if self.game.is_legal(s)]
        if len(legal) > 1:
            self._ask(legal, events, "Who deals this season?")
            return events
        moves = legal or seasons[:1]
        bottom = taps.bottom
        taps.bottom, taps.cities = None, []
        if not legal:
            try:
                game.check(moves[0])
            except (IllegalMoveError, InvalidMoveError) as exc:
                return [RuleHint(f"{exc}; tap the bottom joker ({bottom.id}) and the four cities again", getattr(exc, "rule", None))]
        return self._apply_taps(moves)

    def _act_tap(self, zone: str, card: Card) -> list[TrackerEvent]:
        """A tap of the winner's act: each narrows the acts the rules allow (C10-C14, C18, C19)
        to those that move the card tapped so; one left, it is made."""
        game = self.game
        taps = self.taps.act + [(zone, card)]
        acts = _acts(game)
        fits = [a for a in acts if all(_tap_fits(game, a, z, c) for z, c in taps)]
        if not fits:
            if self._confirms(zone, card):
                return []
            me = game.to_move
            return [RuleHint(f"{card.id} on the {zone} reader is no act {me} may make: {act_taps(game)}")]
        self.taps.act = taps
        if len(fits) > 1:
            return []
        return self._apply_taps(fits)

    def _apply_taps(self, moves: Sequence[Move]) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        for move in moves:
            try:
                events.append(self._push(move, "nfc"))
            except (IllegalMoveError, InvalidMoveError) as exc:
                events.append(RuleHint(str(exc), getattr(exc, "rule", None)))
                break
        events.extend(self._forced())
        if self.tracker.camera:
            events.extend(self.reconcile(waited=False))
        else:
            self.tracker.state = TrackerState.SYNCED
        events.extend(self._release())
        return events

    def _release(self) -> list[TrackerEvent]:
        """The taps that waited for the move under way, taken now that it is made."""
        events: list[TrackerEvent] = []
        while self.taps.waiting and self.tracker.question is None and self.game.phase is not Phase.ACT:
            events.extend(self.tapped(self.taps.waiting.pop(0)))
        return events


class CircleTracking:
    """What Circle of Power provides for tracking a table (a :class:`~companion.tracker.tracker.
    TableRules`): its table fact ``seats``, the first season's four emperors by seat, clockwise
    from seat 0 at the bottom edge of the mat (C4; by default the players in order with the
    dummies as :meth:`~companion.games.circle_of_power.game.CircleState.expected_seats` would
    have them), and the reasoning."""

    facts = ("seats",)

    def read_facts(self, data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        seats = data.get("seats")
        if seats is None:
            return {"seats": None}
        if not isinstance(seats, list) or len(seats) != 4 or not all(isinstance(s, str) for s in seats):
            raise ValueError(f'"seats" must list the four emperors by seat (players and dummies @1, @2), not {seats!r:.60}')
        dummies = [f"@{k}" for k in range(1, 5 - len(players))]
        if sorted(seats) != sorted([*players, *dummies]):
            raise ValueError(f'"seats" must seat the players {", ".join(players)} and the dummies {", ".join(dummies) or "(none)"} once each, not {", ".join(seats)}')
        return {"seats": tuple(seats)}

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        seats = facts.get("seats")
        return {"seats": list(seats) if seats else None}

    def equip(self, facts: Mapping[str, Any], *, nfc: bool) -> dict[str, Any]:
        return dict(facts)

    def reader_problem(self, zone: str, players: Sequence[str]) -> str | None:
        # The three readers of the tap protocol (docs/tracker.md), shared by every seat.
        if zone not in READER_ZONES:
            return f"{zone!r} is not a Circle of Power reader: {', '.join(READER_ZONES)}"
        return None

    def reasoner(self, tracker: Tracker) -> CircleTable:
        return CircleTable(tracker)


# ---------------------------------------------------------------------- helpers


def _acts(game: CircleState) -> list[Move]:
    """The distinct acts open to the winner (C10-C14; a dummy's one, C11)."""
    return list(dict.fromkeys(game.legal_moves))


def _after(game: CircleState, act: Move) -> Zones:
    """The face-up table right after ``act``, before anything is taken up."""
    work = game.copy(keep_history=False)
    work.push(act, check=False)
    return table_zones(work)


def _same(a: Zones, b: Zones) -> bool:
    return not any(difference(a, b))



def _places(zones: Zones) -> dict[Card, str]:
    return {card: zone for zone, cards in zones.items() for card in cards}


def _under_way(start: Zones, final: Zones, seen: Zones) -> bool:
    """Whether the table ``seen`` may be on its way from ``start`` to ``final``: every card lies
    where it was or where it goes (or is in a hand, moving), no card that stays has left, and
    the way is not over."""
    if _same(final, seen):
        return False
    before, after, now = _places(start), _places(final), _places(seen)
    for card in set(before) | set(after) | set(now):
        was, goes, lies = before.get(card), after.get(card), now.get(card)
        if lies not in ({was} if was == goes else {was, goes, None}):
            return False
    return True


def _tap_fits(game: CircleState, act: Move, zone: str, card: Card) -> bool:
    """Whether ``card`` tapped on the ``zone`` reader is part of ``act`` as the protocol taps
    it (docs/tracker.md)."""
    me = game.to_move
    assert me is not None
    mine = game.city(me)
    if type(act) is Conquer:
        theirs = game.city(act.victim)
        if zone == LINE:
            # The city taken over; in Coloured Cities a black winner's own city, kept.
            return card is theirs or (card is mine and act.keep and game.variant == COLOURED_CITIES)
        # A black winner's own city given to the loser; the next city, taken.
        return (card is mine and not act.keep) or card is game.next_city
    if type(act) is Retake:
        if zone == LINE:
            return card is act.discard
        theirs = game.city(act.victim)
        return card is theirs or card is mine or card is game.next_city
    assert type(act) is Regroup
    if zone == LINE:
        return card is act.discard
    return card is game.next_city


def act_taps(game: CircleState, *, short: bool = False) -> str:
    """What the winner taps for their act (docs/tracker.md, "Circle of Power with NFC
    readers"), in words: ``ann taps the city taken over on the line reader, ...``; ``short``,
    in few: ``line reader: the city taken over; city reader: the city retaken``."""
    me = game.to_move
    acts = _acts(game)
    black = any(type(a) is Conquer and a.keep for a in acts)  # a black winner of Coloured Cities (C19)
    if all(type(a) is Regroup for a in acts):
        return "line reader: the trophy lost (C14)" if short else f"{me} taps the trophy the rebellion costs on the line reader (C14)"
    if short:
        words = "line reader: the city taken over; city reader: the city retaken"
        if black:
            words += "; then their own city: city reader gives it, line reader keeps it"
        return words
    words = f"{me} taps the city taken over on the line reader, or the city retaken on the city reader"
    words += " (then the trophy a retake discards on the line reader, when the loser holds more than one)"
    if black:
        words += "; after the city taken over, their own city: on the city reader to give it, on the line reader to keep it (C19)"
    return words


def _words(game: Any, move: Move) -> str:
    if type(move) is Season:
        return f"{move.dealer} deals; {move.bottom.id} lies at the bottom of the city deck"
    text: str = game.describe(move)
    return text
