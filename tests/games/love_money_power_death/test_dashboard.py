"""Love, Money, Power, Death kept by keyboard, driven by real key presses: a whole game typed
(each commit as "committed", never its card, L6; the noble, L7; the reveal in one line), the
round's winner and why with its ruling, the courts and scores, the noble pile and the piles,
the end with its tie-break (L13), undo; the screen clean at 80x24 and 160x48, and naming no card
the companion saw committed face down."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Input

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource, read_moves
from companion.dashboard.widgets.event_log import EventLog
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.dashboard.screens.settlement import RoundSettlement
from companion.games.love_money_power_death.moves import Commit, Deal, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.policies import simulate
from companion.games.love_money_power_death.state import LmpdState, Phase
from companion.session import GameSession

from tests.dashboard.driving import until
from tests.dashboard.screen_words import cut_words, screen_rows

SIZES = [(80, 24), (160, 48)]

#: Card ids the screen shows as examples of typing (the entry's placeholder, the legend).
EXAMPLES = {"4Mb", "A2", "2Pa", "N3P", "5D"}


def screen_text(app: DashboardApp) -> str:
    """The terminal as the table sees it (the screen on top, dialogs included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _app(tmp_path: Path | None, players: tuple[str, ...]) -> DashboardApp:
    return DashboardApp(ManualSource(seed=1), game=GAME, setup=GAME.make_setup(list(players)), games_dir=tmp_path if tmp_path else False)


async def shows(app: DashboardApp, *words: str) -> None:
    """Once the screen has caught up: every one of ``words`` is on it."""
    await until(lambda: all(w in screen_text(app) for w in words), f"{words} on screen", limit=60)


def marks(game: LmpdState) -> str:
    """The round panel's line of commits: ``▮ ann  ○ bob  ○ cy``."""
    return "  ".join(("▮ " if p in game.committed else "○ ") + p for p in game.players)


async def type_line(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*[("space" if ch == " " else ch) for ch in text], "enter")
    await pilot.pause()


def entry(move: Move) -> str | None:
    """What the scorekeeper types for ``move``; ``None``: the companion records it by itself."""
    if type(move) is Commit:
        return f"{move.player} commits"
    if type(move) is TurnUp:
        return move.card.id
    if type(move) is Reveal:
        return "reveal " + " ".join(c.id for _, c in move.cards)  # type: ignore[union-attr]
    return None


async def _close_settlement(pilot, app: DashboardApp) -> None:  # type: ignore[no-untyped-def]
    if isinstance(app.screen, RoundSettlement):
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, RoundSettlement), "the settlement closed")


