"""The examples in the engine's and the session's docstrings run and stay true."""

import doctest

import pytest

import companion.engine.captures
import companion.engine.cards
import companion.engine.fate
import companion.engine.game
import companion.engine.moves
import companion.engine.scoring
import companion.session.session

MODULES = [
    companion.engine.cards,
    companion.engine.captures,
    companion.engine.moves,
    companion.engine.scoring,
    companion.engine.game,
    companion.engine.fate,
    companion.session.session,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
