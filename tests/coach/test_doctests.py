"""The examples in the coach's docstrings run and stay true."""

import doctest

import companion.coach


def test_docstring_examples():
    result = doctest.testmod(companion.coach, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
