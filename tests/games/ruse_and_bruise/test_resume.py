"""A game of Ruse and Bruise kept by keyboard (``rop play --game ruse-and-bruise``) and cut off
mid-turn is continued with ``rop play --resume``: the columns as they stood, every face-down card
as its owner's back, the player to move, and the game typed on to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands.play import resume_app
from companion.dashboard.screens.settlement import Settlement
from companion.dashboard.widgets.event_log import EventLog
from companion.dashboard.widgets.status_line import StatusLine
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.dashboard.kit import RabKit, column_line
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Pass, Place, Reveal, Round, Swap, TurnOver
from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.games.ruse_and_bruise.view import kept_by
from companion.records.format import load_game
from companion.records.store import GameFile
from tests.dashboard.driving import panel_text, type_line, until
from tests.games.ruse_and_bruise.test_dashboard import _words


def typed(move: Move) -> str | None:
    """What the keeper types for ``move`` (docs/ruse-and-bruise.md), ``None`` for a move the
    companion makes itself (an Explorer's, an Assassin's, a Storm, the distribution)."""
    t = type(move)
    if t is Round:
        assert isinstance(move, Round)
        return "round " + " ".join(g.id for g in move.goals)
    if t is Place:
        assert isinstance(move, Place)
        return f"{move.player} {move.column}"
    if t is Pass:
        assert isinstance(move, Pass)
        return f"{move.player} pass"
    if t is TurnOver:
        assert isinstance(move, TurnOver)
        return f"turn {move.card.id}"
    if t is Cloak:
        assert isinstance(move, Cloak)
        return "cloak" if move.placed else "cloak none"
    if t is Swap:
        assert isinstance(move, Swap)
        return "traitor keep" if move.swap is None else f"traitor {move.swap}"
    if t is Reveal:
        assert isinstance(move, Reveal)
        return "reveal " + " ".join(",".join(c.id for c in col) or "-" for col in move.columns)
    return None


@pytest.mark.asyncio
async def test_resume_shows_the_table_as_it_stood_and_is_typed_on_to_the_end(tmp_path: Path) -> None:
    setup, simulated = simulate(["ann", "bob", "cy"], EXAMPLE, seed=5, level="rule-of-thumb")
    kept_setup, moves = kept_by(setup, simulated, None)  # the screen is shared: no hand named
    # Cut in the last round, a few turns in, where a player is to place a card.
    last_round = max(i for i, m in enumerate(moves) if type(m) is Round)
    state = GAME.new_state(kept_setup, keep_history=False)
    cut = 0
    for cut, move in enumerate(moves):
        if cut > last_round + 3 and state.to_move is not None:
            break
        state.push(move)
    record = GameFile.create(tmp_path, kept_setup)
    for move in moves[:cut]:
        record.append(move)
    # The program stopped while writing the next line: half a line on disk.
    record._fp.write('{"event": "place", "player": "')
    record._fp.flush()
    record.close()
    final = GAME.new_state(setup, keep_history=False)
    for move in simulated:
        final.push(move)

    app = resume_app(None, tmp_path)
    kit = RabKit(GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.game
        assert isinstance(game, RabState) and game.setup == kept_setup
        assert list(game.move_stack) == moves[:cut]
        assert any("Resumed" in e.text for e in app.screen.query_one(EventLog).entries)
        words = _words(app)
        # The columns as they stood, every face-down card its owner's back (B8).
        for col in game.columns:
            assert " ".join(column_line(game, col.number).split()) in words
        backs = [(owner, up) for col in game.columns for owner, _, up in col.cards if not up]
        assert backs and all(f"[{game.setup.colours[game.players.index(o)]}] {o}" in words for o, _ in backs)
        # The player to move.
        who = game.to_move
        assert who is not None and f"{who} to move" in panel_text(app.screen.query_one(StatusLine))
        # Typed on to the end of the game, the companion making the table's own moves.
        i = cut
        while not game.is_game_over():
            if isinstance(app.screen, Settlement):
                await pilot.press("escape")
                await pilot.pause()
                continue
            if len(game.move_stack) > i:
                i += 1
                continue
            text = typed(moves[i]) if kit.table_move(game) is None else None
            if text is not None:
                await type_line(pilot, text)
            await until(lambda: len(game.move_stack) > i or isinstance(app.screen, Settlement), f"move {i}: {moves[i]}", limit=60)
        assert game.totals == final.totals and game.outcome() == final.outcome()
        await until(lambda: isinstance(app.screen, Settlement), "the last settlement", limit=60)
    # Every event is in the record, after the half line dropped: the whole game, its result.
    saved = load_game(record.path, keep_history=True)
    assert len(saved.move_stack) == len(game.move_stack) and saved.is_game_over()
    assert saved.totals == final.totals
