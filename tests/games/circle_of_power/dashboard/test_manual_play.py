"""Circle of Power kept by keyboard, driven by real key presses: a whole season typed (cards in
every form, acts by number and by words, the dummies' turns, the companion's own moves, the
settlement, the next season's dialog), refused and mistyped entries, undo, redo, a correction,
the trophy asked of a retake and of a rebellion, the table's set-up dialog."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource, read_moves
from companion.dashboard.widgets.event_log import EventLog
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.dashboard.screens.pick import PickScreen
from companion.games.circle_of_power.dashboard.screens.season import SeasonScreen
from companion.games.circle_of_power.dashboard.screens.settlement import SeasonSettlement
from companion.games.circle_of_power.dashboard.screens.setup import SetupScreen
from companion.games.circle_of_power.dashboard.widgets.action import ActionPanel
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move, Play, Regroup, Retake, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import CircleSetup, is_dummy
from companion.session import GameSession
from tests.dashboard.driving import panel_text, until
from tests.games.circle_of_power.dashboard.driving import fill_season, keep, kept_by_hand, pick_event, positions, type_line

SEASON = Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2")


def _app(tmp_path: Path | None, setup: CircleSetup, *, first_dealer: str = "ann") -> DashboardApp:
    return DashboardApp(ManualSource(first_dealer=first_dealer, seed=1), game=GAME, setup=setup, games_dir=tmp_path if tmp_path else False)


def _at(moves: list[Move], setup: CircleSetup) -> DashboardApp:
    """The dashboard on a game kept so far by ``moves`` (not saved)."""
    state = GAME.new_state(setup)
    for move in moves:
        state.push(move)
    return DashboardApp(ManualSource(), session=GameSession(game=state), games_dir=False)


def _record(app: DashboardApp) -> list[Move]:
    """The events of the saved record as written, checked by the rules as they are read."""
    assert app.game_file is not None
    _, moves, error = read_moves(app.game_file.path)
    assert error is None
    state = GAME.new_state(app.game_file.setup)
    for move in moves:
        state.push(move)
    return moves


def _action(app: DashboardApp) -> str:
    return panel_text(app.screen_stack[0].query_one(ActionPanel))


@pytest.mark.asyncio
async def test_a_whole_season_kept_by_keyboard_is_checked_settled_and_saved(tmp_path: Path) -> None:
    setup, simulated = simulate(["ann", "bob", "cy"], "basic", seed=4)
    moves = kept_by_hand(simulated)
    second = next(k for k, m in enumerate(moves) if type(m) is Season and k)
    assert type(moves[0]) is Season
    app = _app(tmp_path, setup, first_dealer=moves[0].dealer)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None, "the game")
        game = app.game
        # Up to the first dummy to play: the screen says to turn its top card over.
        await keep(pilot, app, moves, stop=lambda s: s.phase is Phase.PLAY and is_dummy(s.to_move or ""))
        dummy = game.to_move
        assert dummy is not None and is_dummy(dummy)
        assert f"{dummy} is a dummy: turn the top card of its pile over and type it (C8)" in " ".join(_action(app).split())
        # The rest of the season, its settlement, and the next season's set-up as C4 and C5 place it.
        typed = await keep(pilot, app, moves[: second + 1])
        assert typed > 40
        assert list(game.move_stack) == moves[: second + 1]
        assert game.season_number == 2 and game.results[0].number == 1
        # What the companion did by itself: every dummy's act (C11) and the reshuffle (C15).
        log = [e.text for e in app.screen_stack[0].query_one(EventLog).entries]
        assert any("as a dummy must (C11)" in line or "a dummy regroups" in line for line in log)
        assert any(line.startswith("The battle deck ran out") for line in log)
        assert any(line.startswith("Season 1 over. Totals:") for line in log)
        # The record on disk is the game as kept; once the season is played out, the records
        # place the hands' cards the plays explain, each where the real deal had it.
        saved = _record(app)
        assert kept_by_hand(saved) == moves[: second + 1]
        dealt = simulated[0]
        assert type(saved[0]) is Season and type(dealt) is Season
        for name, cards in saved[0].hands + saved[0].piles:
            real = dealt.hand_of(name) or dealt.pile_of(name)
            assert real is not None and all(c in real for c in cards if isinstance(c, Card))
        # F3 shows the season's settlement again: each point with its reason.
        await pilot.press("f3")
        await until(lambda: isinstance(app.screen, SeasonSettlement), "the settlement")
        screen = app.screen
        assert isinstance(screen, SeasonSettlement)
        titles = [title for title, _ in screen.steps]
        assert titles[0] == "End of season 1" and "Points: one per trophy in each line (C16)" in titles and titles[-1] == "Verdict"
        result = game.results[0]
        points = str(dict(screen.steps)["Points: one per trophy in each line (C16)"])
        for name in result.seats:
            assert f"{name}: {result.points[name]} point" in points
            for card in result.trophies[name]:
                assert f"{card.id} taken from" in points
        verdict = str(dict(screen.steps)["Verdict"])
        assert f"Season 2: {moves[second].dealer} deals (C5)" in verdict  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_cards_typed_in_every_form_and_entries_refused_or_not_understood(tmp_path: Path) -> None:
    setup = GAME.make_setup(["ann", "bob", "cy"])
    app = _app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await fill_season(pilot, app, Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "JH", "@1": "AC"}, "X2"))
        game = app.game
        assert game is not None and game.phase is Phase.REVEAL
        # A bare "joker" turned up is the joker still in the city deck: X2 lies at the bottom.
        await type_line(pilot, "joker")
        assert game.next_city is Card.from_id("X1")
        assert game.trump_suits["cy"] == "H"
        await type_line(pilot, "10♥")
        await type_line(pilot, "q s")  # a city card played: refused, citing C8
        panel = app.screen.query_one(ActionPanel)
        assert panel.flag is not None and panel.flag.rule == "C8" and "QS is a city card" in panel.flag.text
        await type_line(pilot, "ann 7h")  # out of turn: refused, citing C8
        assert panel.flag is not None and panel.flag.rule == "C8" and "cy's turn" in panel.flag.text
        await type_line(pilot, "1h")
        assert panel.flag is not None and panel.flag.rule is None and "not understood" in panel.flag.text
        assert app.screen.query_one("#entry").value == "1h"  # kept, to be fixed
        await pilot.press("ctrl+u")
        await type_line(pilot, "7 of clubs")
        await type_line(pilot, "2S")
        assert [m for m in game.move_stack if type(m) is Play] == [Play.from_ids("bob", "10H"), Play.from_ids("cy", "7C"), Play.from_ids("@1", "2S")]
        log = app.screen.query_one(EventLog)
        assert sum(1 for e in log.entries if e.kind == "illegal") == 2
        assert kept_by_hand(_record(app)) == list(game.move_stack)


@pytest.mark.asyncio
async def test_undo_redo_a_correction_and_the_companions_own_moves(tmp_path: Path) -> None:
    setup = GAME.make_setup(["ann", "bob", "cy"])
    app = _app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await fill_season(pilot, app, SEASON)
        game = app.game
        assert game is not None
        for text in ("jd", "7h", "10s", "2c", "9h"):
            await type_line(pilot, text)
        # ann won with 9H (trump for ann, C9) and must act: KH may take only bob's QS.
        assert game.phase is Phase.ACT and game.to_move == "ann"
        assert "ann must take a city (C10), type 1-2" in " ".join(_action(app).split())
        played = list(game.move_stack)
        await pilot.press("ctrl+z")
        await until(lambda: len(game.move_stack) == len(played) - 1, "the undo")
        assert kept_by_hand(_record(app)) == played[:-1]
        await pilot.press("ctrl+y")
        await until(lambda: len(game.move_stack) == len(played), "the redo")
        assert kept_by_hand(_record(app)) == played
        # Correct bob's 7H (event 3) to 8D: the later events still fit and are applied again.
        await pick_event(pilot, app, 2)
        assert app.correcting == 2
        await type_line(pilot, "8d")
        await until(lambda: app.correcting is None, "the correction")
        assert game.move_stack[2] == Play.from_ids("bob", "8D") and game.move_stack[3:] == played[3:]
        notes = [e.text for e in app.screen.query_one(EventLog).entries if e.index is None]
        assert any("Event 3 corrected" in n for n in notes)
        assert kept_by_hand(_record(app)) == list(game.move_stack)
        # ann conquers bob by words; the next city is turned up by hand.
        await type_line(pilot, "conquer bob")
        assert game.trophies("ann") == (Card.from_id("QS"),) and game.city("bob") is Card.from_id("JD")
        await type_line(pilot, "as")
        # ann leads action 2; bob, cy and the dummy follow; @1's AC wins with a trump (C9) and acts by itself (C11).
        for text in ("3h", "4d", "5s", "9c"):
            await type_line(pilot, text)
        await until(lambda: game.phase is Phase.REVEAL, "the dummy's act")
        act = game.move_stack[-1]
        assert act.player == "@1"  # type: ignore[union-attr]
        # Undoing the dummy's act leaves it to be done again: F5 does it.
        await pilot.press("ctrl+z")
        await until(lambda: game.phase is Phase.ACT, "the undo of the dummy's act")
        assert "@1, a dummy (C11)" in " ".join(_action(app).split())
        await pilot.press("f5")
        await until(lambda: game.phase is Phase.REVEAL and game.move_stack[-1] == act, "the dummy's act again")
        assert kept_by_hand(_record(app)) == list(game.move_stack)


@pytest.mark.asyncio
async def test_a_retake_asks_which_of_the_losers_trophies_is_discarded() -> None:
    def retake_with_choice(state: CircleState) -> bool:
        if state.phase is not Phase.ACT or is_dummy(state.to_move or ""):
            return False
        return any(c.act == "retake" and len(set(state.trophies(state.seats[c.victim]))) >= 2 for c in state.choices() if c.victim is not None)

    setup, moves = next(positions(retake_with_choice))
    app = _at(moves, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.game
        choice = next(c for c in game.choices() if c.act == "retake" and c.victim is not None and len(set(game.trophies(game.seats[c.victim]))) >= 2)
        victim = game.seats[choice.victim]
        winner = game.to_move
        lost = game.trophies(victim)[1]
        await type_line(pilot, f"retake {victim}")
        await until(lambda: isinstance(app.screen, PickScreen), "the list of trophies")
        options = app.screen.moves  # type: ignore[attr-defined]
        assert len(options) == len(set(game.trophies(victim)))
        await pilot.press(str(options.index(Retake(winner, victim, lost)) + 1))
        await until(lambda: Retake(winner, victim, lost) in game.move_stack, "the retake")
        log = [e.text for e in app.screen.query_one(EventLog).entries]
        assert any(f"{victim}'s trophy {lost.id} is discarded" in line for line in log)


@pytest.mark.asyncio
async def test_a_rebellion_asks_which_of_the_winners_trophies_is_lost() -> None:
    def rebellion_with_choice(state: CircleState) -> bool:
        w = state.to_move
        if state.phase is not Phase.ACT or w is None or is_dummy(w):
            return False
        return [c.act for c in state.choices()] == ["regroup"] and not state.threatened(w) and len(set(state.trophies(w))) >= 2

    setup, moves = next(positions(rebellion_with_choice))
    app = _at(moves, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.game
        winner = game.to_move
        assert "must regroup" in " ".join(_action(app).split())
        lost = game.trophies(winner)[-1]
        await type_line(pilot, "1")
        await until(lambda: isinstance(app.screen, PickScreen), "the list of trophies")
        options = app.screen.moves  # type: ignore[attr-defined]
        await pilot.press(str(options.index(Regroup(winner, lost)) + 1))
        await until(lambda: Regroup(winner, lost) in game.move_stack, "the regroup")
        log = [e.text for e in app.screen.query_one(EventLog).entries]
        assert any(f"it rebels and {winner} loses the trophy {lost.id} (C14)" in line for line in log)


@pytest.mark.asyncio
async def test_the_setup_dialog_starts_a_game_and_offers_the_seats_c4_wants(tmp_path: Path) -> None:
    app = DashboardApp(ManualSource(), game=GAME, needs_setup=True, games_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, SetupScreen) and app.screen.is_mounted, "the set-up dialog")
        await pilot.pause()
        app.screen.query_one("#players").value = "ann, @bob"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "C4" in str(app.screen.query_one("#setup-error").render())
        app.screen.query_one("#players").value = "ann, bob"
        app.screen.query_one("#variant").value = "lonely-tyrant"
        app.screen.query_one("#dealer").value = "bob"
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, SeasonScreen), "the season dialog")
        screen = app.screen
        assert isinstance(screen, SeasonScreen)
        # Two dummies sit opposite each other (C4); the first dealer is the one chosen (C5).
        assert screen.seats == ("ann", "@1", "bob", "@2") and screen.dealer == "bob"
        await pilot.press("ctrl+r")  # the companion shuffles the cities
        await pilot.press("ctrl+s")
        await until(lambda: app.game is not None and app.game.phase is Phase.REVEAL, "the season")
        assert app.game.setup == CircleSetup(("ann", "bob"), "lonely-tyrant")
        assert app.game_file is not None and app.game_file.path.parent == tmp_path
        assert _record(app) == list(app.game.move_stack)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_whole_game_of_coloured_cities_kept_by_keyboard_to_its_winner(tmp_path: Path) -> None:
    # Two players and two dummies, target 2: two seasons, each set up in the season dialog,
    # every card and act typed, the dummies' acts and the reshuffles made by the companion.
    setup, simulated = simulate(["ann", "bob"], "coloured-cities", seed=5, target=2)
    moves = kept_by_hand(simulated)
    assert sum(type(m) is Season for m in moves) == 2
    first = moves[0]
    assert type(first) is Season
    app = _app(tmp_path, setup, first_dealer=first.dealer)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None, "the game")
        game = app.game
        typed = await keep(pilot, app, moves)
        assert list(game.move_stack) == moves and game.is_game_over()
        assert typed < len(moves)  # the companion made the rest by itself
        outcome = game.outcome()
        assert outcome is not None and outcome.winner in ("ann", "bob")
        assert outcome.explain() in " ".join(_action(app).split())
        assert f"Winner: {outcome.winner}" in panel_text(app.screen_stack[0].query_one("#status"))
        # The record on disk is the finished game; F5 says there is nothing left to do.
        assert kept_by_hand(_record(app)) == moves
        await pilot.press("f5")
        await pilot.pause()
        assert any("The game is over" in n.message for n in app._notifications)
