"""Risks read off the playouts: a card an opponent takes before the player's next turn."""

from __future__ import annotations

from companion.coach import Coach
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup


def test_a_card_taken_before_the_next_turn_is_a_risk():
    # Four players in two teams with Fate decks: the opponents play twice before the player
    # moves again, so the playouts see cards taken that the next player alone could not take.
    setup = make_setup(4, 2)
    found = []
    for seed in range(10):
        table = VirtualTable(setup, seed=seed, fate=True, fate_rate=0.5)
        game = GameState(setup, keep_history=False)
        for k, _ in enumerate(table.moves(game)):
            if game.results or found:
                break
            if game.phase is not Phase.TURN or k % 3:
                continue
            me = game.turn
            assert me is not None
            for move in Coach("fast").advise(game, me, samples=30, seed=1).moves:
                for risk in move.risks:
                    if risk.kind == "later":
                        found.append((me, game.centre, move, risk))
        if found:
            break
    assert found
    me, centre, move, risk = found[0]
    assert risk.card in centre or risk.card is getattr(move.move, "card", None)
    assert setup.is_opponent(me, risk.by)
    assert risk.text.startswith(f"risk: {risk.card.label}") and "before your next turn" in risk.text
