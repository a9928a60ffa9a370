"""The coach: judges moves from one player's view, explains them, and reviews games.

It never peeks. Every evaluation starts from ``GameState.view(player)``: the hidden cards
(other hands, the World deck's order, Fate decks) are sampled consistently with that view
(:mod:`~companion.games.rule_of_power.engine.sampling`), each legal decision is played out to the end of the round on
the same samples (:mod:`~companion.coach.search`, determinized rollouts with common random
numbers), and the statistics of those playouts give the ranking, the intervals and the
reasons (:mod:`~companion.games.rule_of_power.coach.reasons`). :mod:`~companion.games.rule_of_power.coach.review` marks each decision
of a finished game by the drop in winning chances.

>>> from companion.games.rule_of_power.engine import Deal, GameSetup, GameState, NewRound
>>> game = GameState(GameSetup(("ann", "bob")))
>>> game.push(NewRound("bob"))
>>> game.push(Deal.make({"ann": ["W006", "W040", "W030"], "bob": ["W016", "W021", "W039"]},
...                     ["W001", "W002", "W003", "W007"]))
>>> advice = Coach("fast").advise(game, "ann", samples=8)    # or budget_ms=100
>>> advice.best.text                     # the three Power Ring cards: Power Master (R12)
'W006 Servant of Powers (6) takes W003 + W002 + W001'
>>> advice.best.margin > advice.moves[-1].margin
True

The coach imports only the engine.
"""

from companion.coach.search import LEVELS, Advice, Coach, CoachError, MoveAdvice, Search
from companion.games.rule_of_power.coach.review import Mark, review

__all__ = ["Coach", "Advice", "MoveAdvice", "Search", "LEVELS", "CoachError", "Mark", "review"]
