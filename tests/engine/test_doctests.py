"""The examples in the engine's docstrings run and stay true."""

import doctest

import pytest

import companion.captures
import companion.cards
import companion.game
import companion.moves
import companion.scoring


@pytest.mark.parametrize("module", [companion.cards, companion.captures, companion.moves, companion.scoring, companion.game])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
