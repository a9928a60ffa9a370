"""Write Circle of Power's sample records from their fixed seeds:
``python -m companion.games.circle_of_power.samples.generate``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.games.circle_of_power.moves import Move, Play, Reshuffle, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.samples import SAMPLES
from companion.records.format import write_record

__all__ = ["generate", "as_kept_by_hand"]


def as_kept_by_hand(moves: list[Move]) -> list[Move]:
    """The moves as a table kept by keyboard records them: the cities, the cards turned up and
    the cards played, but no hand, no dummy's pile and no card drawn (all face down)."""
    out: list[Move] = []
    for move in moves:
        if type(move) is Season:
            out.append(replace(move, hands=(), piles=()))
        elif type(move) is Reshuffle:
            out.append(Reshuffle())
        elif type(move) is Play:
            out.append(Play(move.player, move.card))
        else:
            out.append(move)
    return out


def generate(directory: Path) -> None:
    for name, sample in SAMPLES.items():
        setup, moves = simulate(sample.players, sample.variant, seed=sample.seed)
        write_record(directory / f"{name}.jsonl", setup, as_kept_by_hand(moves) if sample.by_hand else moves)


if __name__ == "__main__":
    generate(Path(__file__).parent)
