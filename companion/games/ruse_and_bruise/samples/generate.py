"""Write Ruse and Bruise's sample records from their fixed seeds:
``python -m companion.games.ruse_and_bruise.samples.generate``."""

from __future__ import annotations

from pathlib import Path

from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.samples import SAMPLES
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.games.ruse_and_bruise.view import kept_by
from companion.records.format import write_record

__all__ = ["generate"]


def generate(directory: Path) -> None:
    for name, sample in SAMPLES.items():
        setup, moves = simulate(sample.players, EXAMPLE, sample.seed, "rule-of-thumb")
        if sample.kept_by is not None:
            setup, moves = kept_by(setup, moves, sample.kept_by)
        write_record(directory / f"{name}.jsonl", setup, moves)


if __name__ == "__main__":
    generate(Path(__file__).parent)
