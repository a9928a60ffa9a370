"""The examples in the coach's docstrings run and stay true."""

import doctest

import pytest

import companion.coach
import companion.games.rule_of_power.coach.risks


@pytest.mark.parametrize("module", [companion.coach, companion.games.rule_of_power.coach.risks], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
