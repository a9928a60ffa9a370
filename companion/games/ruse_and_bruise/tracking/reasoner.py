"""How a Ruse and Bruise table is read: the tracker's reasoning for this game.

**NFC** (docs/ruse-and-bruise.md, "At the table"): a reader at each column (``column-1`` ...
``column-N``). A player taps the card they place on its column's reader before laying it face
down (B8): its back does not stop the reader, so the companion knows every face-down card
without showing it, and everything else follows from the taps and the rules:

- a round's goal cards (B7): each tapped on its column's reader as it is turned over; the round
  begins once every column has its goal card;
- a placement (B8): the card tapped, its owner (its colour, B1) the player in turn, its column
  the reader's;
- a card turned over (B10), an Explorer's move (B11), an Assassin's victim (B12), a Storm
  (B13), a player with no card passing (B8), the round's reveal (B16) and its distribution
  (B18-B26): each the only move the rules and the cards tapped allow, made at once;
- an Invisibility Cloak's choice (B14): its owner taps the card they put under it on the Cloak's
  column's reader; the Cloak itself, tapped, declines; so does any other tap, which then counts
  as what it is (the next player's card, a goal card of the next round). Only where the Cloak's
  owner is also the next to place and wants to place at the bottom of the Cloak's column must
  they tap the Cloak first: a card of theirs tapped there goes under it;
- a Traitor's choice (B15): its owner taps the goal card they bring into the Traitor's column
  (on any column's reader); the Traitor itself, tapped, declines, and so does any other tap.

The draws are never seen (B9, B29): a hand is known only as it is played. No key is needed.

**Camera** (fronts only, until a card's back is observed): after each change the reasoner
compares the face-up cards (each goal stack's top card, the cards turned up in the columns:
:mod:`.table`) with the game and takes the step the table shows: a round's goal cards laid on
their stacks; a card turned over in the column awaiting it; a card turned over in a column
whose bottom card lies face down, which is a placement there by the player in turn (without
column readers: with them, a placement is known by its tap); a Traitor's goal cards exchanged,
or a later placement seen with them in place (a Traitor declined); the cards revealed at the
round's end. What no camera sees is typed at the table (docs/ruse-and-bruise.md lists it): a
card placed where it turns nothing over, a Cloak's choice.

Cards the game has done with may stay on the table until they are taken up: a round's cards
after its distribution (B27), until they are seen gone or the next round's first card is placed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import UNSEEN, Cloak, Distribute, Move, Pass, Place, Reveal, Round, Swap, TurnOver
from companion.games.ruse_and_bruise.table import column_of_zone, column_zone, goal_zone
from companion.games.ruse_and_bruise.tracking.table import Seen, Zones, colour_of, compared, describe_difference, expected_zones, observed_zones
from companion.observations import CardGone, CardSeen, CardTapped
from companion.session import SessionEvent
from companion.tracker.events import Choice, MoveApplied, Notice, OutOfSync, RuleHint, TrackerEvent, TrackerState
from companion.tracker.reasoning import TableReasoning
from companion.tracker.view import difference, without

if TYPE_CHECKING:
    from companion.tracker.tracker import Tracker

__all__ = ["RabTable", "RabTracking", "forced_move"]

_CLOAK = Influence.from_id("CLOAK")
_TRAITOR = Influence.from_id("TRAITOR")


class _Refused(Exception):
    """A tap that no move of the game explains: what to tell the table, and the ruling."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def forced_move(game: RabState) -> Move | None:
    """The move the rules leave no choice about now, as far as the cards known tell: a player
    with no card passes (B8); a card known turned over (B10), an Explorer moving (B11), an
    Assassin's victim (B12), a Storm (B13), the reveal when every face-down card is known (B16)
    and the distribution (B18-B26). ``None`` when a player decides, the table shows the next
    move (a round's goal cards, a card nobody knew turned over), or the game is over."""
    phase = game.phase
    if phase is Phase.PLACE:
        return Pass(game.in_turn) if game.hand_size(game.in_turn) == 0 else None
    if phase in (Phase.ROUND, Phase.OVER) or game.to_move is not None:
        return None
    moves = list(itertools.islice(game.generate_legal_moves(), 2))
    return moves[0] if len(moves) == 1 else None


