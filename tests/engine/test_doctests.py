"""The examples in the engine's and the session's docstrings run and stay true."""

import doctest

import pytest

import companion.games.rule_of_power.engine.captures
import companion.games.rule_of_power.engine.cards
import companion.games.rule_of_power.engine.fate
import companion.games.rule_of_power.engine.game
import companion.games.rule_of_power.engine.moves
import companion.games.rule_of_power.engine.scoring
import companion.games.rule_of_power.engine.setup
import companion.session.session

MODULES = [
    companion.games.rule_of_power.engine.cards,
    companion.games.rule_of_power.engine.captures,
    companion.games.rule_of_power.engine.moves,
    companion.games.rule_of_power.engine.scoring,
    companion.games.rule_of_power.engine.setup,
    companion.games.rule_of_power.engine.game,
    companion.games.rule_of_power.engine.fate,
    companion.session.session,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