async def keep(pilot, app: DashboardApp, moves: list[Move], *, watch: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Type the table's moves of a simulated game, checking at each commit that no card face
    down is on screen."""
    game = app.game
    assert isinstance(game, LmpdState)
    down: list[Card] = []
    for move in moves:
        text = entry(move)
        if text is None:  # the deal and the draws: the companion's own
            await until(lambda: game.phase not in (Phase.DEAL, Phase.DRAW), "the companion's deal or draw")
            continue
        if type(move) is TurnUp and game.phase is not Phase.NOBLE:
            continue  # the last noble, turned by the companion
        await until(lambda: game.phase is not Phase.DRAW, "the draw")
        before = len(game.move_stack)
        await type_line(pilot, text)
        await until(lambda: len(game.move_stack) > before, f"{text!r} recorded")
        if type(move) is Commit:
            down.append(move.card)  # type: ignore[arg-type]
            if watch:
                shown = set(re.findall(r"\b[1-5A][LMPD1-6]?[ab]?\b|\bN[235][LMPD]\b", screen_text(app)))
                secret = {c.id for c in down} - EXAMPLES
                assert not shown & secret, f"a card face down on screen: {shown & secret}"
        if type(move) is Reveal:
            down.clear()
            await until(lambda: isinstance(app.screen, RoundSettlement), "the round's settlement")
            await _close_settlement(pilot, app)


@pytest.mark.asyncio
async def test_a_whole_game_kept_by_keyboard_shows_commits_never_their_cards(tmp_path: Path) -> None:
    setup, moves = simulate(["ann", "bob", "cy"], seed=7, level=1)
    app = _app(tmp_path, ("ann", "bob", "cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.COMMIT, "the deal")
        game = app.game
        assert isinstance(game, LmpdState)
        await shows(app, "○ ann  ○ bob  ○ cy")
        # The first round, step by step: each commit marked, the noble, the reveal.
        first = moves[1:6]
        await keep(pilot, app, first[:1])
        await shows(app, marks(game))
        assert marks(game).count("▮") == 1
        await keep(pilot, app, first[1:3])
        await shows(app, "▮ ann  ▮ bob  ▮ cy", "turn the")
        await keep(pilot, app, first[3:4])
        await shows(app, f"Noble: {first[3].card.id}")  # type: ignore[union-attr]
        await type_line(pilot, entry(first[4]) or "")
        await until(lambda: isinstance(app.screen, RoundSettlement), "the round's settlement")
        settlement = app.screen
        assert isinstance(settlement, RoundSettlement)
        result = game.rounds[0]
        body = "\n".join(f"{title}\n{body}" for title, body in settlement.steps)
        assert f"Who wins: {result.winner}" in body if result.winner else "discarded" in body
        assert re.search(r"\(L(8|9)\)", body) and "Courts and totals" in body
        await _close_settlement(pilot, app)
        # Undo takes back the draw and the reveal; the reveal typed again settles the same.
        await until(lambda: game.phase is Phase.COMMIT, "the draw")
        await pilot.press("ctrl+z")
        await until(lambda: game.phase is not Phase.COMMIT, "the draw undone")
        while game.phase is not Phase.REVEAL:
            await pilot.press("ctrl+z")
            await pilot.pause()
        assert game.rounds == ()
        await type_line(pilot, entry(first[4]) or "")
        await until(lambda: isinstance(app.screen, RoundSettlement), "the settlement again")
        await _close_settlement(pilot, app)
        assert game.rounds[0] == result
        # The rest of the game.
        await keep(pilot, app, moves[6:])
        await until(lambda: game.phase is Phase.OVER, "the end")
        outcome = game.outcome()
        assert outcome is not None
        text = screen_text(app)
        assert "Ahead (L13)" in text or "wins" in text
        log = " ".join(" ".join(e.text.split()) for e in app.screen_stack[0].query_one(EventLog).entries)
        assert "every player draws a card (L11)" in log
        # No commit in the log named its card.
        assert not re.search(r"commits [1-5A]", log)
        # The record on disk is the game as the table showed it: the cards face up, never a hand.
    assert app.game_file is not None
    _, saved, error = read_moves(app.game_file.path)
    assert error is None
    assert [type(m) for m in saved if type(m) not in (Deal, Draw)] == [type(m) for m in moves if type(m) not in (Deal, Draw)]
    assert [m.cards for m in saved if type(m) is Reveal] == [m.cards for m in moves if type(m) is Reveal]  # type: ignore[union-attr]


async def flagged(app: DashboardApp, words: str) -> str:
    """The round panel's flag, once it holds ``words``: what the table reads of an entry refused
    or not understood."""

    def text() -> str:
        flag = app.screen_stack[0].query_one("#round").flag  # type: ignore[attr-defined]
        return "" if flag is None else f"{flag.text} {flag.rule or ''}"

    await until(lambda: words in text(), f"the flag {words!r}", limit=60)
    return text()


def _clear(app: DashboardApp) -> None:
    """The entry bar emptied, as the scorekeeper does before typing the entry again."""
    app.screen.query_one(Input).value = ""


@pytest.mark.asyncio
async def test_mistyped_and_refused_entries_say_what_was_wrong() -> None:
    app = _app(None, ("ann", "bob"))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.COMMIT, "the deal")
        game = app.game
        assert isinstance(game, LmpdState)
        # A card typed with a commit is refused before anything is recorded: the screen is shared.
        await type_line(pilot, "ann commits 4Mb")
        await flagged(app, "a commit is typed without its card (ann commits)")
        assert game.committed == ()
        _clear(app)
        await type_line(pilot, "zed commits")
        await flagged(app, "'zed' does not play at this table: ann, bob")
        _clear(app)
        await type_line(pilot, "ann commits")
        await until(lambda: game.committed == ("ann",), "ann's commit")
        await type_line(pilot, "N3P")  # bob has not committed: the noble waits (L7)
        assert "L7" in await flagged(app, "N3P")
        assert game.phase is Phase.COMMIT and game.committed == ("ann",)
        _clear(app)
        await type_line(pilot, "bob")
        await type_line(pilot, "N3P")
        await until(lambda: game.phase is Phase.REVEAL, "the noble")
        await type_line(pilot, "reveal 4Mb")
        await flagged(app, "one card for each player, in seating order (ann, bob): 1 given, not 2")
        assert game.phase is Phase.REVEAL
        _clear(app)
        await type_line(pilot, "reveal 4Mb A2")
        await until(lambda: game.rounds != (), "the reveal")
        assert game.rounds[0].winner == "bob"


def _at(moves: list[Move], players: tuple[str, ...]) -> tuple[DashboardApp, LmpdState]:
    """The dashboard on a game kept so far by ``moves`` (not saved), every card of it known to
    the companion: what a table followed by its sensors would hold."""
    state = GAME.new_state(GAME.make_setup(list(players)))
    for move in moves:
        state.push(move)
    return DashboardApp(ManualSource(), session=GameSession(game=state), games_dir=False), state


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_table_is_clean_at_both_sizes_and_names_no_card_face_down(size: tuple[int, int]) -> None:
    players = ("ann", "bob", "cy", "dee")
    _, moves = simulate(list(players), seed=3, level=4)
    # Mid-game, two players having committed cards the companion saw.
    commits = [k for k, m in enumerate(moves) if type(m) is Commit]
    stop = commits[4 * 4 + 1] + 1
    app, state = _at(moves[:stop], players)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game = app.game
        assert isinstance(game, LmpdState) and len(game.committed) == 2
        await shows(app, marks(game))
        rows = screen_rows(app.export_screenshot())
        assert not cut_words(rows), cut_words(rows)
        down = {game.commit_of(p).id for p in game.committed} - EXAMPLES  # type: ignore[union-attr]
        assert not [c for c in down if re.search(rf"\b{c}\b", "\n".join(rows))]
    # The last reveal typed: the end, its winner and the tie-break that decided it (L13).
    last = max(k for k, m in enumerate(moves) if type(m) is Reveal)
    app, state = _at(moves[:last], players)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await type_line(pilot, entry(moves[last]) or "")
        await until(lambda: isinstance(app.screen, RoundSettlement), "the last settlement")
        await pilot.press("a")
        await pilot.pause()
        settlement = app.screen
        assert isinstance(settlement, RoundSettlement)
        body = " ".join(f"{t} {b}" for t, b in settlement.steps)
        assert "L13" in body and "(the last: the game's end)" in (settlement.heading() or "")
        rows = screen_rows(app.export_screenshot())
        assert not cut_words(rows), cut_words(rows)
        await _close_settlement(pilot, app)
        assert state.phase is Phase.OVER
        outcome = state.outcome()
        assert outcome is not None
        await shows(app, *outcome.winners)
        rows = screen_rows(app.export_screenshot())
        assert not cut_words(rows), cut_words(rows)
