"""Running statistics of the playouts: means and 95 % intervals, paired differences; and the
generators of the paired deals the coach is measured on."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

__all__ = ["mean", "interval", "paired_interval", "deal_rng", "Z95"]

Z95 = 1.96


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """The 95 % interval of the mean (normal approximation); a single sample gives a point."""
    n = len(xs)
    m = mean(xs)
    if n < 2:
        return (m, m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (m - half, m + half)


def paired_interval(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """Mean of ``xs - ys`` over common samples, with its 95 % interval."""
    d = [x - y for x, y in zip(xs, ys)]
    lo, hi = interval(d)
    return mean(d), lo, hi


def deal_rng(seed: int, k: int) -> random.Random:
    """The generator of deal ``k`` of a measurement seeded ``seed``: every benchmark of the
    coach draws its ``k``-th deal from it, so that the same seed plays the same deals whatever
    is measured on them (and the deals of two seeds do not overlap for any run under 7,919
    deals)."""
    return random.Random(seed * 7919 + k)
