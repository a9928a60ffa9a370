"""The seasons' points and the totals (C16), who is closest to the target (C17), and in the
variants the destroyed cities that count towards a knock-out and who is still in (C18-C20)."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.scoring import KNOCK_OUT
from companion.games.circle_of_power.setup import BASIC, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.dashboard.widgets.emperors import total_cell
from companion.games.circle_of_power.dashboard.words import names_list

__all__ = ["SeasonsPanel", "closest_words"]


def closest_words(game: CircleState, *, with_season: bool = True) -> str:
    """Who is closest to winning: to the target of trophies (C17), or, in the variants, to
    being the last player in (C18). ``with_season``: counting the season under way."""
    setup = game.setup
    in_season = with_season and game.phase not in (Phase.SEASON, Phase.OVER)
    players = [p for p in setup.players if p not in game.knocked_out]
    parts = []
    if setup.variant != LONELY_TYRANT:
        totals = game.totals
        now = {p: totals.get(p, 0) + (len(game.trophies(p)) if in_season and p in game.seats else 0) for p in players}
        ranked = sorted(players, key=lambda p: (-now[p], setup.players.index(p)))
        words = ", ".join(f"{p} {now[p]}" + (f" ({setup.target - now[p]} short)" if now[p] < setup.target else " (there)") for p in ranked)
        when = " if the season ended now" if in_season else ""
        parts.append(f"Closest to {setup.target}{when}: {words} (C17)")
    if setup.variant != BASIC:
        left = {p: KNOCK_OUT - (game.destroyed_count(p) if p in game.emperors else 0) for p in players}
        ranked = sorted(players, key=lambda p: (-left[p], setup.players.index(p)))
        words = ", ".join(f"{p} {max(0, left[p])}" for p in ranked)
        out = f"; out: {names_list(game.knocked_out)}" if game.knocked_out else ""
        parts.append(f"Holy cities left: {words}{out}; the last player in is the Lonely Tyrant (C18)")
    return ". ".join(parts)


class SeasonsPanel(GamePanel):
    BORDER_TITLE = "Seasons"

    def render_game(self, game: CircleState) -> Text:
        variant = game.variant
        width = self.size.width or 40
        results = game.results
        in_season = game.phase not in (Phase.SEASON, Phase.OVER)
        shown = results[-max(1, (width - 24) // 5):]
        lonely = variant == LONELY_TYRANT
        columns = [Column("emperor")]
        columns += [Column(f"S{r.number}", justify="right") for r in shown]
        if in_season:
            columns.append(Column(f"S{game.season_number} now", justify="right"))
        columns.append(Column("lost" if lonely else "total", justify="right"))
        emperors = game.emperors
        rows: list[list[Text | str]] = []
        for name in emperors:
            who = Text(name, style="bold")
            if name in game.knocked_out:
                who.append(" out", style="dim")
            row: list[Text | str] = [who]
            for r in shown:
                value = r.destroyed.get(name, 0) if lonely else r.points.get(name, 0)
                row.append(str(value) if name in r.seats and not (lonely and is_dummy(name)) else "-")
            if in_season:
                if name not in game.seats or (lonely and is_dummy(name)):
                    row.append("-")
                elif lonely:
                    row.append(str(game.destroyed_count(name) - game.destroyed_totals.get(name, 0)))
                else:
                    row.append(str(len(game.trophies(name))))
            if lonely:
                row.append(Text("-" if is_dummy(name) else f"{game.destroyed_count(name)}/{KNOCK_OUT}", style="bold"))
            else:
                row.append(total_cell(game, name))
            rows.append(row)
        parts = [grid(columns, rows, width=width)]
        if len(shown) < len(results):
            parts.append(Text(f"Seasons 1-{len(results) - len(shown)} count in the totals, left out for room.", style="dim"))
        if lonely:
            parts.append(Text("lost: destroyed cities that count (a dummy's never do)", style="dim"))
        closest = closest_words(game)
        if closest:
            parts.append(Text(closest, style="italic"))
        if game.dummies or any(is_dummy(e) for e in emperors):
            if game.variant == LONELY_TYRANT:
                parts.append(Text("A dummy's destroyed cities never count: dummies are never knocked out (C18).", style="dim"))
            else:
                parts.append(Text("Dummies score too, but never win (C16).", style="dim"))
        outcome = game.outcome()
        if outcome is not None:
            parts.append(Text(outcome.explain(), style="bold reverse"))
        return lines(parts)

    def on_resize(self) -> None:
        self.refresh_panel()
