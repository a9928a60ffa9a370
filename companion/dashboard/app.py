"""The dashboard application: a view of the game session (:mod:`companion.session`) plus an
input. Moves come from a move source (the demo table, a record, the keyboard, the tracker) and
go to the session, which checks, applies and records them; the app shows what the session
tells it, and sends undo, redo and corrections to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input

from companion.dashboard.collector import IdleCollector
from companion.games.rule_of_power.dashboard.commentary import describe_move, explain_illegal
from companion.games.rule_of_power.dashboard.entry import (
    EntryChoice,
    EntryCommand,
    EntryError,
    EntryMove,
    parse_entry,
)
from companion.dashboard.messages import SessionChanged, SourceFinished, SourceNote
from companion.games.rule_of_power.dashboard.screens.deal import DealScreen
from companion.dashboard.screens.help import HelpScreen
from companion.dashboard.screens.hint import HintScreen
from companion.games.rule_of_power.dashboard.screens.pick import PickScreen
from companion.dashboard.screens.question import QuestionScreen
from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen
from companion.games.rule_of_power.dashboard.screens.setup import SetupScreen
from companion.dashboard.screens.table import TableScreen
from companion.dashboard.sources import ClockedSource, ManualSource, MoveSource, ReplaySource
from companion.games.rule_of_power.dashboard.tablesetup import TableSetup
from companion.dashboard.tracker_source import TrackerSource
from companion.dashboard.widgets.event_log import EventLog, LogEntry
from companion.games.rule_of_power.dashboard.widgets.moves import Flag, LastPlay
from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.game import GameSetup, GameState, IllegalMoveError, Phase, RoundResult
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, InvalidMoveError, Move, NewRound, Pass, Play
from companion.games.rule_of_power.words import attempt_text
from companion.records.store import GameFile, default_games_dir
from companion.session import (
    Applied,
    Corrected,
    GameSession,
    RecordTrouble,
    RedoDropped,
    Refused,
    SessionEvent,
    Started,
    Undone,
)

__all__ = ["DashboardApp", "attempt_text"]


def log_entries(game: GameState, event: Applied) -> list[LogEntry]:
    """The event log's lines for a move just applied to ``game``: the move in words, and, when
    it ended a round, the round's points with their reasons and the totals."""
    move = event.move
    kind = "round" if isinstance(move, NewRound) else "deal" if isinstance(move, Deal) else "move"
    out = [LogEntry(describe_move(game, move, event.effects), event.index, kind)]
    result = event.effects.round_result
    if result is not None:
        after = event.index + 1
        out.extend(LogEntry(line, None, "note", after=after) for line in result.score.reasons())
        totals = ", ".join(f"{s} {t}" for s, t in result.totals.items())
        out.append(LogEntry(f"Round {result.number} over. Totals: {totals}", None, "result", after=after))
        outcome = game.outcome()
        if outcome:
            how = "the Rule of Power (R13)" if outcome.termination.value == "rule_of_power" else f"reaching {game.setup.target} with the highest total (R14)"
            out.append(LogEntry(f"{outcome.winner} wins the game by {how}", None, "result", after=after))
    return out


def last_play(game: GameState, event: Applied) -> LastPlay | None:
    """The card just played to the centre and the captures it had (R4, R5), worked out from
    the centre after the move and what the move did."""
    move, fx = event.move, event.effects
    if not isinstance(move, Play) or not move.card.to_centre or move.card.value is None:
        return None
    after = list(fx.round_result.leftover if fx.round_result is not None else game.centre)
    if fx.laid and move.card in after:
        after.remove(move.card)
    before = after + list(fx.captured)
    return LastPlay(move, tuple(capture_options(before, move.card.value, empowered=fx.empowered)), fx.empowered)


