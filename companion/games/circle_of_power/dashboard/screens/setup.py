"""Setting up a Circle of Power table for manual play: the players clockwise (2-4, dummies in
the other seats, C4), the variant (C18, C19), the target (C17) and the first dealer (C5)."""

from __future__ import annotations

from collections.abc import Iterator

from textual.widget import Widget
from textual.widgets import Input, Select

from companion.dashboard.screens.form import SetupForm
from companion.games.circle_of_power.setup import MAX_TARGET, VARIANTS
from companion.games.circle_of_power.dashboard.tablesetup import CircleTableChoice, SetupError, build_table_choice
from companion.games.circle_of_power.dashboard.screens import TCSS

__all__ = ["SetupScreen"]

_VARIANT_NAMES = {
    "basic": "basic: trophies win (C17)",
    "lonely-tyrant": "Lonely Tyrant: knock everyone out (C18)",
    "coloured-cities": "Coloured Cities: the full game (C19)",
}


class SetupScreen(SetupForm[CircleTableChoice]):
    CSS_PATH = TCSS

    HEADING = "[b]New game of Circle of Power[/b]: players in seating order, clockwise; dummies take the empty seats (C4)"

    def rows(self) -> Iterator[tuple[str | None, list[Widget]]]:
        yield "players", [Input("ann, bob, cy", id="players", compact=True)]
        yield "variant", [Select([(_VARIANT_NAMES[v], v) for v in VARIANTS], value="basic", allow_blank=False, id="variant", compact=True)]
        yield "target (C17)", [Input("6", id="target", compact=True)]
        yield "first dealer", [Input(placeholder="blank: the first player listed", id="dealer", compact=True)]

    def action_start(self) -> None:
        text = self.query_one("#target", Input).value.strip()
        try:
            if not text.isdigit() or not 1 <= int(text) <= MAX_TARGET:
                raise SetupError(f"the target is a whole number of trophies from 1 to {MAX_TARGET} (C17), not {text!r}")
            table = build_table_choice(
                self.query_one("#players", Input).value,
                variant=str(self.query_one("#variant", Select).value),
                target=int(text),
                dealer=self.query_one("#dealer", Input).value,
            )
        except SetupError as exc:
            self.refuse(str(exc))
            return
        self.dismiss(table)

