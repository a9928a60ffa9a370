"""What a game brings to the dashboard: its :class:`DashboardKit`.

The dashboard's shell (the app, its sources, the event log, the entry bar, help, the hint, the
tracker's questions) knows no game. Everything it shows or asks in a game's own terms comes
from the game's kit, which the game's plug-in object hands out (``game.dashboard()``, read
with :func:`kit_of`): the table screen with the game's panels, built in the shell's frame
(:class:`~companion.dashboard.screens.table.TableScreen`); the settlement of a finished
scoring period (:class:`~companion.dashboard.screens.settlement.Settlement`); the table's
set-up dialog; the event log's words; manual play (:class:`ManualTable`); the demo table
(:class:`DemoKit`); what the help screen explains; and the options a table kept by hand takes
beyond the game's own (:attr:`DashboardKit.table_options`), which ``rop play`` and ``rop
track`` offer in the game's words, as ``rop demo`` offers the demo's (:attr:`DemoKit.options`). A move tried is named in the game's
own words by :meth:`Game.describe <companion.contract.Game.describe>`.

Manual play answers the shell with small values the shell acts on (:data:`Step`): a move to
propose (:class:`Submit`), a dialog whose answer is a move (:class:`Ask`), a word for the
table (:class:`Tell`), or, from the entry bar, one of the table's commands
(:class:`Command`).

Every protocol here is structural: a game's classes need not inherit from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from companion.contract import Game, Move, Option
from companion.dashboard.flag import Flag

if TYPE_CHECKING:
    from textual.binding import BindingType
    from textual.screen import ModalScreen

    from companion.dashboard.screens.settlement import Settlement
    from companion.dashboard.screens.table import TableScreen
    from companion.dashboard.widgets.event_log import LogEntry
    from companion.observations import Observation
    from companion.observations.log import ObservationLog
    from companion.session import Applied
    from companion.tracker.runner import StartSensors

__all__ = [
    "CommandName",
    "Ask",
    "CameraDemo",
    "Command",
    "DashboardKit",
    "DemoKit",
    "DemoTable",
    "EntryError",
    "Flag",
    "ManualTable",
    "NoDashboardError",
    "SetupError",
    "Step",
    "Submit",
    "TableChoice",
    "Tell",
    "kit_of",
]


class NoDashboardError(LookupError):
    """A game that brings no dashboard (yet)."""


class EntryError(ValueError):
    """Text typed in the entry bar that names no move; the message says what was expected."""


class SetupError(ValueError):
    """A table the set-up cannot make; the message says why, citing the ruling."""


@dataclass(frozen=True, slots=True)
class Submit:
    """A move to propose to the session (or, in a correction, to put in the event's place)."""

    move: Move


@dataclass(frozen=True, slots=True)
class Ask:
    """A dialog that answers with a move (the deal dialog, the choice between a card's
    captures), or ``None`` when the table cancels it."""

    screen: ModalScreen[Any]


@dataclass(frozen=True, slots=True)
class Tell:
    """A word for the table, shown as a notification."""

    text: str
    severity: Literal["information", "warning", "error"] = "information"
    timeout: float = 3.0


CommandName = Literal["undo", "redo", "next", "help", "hint", "quit"]
"""The table's commands a game's entry bar may hand to the shell."""


@dataclass(frozen=True, slots=True)
class Command:
    """One of the table's commands typed in the entry bar: ``undo``, ``redo``, ``next`` (the
    table's next step, F5), ``help``, ``hint`` or ``quit``."""

    name: CommandName


Step: TypeAlias = Submit | Ask | Tell
"""What the table does next, or how an event is corrected."""


class TableChoice(Protocol):
    """A table as its set-up dialog (or the command line) chose it."""

    @property
    def setup(self) -> Any:
        """The game's :class:`~companion.contract.Setup`."""

    @property
    def first_dealer(self) -> str | None: ...

    @property
    def facts(self) -> Mapping[str, Any]:
        """The table's facts for the tracker (:mod:`companion.observations.facts`)."""

    @property
    def options(self) -> Mapping[str, Any]:
        """What manual play needs besides the set-up, as :meth:`DashboardKit.manual` takes it."""


class ManualTable(Protocol):
    """A game kept by hand at one table (:meth:`DashboardKit.manual`): what a typed entry
    means, what the table does next, how a recorded event is corrected."""

    @property
    def status(self) -> str:
        """How the status line names manual play: ``"manual play, the companion deals"``."""

    def parse(self, text: str, state: Any, *, correcting: bool, teaching: bool) -> Step | Command:
        """What ``text``, typed in the entry bar, means in ``state`` (for a correction, the game
        as it stood before the event corrected): a move, a choice between a card's outcomes
        (:class:`Ask`), or a command; :class:`EntryError` when it names nothing."""

    def next_step(self, state: Any, *, asked: bool) -> Step | None:
        """What the table does next in ``state``: the companion's deal (:class:`Submit`), the
        deal dialog (:class:`Ask`), ... With ``asked`` the table asked for it (F5) and is told
        why there is nothing to do (:class:`Tell`); without, only what is due at once (every
        hand played out: the deal), else ``None``."""

    def correction(self, before: Any, move: Move) -> Ask | Tell | None:
        """How event ``move``, in the game as it stood ``before`` it, is corrected: ``None``
        when the right event is typed in the entry bar, a dialog that gives it (a deal is
        entered again in the deal dialog), or why it cannot be (:class:`Tell`)."""


class DemoTable(Protocol):
    """A virtual table playing a game of its own for the demo, a slip now and then."""

    @property
    def intro(self) -> str:
        """The event log's first line: who plays, how, and which keys drive the demo."""

    def next_move(self, state: Any) -> Move | None:
        """The table's next move in ``state`` (maybe a slip the game refuses), ``None`` when
        the game is over. It may think a while: the demo clock asks in a thread, on a copy of
        the game, for every level but the first of :attr:`DemoKit.levels`."""


class CameraDemo(Protocol):
    """The demo table seen through the camera path (``rop demo --camera-sim``)."""

    @property
    def log(self) -> ObservationLog:
        """The table as an observation log's header: set-up, first dealer, facts."""

    @property
    def start(self) -> StartSensors:
        """Starts the virtual camera, whose observations go to the tracker."""


class DemoKit(Protocol):
    """The game's demo table (``rop demo``)."""

    @property
    def levels(self) -> Sequence[str]:
        """How the demo's players may play, the quickest first (``random``, ``greedy``,
        ``coach``...)."""

    @property
    def level_words(self) -> str:
        """What each level means, for ``rop demo --help``: ``"random (any legal move), greedy
        (the best immediate points), ..."``."""

    @property
    def options(self) -> Sequence[Option]:
        """The demo's options besides the game's own (``rop demo --no-fate``): the demo
        table's, which :meth:`table` and :meth:`camera` take, and any option of the game whose
        default the demo sets otherwise (Rule of Power's demo seats two teams), which
        :meth:`setup` takes."""

    def setup(self, players: int, **options: Any) -> Any:
        """A demo table of ``players`` players with the game's ``options`` the command line
        gave (Rule of Power: ``teams``, ``expansion``), the others at the demo's defaults;
        :class:`ValueError` naming the ruling."""

    def table(self, setup: Any, *, seed: int, level: str, slips: float, **options: Any) -> DemoTable:
        """A new virtual table for ``setup`` (the game's own ``options``: Rule of Power's
        ``fate``)."""

    def camera(self, *, seed: int, step_s: float, **options: Any) -> CameraDemo:
        """The demo table seen by a virtual camera, each step ``step_s`` seconds on the table."""


class DashboardKit(Protocol):
    """What a game brings to the dashboard (``game.dashboard()``)."""

    @property
    def title(self) -> str:
        """The window's title: ``"Rule of Power"``."""

    @property
    def period(self) -> str:
        """The game's scoring period in a word: ``"round"``, ``"season"``."""

    # ------------------------------------------------------------------ the screens

    def table_screen(self, *, editable: bool) -> TableScreen:
        """The table screen: the game's status line and panels in the shell's frame (the event
        log, the entry bar when ``editable``, the footer, F4's paging on a small terminal)."""

    def settlement_screen(self) -> Settlement:
        """The settlement of a finished scoring period (a round, a season): installed once,
        loaded for each period, read point by point."""

    def setup_screen(self) -> ModalScreen[Any]:
        """The table's set-up dialog for manual play; it answers with a :class:`TableChoice`,
        or ``None`` when the table gives up."""

    # ------------------------------------------------------------------ words

    def log_lines(self, state: Any, applied: Applied) -> list[LogEntry]:
        """The event log's lines for a move just applied to ``state``: the move in words and,
        when it ended a scoring period (``effects.result``), its points and the totals."""

    def played(self, state: Any, applied: Applied) -> Any:
        """What the play panel keeps of a move just applied to ``state`` (Rule of Power: the
        card laid and every capture it had), ``None`` when it keeps nothing of it (the panel
        then shows the move before; a move of the table's, ``effects.player`` ``None``,
        clears it)."""

    def refusal(self, move: Move, error: ValueError) -> Flag:
        """A refused move in its player's words: who tried it, the ruling and the reason with
        a plain-words reminder of the rule (the shell puts the move's words in front)."""

    @property
    def key_words(self) -> Mapping[str, tuple[str, str]]:
        """The game's words for the shell's keys that name its periods and dealing, by action:
        ``{"settlement": ("Results", "The settlement of the last finished round"),
        "next_step": ("Deal", "Start the next round or enter the next deal")}``."""

    # ------------------------------------------------------------------ manual play

    def manual(self, *, seed: int | None = None, **options: Any) -> ManualTable:
        """Manual play of this game, the companion shuffling with ``seed``; ``options`` as a
        :class:`TableChoice` gives them, or ``first_dealer`` and ``facts`` as a tracked table
        knows them."""

    @property
    def table_options(self) -> Sequence[Option]:
        """The options of a table kept by hand besides the game's own (``game.options``), as
        ``rop play`` and ``rop track`` offer them (Rule of Power: its Fate decks; the first
        dealer); :meth:`table_choice` takes them by name."""

    @property
    def manual_options(self) -> Sequence[Option]:
        """The options of manual play alone, ``rop play``'s and not ``rop track``'s (Rule of
        Power: the companion deals); :meth:`table_choice` takes them by name."""

    def table_choice(self, players: str, **options: Any) -> TableChoice:
        """The table the command line describes (``rop play --players ann,bob`` and the
        options given, of the game's :attr:`~companion.contract.Game.options`,
        :attr:`table_options` and :attr:`manual_options`, by their names; the others at their
        defaults); :class:`SetupError` saying what is wrong."""

    def resume_options(self, state: Any) -> dict[str, Any]:
        """What manual play needs to go on with a saved game (:meth:`manual`'s options)."""

    def announcement(self, move: Move, *, source: str, at: float) -> Observation | None:
        """A move typed at the dashboard that no sensor sees, as the announcement the tracker
        takes instead (Rule of Power: a Fate card drawn); ``None`` for any other move."""

    # ------------------------------------------------------------------ demo and help

    @property
    def demo(self) -> DemoKit:
        """The game's demo table (``rop demo``)."""

    @property
    def legend(self) -> Sequence[tuple[str, str]]:
        """What each code on the table screen means, for the help screen: (code, meaning)."""

    @property
    def entry_syntax(self) -> str:
        """How moves are typed in manual play, for the help screen."""

    def dialog_keys(self, *, editable: bool) -> list[tuple[str, list[BindingType]]]:
        """The keys of the game's own dialogs, titled, for the help screen (those of manual
        play only when ``editable``)."""


def kit_of(game: Game) -> DashboardKit:
    """``game``'s dashboard kit; :class:`NoDashboardError` when it brings none."""
    kit = game.dashboard()
    if kit is None:
        raise NoDashboardError(f"{game.title} has no dashboard yet")
    return kit
