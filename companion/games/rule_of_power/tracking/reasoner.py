"""How a Rule of Power table is read: the tracker's reasoning for this game.

After each change of the table the reasoner compares the face-up cards (the centre, the Fate
cards in front of each player) with the game, and searches the legal moves for those that make
the table look as seen (:func:`~companion.games.rule_of_power.tracking.explain.explain`). The
order the table showed things in narrows the search (:mod:`~companion.games.rule_of_power.
tracking.order`): cards laid in the centre are played in the order they were laid. A card
seen laid in the centre that the camera cannot read yet holds that order: no card laid after
it is played before it is named, and one left unnamed for ``unexplained_after`` seconds is put
to the table as a question (which card lies there).

With NFC readers, a card tapped on the centre reader is played (its capture tapped too when the
choice is not forced), a Dark Decay waits for each opponent's discard, and a Fate card tapped on
a player's Fate reader is a draw, or names the target of a Thief or a Mirror Swap when the table
is asked whom it targets. Fate draws no sensor can see are announced (a key at the dashboard).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.contract.errors import IllegalMoveError
from companion.games.rule_of_power.engine.captures import sort_options
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Pass, Play
from companion.games.rule_of_power.tracking.explain import (
    Explanation,
    TableReading,
    describe_moves,
    explain,
    fate_plays,
    possible_cards,
    forced_move,
    matches,
    push_forced,
)
from companion.games.rule_of_power.tracking.order import TableOrder
from companion.games.rule_of_power.tracking.table import compared, describe_difference, expected_zones, physical
from companion.observations import CardGone, CardLaid, CardSeen, CardTapped, LaidGone
from companion.session import SessionEvent, Started
from companion.tracker.events import Choice, MoveApplied, Notice, OutOfSync, Question, RuleHint, TrackerEvent, TrackerState
from companion.tracker.reasoning import TableReasoning
from companion.tracker.view import Key, Zones, difference

if TYPE_CHECKING:
    from companion.tracker.tracker import Tracker

__all__ = ["RuleOfPowerTable", "RuleOfPowerTracking"]


@dataclass
class _Taps:
    """NFC taps of a move under way: the cards a capture takes, a Dark Decay's discards, the
    cards dealt when hands are tapped in."""

    card: Card | None = None
    """The card tapped to play, whose capture the next taps name."""
    taken: list[Card] = field(default_factory=list)
    prefix: list[Move] = field(default_factory=list)
    """Passes the tap implies before the play (R17)."""
    moves: list[Move] = field(default_factory=list)
    """The plays the tapped card may make."""
    decay: tuple[list[Move], str, Card, list[tuple[str, Card]]] | None = None
    """A Dark Decay tapped: its passes, its player, the card, the discards tapped so far."""
    dealt: dict[str, list[Card]] = field(default_factory=dict)
    waiting: list[CardTapped] = field(default_factory=list)
    """Plays tapped while a question about an earlier move is open: they follow that move,
    once the table has answered (a move waiting for an answer is never taken for a pass)."""


@dataclass
class _Draws:
    """Fate draws announced at the table (no sensor sees a card taken from a face-down deck)."""

    pending: list[str] = field(default_factory=list)
    """Announced and not yet applied, in order."""
    after_own: set[str] = field(default_factory=set)
    """Players who announced while their own move was still under way: their draw comes at
    their next turn."""


class RuleOfPowerTable(TableReasoning):
    """The tracker's reasoning about a Rule of Power table (a
    :class:`~companion.tracker.tracker.TableReasoner`)."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(tracker)
        self.order = TableOrder()
        self.taps = _Taps()
        self.draws = _Draws()
        self._waited: object = None
        self._unread_asked: tuple[int, tuple[tuple[Move, ...], ...]] | None = None
        """The mark of the card laid unread that the question asks about, and its choices."""

    # ------------------------------------------------------------------ reading the tracker

    @property
    def game(self) -> GameState:
        game: GameState = self.tracker.game
        return game

    @property
    def fate_decks(self) -> dict[str, tuple[Card, ...]]:
        """Each player's seven Fate cards (R18), whose order is never seen."""
        decks: dict[str, tuple[Card, ...]] = self.tracker.config.facts.get("fate_decks", {})
        return decks

    @property
    def draws_visible(self) -> bool:
        """Fate draws are tapped on the players' Fate readers, never assumed."""
        return bool(self.tracker.config.facts.get("draws_visible", False))

    def compared(self, zone: str | None) -> bool:
        return compared(zone)

    def _spent(self) -> set[Key]:
        """The physical cards put out of play this round, as the session's events say."""
        view = self.tracker.view
        return {key for fx in self.tracker.session.round_effects() for s in fx.spent for key in physical(view, s.card, s.owner)}

    def differences(self) -> tuple[str, ...]:
        extra, missing = difference(expected_zones(self.game), self.tracker.view.zones(self._spent()))
        return describe_difference(self.game, extra, missing)

    # ------------------------------------------------------------------ the tracker's calls

    def seen(self, obs: CardSeen | CardGone, was: str | None) -> None:
        tracker = self.tracker
        self.order.saw(obs, was, tracker.view.zone_of((obs.card, obs.owner)), tracker.seq)

    def unread(self, obs: CardLaid | LaidGone) -> None:
        self.order.saw_unread(obs, self.tracker.seq)

    def forget(self, event: SessionEvent) -> None:
        if isinstance(event, Started):
            self.order.clear()
        self._unread_asked = None
        self._corrected()
        self.taps.decay = None
        self.taps.card = None
        self.taps.taken = []
        self.taps.waiting = []

    def catch_up(self, *, hold: bool) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        self._after_moves(events, apply_forced=not hold)
        events.extend(self.reconcile(waited=False, apply_forced=not hold))
        return events

    def answered(self, moves: tuple[Move, ...]) -> list[TrackerEvent]:
        """The table's answer, applied; an answer that no longer fits the game (the game moved
        on meanwhile) is dropped with a message, and the table is compared afresh (asking
        again where it still matters). Plays tapped while the question was open follow."""
        self._name_unread(moves)
        events = self._answer(moves, lambda move: self._announced_draw(move) or "answer")
        self._after_moves(events)
        events.extend(self.reconcile(waited=False))
        waiting, self.taps.waiting = self.taps.waiting, []
        for obs in waiting:
            events.extend(self.tapped(obs))
        return events

    def announced(self, player: str) -> list[TrackerEvent]:
        """A Fate draw announced at the dashboard or tapped on a Fate reader (a camera cannot
        see it). Players before ``player`` who hold only Fate cards have passed (R17)."""
        events = self._forced()
        under_way = self.tracker.state in (TrackerState.WAITING, TrackerState.ASKING) or bool(self._unplayed())
        if under_way and player not in self.draws.pending:
            # A move is still under way on the table (a card shown and not yet accounted for,
            # though the table may look as the game expects): the draw comes after it, at the
            # player's next turn if the move is theirs.
            self.draws.pending.append(player)
            if self.game.turn == player and self.game.world_cards_in_hand(player):
                self.draws.after_own.add(player)
            return [*events, Notice(f"{player}'s Fate draw noted; it follows the move under way")]
        return events + self._draw(player, early=player not in self.draws.pending)

    # ------------------------------------------------------------------ comparing the table

    def _step(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """One comparison of the table with the game; ``True`` when moves were applied (the
        table is to be compared again)."""
        tracker = self.tracker
        observed = tracker.view.zones(self._spent())
        self.order.forget_lingering(observed)
        if not tracker.camera or matches(self.game, observed, self.order.lingering):
            if not self._unread_waits(waited, events):
                self._in_sync(events)
            return False
        if tracker.holding:
            tracker.state = TrackerState.OUT_OF_SYNC
            events.append(OutOfSync(tracker.differences()))
            return False
        if self._still_out_of_sync(waited, events):
            return False
        in_order, later = self._in_order()
        first = in_order[0] if in_order else None
        found = self._before_unread(self._explanations(waited, in_order, later))
        if any(e.inferred for e in found) and not waited:
            # A capture whose capturing card nobody saw: wait, it may be a hand over the centre.
            tracker.state = TrackerState.WAITING
            return False
        if len(found) == 1 and not found[0].inferred:
            for move in found[0].moves:
                events.append(self._push(move, self._announced_draw(move) or "camera"))
            self._after_moves(events)
            return True
        if found:
            self._ask_which(found, events)
        elif not waited:
            if tracker.state is not TrackerState.OUT_OF_SYNC:
                tracker.state = TrackerState.WAITING
        elif self._unread_waits(waited, events):
            pass
        elif first is not None and later:
            self._wait_for_first(first, later, events)
        else:
            events.extend(self._explain_mismatch(observed))
        return False

    # ------------------------------------------------------------------ cards laid unread

    def _before_unread(self, found: list[Explanation]) -> list[Explanation]:
        """The explanations that play no card laid in the centre after a card laid there that
        the camera cannot name yet: that card is the next play, and the ones after it wait
        (a later card is never credited in its place)."""
        first = self.order.first_unread()
        if first is None:
            return found
        laid = {c: n for (c, _), n in self.order.laid.items()}
        return [e for e in found if not any(isinstance(m, Play) and m.card.to_centre and laid.get(m.card, -1) > first[1] for m in e.moves)]

    def _unread_waits(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """Whether a card laid in the centre that the camera cannot name yet holds the table:
        the tracker waits for it to be read and, once it has lain unnamed for
        ``unexplained_after`` seconds with every card laid before it played, asks the table
        which card it is (never guessing)."""
        first = self.order.first_unread()
        tracker = self.tracker
        if first is None or tracker.view.laid.get(first[0]) is None:
            return False
        if tracker.question is not None:
            tracker.state = TrackerState.ASKING
            return True
        tracker.state = TrackerState.WAITING
        if not waited or self.game.phase is not Phase.TURN:
            return True
        if any(self.order.laid.get(k, -1) < first[1] for k in self._unplayed()):
            return True  # a card laid before it is still to be played: that comes first
        self._ask_unread(first[0], events)
        return True

    def _ask_unread(self, mark: int, events: list[TrackerEvent]) -> None:
        """Which card lies in the centre, laid unread: one choice for each card the player to
        move may hold and lay there without taking anything (R4)."""
        game = self.game
        me = game.turn
        assert me is not None
        seen = {card for card, _ in self.tracker.view.cards}
        plays = [Play(me, c) for c in possible_cards(game, me) if c.to_centre and c not in seen]
        choices = tuple(Choice(describe_moves([m]), (m,)) for m in plays if game.is_legal(m))
        if not choices:
            return
        self._unread_asked = (mark, tuple(c.moves for c in choices))
        prompt = f"A card lies in the centre that the camera cannot read: which card did {me} play?"
        self._ask_once(choices, prompt, events)

    def _name_unread(self, moves: tuple[Move, ...]) -> None:
        """The table answered which card lies there, laid unread: the view has it by name from
        now on (until the camera reads it, or sees it go)."""
        asked, self._unread_asked = self._unread_asked, None
        play = next((m for m in moves if isinstance(m, Play)), None)
        if asked is None or play is None or moves not in asked[1]:
            return
        mark = asked[0]
        self.order.unread.pop(mark, None)
        self.tracker.view.name(mark, (play.card, play.player if play.card.is_fate else None))

    def _in_sync(self, events: list[TrackerEvent]) -> None:
        """The table looks as the game expects; a draw announced while it was settling is made
        now, at its player's turn."""
        self._synced(events)
        pending = self.draws.pending
        if pending and self.game.turn == pending[0] and pending[0] not in self.draws.after_own:
            events.extend(self._draw(pending.pop(0)))

    def _explanations(self, waited: bool, in_order: list[Key], later: list[Key]) -> list[Explanation]:
        """The sequences of moves that explain the table, narrowed by the order it showed
        things in (``in_order``: the cards the next moves must play; ``later``: those laid
        after the first of them)."""
        first = in_order[0] if in_order else None
        vanished = self._vanished()
        found = self._explain(vanished, in_order, later, True)
        if not found and not self.draws_visible:
            # Nothing explains the table without one more draw than was announced: a draw
            # nobody announced, asked about (or applied, when it is the only way).
            found = self._explain(vanished, in_order, later, False)
        if first is not None:
            # Cards laid in the centre are played in the order they were laid, however late
            # the camera reports what the first one took.
            found = [e for e in found if _first_laid(e) in (None, first[0])]
        # The same move after a round of moves nobody saw (passes, an announced draw taken
        # early) is that move: the announced draw waits for its player's turn.
        found = [e for e in found if not any(_detour_of(e, f) for f in found)]
        found = self._first_in_front(found)
        if vanished:
            found = self._with_vanished(found, vanished, waited, first)
        return found

    def _explain(self, vanished: set[Card], in_order: list[Key], later: list[Key], draws_visible: bool) -> list[Explanation]:
        order = self.order
        reading = TableReading(
            view=self.tracker.view,
            shown=order.shown,
            spent=frozenset(self._spent()),
            lingering=order.lingering,
            vanished=frozenset(vanished),
            chain=max(1, len(later)),
            laid_at={c: n for (c, _), n in order.laid.items()},
            left_at={c: n for (c, _), n in order.left.items()},
            in_order=[c for c, _ in in_order],
            announced=self.draws.pending,
            after_own=frozenset(self.draws.after_own),
        )
        return explain(self.game, reading, draws_visible=draws_visible, hands_unseen=self.tracker.config.hands_unseen)

    def _first_in_front(self, found: list[Explanation]) -> list[Explanation]:
        """Fate cards laid in front of players at once (a Dark Decay and the discards it calls
        for, one of them a Dark Decay too): the one laid first was played."""
        if len(found) <= 1:
            return found
        keys = [_played_in_front(e) for e in found]
        laid = [self.order.in_front[k] for k in keys if k is not None and k in self.order.in_front]
        if len(laid) == len(found) and len(set(laid)) == len(laid):
            return [found[laid.index(min(laid))]]
        return found

    def _with_vanished(self, found: list[Explanation], vanished: set[Card], waited: bool, first: Key | None) -> list[Explanation]:
        """A card was shown and has left the centre: the next move must be that card's,
        whatever else the table shows meanwhile (the camera may report the cards it took a
        moment later). Once the table has stayed so for ``unexplained_after`` seconds, the
        card may have been taken back, and the other explanations count again, unless it had
        cards to take (it is then the first card laid)."""
        with_it = [e for e in found if any(isinstance(m, Play) and m.card in vanished for m in e.moves)]
        if with_it or not waited or (first is not None and first[0] in vanished):
            return with_it
        if found:
            self.order.shown = [k for k in self.order.shown if k[0] not in vanished]
        return found

    def _ask_which(self, found: list[Explanation], events: list[TrackerEvent]) -> None:
        choices = tuple(Choice(e.describe(), e.moves) for e in found)
        self._ask_once(choices, _prompt(choices, "The table could show any of these; which happened?", tap=self._fate_readers), events)

    def _wait_for_first(self, first: Key, later: list[Key], events: list[TrackerEvent]) -> None:
        """The cards laid after the first wait for its move: a capture the camera has not seen
        the end of, or a card that must capture (R4) and has not yet."""
        self.tracker.state = TrackerState.WAITING
        waiting = (first, tuple(later))
        if waiting == self._waited:
            return
        self._waited = waiting
        card = first[0].long_label
        if first in self.order.left:
            what = f"Waiting for the cards {card} took to be seen gone"
        else:
            what = f"{card} was laid first and has not been played yet"
        events.append(Notice(f"{what}: the cards laid after it follow its move. If it was taken back, enter the moves by hand."))

    def _unplayed(self) -> list[Key]:
        """The cards shown in the centre, in the order they were laid, that the game does not
        have played yet: moves under way, or cards taken back."""
        game = self.game
        stacked = {c for p in game.players for c in game.stack(p)}

        def in_hand(c: Card) -> bool:
            # Still to be played, as far as the game knows (not captured, not discarded).
            return c in game.unlocated if c.is_world else c not in stacked and c not in game.discards

        return [(c, o) for c, o in self.order.shown if c not in game.centre and c.to_centre and in_hand(c)]

    def _vanished(self) -> set[Card]:
        """Cards shown in the centre that have left it, though the game does not have them
        captured or played: a move under way, or a card taken back."""
        cards = self.tracker.view.cards
        return {c for c, o in self._unplayed() if cards.get((c, o)) != "centre"}

    def _in_order(self) -> tuple[list[Key], list[Key]]:
        """The cards the next moves must play, in the order the table showed them, and the
        cards laid after the first of them.

        Cards laid in the centre are played in the order they were laid. Of those the game
        does not have played yet, a card binds when it still lies there, or was seen leaving
        it while the centre held cards for it to take (R4: a capture whose cards the camera
        has not yet reported gone), or after a card was laid after it (taken by that later
        play). The first binding card is the player to move's; the cards laid after it are
        plays of the players after, never theirs. A card that left the centre with nothing to
        take before anything else was laid was taken back, and binds nothing."""
        unplayed = self._unplayed()
        game = self.game
        order = self.order
        binding: list[Key] = []
        later: list[Key] = []
        for i, key in enumerate(unplayed):
            after = unplayed[i + 1 :]
            left = order.left.get(key)
            if self.tracker.view.cards.get(key) == "centre":
                pass
            elif left is None:
                continue  # tapped, never seen
            elif not (game.capture_options(key[0]) or any(order.laid.get(k, left) < left for k in after)):
                continue
            if not binding:
                later = after
            binding.append(key)
        return binding, later

    def _explain_mismatch(self, observed: Zones) -> list[TrackerEvent]:
        """The table has stayed unexplained: say what the rules want of a card shown (R4, R5),
        or what differs."""
        game = self.game
        if not self._first_sight(observed):
            return []
        extra, missing = difference(expected_zones(game), observed)
        if game.phase is Phase.TURN:
            hint = self._rule_hint(extra, missing)
            if hint is not None:
                return hint
        return self._out_of_sync(describe_difference(game, extra, missing))

    def _rule_hint(self, extra: Zones, missing: Zones) -> list[TrackerEvent] | None:
        """A card shown in the centre that must capture (R4, R5), once it has lain there
        ``remind_after`` seconds; or cards taken that the card shown may not take."""
        game = self.game
        tracker = self.tracker
        me = game.turn
        assert me is not None
        centre_extra = extra.get("centre", Counter())
        centre_missing = missing.get("centre", Counter())
        if sum(centre_extra.values()) == 1 and not centre_missing:
            (card,) = centre_extra
            options = sort_options(game.centre, game.capture_options(card))
            if options and not set(extra) - {"centre"}:
                tracker.state = TrackerState.WAITING
                if tracker.now - tracker.changed_at < tracker.config.remind_after:
                    self._hinted = None  # shown for a moment only: ask again later
                    return []
                shown = " or ".join(" + ".join(c.label for c in o) for o in options[:4])
                rule = "R5" if game.is_empowered(card) else "R4"
                return [RuleHint(f"{card.long_label} must take {shown} ({rule})", rule)]
        if centre_missing and not centre_extra:
            taken = tuple(sorted(centre_missing.elements(), key=lambda c: c.index))
            for card, _ in self.order.shown:
                if card.to_centre and card not in game.centre:
                    try:
                        game.check(Play(me, card, taken))
                    except IllegalMoveError as exc:
                        tracker.state = TrackerState.OUT_OF_SYNC
                        return [RuleHint(f"{exc} - put the cards back as they were", exc.rule)]
        return None

    # ------------------------------------------------------------------ applying moves

    def _push(self, move: Move, how: str) -> MoveApplied:
        """Propose a move to the session; :class:`IllegalMoveError` if it is refused."""
        applied = self.tracker.push(move, how)
        if isinstance(move, Play):
            self.draws.after_own.discard(move.player)  # their move is made: their draw comes next
        if isinstance(move, NewRound):
            # A new round: what was shown before it belongs to the last round (it may linger
            # until the table is cleared), except cards laid since, for the first deal.
            lingering = self.order.lingering.get("centre", Counter())
            cards = self.tracker.view.cards
            self.order.shown = [k for k in self.order.shown if cards.get(k) == "centre" and not lingering[k[0]]]
        return applied

    def _after_moves(self, events: list[TrackerEvent], *, apply_forced: bool = True) -> None:
        """Bookkeeping after moves were applied: forced moves, and the cards of a finished
        round that may stay on the table until somebody clears it."""
        order = self.order
        cards = self.tracker.view.cards
        game = self.game
        for e in list(events):
            if isinstance(e, MoveApplied) and isinstance(e.move, Deal) and e.move.centre:
                order.lingering = {}
        if game.phase in (Phase.ROUND, Phase.OVER) and game.results:
            order.lingering = self.tracker.view.zones(self._spent())
        # What was shown and is still to be played stays, in order: cards on the table, and
        # cards seen leaving it that a later move may yet account for (the camera behind).
        unplayed = {k for k in self._unplayed() if k in order.left}
        order.shown = [k for k in order.shown if cards.get(k, "") == "centre" or k in unplayed]
        order.laid = {k: n for k, n in order.laid.items() if k in order.shown}
        # (and when cards the game still has in the centre were seen leaving it)
        order.left = {k: n for k, n in order.left.items() if k in order.shown or k[0] in game.centre}
        order.in_front = {k: n for k, n in order.in_front.items() if (cards.get(k) or "").startswith("fate:")}
        self.taps.taken = []
        self.taps.card = None
        if not apply_forced:
            return
        events.extend(self._forced())
        pending = self.draws.pending
        for _ in range(len(pending)):
            # A draw announced while the move before was still being picked up.
            if game.turn != pending[0] or pending[0] in self.draws.after_own:
                break
            events.extend(self._draw(pending.pop(0)))

    def _forced(self) -> list[TrackerEvent]:
        """Apply what the rules leave no choice about: a new round once its dealer is known,
        a pass with an empty hand, a deal dealt face down (R15, R17)."""
        events: list[TrackerEvent] = []
        game = self.game
        while True:
            move: Move | None
            if game.phase is Phase.ROUND:
                move = self._new_round()
            else:
                move = forced_move(game, hands_unseen=self.tracker.config.hands_unseen)
            if move is None:
                return events
            events.append(self._push(move, "forced"))

    def _new_round(self) -> NewRound | None:
        game = self.game
        players = game.players
        if game.round_number == 0:
            dealer = self.tracker.config.first_dealer
            if dealer is None:
                return None
        else:
            dealer = players[(players.index(game.dealer or players[0]) + 1) % len(players)]
        decks = {p: tuple(self.fate_decks.get(p, ())) for p in players}
        return NewRound.make(dealer, decks, fate_order_known=False)

    def _apply_all(self, moves: list[Move], how: str) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        for move in moves:
            try:
                events.append(self._push(move, how))
            except IllegalMoveError as exc:
                events.append(RuleHint(str(exc), exc.rule))
                break
        self._after_moves(events)
        if self.tracker.camera:
            events.extend(self.reconcile(waited=False))
        else:
            self.tracker.state = TrackerState.SYNCED
        return events

    # ------------------------------------------------------------------ NFC

    def tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        tracker = self.tracker
        zone = tracker.config.readers.get(obs.reader, obs.reader)
        card = obs.card
        if not isinstance(card, Card):
            return [Notice(f"{card.label} tapped on {obs.reader} is not a Rule of Power card: this table plays Rule of Power")]
        game = self.game
        events = self._forced()
        if zone.startswith("hand:") or (zone == "centre" and game.phase is Phase.DEAL):
            return events + self._deal_tap(zone, card)
        if zone.startswith("fate:"):
            return events + self._fate_reader_tap(zone, card, obs.owner)
        if zone != "centre":
            return [*events, Notice(f"{card.label} tapped on {obs.reader}, a reader with no zone")]
        if tracker.question is not None and self.taps.decay is None and self.taps.card is None:
            # An earlier move waits for the table's answer: this play follows it.
            self.taps.waiting.append(obs)
            return [*events, Notice(f"{card.label} noted: it follows the move the table is asked about")]
        if game.phase is not Phase.TURN:
            return [*events, Notice(f"{card.label} tapped, but no play is due: {game.phase.value} next")]
        if tracker.camera:
            # With a camera too, the tap names the card the camera may miss in a fast capture.
            key = (card, obs.owner if card.is_fate else None)
            if not self.order.has(key):
                tracker.seq += 1
            self.order.tapped(key, tracker.seq)
            return events + self.reconcile(waited=False)
        return events + self._nfc_play(card, obs.owner)

    def _fate_reader_tap(self, zone: str, card: Card, owner: str | None) -> list[TrackerEvent]:
        """A card tapped on a player's Fate reader: the answer naming that player as a target,
        or that player's Fate draw."""
        player = zone.partition(":")[2]
        if self.tracker.question is not None:
            # The gesture that names a target: the target taps a card on their Fate reader.
            choice = self._choice_targeting(player)
            if choice is not None:
                return self.tracker.answer(choice)
        if not card.is_fate:
            return [Notice(f"{card.label} is a World card: tap it on the centre reader to play it")]
        return self.announced(owner or player)

    def _nfc_play(self, card: Card, owner: str | None) -> list[TrackerEvent]:
        """A card tapped on the centre reader: the card played, or a card it captures, or a
        card discarded to a Dark Decay."""
        game = self.game
        taps = self.taps
        if taps.decay is not None:
            return self._decay_tap(card, owner)
        if taps.card is not None and card in game.centre:
            taps.taken.append(card)
            return self._resolve_taps()
        player = owner if card.is_fate else None
        work = game.copy()
        prefix = self._passes_before(work, player, world=card.is_world)
        me = work.turn
        assert me is not None
        rule = None if card.is_world else fate_rule(card)
        if rule is not None and "discards" in rule.details:
            waiting = rule.victims(work, me)
            if not waiting:
                return self._apply_all([*prefix, Play(me, card)], "nfc")
            taps.decay = (prefix, me, card, [])
            return [Notice(f"{card.title}: {', '.join(waiting)}, tap the card you discard, in seating order")]
        moves = self._tap_plays(work, me, card)
        legal = [m for m in moves if work.is_legal(m)]
        if not legal:
            return [_why_not(work, me, card, moves)]
        if len(legal) == 1:
            return self._apply_all(prefix + legal, "nfc")
        if all(isinstance(m, Play) and m.capture for m in legal):
            taps.card = card
            taps.prefix = prefix
            taps.moves = legal
            return [Notice(f"{card.label} can capture in {len(legal)} ways: tap the cards it takes")]
        return self._ask(prefix, legal)

    @staticmethod
    def _tap_plays(work: GameState, me: str, card: Card) -> list[Move]:
        """The plays a tapped card may make: its captures (R4, R5), or its Fate rule's plays."""
        if card.to_centre:
            options = sort_options(work.centre, work.capture_options(card))
            return [Play(me, card, o) for o in options] or [Play(me, card)]
        return fate_plays(work, me, card, {})

    def _passes_before(self, work: GameState, player: str | None, *, world: bool) -> list[Move]:
        """Passes the tap implies (R17): players before ``player`` (the owner of a Fate card
        tapped), or before whoever holds World cards, who hold none themselves."""
        prefix: list[Move] = []
        while len(prefix) < len(work.players):
            me = work.turn
            if me is None or me == player:
                break
            if player is None and (not world or work.world_cards_in_hand(me)):
                break
            if work.world_cards_in_hand(me):
                break
            prefix.append(Pass(me))
            work.push(prefix[-1])
        return prefix

    def _decay_tap(self, card: Card, owner: str | None) -> list[TrackerEvent]:
        """R21: each opponent's discard to a Dark Decay, tapped in seating order."""
        assert self.taps.decay is not None
        prefix, me, decay, discards = self.taps.decay
        work = self.game.copy()
        for m in prefix:
            work.push(m)
        waiting = [p for p in fate_rule(decay).victims(work, me) if p not in dict(discards)]
        who = owner if card.is_fate and owner in waiting else (waiting[0] if waiting else None)
        if who is None:
            return [Notice("every opponent has discarded already")]
        discards.append((who, card))
        if len(waiting) > 1:
            return []
        self.taps.decay = None
        move = Play(me, decay, discards=tuple(discards))
        try:
            work.check(move)
        except IllegalMoveError as exc:
            return [RuleHint(f"{exc}; tap the {decay.title} again, then the discards", exc.rule)]
        return self._apply_all([*prefix, move], "nfc")

    def _resolve_taps(self) -> list[TrackerEvent]:
        taps = self.taps
        fits = [m for m in taps.moves if isinstance(m, Play) and set(taps.taken) <= set(m.capture)]
        if not fits:
            shown = ", ".join(c.label for c in taps.taken)
            taps.taken = []
            return [RuleHint(f"{shown} is not part of any capture {taps.card} can make (R4); tap again")]
        if len(fits) == 1:
            return self._apply_all([*taps.prefix, *fits], "nfc")
        return []

    def _ask(self, prefix: list[Move], moves: Iterable[Move]) -> list[TrackerEvent]:
        tracker = self.tracker
        choices = tuple(Choice(describe_moves(prefix + [m]), tuple(prefix + [m])) for m in moves)
        tracker.question = Question(_prompt(choices, tap=self._fate_readers), choices)
        tracker.state = TrackerState.ASKING
        return [tracker.question]

    @property
    def _fate_readers(self) -> bool:
        """The players have Fate readers: a tap there can name a target."""
        return any(zone.startswith("fate:") for zone in self.tracker.config.readers.values())

    def _choice_targeting(self, player: str) -> int | None:
        """The open question's one choice whose play targets ``player`` (a Thief, a Mirror
        Swap), if there is exactly one."""
        question = self.tracker.question
        assert question is not None
        found = [i for i, c in enumerate(question.choices) if _target_of(c) == player]
        return found[0] if len(found) == 1 else None

    def _deal_tap(self, zone: str, card: Card) -> list[TrackerEvent]:
        """Cards tapped while a deal is due: the first deal's centre cards on the centre
        reader, and each hand on its player's reader when hands are tapped in."""
        game = self.game
        if game.phase is not Phase.DEAL:
            return [Notice(f"{card.label} tapped on a dealing reader, but no deal is due")]
        player = zone.partition(":")[2] if zone.startswith("hand:") else "centre"
        dealt = self.taps.dealt
        tapped = dealt.setdefault(player, [])
        if card not in tapped:
            tapped.append(card)
        centre = dealt.get("centre", [])
        if self.tracker.config.hands_unseen:
            deal = Deal(game.unseen_deal().hands, tuple(centre))
        else:
            deal = Deal.make({p: dealt.get(p, []) for p in game.players}, centre)
        if game.is_legal(deal):
            self.taps.dealt = {}
            return self._apply_all([deal], "nfc")
        return []

    # ------------------------------------------------------------------ announced draws

    def _announced_draw(self, move: Move) -> str | None:
        """``"announced"`` when ``move`` is the draw announced first and not yet applied (the
        search put it where the order of the table needs it), which it then is."""
        pending = self.draws.pending
        if isinstance(move, DrawFate) and pending and pending[0] == move.player:
            pending.pop(0)
            return "announced"
        return None

    def _draw(self, player: str, *, early: bool = False) -> list[TrackerEvent]:
        """``player``'s Fate draw applied now, or (``early``: announced before the camera saw
        the move before it) noted to follow that move."""
        events = self._forced()
        game = self.game
        if self.tracker.camera and game.phase is Phase.TURN and (
            (early and game.turn not in (None, player)) or (game.turn == player and not game.world_cards_in_hand(player))
        ):
            # Announced as soon as the player's turn came, before the camera saw the moves
            # before it (the last card of a deal, before the next deal): the draw follows
            # them, made as soon as the player's turn comes with a World card in hand (R17).
            self.draws.pending.append(player)
            return [*events, Notice(f"{player}'s Fate draw noted; it follows the moves before it")]
        moves: list[Move] = []
        work = game.copy()
        while work.turn not in (None, player) and not work.world_cards_in_hand(work.turn) and len(moves) < len(work.players):
            moves.append(Pass(work.turn))
            work.push(moves[-1])
            forced = push_forced(work, hands_unseen=self.tracker.config.hands_unseen)
            moves.extend(work.move_stack[len(work.move_stack) - forced :])
        moves.append(DrawFate(player))
        try:
            work.check(moves[-1])
        except IllegalMoveError as exc:
            return [*events, RuleHint(str(exc), exc.rule)]
        return [*events, *self._apply_all(moves, "announced")]


class RuleOfPowerTracking:
    """What Rule of Power provides for tracking a table (a
    :class:`~companion.tracker.tracker.TableRules`): its table facts, ``fate_decks`` (each
    player's seven Fate cards, whose order is never seen, R18) and ``draws_visible`` (Fate
    draws are tapped on the players' Fate readers, never assumed), and the reasoning."""

    facts = ("fate_decks", "draws_visible")

    def read_facts(self, data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        decks = data.get("fate_decks") or {}
        if not isinstance(decks, dict):
            raise ValueError(f'"fate_decks" must map each player to their Fate cards, not {decks!r:.40}')
        fate_decks = {}
        for player, cards in decks.items():
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ValueError(f'"fate_decks": {player}\'s deck must be a list of card ids')
            if player not in players:
                raise ValueError(f'"fate_decks": {player!r} is not one of the players')
            fate_decks[player] = tuple(Card.from_id(c) for c in cards)
        draws = data.get("draws_visible", False)
        if not isinstance(draws, bool):
            raise ValueError(f'"draws_visible" must be true or false, not {draws!r:.40}')
        return {"fate_decks": fate_decks, "draws_visible": draws}

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        decks = facts.get("fate_decks") or {}
        return {"fate_decks": {p: [c.id for c in cards] for p, cards in decks.items()}, "draws_visible": bool(facts.get("draws_visible", False))}

    def equip(self, facts: Mapping[str, Any], *, nfc: bool) -> dict[str, Any]:
        return {**facts, "draws_visible": nfc}

    def reader_problem(self, zone: str, players: Sequence[str]) -> str | None:
        # The centre reader, and each player's own readers (fate:<player>, ...).
        if zone != "centre" and zone.partition(":")[2] not in players:
            return f"{zone!r} names no player"
        return None

    def reasoner(self, tracker: Tracker) -> RuleOfPowerTable:
        return RuleOfPowerTable(tracker)


def _why_not(work: GameState, me: str, card: Card, moves: list[Move]) -> TrackerEvent:
    """Why a tapped card cannot be played now, by the first rule its plays break."""
    try:
        work.check(moves[0] if moves else Play(me, card))
    except IllegalMoveError as exc:
        return RuleHint(str(exc), exc.rule)
    return RuleHint(f"{card.label} cannot be played by {me} now")


def _detour_of(longer: Explanation, shorter: Explanation) -> bool:
    """Whether ``longer`` is ``shorter`` after passes and draws nobody saw."""
    n = len(shorter.moves)
    extra = longer.moves[: len(longer.moves) - n]
    return 0 < len(extra) and longer.moves[-n:] == shorter.moves and all(isinstance(m, (Pass, DrawFate)) for m in extra)


def _played_in_front(explanation: Explanation) -> Key | None:
    """The Fate card (and its owner) that ``explanation``'s visible move lays in front of
    its player, if it does."""
    last = explanation.moves[-1] if explanation.moves else None
    if isinstance(last, Play) and last.card.is_fate and not last.card.to_centre:
        return (last.card, last.player)
    return None


def _first_laid(explanation: Explanation) -> Card | None:
    """The card laid in the centre by the first play of ``explanation``, if it starts so."""
    play = next((m for m in explanation.moves if isinstance(m, Play)), None)
    return play.card if play is not None and play.card.to_centre else None


def _target_of(choice: Choice) -> str | None:
    last = choice.moves[-1] if choice.moves else None
    return last.target if isinstance(last, Play) else None


def _prompt(choices: tuple[Choice, ...], default: str = "Which move was it?", *, tap: bool = False) -> str:
    """The question in words; when the choices differ only by whom a card targets, which
    card and, where players have Fate readers (``tap``), how to name the target with a tap."""
    targets = [_target_of(c) for c in choices]
    if all(targets) and len(set(targets)) == len(targets):
        last = choices[0].moves[-1]
        assert isinstance(last, Play)
        how = " They tap a card on their Fate reader, or choose:" if tap else ""
        return f"Whom does the {last.card.title} target?{how}"
    return default
