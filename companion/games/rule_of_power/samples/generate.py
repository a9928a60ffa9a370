"""Write the sample records from their fixed seeds: ``python -m companion.games.rule_of_power.samples.generate``."""

from __future__ import annotations

from pathlib import Path

from companion.records.format import write_record
from companion.games.rule_of_power.samples import SAMPLES
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game


def generate(directory: Path) -> None:
    for name, (players, teams, fate, expansion, seed) in SAMPLES.items():
        setup = make_setup(players, teams, expansion=expansion)
        _, moves = simulate_game(setup, seed=seed, fate=fate)
        write_record(directory / f"{name}.jsonl", setup, moves)


if __name__ == "__main__":
    generate(Path(__file__).parent)
