"""Bad input to the camera commands is a clear error (exit status 2, or 1 for images that
cannot be read), never a crash of the process, a traceback or a file written outside where
it was asked for."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.cli import main as rop
from vision.detect import MarkerDetector
from vision.images import ImageError, read_image


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims ``width`` x ``height`` (its pixels are never there)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


@pytest.mark.parametrize("height", [1, 2])
def test_an_image_one_or_two_pixels_tall_is_refused_not_a_crash(tmp_path: Path, height: int) -> None:
    path = tmp_path / "thin.png"
    Image.new("RGB", (300, height)).save(path)
    # In a child process: the detector's crash was a segmentation fault, which would end pytest.
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "vision", "detect", "--detector", "apriltag", "--no-layout", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    assert f"300 x {height} pixels is too small to show a marker" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_detector_finds_nothing_in_a_frame_too_small_for_a_marker() -> None:
    for backend in ("aruco", "apriltag"):
        detector = MarkerDetector(backend=backend)
        for shape in ((1, 300), (2, 300), (300, 1), (15, 15)):
            assert detector.detect(np.zeros(shape, np.uint8)) == []


def test_a_huge_image_is_refused_from_its_header_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    _png_header_only(path, 20_000, 20_000)
    with pytest.raises(ImageError, match="too large"):
        read_image(path)
    _png_header_only(path, 9_000, 8_000)  # under Pillow's own bomb limit, over ours
    with pytest.raises(ImageError, match="9000 x 8000 pixels is too large"):
        read_image(path)


def test_owner_names_that_are_paths_or_hold_control_characters_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    for name in ("..", ".", "../evil", "a/b", "a\\b", "ann\nbob", "ann\tbob", ".hidden"):
        status = rop(["markers", "--owner", name, "--deck", "world", "--out", str(out), "--calibration", str(tmp_path / "cal")])
        assert status == 2, name
        assert "is not usable" in capsys.readouterr().err
    assert not any(tmp_path.rglob("*.png"))
    assert not (tmp_path / "cal" / "owners.json").exists()


def test_marker_output_that_is_a_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "afile"
    target.write_text("x")
    assert rop(["markers", "--owner", "ann", "--deck", "world", "--out", str(target), "--calibration", str(tmp_path / "cal")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert rop(["markers", "--mat", "--out", str(target)]) == 2
    assert "it is a file, not a directory" in capsys.readouterr().err


def test_an_unwritable_calibration_directory_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_dir = tmp_path / "calibration"
    not_a_dir.write_text("a file where the directory should be")
    status = rop(["markers", "--owner", "zed", "--deck", "world", "--out", str(tmp_path / "out"), "--calibration", str(not_a_dir)])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot save the owner registry" in err and "Traceback" not in err


@pytest.mark.parametrize(("out", "why"), [("check.foo", ".foo is not an image type"), ("nodir/check.png", "no such directory")])
def test_calibrate_refuses_an_output_it_cannot_write_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, why: str) -> None:
    image = tmp_path / "table.png"
    Image.new("RGB", (640, 480), "white").save(image)
    status = rop(["calibrate", "--image", str(image), "--out", str(tmp_path / out), "--no-window"])
    assert status == 2
    assert why in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.png"]
