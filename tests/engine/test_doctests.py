"""The examples in the engine's docstrings run and stay true."""

import doctest

import pytest

import companion.engine.captures
import companion.engine.cards
import companion.engine.game
import companion.engine.moves
import companion.engine.scoring


@pytest.mark.parametrize("module", [companion.engine.cards, companion.engine.captures, companion.engine.moves, companion.engine.scoring, companion.engine.game])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
