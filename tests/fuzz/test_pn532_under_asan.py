"""The firmware's PN532 frame parser (firmware/src/pn532_frame.c), built with
AddressSanitizer, agrees with the Python reference (hardware/pn532_frames.py) on every byte
string hypothesis makes, and never touches memory outside its buffer: a frame with LEN 00
and LCS 00 once passed the checksum and overran the 48-byte buffer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.emulator import FIRMWARE_DIR

EXAMPLES = 600
DRIVER = Path(__file__).with_name("pn532_asan_driver.py")


def _asan_build(tmp: Path, source: Path) -> tuple[Path, dict[str, str]]:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.fail("no gcc: it is listed in packaging/apt-test.txt, which the test command installs")
    runtime = subprocess.run([gcc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True).stdout.strip()
    if not os.path.isabs(runtime):
        pytest.fail("gcc has no AddressSanitizer runtime: libasan is part of the gcc package in packaging/apt-test.txt")
    lib = tmp / "libpn532_frame_asan.so"
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer", "-Wall", "-Werror", str(source), "-o", str(lib)],
        check=True,
    )
    env = dict(os.environ, LD_PRELOAD=runtime, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=86", PYTHONPATH=str(Path(__file__).parents[2]))
    return lib, env


def _run(lib: Path, env: dict[str, str], examples: int, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(DRIVER), str(lib), str(examples), *extra], capture_output=True, text=True, env=env)


def test_c_and_python_parsers_agree_under_address_sanitizer(tmp_path: Path) -> None:
    lib, env = _asan_build(tmp_path, FIRMWARE_DIR / "src" / "pn532_frame.c")
    done = _run(lib, env, EXAMPLES)
    assert "AddressSanitizer" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_sanitizer_catches_the_overrun_the_fix_removed(tmp_path: Path) -> None:
    """The harness itself can fail: the parser without the LEN 00 check overruns its buffer
    under ASan."""
    source = (FIRMWARE_DIR / "src" / "pn532_frame.c").read_text(encoding="utf-8")
    guard = "        if (rx->len == 0x00) {"
    assert guard in source
    broken = source.replace(guard, "        if (0) {").replace("if (rx->got >= rx->len || rx->got >= PN532_MAX_DATA) {", "if (0) {")
    copy = tmp_path / "pn532_frame.c"
    copy.write_text(broken, encoding="utf-8")
    shutil.copy(FIRMWARE_DIR / "src" / "pn532_frame.h", tmp_path / "pn532_frame.h")
    lib, env = _asan_build(tmp_path, copy)
    disagree = _run(lib, env, EXAMPLES)
    assert disagree.returncode != 0 and "AssertionError" in disagree.stderr
    overrun = _run(lib, env, EXAMPLES, "c-only")
    assert overrun.returncode == 86, overrun.stderr[-2000:]
    assert "AddressSanitizer" in overrun.stderr and "pn532_rx_feed" in overrun.stderr


def test_the_reference_refuses_a_frame_of_length_zero() -> None:
    from hardware.pn532_frames import FrameError, parse_frame

    with pytest.raises(FrameError, match="LEN 00 with LCS 00") as info:
        parse_frame(b"\x00\x00\xff\x00\x00" + bytes(60))
    assert info.value.kind == "bad LCS"
