"""The table tracker: follows the physical table from what the sensors observe.

Observations (:mod:`companion.observations`) come in one at a time, from the camera's
stabiliser and from NFC readers. After each, the tracker compares the table with every legal
outcome of the move under way (:func:`~companion.games.rule_of_power.tracking.explain.explain`):

- exactly one outcome explains the table: it is applied (:class:`MoveApplied`);
- several do: the table is asked to choose, with one key (:class:`Question`);
- none does yet: a move may be under way (a card shown before the capture is picked up), so
  the tracker waits; if the table stays so for ``settle`` seconds it says what the rules allow
  instead (:class:`RuleHint`) or that the table and the game disagree (:class:`OutOfSync`),
  and waits for the table to be put right or for a manual correction. Nothing is applied from
  a reading that more than one move could explain.

Hidden cards are not guessed: with a camera alone the hands stay face down (the deals are
applied with :data:`~companion.games.rule_of_power.engine.moves.UNSEEN` cards), and each card is known when played.

The tracker reads the game from the :class:`~companion.session.GameSession` it follows and
proposes the moves it finds to it, like any move source. Corrections made elsewhere (a move
typed at the keyboard, an undo, a corrected event) reach it as session events: it then
compares the table with the game again, and after an undo it waits for the table to change
before explaining it anew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.games.rule_of_power.engine.captures import sort_options
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.game import GameState, IllegalMoveError, Phase
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Pass, Play
from companion.observations.log import ObservationLog
from companion.observations import CardGone, CardLifted, CardSeen, CardTapped, DrawAnnounced, Observation, SensorStatus, UnknownTag
from companion.session import Applied, Corrected, GameSession, Refused, SessionEvent, Started, Undone
from companion.tracker.events import (
    Choice,
    InSync,
    MoveApplied,
    Notice,
    OutOfSync,
    Question,
    RuleHint,
    TrackerEvent,
    TrackerState,
)
from companion.games.rule_of_power.tracking.explain import (
    Explanation,
    fate_plays,
    describe_moves,
    explain,
    forced_move,
    matches,
    push_forced,
    unseen_deal,
)
from companion.games.rule_of_power.tracking.table import Key, TableView, Zones, describe_difference, difference, expected_zones

__all__ = ["TrackerConfig", "Tracker", "SOURCE"]

SOURCE = "tracker"
"""The session source of every move the tracker proposes: ``"tracker (camera)"``, ..."""


@dataclass(frozen=True)
class TrackerConfig:
    """How the table is equipped.

    - ``readers``: NFC reader name -> zone: ``"centre"`` (tap the card you play, then the cards
      you capture when the choice is not forced), ``"fate:<player>"`` (tap the Fate card you
      draw), ``"hand:<player>"`` (tap the cards dealt to you, when hands are tapped in).
    - ``hands_unseen``: hands are dealt face down and never read (a camera alone); otherwise
      each deal is tapped in (or entered on the dashboard).
    - ``draws_visible``: Fate draws are tapped on the players' Fate readers, and a draw is
      never assumed. Otherwise they are announced at the table (a key on the dashboard), and
      a draw nobody announced is considered only where nothing else explains the table (an
      announcement forgotten before a Fate card is played).
    - ``settle``: seconds the table may look unexplained before the tracker says so; longer
      than the camera's stabiliser takes to call a card gone (about 2 s), since a capture's
      cards may be reported gone a moment apart when a hand lingers over one of them.
    - ``remind_after``: seconds a card that must capture may lie shown in the centre before
      the tracker reminds the table what it must take (players show the capturing card for a
      moment before picking up).
    - ``first_dealer``: who deals the first round (else the table is asked).
    - ``fate_decks``: each player's seven Fate cards (their order is never seen).
    """

    readers: Mapping[str, str] = field(default_factory=dict)
    hands_unseen: bool = True
    draws_visible: bool = False
    settle: float = 3.0
    remind_after: float = 6.0
    first_dealer: str | None = None
    fate_decks: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)

    @classmethod
    def from_log(cls, log: ObservationLog) -> TrackerConfig:
        """The tracker set up for the table an observation log was recorded at."""
        return cls(
            readers=log.readers,
            hands_unseen=log.hands_unseen,
            draws_visible=log.draws_visible,
            first_dealer=log.first_dealer,
            fate_decks=log.fate_decks,
        )


class Tracker:
    """Follows the table for ``session``: takes observations, proposes the moves that explain
    them. Call its methods with ``session.lock`` held when other threads use the session."""

    def __init__(self, session: GameSession, config: TrackerConfig | None = None) -> None:
        self.session = session
        self.config = config or TrackerConfig()
        self.view = TableView()
        self.state = TrackerState.SYNCED
        self.question: Question | None = None
        self.camera = False
        self._shown: list[Key] = []
        # The order the table showed things in: when each shown card was laid in the centre,
        # and when it was seen leaving it, counted in observations.
        self._seq = 0
        self._laid: dict[Key, int] = {}
        self._left: dict[Key, int] = {}
        self._in_front: dict[Key, int] = {}  # when Fate cards were laid in front of a player
        self._waited: object = None
        self._lingering: Zones = {}
        self._changed_at = 0.0
        self._hinted: object = None
        self._asked: object = None
        self._taps: list[Card] = []
        self._tap_card: Card | None = None
        self._deal_taps: dict[str, list[Card]] = {}
        self._foreign = False
        self._hold = False
        self._now = 0.0
        self._pending_draws: list[str] = []
        # Players who announced a draw while their own move was still under way: it is made
        # at their next turn.
        self._after_own: set[str] = set()
        self._decay: tuple[list[Move], str, Card, list[tuple[str, Card]]] | None = None
        self._tap_prefix: list[Move] = []
        self._tap_moves: list[Move] = []
        self._unsubscribe = session.subscribe(self._session_changed)

    @property
    def game(self) -> GameState:
        """The game followed: the session's."""
        return self.session.game

    def close(self) -> None:
        """Stop following the session."""
        self._unsubscribe()

    def _session_changed(self, event: SessionEvent) -> None:
        """A change the tracker did not make: a move typed at the table, an undo, a
        correction. The table is compared again at the next observation or tick."""
        if event.source.startswith(SOURCE):
            return
        if isinstance(event, (Undone, Corrected)):
            # The table still shows the move just taken back: wait for it to change, or for the
            # correction, before explaining it again.
            self._hold = True
        elif isinstance(event, Applied):
            self._hold = False
        elif isinstance(event, Started):
            self._hold = False
            self._lingering = {}
            self._shown = []
            self._laid = {}
            self._left = {}
            self._in_front = {}
        else:
            return
        self.question = None
        self._asked = None
        self._decay = None
        self._tap_card = None
        self._taps = []
        self._foreign = True

    def _catch_up(self) -> list[TrackerEvent]:
        """After a change made elsewhere: what the rules force now, and the table compared."""
        if not self._foreign:
            return []
        self._foreign = False
        events: list[TrackerEvent] = []
        self._after_moves(events, apply_forced=not self._hold)
        events.extend(self._reconcile(settled=False, apply_forced=not self._hold))
        return events

    # ------------------------------------------------------------------ input

    def begin(self) -> list[TrackerEvent]:
        """Apply what the rules force before anything is seen (the first round, when its
        dealer is known) and compare the table with the game."""
        return self._reconcile(settled=False)

    def observe(self, obs: Observation) -> list[TrackerEvent]:
        """Take in one observation; returns what happened as a result."""
        return self._catch_up() + self._observe(obs)

    def _observe(self, obs: Observation) -> list[TrackerEvent]:
        if isinstance(obs, (CardSeen, CardGone)):
            self.camera = True
            self._seq += 1
            key = (obs.card, obs.owner)
            was = self.view.cards.get(key)
            if isinstance(obs, CardSeen) and obs.zone == "centre" and was != "centre":
                # Newly laid in the centre: it goes last in the order cards were shown.
                if key in self._shown:
                    self._shown.remove(key)
                self._shown.append(key)
                self._laid[key] = self._seq
                self._left.pop(key, None)
            elif isinstance(obs, CardSeen) and obs.zone and obs.zone.startswith("fate:") and was != obs.zone:
                self._in_front[key] = self._seq
            if not self.view.update(obs):
                return []
            if was == "centre" and self.view.cards.get(key) != "centre":
                self._left[key] = self._seq
            self._hold = False
            self._changed_at = obs.at
            return self._reconcile(settled=False)
        if isinstance(obs, CardTapped):
            return self._tapped(obs)
        if isinstance(obs, CardLifted):
            return []
        if isinstance(obs, DrawAnnounced):
            return self.draw_fate(obs.player)
        if isinstance(obs, UnknownTag):
            return [Notice(f"{obs.reader}: {obs.reason} (tag {obs.uid})")]
        if isinstance(obs, SensorStatus):
            detail = f": {obs.detail}" if obs.detail else ""
            return [Notice(f"{obs.source} {obs.state.value}{detail}")]
        return []

    def tick(self, now: float) -> list[TrackerEvent]:
        """Let time pass: a table left unexplained for ``settle`` seconds gets a hint."""
        self._now = now
        events = self._catch_up()
        if self.state is TrackerState.WAITING and now - self._changed_at >= self.config.settle:
            events.extend(self._reconcile(settled=True))
        return events

    def answer(self, index: int) -> list[TrackerEvent]:
        """The table chose choice ``index`` of the open question."""
        if self.question is None:
            return [Notice("there is no question to answer")]
        if not 0 <= index < len(self.question.choices):
            return [Notice(f"choose 1 to {len(self.question.choices)}")]
        choice = self.question.choices[index]
        self.question = None
        events: list[TrackerEvent] = []
        for move in choice.moves:
            how = self._announced_draw(move) or "answer"
            self._push(move, how)
            events.append(MoveApplied(move, how))
        self._after_moves(events)
        events.extend(self._reconcile(settled=False))
        return events

    # ------------------------------------------------------------------ camera

    def _push(self, move: Move, how: str) -> None:
        """Propose a move to the session; :class:`IllegalMoveError` if it is refused."""
        result = self.session.propose(move, source=f"{SOURCE} ({how})")
        if isinstance(result, Refused):
            raise result.error
        if isinstance(move, Play):
            self._after_own.discard(move.player)  # their move is made: their draw comes next
        if isinstance(move, NewRound):
            # A new round: what was shown before it belongs to the last round (it may linger
            # until the table is cleared), except cards laid since, for the first deal.
            lingering = self._lingering.get("centre", Counter())
            self._shown = [k for k in self._shown if self.view.cards.get(k) == "centre" and not lingering[k[0]]]

    def _spent(self) -> set[Key]:
        """The physical cards put out of play this round, as the session's events say."""
        return {(s.card, s.owner) for fx in self.session.round_effects() for s in fx.spent}

    def _reconcile(self, *, settled: bool, apply_forced: bool = True) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        if apply_forced:
            events.extend(self._forced())
        observed = self.view.zones(self._spent())
        self._forget_lingering(observed)
        if not self.camera or matches(self.game, observed, self._lingering):
            if self.state is TrackerState.OUT_OF_SYNC:
                events.append(InSync())
            self._synced()
            if self._pending_draws and self.game.turn == self._pending_draws[0] and self._pending_draws[0] not in self._after_own:
                # A draw announced while the table was still settling.
                events.extend(self._draw(self._pending_draws.pop(0)))
            return events
        if self._hold:
            self.state = TrackerState.OUT_OF_SYNC
            return [*events, OutOfSync(self.differences())]
        vanished = self._vanished()
        in_order, later = self._in_order()
        first = in_order[0] if in_order else None

        def explained(draws_visible: bool) -> list[Explanation]:
            return explain(
                self.game,
                self.view,
                self._shown,
                spent=self._spent(),
                lingering=self._lingering,
                draws_visible=draws_visible,
                hands_unseen=self.config.hands_unseen,
                vanished=vanished,
                chain=max(1, len(later)),
                laid_at={c: n for (c, _), n in self._laid.items()},
                left_at={c: n for (c, _), n in self._left.items()},
                in_order=[c for c, _ in in_order],
                announced=self._pending_draws,
                after_own=self._after_own,
            )

        found = explained(True)
        if not found and not self.config.draws_visible:
            # Nothing explains the table without one more draw than was announced: a draw
            # nobody announced, asked about (or applied, when it is the only way).
            found = explained(False)
        if first is not None:
            # Cards laid in the centre are played in the order they were laid, however late
            # the camera reports what the first one took.
            found = [e for e in found if _first_laid(e) in (None, first[0])]
        # The same move after a round of moves nobody saw (passes, an announced draw taken
        # early) is that move: the announced draw waits for its player's turn.
        found = [e for e in found if not any(_detour_of(e, f) for f in found)]
        if len(found) > 1:
            # Fate cards laid in front of players at once (a Dark Decay and the discards it
            # calls for, one of them a Dark Decay too): the one laid first was played.
            keys = [_played_in_front(e) for e in found]
            laid = [self._in_front[k] for k in keys if k is not None and k in self._in_front]
            if len(laid) == len(found) and len(set(laid)) == len(laid):
                found = [found[laid.index(min(laid))]]
        if vanished:
            # A card was shown and has left the centre: the next move must be that card's,
            # whatever else the table shows meanwhile (the camera may report the cards it took
            # a moment later). Once the table has stayed so for ``settle`` seconds, the card
            # may have been taken back, and the other explanations count again, unless it had
            # cards to take (it is then the first card laid, above).
            with_it = [e for e in found if any(isinstance(m, Play) and m.card in vanished for m in e.moves)]
            if with_it or not settled or (first is not None and first[0] in vanished):
                found = with_it
            elif found:
                self._shown = [k for k in self._shown if k[0] not in vanished]
        if any(e.inferred for e in found) and not settled:
            # A capture whose capturing card nobody saw: wait, it may be a hand over the centre.
            self.state = TrackerState.WAITING
            return events
        if len(found) == 1 and not found[0].inferred:
            for move in found[0].moves:
                how = self._announced_draw(move) or "camera"
                self._push(move, how)
                events.append(MoveApplied(move, how))
            self._after_moves(events)
            events.extend(self._reconcile(settled=settled))
            return events
        if found:
            key = tuple(e.moves for e in found)
            if key != self._asked:
                self._asked = key
                choices = tuple(Choice(e.describe(), e.moves) for e in found)
                self.question = Question(_prompt(choices, "The table could show any of these; which happened?", tap=self._fate_readers), choices)
                events.append(self.question)
            self.state = TrackerState.ASKING
            return events
        if not settled:
            if self.state is not TrackerState.OUT_OF_SYNC:
                self.state = TrackerState.WAITING
            return events
        if first is not None and later:
            # The cards laid after the first wait for its move: a capture the camera has not
            # seen the end of, or a card that must capture (R4) and has not yet.
            self.state = TrackerState.WAITING
            waiting = (first, tuple(later))
            if waiting != self._waited:
                self._waited = waiting
                card = first[0].long_label
                if first in self._left:
                    what = f"Waiting for the cards {card} took to be seen gone"
                else:
                    what = f"{card} was laid first and has not been played yet"
                events.append(Notice(f"{what}: the cards laid after it follow its move. If it was taken back, "
                                     "enter the moves by hand."))
            return events
        events.extend(self._explain_mismatch(observed))
        return events

    def _unplayed(self) -> list[Key]:
        """The cards shown in the centre, in the order they were laid, that the game does not
        have played yet: moves under way, or cards taken back."""
        game = self.game
        stacked = {c for p in game.players for c in game.stack(p)}

        def in_hand(c: Card) -> bool:
            # Still to be played, as far as the game knows (not captured, not discarded).
            return c in game.unlocated if c.is_world else c not in stacked and c not in game.discards

        return [(c, o) for c, o in self._shown if c not in game.centre and c.to_centre and in_hand(c)]

    def _vanished(self) -> set[Card]:
        """Cards shown in the centre that have left it, though the game does not have them
        captured or played: a move under way, or a card taken back."""
        on_table = {k for k, z in self.view.cards.items() if z == "centre"}
        return {c for c, o in self._unplayed() if (c, o) not in on_table}

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
        binding: list[Key] = []
        later: list[Key] = []
        for i, key in enumerate(unplayed):
            after = unplayed[i + 1 :]
            left = self._left.get(key)
            if self.view.cards.get(key) == "centre":
                pass
            elif left is None:
                continue  # tapped, never seen
            elif not (game.capture_options(key[0]) or any(self._laid.get(k, left) < left for k in after)):
                continue
            if not binding:
                later = after
            binding.append(key)
        return binding, later

    def _synced(self) -> None:
        self.state = TrackerState.SYNCED
        self.question = None
        self._asked = None
        self._hinted = None

    def _after_moves(self, events: list[TrackerEvent], *, apply_forced: bool = True) -> None:
        """Bookkeeping after moves were applied: forced moves, and the cards of a finished
        round that may stay on the table until somebody clears it."""
        for e in list(events):
            if isinstance(e, MoveApplied) and isinstance(e.move, Deal) and e.move.centre:
                self._lingering = {}
        if self.game.phase in (Phase.ROUND, Phase.OVER) and self.game.results:
            self._lingering = self.view.zones(self._spent())
        # What was shown and is still to be played stays, in order: cards on the table, and
        # cards seen leaving it that a later move may yet account for (the camera behind).
        unplayed = {k for k in self._unplayed() if k in self._left}
        self._shown = [k for k in self._shown if self.view.cards.get(k, "") == "centre" or k in unplayed]
        self._laid = {k: n for k, n in self._laid.items() if k in self._shown}
        # (and when cards the game still has in the centre were seen leaving it)
        self._left = {k: n for k, n in self._left.items() if k in self._shown or k[0] in self.game.centre}
        self._in_front = {k: n for k, n in self._in_front.items() if (self.view.cards.get(k) or "").startswith("fate:")}
        self._taps = []
        self._tap_card = None
        if not apply_forced:
            return
        events.extend(self._forced())
        for _ in range(len(self._pending_draws)):
            # A draw announced while the move before was still being picked up.
            if self.game.turn != self._pending_draws[0] or self._pending_draws[0] in self._after_own:
                break
            events.extend(self._draw(self._pending_draws.pop(0)))

    def _forget_lingering(self, observed: Zones) -> None:
        for zone in list(self._lingering):
            still = self._lingering[zone] & observed.get(zone, Counter())
            if still:
                self._lingering[zone] = still
            else:
                del self._lingering[zone]

    def _forced(self) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        game = self.game
        while True:
            move: Move | None
            if game.phase is Phase.ROUND:
                move = self._new_round()
            else:
                move = forced_move(game, hands_unseen=self.config.hands_unseen)
            if move is None:
                return events
            self._push(move, "forced")
            events.append(MoveApplied(move, "forced"))

    def _new_round(self) -> NewRound | None:
        game = self.game
        players = game.players
        if game.round_number == 0:
            dealer = self.config.first_dealer
            if dealer is None:
                return None
        else:
            dealer = players[(players.index(game.dealer or players[0]) + 1) % len(players)]
        decks = {p: tuple(self.config.fate_decks.get(p, ())) for p in players}
        return NewRound.make(dealer, decks, fate_order_known=False)

    def _explain_mismatch(self, observed: Zones) -> list[TrackerEvent]:
        game = self.game
        key = tuple(sorted((z, tuple(sorted(c.id for c in v.elements()))) for z, v in observed.items()))
        if key == self._hinted:
            return []
        self._hinted = key
        extra, missing = difference(expected_zones(game), observed)
        if game.phase is Phase.TURN:
            me = game.turn
            assert me is not None
            centre_extra = extra.get("centre", Counter())
            centre_missing = missing.get("centre", Counter())
            if sum(centre_extra.values()) == 1 and not centre_missing:
                (card,) = centre_extra
                options = sort_options(game.centre, game.capture_options(card))
                if options and not set(extra) - {"centre"}:
                    self.state = TrackerState.WAITING
                    if self._now - self._changed_at < self.config.remind_after:
                        self._hinted = None  # shown for a moment only: ask again later
                        return []
                    shown = " or ".join(" + ".join(c.label for c in o) for o in options[:4])
                    rule = "R5" if game.is_empowered(card) else "R4"
                    return [RuleHint(f"{card.long_label} must take {shown} ({rule})", rule)]
            if centre_missing and not centre_extra:
                taken = tuple(sorted(centre_missing.elements(), key=lambda c: c.index))
                for card, _ in self._shown:
                    if card.to_centre and card not in game.centre:
                        try:
                            game.check(Play(me, card, taken))
                        except IllegalMoveError as exc:
                            self.state = TrackerState.OUT_OF_SYNC
                            return [RuleHint(f"{exc} - put the cards back as they were", exc.rule)]
        self.state = TrackerState.OUT_OF_SYNC
        return [OutOfSync(describe_difference(game, extra, missing))]

    # ------------------------------------------------------------------ NFC

    def _tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        zone = self.config.readers.get(obs.reader, obs.reader)
        card = obs.card
        game = self.game
        events = self._forced()
        if zone.startswith("hand:") or (zone == "centre" and game.phase is Phase.DEAL):
            return events + self._deal_tap(zone, card)
        if zone.startswith("fate:") and self.question is not None:
            # The gesture that names a target: the target taps a card on their Fate reader.
            choice = self._choice_targeting(zone.partition(":")[2])
            if choice is not None:
                return events + self.answer(choice)
        if zone.startswith("fate:"):
            owner = obs.owner or zone.partition(":")[2]
            if not card.is_fate:
                return [*events, Notice(f"{card.label} is a World card: tap it on the centre reader to play it")]
            return events + self.draw_fate(owner)
        if zone != "centre":
            return [*events, Notice(f"{card.label} tapped on {obs.reader}, a reader with no zone")]
        if game.phase is not Phase.TURN:
            return [*events, Notice(f"{card.label} tapped, but no play is due: {game.phase.value} next")]
        if self.camera:
            # With a camera too, the tap names the card the camera may miss in a fast capture.
            key = (card, obs.owner if card.is_fate else None)
            if key not in self._shown:
                self._shown.append(key)
                self._seq += 1
                self._laid[key] = self._seq
            return events + self._reconcile(settled=False)
        return events + self._nfc_play(card, obs.owner)

    def _nfc_play(self, card: Card, owner: str | None) -> list[TrackerEvent]:
        """A card tapped on the centre reader: the card played, or a card it captures, or a
        card discarded to a Dark Decay."""
        game = self.game
        if self._decay is not None:
            return self._decay_tap(card, owner)
        if self._tap_card is not None and card in game.centre:
            self._taps.append(card)
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
            self._decay = (prefix, me, card, [])
            return [Notice(f"{card.title}: {', '.join(waiting)}, tap the card you discard, in seating order")]
        if card.to_centre:
            options = sort_options(work.centre, work.capture_options(card))
            moves: list[Move] = [Play(me, card, o) for o in options] or [Play(me, card)]
        else:
            moves = fate_plays(work, me, card, {})
        legal = [m for m in moves if work.is_legal(m)]
        if not legal:
            try:
                work.check(moves[0] if moves else Play(me, card))
            except IllegalMoveError as exc:
                return [RuleHint(str(exc), exc.rule)]
            return [RuleHint(f"{card.label} cannot be played by {me} now")]
        if len(legal) == 1:
            return self._apply_all(prefix + legal, "nfc")
        if all(isinstance(m, Play) and m.capture for m in legal):
            self._tap_card = card
            self._tap_prefix = prefix
            self._tap_moves = legal
            return [Notice(f"{card.label} can capture in {len(legal)} ways: tap the cards it takes")]
        return self._ask(prefix, legal)

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
        assert self._decay is not None
        prefix, me, decay, discards = self._decay
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
        self._decay = None
        move = Play(me, decay, discards=tuple(discards))
        try:
            work.check(move)
        except IllegalMoveError as exc:
            return [RuleHint(f"{exc}; tap the {decay.title} again, then the discards", exc.rule)]
        return self._apply_all([*prefix, move], "nfc")

    def _resolve_taps(self) -> list[TrackerEvent]:
        fits = [m for m in self._tap_moves if isinstance(m, Play) and set(self._taps) <= set(m.capture)]
        if not fits:
            taps = ", ".join(c.label for c in self._taps)
            self._taps = []
            return [RuleHint(f"{taps} is not part of any capture {self._tap_card} can make (R4); tap again")]
        if len(fits) == 1:
            return self._apply_all([*self._tap_prefix, *fits], "nfc")
        return []

    def _ask(self, prefix: list[Move], moves: Iterable[Move]) -> list[TrackerEvent]:
        choices = tuple(Choice(describe_moves(prefix + [m]), tuple(prefix + [m])) for m in moves)
        self.question = Question(_prompt(choices, tap=self._fate_readers), choices)
        self.state = TrackerState.ASKING
        return [self.question]

    @property
    def _fate_readers(self) -> bool:
        """The players have Fate readers: a tap there can name a target."""
        return any(zone.startswith("fate:") for zone in self.config.readers.values())

    def _choice_targeting(self, player: str) -> int | None:
        """The open question's one choice whose play targets ``player`` (a Thief, a Mirror
        Swap), if there is exactly one."""
        assert self.question is not None
        found = [i for i, c in enumerate(self.question.choices) if _target_of(c) == player]
        return found[0] if len(found) == 1 else None

    def _deal_tap(self, zone: str, card: Card) -> list[TrackerEvent]:
        """Cards tapped while a deal is due: the first deal's centre cards on the centre
        reader, and each hand on its player's reader when hands are tapped in."""
        game = self.game
        if game.phase is not Phase.DEAL:
            return [Notice(f"{card.label} tapped on a dealing reader, but no deal is due")]
        player = zone.partition(":")[2] if zone.startswith("hand:") else "centre"
        taps = self._deal_taps.setdefault(player, [])
        if card not in taps:
            taps.append(card)
        centre = self._deal_taps.get("centre", [])
        if self.config.hands_unseen:
            deal = Deal(unseen_deal(game).hands, tuple(centre))
        else:
            deal = Deal.make({p: self._deal_taps.get(p, []) for p in game.players}, centre)
        if game.is_legal(deal):
            self._deal_taps = {}
            return self._apply_all([deal], "nfc")
        return []

    def _apply_all(self, moves: list[Move], how: str) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        for move in moves:
            try:
                self._push(move, how)
            except IllegalMoveError as exc:
                events.append(RuleHint(str(exc), exc.rule))
                break
            events.append(MoveApplied(move, how))
        self._after_moves(events)
        if self.camera:
            events.extend(self._reconcile(settled=False))
        else:
            self.state = TrackerState.SYNCED
        return events

    # ------------------------------------------------------------------ reading

    def differences(self) -> tuple[str, ...]:
        extra, missing = difference(expected_zones(self.game), self.view.zones(self._spent()))
        return describe_difference(self.game, extra, missing)

    def draw_fate(self, player: str) -> list[TrackerEvent]:
        """A Fate draw announced at the dashboard or tapped on a Fate reader (a camera cannot
        see it). Players before ``player`` who hold only Fate cards have passed (R17)."""
        events = self._forced()
        under_way = self.state in (TrackerState.WAITING, TrackerState.ASKING) or bool(self._unplayed())
        if under_way and player not in self._pending_draws:
            # A move is still under way on the table (a card shown and not yet accounted for,
            # though the table may look as the game expects): the draw comes after it, at the
            # player's next turn if the move is theirs.
            self._pending_draws.append(player)
            if self.game.turn == player and self.game.world_cards_in_hand(player):
                self._after_own.add(player)
            return [*events, Notice(f"{player}'s Fate draw noted; it follows the move under way")]
        return events + self._draw(player, early=player not in self._pending_draws)

    def _announced_draw(self, move: Move) -> str | None:
        """``"announced"`` when ``move`` is the draw announced first and not yet applied (the
        search put it where the order of the table needs it), which it then is."""
        if isinstance(move, DrawFate) and self._pending_draws and self._pending_draws[0] == move.player:
            self._pending_draws.pop(0)
            return "announced"
        return None

    def _draw(self, player: str, *, early: bool = False) -> list[TrackerEvent]:
        """``player``'s Fate draw applied now, or (``early``: announced before the camera saw
        the move before it) noted to follow that move."""
        events = self._forced()
        game = self.game
        if self.camera and game.phase is Phase.TURN and (
            (early and game.turn not in (None, player)) or (game.turn == player and not game.world_cards_in_hand(player))
        ):
            # Announced as soon as the player's turn came, before the camera saw the moves
            # before it (the last card of a deal, before the next deal): the draw follows
            # them, made as soon as the player's turn comes with a World card in hand (R17).
            self._pending_draws.append(player)
            return [*events, Notice(f"{player}'s Fate draw noted; it follows the moves before it")]
        moves: list[Move] = []
        work = game.copy()
        while work.turn not in (None, player) and not work.world_cards_in_hand(work.turn) and len(moves) < len(work.players):
            moves.append(Pass(work.turn))
            work.push(moves[-1])
            forced = push_forced(work, hands_unseen=self.config.hands_unseen)
            moves.extend(work.move_stack[len(work.move_stack) - forced :])
        moves.append(DrawFate(player))
        try:
            work.check(moves[-1])
        except IllegalMoveError as exc:
            return [*events, RuleHint(str(exc), exc.rule)]
        return [*events, *self._apply_all(moves, "announced")]




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
