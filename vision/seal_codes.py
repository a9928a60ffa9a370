"""The codes of the seal dictionary: which 6 x 6 pattern of data modules each seal id prints.

Every seal is an 8 x 8-module marker: a black border round 36 data modules. A code is those 36
modules as a number, the top-left module its most significant bit, 1 for white, row by row
(as OpenCV's ArUco dictionaries store them).

- Ids 0-586 are AprilTag 36h11's codes, ids 587-1018 the 432 codes of AprilTag 36h10 listed in
  :data:`vision.markers.EXTRA_36H10` (the first generation, printed before seals came in
  blocks).
- Ids 1019-1023 are never printed.
- Ids 1024-8191, the blocks (:mod:`companion.contract.allocation`), are the codes of
  ``data/seal-codes.txt``, one a line in id order, made by :func:`derive`: walking the
  36-bit numbers from 0 in steps of :data:`STEP` (modulo 2^36), the first 7,168 that are at least
  :data:`DISTANCE` bits from each other in all four rotations (their own included), at least
  :data:`FIRST_GENERATION_DISTANCE` from every first-generation code in all four rotations,
  and show at least :data:`MIN_EDGES` black-white edges (the fewest any 36h11 code shows: a
  pattern of few large patches looks like clutter). The file is fixed for good: a printed
  sticker keeps its meaning; ``python -m vision.seal_codes --check`` derives it again.

The detector corrects at most two bits (:class:`vision.detect.MarkerDetector`), so two codes
could only be confused below 5 bits apart; every pair of the dictionary is at least 8 apart,
so a misread needs six bits flipped the same wrong way (seven between a block's code and a
first-generation one, as between the first generation's 36h10 codes and its 36h11 ones).

Why these and not a larger AprilTag family, and what they cost (``docs/vision.md``, "Seal ids,
measured"): the same 8 x 8 modules and sticker, read by the same detector in one pass; at
1080p's 2.7 pixels per module a table reading seven blocks read 99.3 % of visible seals and no
wrong id, in 193 M instructions a frame against 216 M for a table reading 36h11 alone. The
detector's time grows with the codes a table reads, which is why a table reads its own blocks
only (the whole dictionary: 2,016 M, nine times as slow).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.contract.allocation import BLOCK, FIRST_BLOCK, SEAL_IDS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["BITS", "DISTANCE", "FIRST_GENERATION_DISTANCE", "MIN_EDGES", "STEP", "CODES_FILE", "block_codes", "derive", "edges", "rotations"]

BITS = 36
"""Data modules of a seal: 6 x 6."""
STEP = 982_451_653
"""The stride of the walk over the 36-bit numbers (a prime, so the walk visits every one)."""
DISTANCE = 8
"""The fewest bits by which two block codes differ, in any rotation."""
FIRST_GENERATION_DISTANCE = 9
"""The fewest bits by which a block code differs from a first-generation code, in any rotation."""
MIN_EDGES = 32
"""The fewest black-white edges between neighbouring modules (border included) a code shows."""
CODES_FILE = Path(__file__).resolve().parent / "data" / "seal-codes.txt"
"""The block codes, ids 1024-8191, one 9-digit hexadecimal code a line."""

_COUNT = SEAL_IDS - FIRST_BLOCK * BLOCK


@lru_cache(maxsize=1)
def block_codes() -> tuple[int, ...]:
    """The codes of ids 1024-8191, in id order, as the shipped file has them."""
    codes = tuple(int(line, 16) for line in CODES_FILE.read_text(encoding="ascii").split() if line)
    if len(codes) != _COUNT:
        raise ValueError(f"{CODES_FILE}: {len(codes)} codes where the seal dictionary has {_COUNT}: reinstall the companion")
    return codes


def _grid(codes: np.ndarray) -> np.ndarray:
    """Each code as a 6 x 6 array of its bits (1 white)."""
    import numpy as np

    shifts = np.arange(BITS - 1, -1, -1, dtype=np.uint64)
    return ((codes[:, None] >> shifts) & np.uint64(1)).astype(np.uint8).reshape(-1, 6, 6)


def _number(grids: np.ndarray) -> np.ndarray:
    import numpy as np

    weights = np.uint64(1) << np.arange(BITS - 1, -1, -1, dtype=np.uint64)
    return (grids.reshape(-1, BITS).astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def rotations(codes: np.ndarray) -> list[np.ndarray]:
    """``codes`` (an array of ``uint64``) and its three quarter turns, as numbers."""
    import numpy as np

    grids = _grid(np.asarray(codes, dtype=np.uint64))
    return [_number(np.rot90(grids, k, axes=(1, 2))) for k in range(4)]


def edges(codes: np.ndarray) -> np.ndarray:
    """The black-white edges between neighbouring modules of each code, its black border
    included."""
    import numpy as np

    grids = _grid(np.asarray(codes, dtype=np.uint64))
    framed = np.zeros((len(grids), 8, 8), np.uint8)
    framed[:, 1:7, 1:7] = grids
    return (framed[:, 1:] != framed[:, :-1]).sum(axis=(1, 2)) + (framed[:, :, 1:] != framed[:, :, :-1]).sum(axis=(1, 2))


def first_generation_codes() -> np.ndarray:
    """The codes of ids 0-1018 (36h11's, then the 432 of 36h10), as numbers."""
    import cv2
    import numpy as np

    from vision.markers import EXTRA_36H10

    def numbers(dictionary: cv2.aruco.Dictionary, rows: list[int]) -> np.ndarray:
        bits = [cv2.aruco.Dictionary.getBitsFromByteList(dictionary.bytesList[r : r + 1], 6) for r in rows]
        return _number(np.array(bits, np.uint8))

    d11 = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    d10 = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h10)
    return np.concatenate([numbers(d11, list(range(d11.bytesList.shape[0]))), numbers(d10, list(EXTRA_36H10))])


