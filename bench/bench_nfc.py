"""NFC reader board figures: flash and RAM of the firmware image, the firmware's poll cycle
per reader (its own Timer1 measurement, reported by STAT), and tap-to-observation latency
through the whole serial path: emulated tag -> emulated PN532 -> firmware on an emulated
ATmega328P at 16 MHz in real time -> 115200 baud UART -> pseudo-terminal -> pyserial
ReaderThread -> protocol -> resolver -> observation.

The PN532's own processing times are modelled in firmware/sim/pn532_sim.c (ACK 0.3 ms,
simple commands 0.5 ms, one passive activation 1 ms); the rest is the real firmware.

    python -m bench nfc [-- --taps N --quick]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.observations import CardLifted, CardTapped, SensorState, SensorStatus


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench nfc")
    parser.add_argument("--taps", type=int, default=40, help="taps (and lifts) to time")
    parser.add_argument("--quick", action="store_true", help="shorter phases, for a smoke run")
    args = parser.parse_args(argv)

    from companion.games.rule_of_power.engine.cards import Card
    from hardware.board import MemLine, StatLine
    from hardware.board_link import BoardLink
    from hardware.emulator import BoardEmulator, build_firmware
    from hardware.registry import Registry
    from hardware.resolver import Resolver

    build = build_firmware()
    print(f"firmware image: flash {build.flash_bytes} bytes of 32256 ({100 * build.flash_bytes / 32256:.1f}%), "
          f"static RAM {build.ram_bytes} bytes of 2048 ({100 * build.ram_bytes / 2048:.1f}%)")

    phase = 1.0 if args.quick else 3.0
    uids = [f"04B0000000{n:04X}" for n in range(4)]
    events: list[tuple[float, object]] = []
    cond = threading.Condition()
    stats: list[StatLine] = []
    memory: list[MemLine] = []

    def collect(obs: object) -> None:
        with cond:
            events.append((time.perf_counter(), obs))
            cond.notify_all()

    def wait_for(kind: type, reader: str, since: int, timeout: float = 5.0) -> float:
        deadline = time.monotonic() + timeout
        with cond:
            while True:
                for at, obs in events[since:]:
                    if isinstance(obs, kind) and getattr(obs, "reader", None) == reader:
                        return at
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no {kind.__name__} on {reader} within {timeout} s")
                cond.wait(0.05)

    def read_stats(link: BoardLink) -> dict[int, StatLine]:
        del stats[:]
        link.send("STAT")
        deadline = time.monotonic() + 3
        while len(stats) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        return {s.index: s for s in stats}

    with tempfile.TemporaryDirectory() as tmp:
        registry = Registry.load(Path(tmp) / "tags")
        for n, uid in enumerate(uids):
            registry.enrol(uid, Card.from_id(f"W{n + 1:03d}"), "bench", ndef=False)
        with BoardEmulator(build, chips="0123", link=Path(tmp) / "board") as emu:
            link = BoardLink(emu.port, Resolver(registry, collect),
                             on_message=lambda m: stats.append(m) if isinstance(m, StatLine)
                             else memory.append(m) if isinstance(m, MemLine) else None)
            with link:
                deadline = time.monotonic() + 10
                while not any(isinstance(o, SensorStatus) and o.state is SensorState.CONNECTED for _, o in events):
                    if time.monotonic() > deadline:
                        print("the emulated board did not connect")
                        return 1
                    time.sleep(0.05)

                time.sleep(phase)
                idle = read_stats(link)
                for r, uid in enumerate(uids):
                    emu.tag(r, uid)
                time.sleep(phase)
                busy = read_stats(link)
                for r in range(4):
                    emu.lift(r)
                time.sleep(0.5)

                idle_avg = statistics.mean(s.avg_us for s in idle.values()) / 1000
                idle_max = max(s.max_us for s in idle.values()) / 1000
                tagged = []
                for r in range(4):
                    polls = busy[r].polls - idle[r].polls
                    if polls > 0:
                        tagged.append((busy[r].avg_us * busy[r].polls - idle[r].avg_us * idle[r].polls) / polls / 1000)
                tagged_avg = statistics.mean(tagged) if tagged else float("nan")
                print(f"poll cycle per reader (firmware Timer1): no tag {idle_avg:.2f} ms avg, "
                      f"{idle_max:.2f} ms max; tag present {tagged_avg:.2f} ms avg; "
                      f"one round over 4 readers ~{4 * idle_avg:.1f} ms idle")

                taps: list[float] = []
                lifts: list[float] = []
                for n in range(args.taps):
                    reader = n % 4
                    since = len(events)
                    start = time.perf_counter()
                    emu.tag(reader, uids[reader])
                    taps.append(wait_for(CardTapped, f"board:{reader}", since) - start)
                    time.sleep(0.05 + (n % 7) * 0.013)  # tap at varying points of the poll round
                    since = len(events)
                    start = time.perf_counter()
                    emu.lift(reader)
                    lifts.append(wait_for(CardLifted, f"board:{reader}", since) - start)
                    time.sleep(0.03 + (n % 5) * 0.011)
                frames = emu.stats()
                read_stats(link)
                time.sleep(0.2)
                if memory:
                    mem = memory[-1]
                    print(f"RAM measured on the running board: {mem.static} bytes static + {mem.stack_peak} bytes "
                          f"deepest stack = {mem.static + mem.stack_peak} of 2048; {mem.never_used} bytes never touched")

    def show(name: str, values: list[float]) -> None:
        ms = [v * 1000 for v in values]
        print(f"{name} over serial ({len(ms)}): median {statistics.median(ms):.1f} ms, "
              f"p90 {_percentile(ms, 0.9):.1f} ms, max {max(ms):.1f} ms")

    show("tap-to-observation", taps)
    show("lift-to-observation (2 empty polls of debounce)", lifts)
    bad = sum(s["bad"] for s in frames.values())
    print(f"PN532 frames checked by the emulated chips: {sum(s['good'] for s in frames.values())} good, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
