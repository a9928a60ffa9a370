"""Setting up a table for manual play."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from companion.dashboard.screens.form import Form
from companion.games.rule_of_power.dashboard.tablesetup import SetupError, TableSetup, build_table_setup

__all__ = ["SetupScreen"]


class SetupScreen(Form[TableSetup]):
    DEFAULT_CSS = """
    SetupScreen {
        align: center middle;
    }
    SetupScreen > Vertical {
        width: 96%;
        max-width: 100;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    SetupScreen VerticalScroll {
        height: auto;
        max-height: 14;
    }
    SetupScreen .row {
        height: auto;
        margin-bottom: 1;
    }
    SetupScreen .row Label {
        width: 16;
        padding: 0 1 0 0;
    }
    SetupScreen .row Input, SetupScreen .row Select {
        width: 1fr;
    }
    SetupScreen #setup-error {
        color: $error;
        text-style: bold;
        height: auto;
    }
    SetupScreen #setup-buttons {
        height: auto;
        align-horizontal: right;
    }
    """

    BINDINGS = [Binding("ctrl+s", "start", "Start the game")]
    ERROR = "setup-error"
    ENTER_SUBMITS = True

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]New game[/b]: players in seating order, clockwise (team-mates sit alternately, R16)")
            with VerticalScroll():
                with Horizontal(classes="row"):
                    yield Label("players")
                    yield Input("ann, bob", id="players", compact=True)
                with Horizontal(classes="row"):
                    yield Label("teams")
                    yield Select([("everyone alone", 0), ("2 teams", 2), ("3 teams", 3)], value=0, allow_blank=False, id="teams", compact=True)
                with Horizontal(classes="row"):
                    yield Label("target (R14)")
                    yield Select([(str(t), t) for t in (11, 16, 21, 26, 31)], value=11, allow_blank=False, id="target", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Fate decks")
                    yield Select(
                        [("no Fate cards", "none"), ("seven at random each", "random"), ("as typed below", "custom")],
                        value="none",
                        allow_blank=False,
                        id="fate",
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("typed decks")
                    yield Input(placeholder="ann=F001 F002 F003 F004 F005 F006 F007; bob=...", id="fate-decks", compact=True)
                with Horizontal(classes="row"):
                    yield Label("first dealer")
                    yield Input(placeholder="blank: the last player listed", id="dealer", compact=True)
                with Horizontal(classes="row"):
                    yield Checkbox("Higher Powers expansion (R2)", id="expansion", compact=True)
                    yield Checkbox("the companion shuffles and deals", id="companion-deals", compact=True)
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="primary", id="start", compact=True)
            yield Static("Tab: next field  Enter or Ctrl+S: start", classes="keys")

    def on_mount(self) -> None:
        self.query_one("#players", Input).focus()

    def action_start(self) -> None:
        try:
            table = build_table_setup(
                self.query_one("#players", Input).value,
                teams=int(self.query_one("#teams", Select).value),  # type: ignore[arg-type]
                target=int(self.query_one("#target", Select).value),  # type: ignore[arg-type]
                expansion=self.query_one("#expansion", Checkbox).value,
                fate=str(self.query_one("#fate", Select).value),
                fate_decks=self.query_one("#fate-decks", Input).value,
                dealer=self.query_one("#dealer", Input).value,
                companion_deals=self.query_one("#companion-deals", Checkbox).value,
            )
        except SetupError as exc:
            self.refuse(str(exc))
            return
        self.dismiss(table)