def _settle(game: RabState) -> None:
    """``game`` after every forced move (:func:`forced_move`)."""
    while (move := forced_move(game)) is not None:
        game.push(move, check=False)


class RabTable(TableReasoning):
    """The tracker's reasoning about a Ruse and Bruise table (a
    :class:`~companion.tracker.tracker.TableReasoner`)."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(tracker)
        self.goal_taps: dict[int, Goal] = {}
        """The goal cards tapped for the round about to begin, by column (B7)."""
        self.lingering: Zones = {}
        """Cards of a distributed round that may still lie face up until taken up (B27)."""
        self.tapped_columns = any(column_of_zone(z) is not None for z in tracker.config.readers.values())
        """The columns have readers: every placement is tapped, and the camera never infers one."""

    # ------------------------------------------------------------------ reading the tracker

    @property
    def game(self) -> RabState:
        game: RabState = self.tracker.game
        return game

    def compared(self, zone: str | None) -> bool:
        return compared(zone)

    def differences(self) -> tuple[str, ...]:
        extra, missing = difference(expected_zones(self.game), self._observed())
        return describe_difference(self.game, without(extra, self.lingering), missing)

    def _observed(self) -> Zones:
        return observed_zones(self.tracker.view.cards)

    def _seat(self, owner: str | None) -> int | None:
        """The seat whose cards a tag or a seal names: its colour (B1), or a player's name."""
        game = self.game
        if owner in game.setup.colours:
            return game.setup.colours.index(owner)
        if owner in game.players:
            return game.players.index(owner)
        return None

    # ------------------------------------------------------------------ the tracker's calls

    def seen(self, obs: CardSeen | CardGone, was: str | None) -> None:
        # A card of a distributed round seen taken up is done with (B27).
        if isinstance(obs, CardGone) and was is not None and isinstance(obs.card, (Influence, Goal)):
            left = self.lingering.get(was)
            key: Seen = (obs.card, obs.owner)
            if left is not None and left[key]:
                left[key] -= 1
                if not +left:
                    del self.lingering[was]

    def forget(self, event: SessionEvent) -> None:
        self._asked = None
        self.goal_taps = {}

    def catch_up(self, *, hold: bool) -> list[TrackerEvent]:
        events = self._forced() if not hold else []
        events.extend(self.reconcile(waited=False, apply_forced=not hold))
        return events

    def answered(self, moves: tuple[Move, ...]) -> list[TrackerEvent]:
        events = self._answer(moves, lambda move: "answer")
        events.extend(self._forced())
        events.extend(self.reconcile(waited=False))
        return events

    def announced(self, player: str) -> list[TrackerEvent]:
        return [Notice(f"{player}: Ruse and Bruise has nothing to announce; a card placed is tapped on its column's reader (the draws stay unseen, B29)")]

    # ------------------------------------------------------------------ applying moves

    def _push(self, move: Move, how: str) -> MoveApplied:
        """Propose ``move`` to the session (:class:`IllegalMoveError` if refused), and keep
        what it leaves on the table: a distributed round's cards until they are taken up."""
        game = self.game
        before = expected_zones(game) if type(move) is Distribute else None
        applied = self.tracker.push(move, how)
        if before is not None:
            # Every card of the round lies face up now (B16), or is about to be turned up.
            self.lingering = before
        elif type(move) in (Place, Pass):
            self.lingering = {}  # the next round is under way: the last one's cards are gone
        if type(move) is Round:
            self.goal_taps = {}
        self.tracker.question = None
        self._asked = None
        return applied

    def _forced(self) -> list[TrackerEvent]:
        """What the rules leave no choice about (:func:`forced_move`)."""
        events: list[TrackerEvent] = []
        while (move := forced_move(self.game)) is not None:
            events.append(self._push(move, "forced"))
        return events

    def _apply(self, moves: Iterable[Move], how: str) -> list[TrackerEvent]:
        """``moves`` applied in turn, what the rules force coming first where it must (a card
        turned over that the game knows, B10), then what the last one forces."""
        events: list[TrackerEvent] = []
        for move in moves:
            while not self.game.is_legal(move) and (forced := forced_move(self.game)) is not None:
                events.append(self._push(forced, "forced"))
            events.append(self._push(move, how))
        events.extend(self._forced())
        return events

    # ------------------------------------------------------------------ NFC

    def tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        card = obs.card
        if not isinstance(card, (Influence, Goal)):
            return [Notice(f"{card.label} tapped on {obs.reader} is not a Ruse and Bruise card: this table plays Ruse and Bruise")]
        game = self.game
        n = len(game.players)
        zone = self.tracker.config.readers.get(obs.reader, obs.reader)
        column = column_of_zone(zone)
        if column is None or column > n:
            return [Notice(f"{card.id} tapped on {obs.reader}, which serves no column (the readers serve column-1 to column-{n})")]
        events = self._forced()
        if self.game.is_game_over():
            return [*events, Notice(f"{card.id} tapped, but the game is over")]
        try:
            moves, goal = self._plan(column, card, obs.owner)
        except _Refused as refusal:
            return [*events, RuleHint(refusal.message, refusal.rule)]
        events.extend(self._apply(moves, "nfc"))
        if goal is not None:
            events.extend(self._goal_tapped(column, goal))
        if self.tracker.camera:
            events.extend(self.reconcile(waited=False))
        else:
            self.tracker.state = TrackerState.SYNCED
        return events

    def _plan(self, column: int, card: Influence | Goal, owner: str | None) -> tuple[list[Move], Goal | None]:
        """What a tap of ``card`` (its copy ``owner``) on column ``column``'s reader means, tried
        on a copy of the game: the moves it makes (a choice it declines first, then its own),
        and the goal card it names for the round about to begin; :class:`_Refused` saying why
        when none."""
        work = self.game.copy(keep_history=False)
        seat = self._seat(owner) if isinstance(card, Influence) else None
        if isinstance(card, Influence) and seat is None:
            colours = ", ".join(f"{p} {c}" for p, c in zip(work.players, work.setup.colours))
            raise _Refused(f"{card.id} of {owner or 'nobody'} tapped: no player of this table has that colour ({colours}, B1)", "B1")
        moves: list[Move] = []
        declined: str | None = None
        for _ in range(2):  # a Cloak's or a Traitor's choice the tap declines, then the tap itself
            _settle(work)
            waiting = work.waiting
            if waiting.what in ("cloak", "traitor"):
                chosen = self._choice(work, column, card, seat)
                if chosen is not None:
                    return [*moves, self._tried(work, chosen)], None
                assert waiting.player is not None
                decline: Move = Cloak(waiting.player, False) if waiting.what == "cloak" else Swap(waiting.player, None)
                work.push(decline)
                moves.append(decline)
                declined = waiting.reason.rsplit(" (", 1)[0]
                continue
            try:
                if isinstance(card, Goal):
                    return moves, self._goal_meaning(work, column, card)
                return [*moves, self._placement(work, column, card, seat)], None
            except _Refused as refusal:
                if declined is None:
                    raise
                raise _Refused(f"{refusal.message} (this tap would have declined the choice before it: {declined})", refusal.rule) from None
        raise AssertionError("a tap declines one choice at most")

    @staticmethod
    def _tried(work: RabState, move: Move) -> Move:
        """``move`` if the rules allow it in ``work``; :class:`_Refused` naming the ruling
        otherwise."""
        try:
            work.check(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise _Refused(str(exc), getattr(exc, "rule", None)) from None
        return move

    def _choice(self, work: RabState, column: int, card: Influence | Goal, seat: int | None) -> Move | None:
        """The Cloak's or the Traitor's choice a tap makes (B14, B15), ``None`` for a tap that
        declines it by being something else."""
        waiting = work.waiting
        owner = waiting.player
        assert owner is not None and waiting.column is not None
        mine = seat == work.players.index(owner)
        if waiting.what == "cloak":
            if card is _CLOAK and mine:
                return Cloak(owner, False)
            if isinstance(card, Influence) and mine and column == waiting.column:
                return Cloak(owner, True, card)
            return None
        if card is _TRAITOR and mine:
            return Swap(owner, None)
        if isinstance(card, Goal):
            heads = next((c.number for c in work.columns if c.goal is card), None)
            if heads == waiting.column:
                raise _Refused(f"{card.id} heads the Traitor's own column, {heads}: {owner} brings the goal card of another column into it (B15)", "B15")
            if heads is not None:
                return Swap(owner, heads)
        return None

    def _goal_meaning(self, work: RabState, column: int, card: Goal) -> Goal | None:
        """A goal card tapped on column ``column``'s reader: turned over for the round about to
        begin (B7), or, during a round, the goal card heading that column tapped again (nothing
        to do); :class:`_Refused` otherwise."""
        if work.phase is Phase.ROUND:
            if any(card is c.goal for r in work.results for c in r.columns):
                raise _Refused(f"{card.id} was turned over in an earlier round: there is one of each goal card (B5)", "B5")
            return card
        heads = next((c.number for c in work.columns if c.goal is card), None)
        if heads == column:
            return None  # the goal card of that column, tapped again: nothing changes
        where = f"heads column {heads}" if heads is not None else "is no goal card of this round"
        raise _Refused(f"{card.id} tapped on column {column}'s reader, but it {where}: goal cards are tapped as a round begins (B7) or by a Traitor's owner (B15)", "B7")

    def _placement(self, work: RabState, column: int, card: Influence, seat: int | None) -> Move:
        """The placement a tap of an influence card makes (B8)."""
        if work.phase is Phase.ROUND:
            raise _Refused(f"{card.id} tapped, but round {work.round_number + 1} begins first: tap each goal card turned over on its column's reader (B7)", "B7")
        if work.phase is not Phase.PLACE:
            raise _Refused(f"{card.id} tapped, but {work.waiting.reason}", None)
        player = work.in_turn
        if seat != work.players.index(player):
            assert seat is not None
            other = work.players[seat]
            raise _Refused(f"it is {player}'s turn ({colour_of(work, player)}), not {other}'s: {other}'s {card.id} ({colour_of(work, other)}) waits (B8)", "B8")
        return self._tried(work, Place(player, column, card))

    def _goal_tapped(self, column: int, goal: Goal) -> list[TrackerEvent]:
        """A goal card tapped for the round about to begin; once every column has one, the
        round begins (B7)."""
        game = self.game
        taps = self.goal_taps
        for k in [k for k, g in taps.items() if g is goal]:
            del taps[k]  # tapped again on another column's reader: it is that column's
        taps[column] = goal
        n = len(game.players)
        if len(taps) < n:
            return []
        move = Round.make([taps[k] for k in range(1, n + 1)])
        try:
            game.check(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.goal_taps = {}
            return [RuleHint(f"{exc}; tap the goal cards of round {game.round_number + 1} again, each on its column's reader", getattr(exc, "rule", None))]
        return self._apply([move], "nfc")

    # ------------------------------------------------------------------ the camera

    def _step(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """One comparison of the table with the game; ``True`` when moves were applied."""
        tracker = self.tracker
        if not tracker.camera:
            self._synced(events)
            return False
        game = self.game
        extra, missing = difference(expected_zones(game), self._observed())
        extra = without(extra, self.lingering)
        if not extra and not missing:
            self._synced(events)
            return False
        if tracker.holding:
            tracker.state = TrackerState.OUT_OF_SYNC
            events.append(OutOfSync(tracker.differences()))
            return False
        moves = self._seen(game, extra, events)
        if moves:
            events.extend(self._apply(moves, "camera"))
            return True
        return self._unexplained(waited, events, lambda: self._explain_mismatch(extra))

    def _seen(self, game: RabState, fresh: Zones, events: list[TrackerEvent]) -> list[Move]:
        """The moves the cards seen face up beyond the game's (``fresh``) show, tried on a copy
        of the game; none while the table is on its way."""
        work = game.copy(keep_history=False)
        moves: list[Move] = []
        waiting = work.waiting
        if waiting.what == "round":
            goals = [_only(fresh.get(goal_zone(k)), Goal) for k in range(1, len(work.players) + 1)]
            if any(g is None for g in goals):
                return []
            return self._fits(work, [Round.make([g for g in goals if g is not None])])
        if waiting.what == "traitor":
            assert waiting.player is not None and waiting.column is not None
            swap = self._swap_seen(work, fresh, waiting.column)
            if swap is not None:
                return self._fits(work, [Swap(waiting.player, swap)])
            if not any(k for z, k in fresh.items() if column_of_zone(z) is not None):
                return []
            # A card turned over by a later placement, the goal cards in place: declined (B15).
            moves = [Swap(waiting.player, None)]
            work.push(moves[0])
            _settle(work)
            waiting = work.waiting
        if waiting.what == "turn":
            assert waiting.column is not None
            under = work.column(waiting.column).cards[-2]  # the card above the one that arrived
            card = _only(fresh.get(column_zone(waiting.column)), Influence, colour_of(work, under[0]))
            return self._fits(work, [*moves, TurnOver(waiting.column, card)]) if card is not None else []
        if waiting.what == "place" and not self.tapped_columns:
            return self._fits(work, [*moves, *self._placement_seen(work, fresh)])
        if waiting.what == "reveal":
            return self._reveal_seen(work, fresh, events)
        return []

    def _fits(self, work: RabState, moves: list[Move]) -> list[Move]:
        """``moves`` if the rules allow them in turn in ``work`` (with what they force in
        between), else none."""
        trial = work.copy(keep_history=False)
        try:
            for move in moves:
                while not trial.is_legal(move) and (forced := forced_move(trial)) is not None:
                    trial.push(forced, check=False)
                trial.push(move)
        except (IllegalMoveError, InvalidMoveError):
            return []
        return moves

    @staticmethod
    def _placement_seen(work: RabState, fresh: Zones) -> list[Move]:
        """A card turned face up in a column whose bottom card lies face down and is of its
        colour: the player in turn placed a card there (unseen) and turned it over (B8, B10)."""
        seen = [(column_of_zone(z), key) for z, cards in fresh.items() for key in cards.elements() if column_of_zone(z) is not None]
        if len(seen) != 1:
            return []
        ((k, (card, colour)),) = seen
        assert k is not None
        col = work.column(k)
        if not isinstance(card, Influence) or not col.cards or col.cards[-1][2] or colour_of(work, col.cards[-1][0]) != colour:
            return []
        return [Place(work.in_turn, k, UNSEEN), TurnOver(k, card)]

    @staticmethod
    def _swap_seen(work: RabState, fresh: Zones, k: int) -> int | None:
        """The column whose goal card is seen exchanged with the Traitor's column's (B15)."""
        brought = _only(fresh.get(goal_zone(k)), Goal)
        if brought is None:
            return None
        there = next((c.number for c in work.columns if c.goal is brought), None)
        if there is None or there == k or _only(fresh.get(goal_zone(there)), Goal) is not work.column(k).goal:
            return None
        return there

    def _reveal_seen(self, work: RabState, fresh: Zones, events: list[TrackerEvent]) -> list[Move]:
        """Every face-down card seen turned up (B16): the reveal, once each column shows its
        own; the same player's cards in one column are told apart by what the rules allow, and
        asked where they cannot be."""
        per_column: list[list[tuple[Influence, ...]]] = []
        for col in work.columns:
            down = [colour_of(work, owner) for owner, _, up in col.cards if not up]
            cards = fresh.get(column_zone(col.number), Counter())
            if Counter(colour for _, colour in cards.elements()) != Counter(down):
                return []
            per_column.append(_orders(down, cards))
        reveals = [Reveal(tuple(cols)) for cols in itertools.product(*per_column)]
        legal = [r for r in reveals if work.is_legal(r)]
        if len(legal) == 1:
            return [legal[0]]
        if legal:
            self._ask_once(tuple(Choice(_reveal_words(work, r), (r,)) for r in legal), "Which card lies where, from the goal card down?", events)
        return []

    def _explain_mismatch(self, extra: Zones) -> list[TrackerEvent]:
        """The table has stayed unexplained: what the table must enter, or what differs."""
        tracker = self.tracker
        if not self._first_sight(tracker.view.zones()):
            return []
        tracker.state = TrackerState.OUT_OF_SYNC
        game = self.game
        waiting = game.waiting
        turned = [column_of_zone(z) for z, cards in extra.items() if column_of_zone(z) is not None and cards]
        if waiting.what == "cloak" and turned:
            return [RuleHint(f"{waiting.reason}: no camera sees a card placed face down; enter {waiting.player}'s choice", "B14")]
        if waiting.what == "place" and turned:
            return [RuleHint(
                f"a card was turned over in column {turned[0]}, but the game has no card of its colour face down at that column's bottom: "
                "enter the placements the camera could not see (a card placed in an empty column or under a face-up card, B8)", "B8")]
        return [OutOfSync(tracker.differences())]


def _only(cards: Counter[Any] | None, kind: type, colour: str | None = None) -> Any:
    """The one card of ``kind`` (and of ``colour``, when given) among ``cards``, ``None``
    when there is none or more than one."""
    found = [card for card, copy in (cards or Counter()).elements() if isinstance(card, kind) and (colour is None or copy == colour)]
    return found[0] if len(found) == 1 else None


def _orders(down: Sequence[str], cards: Counter[Any]) -> list[tuple[Influence, ...]]:
    """Every way the cards ``cards`` seen in a column may lie in its face-down places, whose
    colours are ``down`` from the goal card down: a card goes where its colour lies."""
    by_colour: dict[str, list[Influence]] = {}
    for card, colour in cards.elements():
        by_colour.setdefault(colour, []).append(card)
    ways: list[tuple[Influence, ...]] = []
    colours = list(dict.fromkeys(down))
    options = [sorted(set(itertools.permutations(by_colour[c])), key=lambda p: [x.index for x in p]) for c in colours]
    for choice in itertools.product(*options):
        taken = {c: list(p) for c, p in zip(colours, choice)}
        ways.append(tuple(taken[c].pop(0) for c in down))
    return ways


def _reveal_words(game: RabState, reveal: Reveal) -> str:
    """A reveal in words, its columns with several face-down cards."""
    parts = []
    for col, cards in zip(game.columns, reveal.columns):
        if len(cards) > 1:
            parts.append(f"column {col.number}: " + ", ".join(c.id for c in cards) + " from the goal card down")
    return "; ".join(parts) or "every card where it lies"


class RabTracking:
    """What Ruse and Bruise provides for tracking a table (a :class:`~companion.tracker.tracker.
    TableRules`): no table facts of its own (the colours and the values table are the set-up's,
    B1, B4), the readers of the columns, and the reasoning."""

    facts: tuple[str, ...] = ()

    def read_facts(self, data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        return {}

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def equip(self, facts: Mapping[str, Any], *, nfc: bool) -> dict[str, Any]:
        return dict(facts)

    def reader_problem(self, zone: str, players: Sequence[str]) -> str | None:
        n = len(players)
        k = column_of_zone(zone)
        if k is None:
            return f"{zone!r} is not a Ruse and Bruise reader: a reader serves a column, column-1 to column-{n}"
        if k > n:
            return f"{zone!r}: a table of {n} players has columns 1 to {n} (B7)"
        return None

    def reasoner(self, tracker: Tracker) -> RabTable:
        return RabTable(tracker)

