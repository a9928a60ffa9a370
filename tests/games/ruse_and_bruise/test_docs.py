"""The player's page (docs/ruse-and-bruise.md) says what the companion does: every ruling has
its heading, and every ``rop legal`` example prints what the page shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.cli import main

DOC = Path(__file__).resolve().parents[3] / "docs" / "ruse-and-bruise.md"


def test_every_ruling_is_explained() -> None:
    text = DOC.read_text(encoding="utf-8")
    for n in range(1, 30):
        assert re.search(rf"\*\*B{n}\*\*", text), f"B{n} is not explained"


def _examples() -> list[tuple[list[str], list[str]]]:
    """Each ``$ rop legal ...`` command of the page (continued lines joined) and the lines
    shown after it (``...`` leaves some out)."""
    out = []
    for block in re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        lines = block.splitlines()
        k = 0
        while k < len(lines):
            if lines[k].startswith("$ rop legal"):
                command = lines[k][2:]
                while command.endswith("\\"):
                    k += 1
                    command = command[:-1] + lines[k].strip()
                shown = []
                k += 1
                while k < len(lines) and not lines[k].startswith("$ "):
                    shown.append(lines[k])
                    k += 1
                out.append((shlex.split(command)[1:], shown))
            else:
                k += 1
    return out


@pytest.mark.parametrize(("argv", "shown"), _examples(), ids=lambda x: " ".join(x)[:60] if isinstance(x, list) and x and x[0] == "legal" else None)
def test_every_rop_legal_example_prints_what_the_page_shows(argv: list[str], shown: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        assert line in printed[at:], line
        at = printed.index(line, at) + 1