def derive(count: int = _COUNT, *, batch: int = 1 << 14) -> list[int]:
    """The first ``count`` block codes, found as the module's docstring says (about a minute
    for all of them)."""
    import numpy as np

    old = np.concatenate(rotations(first_generation_codes()))
    kept: list[int] = []
    kept_turns = np.zeros(0, np.uint64)
    mask = np.uint64((1 << BITS) - 1)
    start = 1
    while len(kept) < count:
        k = np.arange(start, start + batch, dtype=np.uint64)
        start += batch
        cand = (k * np.uint64(STEP)) & mask  # 64-bit wrap-around keeps the low 36 bits right
        turns = rotations(cand)
        ok = np.ones(len(cand), bool)
        for turned in turns[1:]:
            ok &= np.bitwise_count(cand ^ turned) >= DISTANCE
        ok &= edges(cand) >= MIN_EDGES
        for turned in turns:
            for chunk in np.array_split(old, 8):
                ok[ok] &= np.bitwise_count(turned[ok][:, None] ^ chunk[None, :]).min(axis=1) >= FIRST_GENERATION_DISTANCE
        if len(kept_turns):
            for s in range(0, len(kept_turns), 4096):
                ok[ok] &= np.bitwise_count(cand[ok][:, None] ^ kept_turns[None, s : s + 4096]).min(axis=1) >= DISTANCE
        # Those left are far from every code kept before the batch; among themselves, in order.
        fresh: list[int] = []
        fresh_turns = np.zeros(0, np.uint64)
        for i in np.flatnonzero(ok):
            code = cand[i]
            if len(fresh_turns) and int(np.bitwise_count(fresh_turns ^ code).min()) < DISTANCE:
                continue
            fresh.append(int(code))
            fresh_turns = np.concatenate([fresh_turns, [t[i] for t in turns]])
            if len(kept) + len(fresh) == count:
                break
        kept += fresh
        kept_turns = np.concatenate([kept_turns, fresh_turns])
    return kept


def main(argv: list[str]) -> int:
    """``python -m vision.seal_codes [--check]``: write the codes file, or check it."""
    codes = derive()
    text = "".join(f"{c:09x}\n" for c in codes)
    if "--check" in argv:
        same = CODES_FILE.read_text(encoding="ascii") == text
        print(f"{CODES_FILE}: {'as derived' if same else 'DIFFERS from what derive() makes'}")
        return 0 if same else 1
    CODES_FILE.write_text(text, encoding="ascii")
    print(f"wrote {len(codes)} codes to {CODES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
