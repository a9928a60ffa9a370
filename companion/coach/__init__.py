"""The coach: judges moves from one player's view, explains them, and reviews games.

It never peeks. Every evaluation starts from the view of a player who is deciding: the hidden
cards are sampled consistently with it, each legal decision is played out to the end of the
scoring period on the same samples (:mod:`~companion.coach.search`, determinized rollouts
with common random numbers), every player of a playout deciding from their own view alone,
and the statistics of those playouts give the ranking, the intervals and the reasons. :mod:`~companion.coach.review` marks each decision of a finished game by the drop in
winning chances, and :mod:`~companion.coach.risks` reads teaching mode's risks.

The coach knows no game: what it needs of one (how its worlds are sampled and played out,
what an end is worth, how moves, reasons and risks are told) is the game's
:class:`~companion.coach.model.CoachModel`, which the game object gives (``game.coach()``).
It imports only the games' protocol and registry.

>>> from companion.contract.registry import game
>>> rop = game("rule-of-power")
>>> setup = rop.make_setup(["ann", "bob"])
>>> state = rop.new_state(setup)
>>> state.push(rop.codec.read_move({"event": "round", "dealer": "bob"}, setup))
>>> state.push(rop.codec.read_move({"event": "deal", "hands": {"ann": ["W006", "W040", "W030"],
...     "bob": ["W016", "W021", "W039"]}, "center": ["W001", "W002", "W003", "W007"]}, setup))
>>> advice = Coach("fast").advise(state, "ann", samples=8)    # or budget_ms=100
>>> advice.best.text                     # the three Power Ring cards: Power Master (R12)
'6P W006 Servant of Powers takes 3P W003 + 2P W002 + 1P W001'
>>> advice.best.margin > advice.moves[-1].margin
True
"""

from companion.coach.model import CoachError, CoachModel, model_of
from companion.coach.review import Mark, review
from companion.coach.search import LEVELS, Advice, Coach, MoveAdvice, Search

__all__ = ["Coach", "Advice", "MoveAdvice", "Search", "LEVELS", "CoachError", "Mark", "review", "CoachModel", "model_of"]
