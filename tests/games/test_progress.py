"""Each game's progress (where it stands and whose decision it is, in its words), which its
dashboard's status line and the club's live page both say: its examples, and, move by move
through every sample game, the players it names are exactly those who decide now."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import companion.contract.progress
import companion.games.circle_of_power.progress as circle
import companion.games.love_money_power_death.progress as lmpd
import companion.games.rule_of_power.progress as rop
import companion.games.ruse_and_bruise.progress as rab
from companion.records.format import load_game

MODULES = [companion.contract.progress, circle, lmpd, rop, rab]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


SAMPLES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("rule_of_power", "teams-4", rop.progress),
    ("circle_of_power", "basic-3", circle.progress),
    ("circle_of_power", "lonely-tyrant-4", circle.progress),
    ("love_money_power_death", "lmpd-3", lmpd.progress),
    ("ruse_and_bruise", "ruse-3", rab.progress),
]


@pytest.mark.parametrize("package, sample, progress", SAMPLES, ids=[f"{p}-{s}" for p, s, _ in SAMPLES])
def test_progress_names_whoever_decides_now(package: str, sample: str, progress: Callable[[Any], Any]) -> None:
    """At every move of a sample game: ``who`` names the players deciding now (``deciding``),
    none when the table acts, which says what it does (but before the deal); a game that is
    over names nobody (its result is said apart); nothing is said twice."""
    module = __import__(f"companion.games.{package}.samples", fromlist=["sample_path"])
    lines = Path(module.sample_path(sample)).read_text().splitlines(keepends=True)
    kinds = set()
    for n in range(1, len(lines) + 1):
        state = load_game(lines[:n])
        said = progress(state)
        if state.is_game_over():
            assert said.label == said.who == ""
            continue
        if said.who:
            assert set(said.who.split(", ")) == set(state.deciding)
        else:
            assert said.what or n == 1  # the table's own step, in words
        assert said.line.count(said.period) == 1
        kinds.add(said.label)
    assert len(kinds) >= 2 or package == "ruse_and_bruise"
