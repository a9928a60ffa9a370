"""The rules page for players (docs/love-money-power-death.md) states every ruling, and its
examples are what the companion does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main

from .test_record import EXAMPLE, SCORES

PAGE = Path(__file__).resolve().parents[3] / "docs" / "love-money-power-death.md"
README = PAGE.parent.parent / "README.md"


def code_blocks(text: str) -> list[str]:
    """The page's fenced code blocks, in order."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_every_ruling_has_its_own_heading() -> None:
    text = PAGE.read_text(encoding="utf-8")
    headings = re.findall(r"^###? .*\((L\d+)\)$", text, flags=re.M)
    assert headings == [f"L{n}" for n in range(1, 15)]
    for n in range(1, 15):
        assert f"**L{n}**:" in text


def test_the_readme_links_the_page_from_its_games_table() -> None:
    assert "| Love, Money, Power, Death | [docs/love-money-power-death.md](docs/love-money-power-death.md) (L1-L14) | `lmpd-record/1` |" in README.read_text(encoding="utf-8")


def test_the_record_and_its_scores_are_the_companions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = code_blocks(text)
    record = next(b for b in blocks if b.startswith('{"event": "game"'))
    shown = [json.loads(line) for line in record.splitlines() if line.startswith("{")]
    assert shown == [e | {"piles": EXAMPLE[1]["piles"]} if e["event"] == "deal" else e for e in EXAMPLE[: len(shown)]]
    scores = next(b for b in blocks if b.startswith('{"game": "love-money-power-death"'))
    assert json.loads(scores) == SCORES
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in EXAMPLE) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    words = next(b for b in blocks if b.startswith("game.jsonl: "))
    assert capsys.readouterr().out.strip().replace(str(path), "game.jsonl") == words.strip()


def test_the_legal_example_is_what_rop_legal_prints(capsys: pytest.CaptureFixture[str]) -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = code_blocks(text)
    command = next(b for b in blocks if b.startswith("rop legal"))
    args = command.replace("\\\n", " ").split()[1:]
    assert main(args) == 0
    answer = next(b for b in blocks if b.startswith('{"suit"'))
    assert json.loads(capsys.readouterr().out) == json.loads(answer)
