"""Circle of Power kept by keyboard on a laptop's 80x24, as a newcomer meets it: the winner's
choices all in sight after a resume and after a refusal, the status line in whole words, the
season's settlement starting at its top, and one total for one emperor in every panel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widget import Widget

from companion.commands.play import resume_app
from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.settlement import Settlement
from companion.games.circle_of_power.dashboard.widgets.action import ActionPanel, short_choice
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.setup import is_dummy
from companion.records.format import iter_record_lines
from tests.dashboard.driving import until
from tests.dashboard.screen_words import cut_words, screen_rows
from tests.games.circle_of_power.dashboard.driving import positions, type_line


def _in_sight(app: DashboardApp, widget: Widget) -> str:
    """What ``widget`` shows inside its border, its lines joined as one paragraph."""
    region = widget.content_region
    rows = screen_rows(app.export_screenshot())[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right].split()) for row in rows)


def _resumed(tmp_path: Path, find) -> DashboardApp:  # type: ignore[no-untyped-def]
    """The dashboard resuming a record kept by keyboard up to the first position ``find``
    holds in a simulated game, as ``rop play --resume RECORD`` opens it."""
    setup, moves = next(positions(find, seeds=range(300)))
    path = tmp_path / "kept.jsonl"
    path.write_text("".join(line + "\n" for line in iter_record_lines(setup, moves, "0" * 32)), encoding="utf-8")
    return resume_app(str(path), tmp_path)


def _four_choices(state: CircleState) -> bool:
    return state.phase is Phase.ACT and not is_dummy(state.to_move or "") and len(state.choices()) >= 4


@pytest.mark.asyncio
async def test_the_winners_choices_stay_in_sight_after_a_resume_and_after_a_refusal(tmp_path: Path) -> None:
    app = _resumed(tmp_path, _four_choices)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.ACT, "the winner's act")
        await pilot.pause()
        game = app.game
        panel = app.screen.query_one(ActionPanel)

        question = f"{game.to_move} must take a city (C10), type 1-{len(game.choices())}:"

        async def every_choice_in_sight(when: str, first: str) -> str:
            # The panel is laid out once the column's height has settled (a busy machine takes
            # a few frames): its first words in sight, then every choice below them.
            await until(lambda: first in _in_sight(app, panel) and question in _in_sight(app, panel), f"{when}: the panel")
            shown = _in_sight(app, panel)
            for k, choice in enumerate(game.choices(), 1):
                assert f"{k} {short_choice(game, choice)}" in shown, f"{when}: choice {k} is out of sight in {shown!r}"
            return shown

        await every_choice_in_sight("resumed", "Initiative:")
        # Regrouping while a city may be taken: refused (C10), the choices still all in sight.
        await type_line(pilot, "regroup")
        shown = await every_choice_in_sight("after a refusal", "REFUSED")
        assert "C10" in shown


@pytest.mark.asyncio
async def test_the_status_line_keeps_whole_words_at_80_columns(tmp_path: Path) -> None:
    app = _resumed(tmp_path, lambda s: s.season_number == 1 and s.action_number == 2 and s.phase is Phase.PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None, "the game")
        await pilot.press("ctrl+z")
        await until(lambda: bool(app.session and app.session.redo_moves), "an event undone")
        await pilot.pause()
        status = screen_rows(app.export_screenshot())[0]
        assert cut_words([status]) == [], status
        assert re.search(r"\[manual play[^\]]*\]", status), f"the source's state in brackets, whole: {status!r}"


def _last_act_by_a_dummy(state: CircleState) -> bool:
    return state.season_number == 1 and state.action_number == 15 and state.phase is Phase.ACT and is_dummy(state.to_move or "")


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_the_seasons_settlement_opens_with_its_first_point_at_the_top(tmp_path: Path, size: tuple[int, int]) -> None:
    """The dummy's last act ends the season as the game is resumed: the settlement opens, its
    first point right under its title, not below a blank page."""
    app = _resumed(tmp_path, _last_act_by_a_dummy)
    async with app.run_test(size=size) as pilot:
        await until(lambda: isinstance(app.screen, Settlement), "the season's settlement")
        await pilot.pause()
        steps = app.screen.query_one("#steps")
        region = steps.content_region
        rows = screen_rows(app.export_screenshot())[region.y : region.bottom]
        assert rows[0][region.x : region.right].strip() == "End of season 1", [r[region.x : region.right].rstrip() for r in rows]


def _trophies_on_a_total(state: CircleState) -> bool:
    """Season 2 under way, a player holding trophies on top of a total already won."""
    return state.season_number == 2 and state.phase is Phase.PLAY and any(state.trophies(p) and state.totals.get(p, 0) for p in state.players if p in state.seats)


@pytest.mark.asyncio
async def test_the_seasons_panel_and_the_emperors_panel_give_one_total(tmp_path: Path) -> None:
    """Both panels give a player's game total as "before this season > with its points so
    far" (the Emperors panel's ``1>2``; C16), so that one player has one total on the screen."""
    from tests.dashboard.driving import panel_text

    app = _resumed(tmp_path, _trophies_on_a_total)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None, "the game")
        await pilot.pause()
        game = app.game
        name = next(p for p in game.players if p in game.seats and game.trophies(p) and game.totals.get(p, 0))
        before = game.totals[name]
        total = f"{before}>{before + len(game.trophies(name))}"
        for panel_id in ("emperors", "seasons"):
            row = next(line for line in panel_text(app.screen.query_one(f"#{panel_id}")).splitlines() if line.split()[:1] == [name] or f" {name} " in line)
            assert total in row.split(), f"{panel_id}: {row!r} (want {total})"
