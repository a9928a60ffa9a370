"""Setting up a table for manual play."""

from __future__ import annotations

from collections.abc import Iterator

from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select

from companion.dashboard.screens.form import SetupForm
from companion.games.rule_of_power.dashboard.tablesetup import SetupError, TableSetup, build_table_setup

__all__ = ["SetupScreen"]


class SetupScreen(SetupForm[TableSetup]):
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

    HEADING = "[b]New game[/b]: players in seating order, clockwise (team-mates sit alternately, R16)"

    def rows(self) -> Iterator[tuple[str | None, list[Widget]]]:
        yield "players", [Input("ann, bob", id="players", compact=True)]
        yield "teams", [Select([("everyone alone", 0), ("2 teams", 2), ("3 teams", 3)], value=0, allow_blank=False, id="teams", compact=True)]
        yield "target (R14)", [Select([(str(t), t) for t in (11, 16, 21, 26, 31)], value=11, allow_blank=False, id="target", compact=True)]
        fate = [("no Fate cards", "none"), ("seven at random each", "random"), ("as typed below", "custom")]
        yield "Fate decks", [Select(fate, value="none", allow_blank=False, id="fate", compact=True)]
        yield "typed decks", [Input(placeholder="ann=F001 F002 F003 F004 F005 F006 F007; bob=...", id="fate-decks", compact=True)]
        yield "first dealer", [Input(placeholder="blank: the last player listed", id="dealer", compact=True)]
        yield None, [
            Checkbox("Higher Powers expansion (R2)", id="expansion", compact=True),
            Checkbox("the companion shuffles and deals", id="companion-deals", compact=True),
        ]

    def _number(self, selector: str) -> int:
        """The number chosen in a select that offers only numbers (and no blank)."""
        value = self.query_one(selector, Select).value
        assert isinstance(value, int), selector
        return value

    def action_start(self) -> None:
        try:
            table = build_table_setup(
                self.query_one("#players", Input).value,
                teams=self._number("#teams"),
                target=self._number("#target"),
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