class DashboardApp(App[int]):
    """The Rule of Power dashboard, fed by one :class:`MoveSource`."""

    CSS_PATH = "dashboard.tcss"
    TITLE = "Rule of Power"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [
        Binding("f1", "help", "Help", tooltip="Every key and, in manual play, how to type moves"),
        Binding("f7", "hint", "Hint", tooltip="The coach's hint: the moves of the player to move, ranked, with their reasons and risks"),
        Binding("f2", "toggle_teaching", "Teaching", tooltip="Teaching mode: the hand and legal moves of the player to move, with their points"),
        Binding("f3", "settlement", "Results", tooltip="The settlement of the last finished round"),
        # The clock keys go first (priority) but only where the source has a clock: in manual
        # play they are disabled and the keys reach the entry bar.
        Binding("space", "pause", "Pause", key_display="Spc", tooltip="Pause or resume the demo or replay clock", priority=True),
        Binding("n,right", "step", "Step", key_display="n", tooltip="One move now (pauses the clock)", priority=True),
        Binding("plus,equals_sign", "faster", "Faster", show=False, tooltip="Faster: less time between moves", priority=True),
        Binding("minus", "slower", "Slower", show=False, tooltip="Slower: more time between moves", priority=True),
        Binding("r", "restart", "Restart", show=False, tooltip="Start the demo or replay from the beginning", priority=True),
        Binding("end", "to_end", "To end", show=False, tooltip="Replay: play every remaining move at once", priority=True),
        Binding("ctrl+z", "undo", "Undo", tooltip="Undo the last event (the saved record follows)"),
        Binding("ctrl+y", "redo", "Redo", show=False, tooltip="Re-apply the next undone event"),
        Binding("f5", "deal", "Deal", tooltip="Start the next round or enter the next deal"),
        Binding("f6", "focus_log", "Events", show=False, tooltip="Move to the event log (Enter on an event corrects it)"),
        Binding("escape", "focus_entry", "Entry", show=False, tooltip="Back to the entry bar"),
        Binding("q", "quit", "Quit", tooltip="Quit (a kept game is already saved)"),
        Binding("ctrl+q", "quit", "Quit", show=False, tooltip="Quit (a kept game is already saved)"),
    ]

    _CLOCK_ACTIONS = {"pause", "step", "faster", "slower"}
    _EDIT_ACTIONS = {"undo", "redo", "deal", "focus_entry"}

    teaching: reactive[bool] = reactive(False)

    resume_message: str | None = None
    """What resuming the saved game kept and set aside (a :class:`ResumeReport` message)."""

    def __init__(
        self,
        source: MoveSource,
        *,
        session: GameSession | None = None,
        teaching: bool = False,
        settlement_autoplay: bool | None = None,
        needs_setup: bool = False,
        setup: GameSetup | None = None,
        games_dir: str | Path | bool | None = None,
        on_session: Callable[[GameSession], object] | None = None,
    ) -> None:
        """``session``: the game session to show (a saved game continued, or the one a tracker
        follows); without one, the source makes its own (demo, replay) or the app starts one.
        ``setup``: start a new manual game at once; ``needs_setup``: ask for it in the setup
        dialog. ``games_dir``: where new games are saved (``None``: the default, ``False``: not
        saved). ``on_session``: called with each session the app shows, for what follows it
        (a club feed); what it returns is closed with the app."""
        super().__init__()
        self.source = source
        self.session: GameSession | None = session or source.new_session()
        self.games_dir = games_dir
        self.needs_setup = needs_setup
        self.pending_setup = setup
        self.settlement_autoplay = settlement_autoplay
        self.last_play: LastPlay | None = None
        self.flag: Flag | None = None
        self.correcting: int | None = None
        """The event being corrected: the next entry replaces it."""
        self.collector = IdleCollector()
        """Full garbage collections wait for the frame that shows a move (see its module)."""
        self._unsubscribe: Callable[[], None] | None = None
        self.on_session = on_session
        self._followers: list[object] = []
        self.set_reactive(DashboardApp.teaching, teaching)

    @property
    def game(self) -> GameState | None:
        """The session's game, ``None`` before a game is set up."""
        return self.session.game if self.session is not None else None

    @property
    def game_file(self) -> GameFile | None:
        record = self.session.record if self.session is not None else None
        return record if isinstance(record, GameFile) else None

    # ------------------------------------------------------------------ setup

    def get_default_screen(self) -> Screen:
        return TableScreen(editable=self.source.editable)

    @property
    def table(self) -> TableScreen:
        """The table screen, at the bottom of the screen stack."""
        return self.screen_stack[0]  # type: ignore[return-value]

    def on_mount(self) -> None:
        self.collector.start()
        self._watch(self.session)
        # Installed once, shown for every round (never removed while the app runs).
        self.install_screen(SettlementScreen(), "settlement")
        # The table screen composes its panels after the app mounts: begin once it has.
        self.call_after_refresh(self._begin)

    def _watch(self, session: GameSession | None) -> None:
        """Show ``session`` from now on, and hand it to the source."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.session = session
        self.source.attach(self, session)
        self._unsubscribe = session.subscribe(self._session_changed) if session is not None else None
        if session is not None and self.on_session is not None:
            self._followers.append(self.on_session(session))

    def _begin(self) -> None:
        game = self.game
        if game is not None and game.move_stack:
            self._rebuild_log()
            if self.game_file is not None:
                self._note(self.resume_message or f"Resumed {self.game_file.path.name}: {len(game.move_stack)} events")
        self.refresh_view()
        if self.needs_setup:
            self.push_screen(SetupScreen(), self._setup_done)
        elif self.pending_setup is not None:
            self.start_game(self.pending_setup)
        else:
            self.source.start()
            self._manual_next()

    def _setup_done(self, table: TableSetup | None) -> None:
        if table is None:
            self.exit(1)
            return
        src = self.source
        if isinstance(src, ManualSource):
            src.fate_sets = table.fate_sets
            src.first_dealer = table.first_dealer
            src.companion_deals = table.companion_deals
        self.start_game(table.setup)

    def start_game(self, setup: GameSetup) -> None:
        """A new manual game: its record file and the first round."""
        record = None
        if self.games_dir is not False:
            games_dir = Path(self.games_dir) if self.games_dir else default_games_dir()  # type: ignore[arg-type]
            try:
                record = GameFile.create(games_dir, setup)
            except OSError as exc:
                self._note(f"Cannot save the game in {games_dir}: {exc.strerror}", kind="error")
        if self.session is None:
            self._watch(GameSession(setup, record=record))
            self._reset_view()
        else:
            self.session.start(setup, record=record, source=self.source.name)
        if record is not None:
            self._note(f"Saving the game to {record.path}")
        self.refresh_view()
        self.source.start()
        self._manual_next()

    # ------------------------------------------------------------------ bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        src = self.source
        # Actions the source does not offer are hidden from the footer, the palette and help.
        if action in self._CLOCK_ACTIONS | {"restart", "to_end"} and len(self.screen_stack) > 1:
            # A dialog is open (the settlement...): its own keys (Space, N, Right) come first.
            return False
        if action in self._CLOCK_ACTIONS:
            return src.clocked
        if action == "restart":
            return src.can_restart
        if action == "to_end":
            return isinstance(src, ReplaySource)
        if action in self._EDIT_ACTIONS or action == "focus_log":
            return src.editable
        return True

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for binding in self.BINDINGS:
            assert isinstance(binding, Binding)
            if binding.action in ("quit",) or self.check_action(binding.action, ()) is not True:
                continue
            key = binding.key.split(",")[0]
            yield SystemCommand(
                f"{binding.description} ({key})",
                binding.tooltip or binding.description,
                lambda action=binding.action: self.call_later(self.run_action, action),
            )
        if screen is not self.table:
            # The keys of the dialog on top (settlement, deal, capture choice...).
            for binding in screen.BINDINGS:
                if isinstance(binding, Binding) and "(" not in binding.action:
                    key = binding.key.split(",")[0]
                    yield SystemCommand(
                        f"{binding.description} ({key})",
                        binding.tooltip or binding.description,
                        lambda action=binding.action: self.call_later(screen.run_action, action),
                    )

    def help_groups(self) -> list:
        groups: list[tuple[str, list[BindingType]]] = [("The table", [b for b in self.BINDINGS if isinstance(b, Binding) and self.check_action(b.action, ()) is True])]
        groups.append(("Everywhere", [Binding("ctrl+p", "command_palette", "Command palette", tooltip="Command palette: search every command")]))
        groups.append(("Settlement screen", SettlementScreen.BINDINGS))
        if self.source.editable:
            groups.append(("Choosing a capture", [Binding("1-9", "pick", "Pick option 1-9 (or arrows and Enter)"), Binding("escape", "cancel", "Cancel")]))
            groups.append(("Deal dialog", DealScreen.BINDINGS))
        return groups

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.help_groups(), manual=self.source.editable))

    def action_hint(self) -> None:
        game = self.game
        if game is None or game.turn is None:
            self.notify("A hint is for a player to move: none is now", severity="warning", timeout=3)
            return
        self.push_screen(HintScreen(game, game.turn))

    def action_toggle_teaching(self) -> None:
        self.teaching = not self.teaching
        self.notify("Teaching mode on: the player to move's hand and options are shown" if self.teaching else "Teaching mode off", timeout=3)

    def watch_teaching(self) -> None:
        self.refresh_view()

    def action_pause(self) -> None:
        if isinstance(self.source, ClockedSource):
            self.source.toggle_pause()
            self.refresh_view()

    def action_step(self) -> None:
        if isinstance(self.source, ClockedSource):
            self.source.step()
            self.refresh_view()

    def action_faster(self) -> None:
        if isinstance(self.source, ClockedSource):
            self.source.faster()
            self.refresh_view()

    def action_slower(self) -> None:
        if isinstance(self.source, ClockedSource):
            self.source.slower()
            self.refresh_view()

    def action_restart(self) -> None:
        if isinstance(self.source, ClockedSource):
            self.source.restart()

    def action_to_end(self) -> None:
        if isinstance(self.source, ReplaySource):
            self.source.to_end()

    def action_settlement(self) -> None:
        if self.game is None or not self.game.results:
            self.notify("No round has been settled yet", severity="warning", timeout=3)
            return
        self._show_settlement(autoplay=False)

    def action_focus_entry(self) -> None:
        if self.correcting is not None and self.table.query("#entry").results(Input):
            # Esc while correcting: back to playing, the event left as it was.
            entry = next(iter(self.table.query("#entry").results(Input)))
            if entry.has_focus:
                self.action_cancel_correction()
        for entry in self.table.query("#entry").results(Input):
            entry.focus()


    def action_focus_log(self) -> None:
        self.table.log_widget.focus()

    # ------------------------------------------------------------------ the view

    def refresh_view(self) -> None:
        if not self.screen_stack:
            return
        self.table.show(self.game, teaching=self.teaching, last_play=self.last_play, flag=self.flag, status=self._status())

    def _status(self) -> str:
        status = self.source.status
        if self.correcting is not None:
            status += f"; correcting event {self.correcting + 1}: type the right event (Esc cancels)"
        redo = self.session.redo_moves if self.session is not None and self.source.editable else ()
        if redo:
            status += f"; {len(redo)} undone (Ctrl+Y re-applies)"
        if self.game_file is not None:
            status += "; saved"
        return status

    def _note(self, text: str, *, kind: str = "note") -> None:
        moves = len(self.game.move_stack) if self.game else 0
        self.table.log_widget.add(LogEntry(text, None, kind, after=moves))

    def _reset_view(self) -> None:
        self.last_play = None
        self.flag = None
        self.correcting = None
        self.table.log_widget.clear()

    def _rebuild_log(self) -> None:
        """The log of every event of the session's game, written anew (after a correction,
        a resumed game)."""
        assert self.session is not None
        log = self.table.log_widget
        log.clear()
        replay = GameState(self.session.setup, keep_history=False)
        for index, move in enumerate(self.session.moves):
            effects = replay.apply(move)
            for entry in log_entries(replay, Applied("log", index, move, effects)):
                log.add(entry)

    # ------------------------------------------------------------------ the session

    def _session_changed(self, event: SessionEvent) -> None:
        """A session listener, called in the thread that made the change: what depends on the
        state right after it is worked out now, the rest when the app handles the message."""
        entries: list[LogEntry] = []
        played = None
        if isinstance(event, Applied) and self.session is not None:
            game = self.session.game
            entries = log_entries(game, event)
            played = last_play(game, event)
        self.post_message(SessionChanged(event, entries, played, quiet=self.source.quiet))

    def _live(self) -> bool:
        """The table screen is up: not before it is composed, nor once the app is closing
        (a clocked source may still have messages on their way). Closing starts either with
        ``exit()`` or, when the app is shut down from outside, with ``is_running`` going false
        while the screens are taken down one widget at a time."""
        return (
            self.is_running
            and not self._exit
            and bool(self.screen_stack)
            and isinstance(self.screen_stack[0], TableScreen)
        )

    @on(SessionChanged)
    def _changed(self, message: SessionChanged) -> None:
        if not self._live():
            return
        event = message.event
        log = self.table.log_widget
        if isinstance(event, Applied):
            if isinstance(self.screen, SettlementScreen) and isinstance(self.source, TrackerSource) and isinstance(event.move, (Play, DrawFate, Pass)):
                # The table plays the next round: the settlement makes way for it.
                self.screen.action_close()
            for entry in message.entries:
                log.add(entry)
            if message.last_play is not None:
                self.last_play = message.last_play
            elif isinstance(event.move, (NewRound, Deal)):
                self.last_play = None
            self.flag = None
            self.refresh_view()
            self.call_after_refresh(self.collector.collect_if_due)
            result = event.effects.round_result
            if result is not None and not message.quiet:
                self._show_settlement(result, autoplay=None)
            elif not message.quiet:
                self._manual_next()
        elif isinstance(event, Refused):
            rule, text = explain_illegal(event.error)
            self.flag = Flag(getattr(event.move, "player", None), f"{attempt_text(event.move)}: {text}", rule)
            self._note(f"{attempt_text(event.move)}: {event.error}", kind="illegal")
            self.bell()
            self.refresh_view()
        elif isinstance(event, Undone):
            log.truncate(event.index)
            self.last_play = None
            self.flag = None
            if self.source.editable:
                self.notify(f"Undone: {attempt_text(event.move)}", timeout=3)
            self.refresh_view()
        elif isinstance(event, Corrected):
            self._rebuild_log()
            self.last_play = None
            self.flag = None
            kept = f"; {len(event.reapplied)} later event(s) applied again" if event.reapplied else ""
            self._note(f"Event {event.index + 1} corrected: {attempt_text(event.new)}{kept}")
            for dropped in event.dropped:
                self._note(f"Event {dropped.index + 1} ({attempt_text(dropped.move)}) no longer fits and was dropped: {dropped.error}", kind="error")
            self.refresh_view()
        elif isinstance(event, RedoDropped):
            self._note(f"A new event: the {len(event.moves)} undone event(s) can no longer be re-applied")
            self.refresh_view()
        elif isinstance(event, RecordTrouble):
            self._note(event.message.capitalize(), kind="error")
        elif isinstance(event, Started):
            self._reset_view()
            if event.resumed:
                self._rebuild_log()
            self.refresh_view()

    @on(SourceNote)
    def _source_note(self, message: SourceNote) -> None:
        if not self._live():
            return
        self._note(message.text, kind="error" if message.severity == "error" else "note")

    @on(SourceFinished)
    def _source_finished(self, message: SourceFinished) -> None:
        if not self._live():
            return
        what = "The demo game is over: R watches it again, Q quits" if message.source == "demo" else "End of the record: R replays it, Q quits"
        self._note(what)
        self.refresh_view()

    @on(TrackerSource.Asks)
    def _tracker_asks(self, message: TrackerSource.Asks) -> None:
        if not self._live():
            return
        src = self.source
        assert isinstance(src, TrackerSource)
        self.bell()
        self._note(f"Question for the table: {message.question.prompt}")
        self.push_screen(QuestionScreen(message.question), src.answer)

    @on(TrackerSource.QuestionClosed)
    def _tracker_settled(self, message: TrackerSource.QuestionClosed) -> None:
        if self._live() and isinstance(self.screen, QuestionScreen):
            self.screen.dismiss(None)

    @on(TrackerSource.StatusChanged)
    def _tracker_status(self, message: TrackerSource.StatusChanged) -> None:
        if self._live():
            self.refresh_view()

    def _show_settlement(self, result: RoundResult | None = None, *, autoplay: bool | None) -> None:
        """The settlement of ``result`` (default: the last finished round)."""
        game = self.game
        assert game is not None and game.results
        if isinstance(self.screen, SettlementScreen):
            return
        result = result or game.results[-1]
        players = game.players
        outcome = game.outcome() if result is game.results[-1] else None
        next_dealer = None if outcome else players[(players.index(result.dealer) + 1) % len(players)]
        src = self.source
        delay = None
        if autoplay is None:
            auto = self.settlement_autoplay if self.settlement_autoplay is not None else src.clocked
            if auto and isinstance(src, ClockedSource) and not src.paused:
                delay = src.delay
        src.hold()
        screen = self.get_screen("settlement")
        assert isinstance(screen, SettlementScreen)
        screen.load(game.setup, result, outcome, next_dealer, moves=self.session.moves if self.session is not None else None)
        timer = None

        def closed(_: None) -> None:
            if timer is not None:
                timer.stop()
            src.release()
            self._manual_next()

        def tick() -> None:
            if self.screen is screen and screen.autoplay_tick():  # type: ignore[attr-defined]
                screen.action_close()  # type: ignore[attr-defined]

        self.push_screen("settlement", closed)
        if delay:
            # The app's clock, not the screen's: a screen cannot close itself from its own timer.
            timer = self.set_interval(max(2 * delay, 0.5), tick)

    # ------------------------------------------------------------------ manual play

    def _manual_next(self) -> None:
        """In manual play, what the table needs next: the companion's deal, or the deal dialog."""
        src = self.source
        game = self.game
        if not isinstance(src, ManualSource) or not src.deals_by_hand or game is None or len(self.screen_stack) > 1:
            return
        if game.phase is Phase.DEAL:
            # Every hand is played out (or a round has begun): the deal is what comes next.
            self.action_deal()
        elif game.phase is Phase.ROUND and game.round_number == 0:
            self.action_deal()

    def action_deal(self) -> None:
        src = self.source
        game = self.game
        if not isinstance(src, ManualSource) or game is None:
            return
        if game.phase is Phase.ROUND:
            src.submit(src.next_round(game))
        elif game.phase is Phase.DEAL:
            if src.companion_deals:
                src.submit(src.dealer.deal(game))
            else:
                self.push_screen(DealScreen(game, src.dealer), lambda deal: src.submit(deal) if deal else None)
        elif game.phase is Phase.OVER:
            self.notify("The game is over (R14)", timeout=3)
        else:
            self.notify(f"{game.turn} is to move: the deal comes when every hand is played out (R17)", severity="warning", timeout=4)

    @on(Input.Submitted, "#entry")
    def _entry(self, event: Input.Submitted) -> None:
        text = event.value
        src = self.source
        if self.session is None or not isinstance(src, ManualSource):
            return
        index = self.correcting
        # A correction is typed against the game as it stood before the event corrected.
        game = self.session.position_before(index) if index is not None else self.session.game
        try:
            entry = parse_entry(text, game)
        except EntryError as exc:
            self.flag = Flag(None, f"{text!r} not understood: {exc}", None)
            self.bell()
            self.refresh_view()
            return
        event.input.value = ""
        if isinstance(entry, EntryCommand):
            commands = {"undo": self.action_undo, "redo": self.action_redo, "deal": self.action_deal, "help": self.action_help, "hint": self.action_hint, "quit": self.exit}
            commands[entry.name]()
        elif isinstance(entry, EntryMove):
            move = entry.move
            if isinstance(move, Play) and move.drawn is not None and src.companion_deals and game.deck_count and index is None:
                move = move._replace(drawn=src.dealer.top(game))
            self._submit(move)
        elif isinstance(entry, EntryChoice):
            self.push_screen(PickScreen(game, entry.moves, teaching=self.teaching), lambda m: self._submit(m) if m else None)

    def _submit(self, move: Move) -> None:
        """A move typed or picked: played now, or the correction of the event being corrected."""
        if self.correcting is None:
            assert isinstance(self.source, ManualSource)
            self.source.submit(move)
            return
        assert self.session is not None
        index, self.correcting = self.correcting, None
        try:
            self.session.correct(index, move, source=self.source.name)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.correcting = index
            rule, text = explain_illegal(exc)
            self.flag = Flag(getattr(move, "player", None), f"Event {index + 1} cannot be {attempt_text(move)}: {text}", rule)
            self.bell()
        self.refresh_view()

    def action_undo(self) -> None:
        if self.session is None or not self.source.editable:
            return
        if self.session.undo(source=self.source.name) is None:
            self.notify("Nothing to undo", timeout=2)

    def action_redo(self) -> None:
        if self.session is None or self.session.redo(source=self.source.name) is None:
            self.notify("Nothing to redo", timeout=2)

    def action_cancel_correction(self) -> None:
        if self.correcting is not None:
            self.correcting = None
            self.notify("Correction cancelled", timeout=2)
            self.refresh_view()

    @on(EventLog.Picked)
    def _correct(self, message: EventLog.Picked) -> None:
        """An event picked in the log: the next entry replaces it (a deal in the deal dialog);
        the events after it are applied again where they still fit."""
        if self.session is None or not self.source.editable:
            return
        index = message.index
        move = self.session.moves[index]
        if isinstance(move, NewRound):
            self.notify("A round's start cannot be replaced: undo back to it instead (Ctrl+Z)", severity="warning", timeout=4)
            return
        if isinstance(move, Deal) and isinstance(self.source, ManualSource):
            before = self.session.position_before(index)
            self.correcting = index
            self.push_screen(DealScreen(before, self.source.dealer), lambda deal: self._submit(deal) if deal else self.action_cancel_correction())
            return
        self.correcting = index
        self.notify(f"Type the right event {index + 1} (it was: {attempt_text(move)}); Esc cancels", timeout=5)
        self.refresh_view()
        self.action_focus_entry()

    def on_unmount(self) -> None:
        self.collector.stop()
        self.source.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
        for follower in self._followers:
            close = getattr(follower, "close", None)
            if close is not None:
                close()
        if self.session is not None:
            self.session.close()
