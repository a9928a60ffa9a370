"""Record the observation log the tracker benchmark plays back: the demo table's game seen
through the camera path (rendered frames, seal detection, the stabiliser), on the camera's own
clock, so a whole game is recorded in a fraction of its time at the table.

    python -m bench.record_observations bench/data/camera-sim-2p.jsonl [--seed 7]
"""

from __future__ import annotations

import argparse
import sys
import time

from companion.observations.log import ObservationLog, ObservationRecorder
from companion.games.rule_of_power.simulation.virtual_table import make_setup
from companion.games.rule_of_power.simulation.camera_sim import CameraSimulation


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.record_observations")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7, help="the demo table's shuffle (default 7)")
    args = parser.parse_args(argv)
    setup = make_setup(2)
    sim = CameraSimulation(setup, seed=args.seed, fate=True)
    log = ObservationLog(setup, first_dealer=sim.first_dealer, facts={"fate_decks": sim.fate_decks, "draws_visible": True})
    recorder = ObservationRecorder(args.out, log, clock=lambda: 0.0, overwrite=True)
    began = time.perf_counter()
    count = 0
    for obs in sim.observations(paced=False):
        recorder.record(obs)
        count += 1
    recorder.close()
    print(f"{count} observations of {len(sim.moves)} moves in {time.perf_counter() - began:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
