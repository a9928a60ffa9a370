"""Teaching mode's risks for Rule of Power: :class:`~companion.coach.risks.RiskScan` on the
game's model, which reads each decision's risks off the moment after it (what the next player
could take, and what the opponents take before the player moves again, R4, R5, R7).

>>> from companion.games.rule_of_power.engine.game import GameSetup, GameState
>>> from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
>>> game = GameState(GameSetup(("ann", "bob")))
>>> game.push(NewRound.make("bob"))
>>> game.push(Deal.make({"ann": ["W007", "W012", "W016"], "bob": ["W011", "W021", "W033"]},
...                     ["W030", "W040", "W029", "W039"]))
>>> scan = RiskScan(game, "ann").run(24)
>>> [r.text for r in scan.risks_of(Play.from_ids("ann", "W007"))][:1]  # doctest: +ELLIPSIS
['risk: leaves 7P W007 Fire Dragon in the centre: bob could take it with any of 3 unseen cards (7s), about ...%']
"""

from __future__ import annotations

from companion.coach.risks import SCAN_SAMPLES, RiskScan

__all__ = ["RiskScan", "SCAN_SAMPLES"]
