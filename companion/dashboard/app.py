"""The dashboard application: a view of the game session (:mod:`companion.session`) plus an
input, for any game that brings a dashboard kit (:mod:`companion.dashboard.kit`).

Moves come from a move source (the demo table, a record, the keyboard, the tracker) and go to
the session, which checks, applies and records them. The app wires them together:

- the game's kit gives the table screen, the settlement, the dialogs and the words;
- the session's link (:class:`~companion.dashboard.link.SessionLink`) and the source post what
  changed to the table screen, which handles each kind of change with a handler of its own
  (:class:`~companion.dashboard.screens.view.SessionView`); each message then bubbles up to
  the app, which does what follows and redraws;
- manual play (entries, corrections, the table's next step) is decided by the
  :class:`~companion.dashboard.manual.Scorekeeper`; the app does what it says.

Messages go up, attributes go down: the screens tell the app what the table typed, picked or
asked for with messages, and the app hands them what they show (the session, teaching mode,
the status, the coach's hint). The app keeps the keys, the settlement of each period, and the
session's life."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input

from companion.contract import Game, Move, registry
from companion.dashboard.collector import IdleCollector
from companion.dashboard.flag import Flag
from companion.dashboard.keys import TABLE_KEYS, commands, offered, reword, reworded
from companion.dashboard.kit import Ask, Command, Step, Submit, TableChoice, Tell, kit_of
from companion.dashboard.link import SessionLink, log_of
from companion.dashboard.manual import Scorekeeper, new_record
from companion.dashboard.messages import MoveApplied
from companion.dashboard.screens.help import HelpScreen
from companion.dashboard.screens.choice import ChoiceScreen
from companion.dashboard.screens.hint import HintScreen
from companion.dashboard.screens.question import QuestionScreen
from companion.dashboard.screens.settlement import Settlement, last_result
from companion.dashboard.screens.table import TableScreen
from companion.dashboard.screens.view import shown
from companion.dashboard.sources import ClockedSource, ManualSource, MoveSource, ReplaySource
from companion.dashboard.tracker_source import TrackerSource
from companion.dashboard.widgets.event_log import EventLog
from companion.records.store import GameFile
from companion.session import GameSession

__all__ = ["DashboardApp"]


class DashboardApp(App[int]):
    """The dashboard of one game, fed by one :class:`MoveSource`."""

    CSS_PATH = "dashboard.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = TABLE_KEYS

    teaching: reactive[bool] = reactive(False)

    resume_message: str | None = None
    """What resuming the saved game kept and set aside (a :class:`ResumeReport` message)."""

    def __init__(
        self,
        source: MoveSource,
        *,
        session: GameSession | None = None,
        game: Game | None = None,
        teaching: bool = False,
        settlement_autoplay: bool | None = None,
        needs_setup: bool = False,
        setup: Any = None,
        games_dir: str | Path | bool | None = None,
        on_session: Callable[[GameSession], object] | None = None,
    ) -> None:
        """``session``: the game session to show (a saved game continued, the one a tracker
        follows); without, the source makes its own (demo, replay) or the app starts one, with
        ``setup`` at once or from the game's set-up dialog (``needs_setup``). ``game``: the game
        played when neither says (default: the registry's). ``games_dir``: where new games are
        saved (``None``: the default, ``False``: not saved). ``on_session``: called with each
        session shown, for what follows it (a club feed); what it returns is closed with the app."""
        super().__init__()
        self.source = source
        self.session: GameSession | None = session or source.new_session()
        found = self.session.setup if self.session is not None else setup
        self.plugin: Game = game or (found.game if found is not None else registry.game())
        """The game played (its plug-in object)."""
        self.kit = kit_of(self.plugin)
        self.title = self.kit.title
        self.keys = reworded(self.BINDINGS, self.kit.key_words)
        reword(self._bindings, self.kit.key_words)  # what the footer shows
        self.games_dir = games_dir
        self.needs_setup = needs_setup
        self.pending_setup = setup
        self.settlement_autoplay = settlement_autoplay
        self.keeper = Scorekeeper(source, self.kit)
        self.collector = IdleCollector()
        """Full garbage collections wait for the frame that shows a move (see its module)."""
        self.on_session = on_session
        self._link: SessionLink | None = None
        self._followers: list[object] = []
        self.set_reactive(DashboardApp.teaching, teaching)
        self.hint: HintScreen.Advised | None = None
        """The hint's latest figures and their position (handed down to the table screen)."""

    @property
    def game(self) -> Any:
        """The session's game state, ``None`` before a game is set up."""
        return self.session.game if self.session is not None else None

    @property
    def game_file(self) -> GameFile | None:
        record = self.session.record if self.session is not None else None
        return record if isinstance(record, GameFile) else None

    @property
    def table(self) -> TableScreen:
        """The table screen, at the bottom of the screen stack."""
        screen = self.screen_stack[0]
        assert isinstance(screen, TableScreen), "the table screen is always the first"
        return screen

    @property
    def correcting(self) -> int | None:
        """The event being corrected in manual play: the next entry replaces it."""
        return self.keeper.correcting

    # ------------------------------------------------------------------ setting up

    def get_default_screen(self) -> Screen[Any]:
        table = self.kit.table_screen(editable=self.source.editable)
        table.replay = isinstance(self.source, ReplaySource)
        table.teaching = self.teaching
        table.status = lambda: self.status
        return table

    def on_mount(self) -> None:
        self.collector.start()
        self.follow(self.session)
        # Installed once, shown for every period (never removed while the app runs).
        self.settlement = self.kit.settlement_screen()
        self.install_screen(self.settlement, "settlement")
        # The table screen composes its panels after the app mounts: begin once it has.
        self.call_after_refresh(self._begin)

    def follow(self, session: GameSession | None) -> None:
        """Show ``session`` from now on, keep it by hand, and hand it to the source."""
        if self._link is not None:
            self._link.close()
        self.session = self.keeper.session = self.table.session = session
        self.source.attach(self, session, view=self.table, kit=self.kit)
        self._link = SessionLink(self.table, session, self.kit, quiet=lambda: self.source.quiet) if session is not None else None
        if session is not None and self.on_session is not None:
            self._followers.append(self.on_session(session))

    def _begin(self) -> None:
        game = self.game
        if self.session is not None and game.move_stack:
            self.table.rewrite(log_of(self.session, self.kit))
            if self.game_file is not None:
                self.table.note(self.resume_message or f"Resumed {self.game_file.path.name}: {len(game.move_stack)} events")
        self.refresh_view()
        if self.needs_setup:
            self.push_screen(self.kit.setup_screen(), self.set_up)
        elif self.pending_setup is not None:
            self.start(self.pending_setup)
        else:
            self.source.start()
            self.due()

    def set_up(self, table: TableChoice | None) -> None:
        """The table chosen in the game's set-up dialog: its game starts (none: the app ends)."""
        if table is None:
            self.exit(1)
            return
        if isinstance(self.source, ManualSource):
            self.source.choose(dict(table.options))
        self.start(table.setup)

    def start(self, setup: Any) -> None:
        """A new game kept by hand: its record file (unless the app saves none) and the first
        round."""
        record, said = None, None
        if self.games_dir is not False:
            record, said = new_record(setup, self.games_dir if isinstance(self.games_dir, (str, Path)) else None)
        self.keeper.correcting = None
        if self.session is None:
            self.follow(GameSession(setup, record=record))
            self.table.reset()
        else:
            self.session.start(setup, record=record, source=self.source.name)
        if said is not None:
            self.table.note(said, kind="note" if record is not None else "error")
        self.refresh_view()
        self.source.start()
        self.due()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return offered(self.source, action, dialog=len(self.screen_stack) > 1)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from commands(self, self.keys, lambda action: action != "quit" and self.check_action(action, ()) is True)
        if screen is not self.table:
            # The keys of the dialog on top (settlement, deal, capture choice...).
            yield from commands(screen, screen.BINDINGS, lambda action: True)

    def help_groups(self) -> list[tuple[str, list[BindingType]]]:
        """The keys offered now, titled: the table's (the table screen's own among them when
        they apply), those offered everywhere, and those of the game's dialogs."""
        table: list[BindingType] = [b for b in self.keys if self.check_action(b.action, ()) is True]
        table += [b for b in self.table.own_keys() if self.table.offers(b.action)]
        palette = Binding("ctrl+p", "command_palette", "Command palette", tooltip="Command palette: search every command")
        return [("The table", table), ("Everywhere", [palette]), *self.kit.dialog_keys(editable=self.source.editable)]

    def action_help(self) -> None:
        entry = self.kit.entry_syntax if self.source.editable else None
        self.push_screen(HelpScreen(self.help_groups(), codes=self.kit.legend, entry=entry))

    def action_hint(self) -> None:
        game = self.game
        deciding = tuple(game.deciding) if game is not None else ()
        if game is None or not deciding:
            self.notify("A hint is for a player who is deciding: none is now", severity="warning", timeout=3)
            return
        if len(deciding) == 1:
            self._hint(game, deciding[0])
            return

        def chosen(player: str | None) -> None:
            if player is not None and player in game.deciding:
                self._hint(game, player)

        # Several decide at once: the hint is one player's (their cards only), asked by them.
        self.push_screen(ChoiceScreen("A hint for whom? (only they should look)", [(p, p) for p in deciding]), chosen)

    def _hint(self, game: Any, player: str) -> None:
        # What the player told the companion privately is the table screen's to add. The hint
        # takes its own copy of the game here, under the session's lock (a tracker's thread
        # may be playing on it).
        with self.table.guard:
            judged, remedy = self.table.hint_game(game, player)
            screen = HintScreen(game, player, judged=judged, remedy=remedy)
        self.push_screen(screen)

    def on_hint_screen_advised(self, message: HintScreen.Advised) -> None:
        self.hint = self.table.hint = message
        self.refresh_view()

    def action_toggle_teaching(self) -> None:
        self.teaching = not self.teaching
        # A game whose screen is shared by players deciding at once says what its teaching mode shows instead.
        shows = self.kit.key_words.get("toggle_teaching", ("", "Teaching mode: the player to move's hand and options are shown"))[1]
        self.notify(f"Teaching mode on: {shows.removeprefix('Teaching mode: ')}" if self.teaching else "Teaching mode off", timeout=3)

    def watch_teaching(self, teaching: bool) -> None:
        if self.screen_stack:
            self.table.teaching = teaching
        self.refresh_view()

    def _on_clock(self, do: Callable[[ClockedSource], object], *, redraw: bool = True) -> None:
        if isinstance(self.source, ClockedSource):
            do(self.source)
            if redraw:
                self.refresh_view()

    def action_pause(self) -> None:
        self._on_clock(ClockedSource.toggle_pause)

    def action_step(self) -> None:
        self._on_clock(ClockedSource.step)

    def action_faster(self) -> None:
        self._on_clock(ClockedSource.faster)

    def action_slower(self) -> None:
        self._on_clock(ClockedSource.slower)

    def action_restart(self) -> None:
        self._on_clock(ClockedSource.restart, redraw=False)

    def action_to_end(self) -> None:
        if isinstance(self.source, ReplaySource):
            self.source.to_end()

    @on(TableScreen.StepBack)
    def _step_back(self) -> None:
        if isinstance(self.source, ReplaySource) and not self.source.back():
            self.notify("At the start of the record", timeout=2)

    def action_settlement(self) -> None:
        result = last_result(self.session)
        if result is None:
            self.notify(f"No {self.kit.period} has been settled yet", severity="warning", timeout=3)
            return
        self._present_settlement(result, autoplay=False)

    def action_undo(self) -> None:
        self.tell(self.keeper.undo())

    def action_redo(self) -> None:
        self.tell(self.keeper.redo())

    def action_next_step(self) -> None:
        self.take(self.keeper.next_step(), self.keeper.play)

    def action_cancel_correction(self) -> None:
        if self.tell(self.keeper.cancel()):
            self.refresh_view()

    def action_focus_entry(self) -> None:
        for entry in self.table.query("#entry").results(Input):
            if entry.has_focus:
                self.action_cancel_correction()  # Esc while correcting: the event is left as it was
            entry.focus()

    def action_focus_log(self) -> None:
        self.table.log_widget.focus()

    # ------------------------------------------------------------------ manual play

    def due(self) -> None:
        """What the table must do now, if anything (the companion's deal, the deal dialog)."""
        if len(self.screen_stack) == 1:
            self.take(self.keeper.due(), self.keeper.play)

    def take(self, step: Step | Command | None, submit: Callable[[Move], None], *, cancelled: Callable[[], None] | None = None) -> None:
        """Do what manual play says: propose a move with ``submit``, open a dialog whose move
        goes there too (``cancelled`` called when the table cancels it), tell the table
        something, or run one of the table's commands."""
        match step:
            case Submit(move):
                submit(move)
            case Ask(screen):
                self.push_screen(screen, lambda move: submit(move) if move else cancelled() if cancelled else None)
            case Tell():
                self.tell(step)
            case Command(name):
                run = {"undo": self.action_undo, "redo": self.action_redo, "next": self.action_next_step}
                run.update(help=self.action_help, hint=self.action_hint, quit=self.exit)
                run[name]()

    def tell(self, word: Tell | None) -> bool:
        """Show manual play's ``word``, if any (``True`` when there was one)."""
        if word is None:
            return False
        self.notify(word.text, severity=word.severity, timeout=word.timeout)
        return True

    def submit(self, move: Move) -> None:
        """A move typed or picked: played now, or the correction of the event being corrected
        (the screen follows the session; a correction refused is flagged)."""
        correcting = self.keeper.correcting is not None
        flag = self.keeper.submit(move)
        if flag is not None:
            self.table.show_flag(flag)
        elif correcting:
            self.refresh_view()

    @on(Input.Submitted, "#entry")
    def _entered(self, message: Input.Submitted) -> None:
        """What was typed in the entry bar: done, or flagged when it is not understood (it
        stays in the bar, to be fixed)."""
        said = self.keeper.entered(message.value, teaching=self.teaching)
        if isinstance(said, Flag):
            self.table.show_flag(said)
        elif said is not None:
            message.input.value = ""
            self.take(said, self.submit)

    @on(EventLog.Picked)
    def _picked(self, message: EventLog.Picked) -> None:
        """An event picked in the log, to correct it: by its dialog, or typed in the entry bar."""
        step = self.keeper.pick(message.index)
        self.take(step, self.submit, cancelled=self.action_cancel_correction)
        if isinstance(step, Tell) and self.keeper.correcting == message.index:
            self.refresh_view()
            self.action_focus_entry()

    # ------------------------------------------------------------------ the view

    @property
    def status(self) -> str:
        """The status line's last part: the source's state, the correction under way, the
        events undone, whether the game is saved."""
        status = self.source.status
        if self.correcting is not None:
            status += f"; correcting event {self.correcting + 1}: type the right event (Esc cancels)"
        redo = self.session.redo_moves if self.session is not None and self.source.editable else ()
        if redo:
            status += f"; {len(redo)} undone (Ctrl+Y re-applies)"
        if self.game_file is not None:
            status += "; saved"
        return status

    def refresh_view(self) -> None:
        if self.screen_stack:
            self.table.refresh_view()

    @shown(MoveApplied)
    def _applied(self, message: MoveApplied) -> None:
        """A move shown on the table screen: what follows it."""
        effects = message.event.effects
        if isinstance(self.screen, Settlement) and self.source.live and effects.player is not None:
            self.screen.action_close()  # the table plays the next period: the settlement makes way
        self.call_after_refresh(self.collector.collect_if_due)
        if not message.quiet:
            self.moved(effects)

    # ------------------------------------------------------------------ the tracker

    @shown(TrackerSource.Asks)
    def _tracker_asks(self, message: TrackerSource.Asks) -> None:
        source = self.source
        assert isinstance(source, TrackerSource)
        self.bell()
        self.table.note(f"Question for the table: {message.question.prompt}")
        self.push_screen(QuestionScreen(message.question), source.answer)

    @shown(TrackerSource.QuestionClosed)
    def _question_closed(self, message: TrackerSource.QuestionClosed) -> None:
        if isinstance(self.screen, QuestionScreen):
            self.screen.dismiss(None)

    @shown(TrackerSource.StatusChanged)
    def _tracker_status(self, message: TrackerSource.StatusChanged) -> None:
        self.refresh_view()

    # ------------------------------------------------------------------ what follows a move

    def moved(self, effects: Any) -> None:
        """A move was shown: the settlement of the period it ended, or what the table must do
        next in manual play."""
        if effects.result is not None:
            self._present_settlement(effects.result, autoplay=None)
        else:
            self.due()

    def _present_settlement(self, result: Any, *, autoplay: bool | None) -> None:
        """The settlement of the period ``result``: on the source's clock (``autoplay``
        ``None``: as the app was told, else as the source runs), or waiting for the keys."""
        if isinstance(self.screen, Settlement) or self.session is None:
            return
        src, every = self.source, None
        auto = self.settlement_autoplay if self.settlement_autoplay is not None else src.clocked
        if autoplay is None and auto and isinstance(src, ClockedSource) and not src.paused:
            every = max(2 * src.delay, 0.5)
        src.hold()
        self.settlement.load(self.session.game, result, self.session.moves)

        def closed() -> None:
            src.release()
            self.due()

        self.settlement.present(self, "settlement", every=every, closed=closed)

    def on_unmount(self) -> None:
        self.collector.stop()
        self.source.stop()
        if self._link is not None:
            self._link.close()
        for follower in self._followers:
            close = getattr(follower, "close", None)
            if close is not None:
                close()
        if self.session is not None:
            self.session.close()
