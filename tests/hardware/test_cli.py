"""``rop tags``: the commands a person setting up a table runs, as subprocesses, against the
emulated reader board (enrol, watch) and a registry in a temporary calibration directory.
Each step waits for what the command prints or for the board to have polled, never for
the clock."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from hardware.emulator import BoardEmulator

#: Polls after which the board has said a lifted tag is GONE: the firmware's two empty polls
#: (GONE_AFTER_MISSES in firmware/src/board.h), and one more, begun once the line is sent.
LIFT_SEEN = 3


def until(proc: subprocess.Popen[str], transcript: list[str], text: str) -> str:
    """The first line ``proc`` prints from now on that holds ``text``."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            err = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"ended before printing {text!r}: {''.join(transcript)} {err}")
        transcript.append(line)
        if text in line:
            return line


def shows(proc: subprocess.Popen[str], transcript: list[str], text: str) -> str:
    """The first line ``proc`` printed or prints that holds ``text``, whenever it came."""
    return next((line for line in transcript if text in line), None) or until(proc, transcript, text)


def rop(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=60, **kw)


def test_rop_starts_without_loading_nfc_or_serial():
    code = (
        "import argparse, sys, hardware.cli; hardware.cli.register(argparse.ArgumentParser().add_subparsers()); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('nfc', 'serial', 'ndef', 'usb1')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.slow
def test_enrol_over_the_board_then_watch_list_check_forget(firmware, tmp_path):
    cal = tmp_path / "cal"
    with BoardEmulator(firmware, chips="01", link=tmp_path / "board") as emu:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "enrol", "--owner", "ann", "--deck", "fate",
             "--serial", emu.port, "--calibration", str(cal)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        assert proc.stdout and proc.stdin
        watchdog = threading.Timer(120, proc.kill)  # a hang fails the test instead of the run
        watchdog.start()
        uids = ["04000000000001", "04000000000002", "04000000000003"]
        transcript: list[str] = []

        assert "F001" in until(proc, transcript, "[1/8] tap the")
        emu.tag(0, uids[0])
        assert "F001" in until(proc, transcript, "✓")
        until(proc, transcript, "[2/8] tap the")
        emu.lift(0)
        emu.wait_polled(0, LIFT_SEEN)  # the board said GONE before the tag lands on reader 1
        emu.tag(1, uids[0])  # the F001 tag tapped again for F002: refused, not a wrong card
        assert "already enrolled as ann's F001" in until(proc, transcript, "✗")
        emu.lift(1)
        emu.wait_polled(1, LIFT_SEEN)
        emu.tag(1, uids[1])
        assert "F002" in until(proc, transcript, "✓")
        until(proc, transcript, "[3/8]")
        proc.stdin.write("\n")  # skip F003
        proc.stdin.flush()
        until(proc, transcript, "[4/8]")
        emu.lift(1)
        emu.tag(0, uids[2])
        assert "F004" in until(proc, transcript, "✓")
        until(proc, transcript, "[5/8]")
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert "3 card(s) enrolled and saved" in until(proc, transcript, "stopped")
        assert proc.wait(60) == 0
        watchdog.cancel()

        saved = [json.loads(line) for line in (cal / "tags" / "ann.jsonl").read_text().splitlines()]
        assert [(s["card"], s["uid"], s["ndef"]) for s in saved] == [
            ("F001", uids[0], False), ("F002", uids[1], False), ("F004", uids[2], False)]

        # Watched until it has shown what it is there for.
        watch = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "watch", "--serial", emu.port, "--calibration", str(cal)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        watchdog = threading.Timer(120, watch.kill)
        watchdog.start()
        shown: list[str] = []
        for text in ("watching", "CONNECTED", "TAP   F004"):  # in whatever order they come
            shows(watch, shown, text)  # TAP: the tag still lying on reader 0 is reported as the table is
        emu.tag(1, "DEADBEEF")
        until(watch, shown, "????  tag DEADBEEF is not enrolled")
        # Ended from outside (not with Ctrl-C: a test run in the background ignores SIGINT,
        # and so would the command it starts).
        watch.terminate()
        out, _ = watch.communicate(timeout=60)
        watchdog.cancel()
        assert "board:0" in "".join(shown) + out
        # With --seconds it stops by itself and exits cleanly.
        timed = rop("tags", "watch", "--serial", emu.port, "--calibration", str(cal), "--seconds", "0")
        assert timed.returncode == 0 and "watching" in timed.stdout, timed.stderr

    listing = rop("tags", "list", "--calibration", str(cal))
    assert listing.returncode == 0 and "F002" in listing.stdout and "3 tag(s)" in listing.stdout
    assert rop("tags", "check", "--calibration", str(cal)).returncode == 0

    with (cal / "tags" / "ann.jsonl").open("a") as f:
        f.write('{"uid": "04000000000009", "card": "W777", "owner": "ann"}\n')
    check = rop("tags", "check", "--calibration", str(cal))
    assert check.returncode == 1 and "ann.jsonl:4" in check.stdout and "W777" in check.stdout

    forgot = rop("tags", "forget", "F002", "--owner", "ann", "--calibration", str(cal))
    assert forgot.returncode == 0 and uids[1] in forgot.stdout
    assert "F002" not in (cal / "tags" / "ann.jsonl").read_text()


def test_enrol_refuses_bad_arguments_clearly(tmp_path):
    bad_card = rop("tags", "enrol", "--owner", "ann", "--card", "W999", "--calibration", str(tmp_path))
    assert bad_card.returncode == 2 and "W999" in bad_card.stderr
    bad_owner = rop("tags", "enrol", "--owner", "a/b", "--calibration", str(tmp_path))
    assert bad_owner.returncode == 2 and "owner name" in bad_owner.stderr


@pytest.mark.slow
def test_enrol_a_circle_of_power_deck_beside_a_rule_of_power_one(firmware, tmp_path):
    cal = tmp_path / "cal"
    (cal / "tags").mkdir(parents=True)
    # ann's Rule of Power tag, enrolled before Circle of Power came: its line names no game.
    old = '{"uid": "04AA000000000A", "card": "W007", "owner": "ann", "ndef": true, "enrolled": "2026-11-01T10:00:00Z"}\n'
    (cal / "tags" / "ann.jsonl").write_text(old)
    with BoardEmulator(firmware, chips="0", link=tmp_path / "board") as emu:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "enrol", "--game", "circle-of-power", "--owner", "ann",
             "--card", "10H,Q♠", "--serial", emu.port, "--calibration", str(cal)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        watchdog = threading.Timer(120, proc.kill)
        watchdog.start()
        transcript: list[str] = []
        assert "10H" in until(proc, transcript, "[1/2] tap the")
        emu.tag(0, "04C0000000000B")
        assert "10H" in until(proc, transcript, "✓")
        assert "QS" in until(proc, transcript, "[2/2] tap the")
        emu.lift(0)
        emu.wait_polled(0, LIFT_SEEN)
        emu.tag(0, "04AA000000000A")  # the W007 tag: already a card of ann's other deck
        assert "already enrolled as ann's W007" in until(proc, transcript, "✗")
        emu.lift(0)
        emu.wait_polled(0, LIFT_SEEN)
        emu.tag(0, "04C0000000000C")
        assert "QS" in until(proc, transcript, "✓")
        assert "done: 2 enrolled" in until(proc, transcript, "done:")
        assert proc.wait(60) == 0
        watchdog.cancel()
    lines = (cal / "tags" / "ann.jsonl").read_text().splitlines()
    saved = [json.loads(line) for line in lines]
    assert sorted((s["card"], s.get("game", "")) for s in saved) == [("10H", "circle-of-power"), ("QS", "circle-of-power"), ("W007", "")]
    assert old.strip() in lines  # the old line as it was
    listing = rop("tags", "list", "--calibration", str(cal))
    assert listing.returncode == 0 and "W007" in listing.stdout and "10H" in listing.stdout and "3 tag(s)" in listing.stdout
    assert rop("tags", "check", "--calibration", str(cal)).returncode == 0
    forgot = rop("tags", "forget", "q♠", "--owner", "ann", "--calibration", str(cal))
    assert forgot.returncode == 0 and "04C0000000000C" in forgot.stdout, forgot.stderr
    assert sorted(json.loads(line)["card"] for line in (cal / "tags" / "ann.jsonl").read_text().splitlines()) == ["10H", "W007"]


def test_enrol_of_another_game_refuses_what_its_deck_has_not(tmp_path):
    world = rop("tags", "enrol", "--game", "circle-of-power", "--owner", "ann", "--deck", "world", "--calibration", str(tmp_path))
    assert world.returncode == 2 and "Circle of Power's decks are battle, city, all, not world" in world.stderr
    card = rop("tags", "enrol", "--game", "circle-of-power", "--owner", "ann", "--card", "W007", "--calibration", str(tmp_path))
    assert card.returncode == 2 and "--card" in card.stderr and "W007" in card.stderr
    unknown = rop("tags", "enrol", "--game", "chess", "--owner", "ann", "--calibration", str(tmp_path))
    assert unknown.returncode == 2 and "chess" in unknown.stderr
