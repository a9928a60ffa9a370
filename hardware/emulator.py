"""The reader board without the board: builds the real firmware and runs it on an emulated
ATmega328P with emulated PN532 chips (``firmware/sim/``, on simavr), its serial port on a
pseudo-terminal. The tests and the benchmark drive the host code through it; a developer
can point ``rop tags watch --serial`` at :attr:`BoardEmulator.port` to try things out.

Needs the firmware sources (a source checkout) and the Debian packages gcc-avr, avr-libc,
binutils-avr, simavr, libsimavr-dev, make and pkg-config.
"""

from __future__ import annotations

import re
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FIRMWARE_DIR", "FirmwareBuild", "build_firmware", "BoardEmulator", "EmulatorError"]

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"


class EmulatorError(RuntimeError):
    """The firmware or the emulator could not be built or run."""


@dataclass(frozen=True)
class FirmwareBuild:
    elf: Path
    hex: Path
    simulator: Path
    flash_bytes: int
    ram_bytes: int
    report: str


_build_lock = threading.Lock()


def build_firmware(build_dir: Path | None = None) -> FirmwareBuild:
    """``make -C firmware`` (image and size check) and ``make -C firmware sim``."""
    build_dir = Path(build_dir) if build_dir else FIRMWARE_DIR / "build"
    if not (FIRMWARE_DIR / "Makefile").is_file():
        raise EmulatorError(f"no firmware sources at {FIRMWARE_DIR} (a source checkout is needed)")
    with _build_lock:
        outputs = []
        for target in ("all", "sim"):
            run = subprocess.run(
                ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={build_dir}", target],
                capture_output=True, text=True, check=False,
            )
            if run.returncode:
                raise EmulatorError(f"make {target} failed:\n{run.stdout}{run.stderr}")
            outputs.append(run.stdout)
    report = "".join(outputs)
    flash = re.search(r"flash: (\d+) bytes", report)
    ram = re.search(r"ram: (\d+) bytes", report)
    if not flash or not ram:
        raise EmulatorError(f"make printed no flash/RAM figures:\n{report}")
    return FirmwareBuild(
        build_dir / "rop-nfc.elf", build_dir / "rop-nfc.hex", build_dir / "rop-nfc-sim",
        int(flash[1]), int(ram[1]), report.strip(),
    )


class BoardEmulator:
    """A running emulated board. ``chips`` names the readers with a PN532 fitted ("013")."""

    def __init__(self, build: FirmwareBuild, *, chips: str = "0123", link: Path | None = None, speed: float = 1.0) -> None:
        self.build = build
        self.chips = chips
        self.link = Path(link) if link else None
        self.speed = speed
        self.pty = ""
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    @property
    def port(self) -> str:
        """What to open: the stable link if one was asked for, else the pseudo-terminal."""
        return str(self.link) if self.link else self.pty

    def start(self) -> BoardEmulator:
        args = [str(self.build.simulator), str(self.build.elf), "--chips", self.chips, "--speed", str(self.speed)]
        if self.link:
            args += ["--link", str(self.link)]
        self._proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.pty = self._read_until("PTY ").split(" ", 1)[1]
        return self

    def _read_until(self, prefix: str) -> str:
        assert self._proc and self._proc.stdout
        while True:
            line = self._proc.stdout.readline()
            if not line:
                raise EmulatorError(f"emulator ended (exit status {self._proc.poll()})")
            line = line.rstrip("\n")
            if line.startswith(prefix):
                return line
            if line.startswith("ERR"):
                raise EmulatorError(line)

    def command(self, text: str) -> str:
        """Send one harness command; return its OK line (raises EmulatorError on ERR)."""
        with self._lock:
            assert self._proc and self._proc.stdin
            self._proc.stdin.write(text + "\n")
            self._proc.stdin.flush()
            return self._read_until("OK")

    def tag(self, reader: int, uid: str) -> None:
        self.command(f"tag {reader} {uid}")

    def lift(self, reader: int) -> None:
        self.command(f"lift {reader}")

    def wait_polled(self, reader: int, times: int) -> None:
        """Return once the board has polled ``reader`` ``times`` more times: it has seen what
        the table changed before (a lift takes the firmware's two empty polls, and its GONE
        line is on the wire before the poll after them begins). Waits on the board, never on
        the clock; a board that stops polling for a minute is an :class:`EmulatorError`."""
        self.command(f"await {reader} {times}")

    def reset(self) -> None:
        self.command("reset")

    def unplug(self) -> None:
        self.command("unplug")

    def plug(self) -> None:
        self.command("plug")

    def stats(self) -> dict[int, dict[str, int]]:
        """Per chip: frames it accepted (good), frames it rejected (bad), polls answered."""
        with self._lock:
            assert self._proc and self._proc.stdin and self._proc.stdout
            self._proc.stdin.write("stats\n")
            self._proc.stdin.flush()
            result: dict[int, dict[str, int]] = {}
            while True:
                line = self._proc.stdout.readline()
                if not line:
                    raise EmulatorError("emulator ended")
                if line.startswith("STATS "):
                    parts = line.split()
                    result[int(parts[1])] = {k: int(v) for k, v in (p.split("=") for p in parts[2:])}
                elif line.startswith("OK stats"):
                    return result

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.write("quit\n")
                proc.stdin.close()
            proc.wait(3)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()

    def __enter__(self) -> BoardEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

