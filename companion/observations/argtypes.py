"""Argument types shared by every ``rop`` command (and the ``vision`` and ``hardware``
subcommands): a value out of range is an argparse error naming the allowed range, never a
value changed in silence or a traceback later on.

Each helper returns a callable for ``add_argument(type=...)``; argparse turns its
``ArgumentTypeError`` into ``rop demo: error: argument --delay: ...`` and exit status 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["int_range", "float_range", "non_empty"]


def int_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (no upper bound when ``None``)."""
    allowed = f"from {low} to {high}" if high is not None else f"{low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number {allowed}, not {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range: a whole number {allowed}")
        return value

    parse.__name__ = "whole number"
    return parse


def float_range(low: float, high: float) -> Callable[[str], float]:
    """A finite number from ``low`` to ``high`` (``nan`` and ``inf`` are refused)."""
    allowed = f"from {low:g} to {high:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {allowed}, not {text!r}") from None
        if not math.isfinite(value) or value < low or value > high:
            raise argparse.ArgumentTypeError(f"{text} is out of range: a number {allowed}")
        return value

    parse.__name__ = "number"
    return parse


def non_empty(what: str) -> Callable[[str], str]:
    """A text that is not empty or blank (an empty port or path silently means nothing)."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} cannot be empty")
        return text

    parse.__name__ = what
    return parse
