"""Reading an image file the user names (``rop vision detect``, ``rop calibrate --image``)
with its size checked from the file's header before anything is decoded: an image too small
to hold a marker crashed the AprilTag detector (a segmentation fault, for one or two pixels),
and a huge one took gigabytes to decode.

Also :func:`check_image_size` for frames already in memory (camera frames), which the
detector calls on every image."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np

__all__ = ["ImageError", "MIN_SIDE_PX", "MAX_PIXELS", "check_image_size", "read_image"]

MIN_SIDE_PX = 16
"""The smallest seal a detector can read is about 10 x 10 pixels with its quiet zone."""

MAX_PIXELS = 64_000_000
"""64 megapixels (8000 x 8000): more than any camera over a table; about 200 MB decoded."""


class ImageError(ValueError):
    """An image that cannot be used; the message names the file and why."""


def _size_problem(width: int, height: int) -> str | None:
    if width < MIN_SIDE_PX or height < MIN_SIDE_PX:
        return f"{width} x {height} pixels is too small to show a marker (at least {MIN_SIDE_PX} x {MIN_SIDE_PX})"
    if width * height > MAX_PIXELS:
        return f"{width} x {height} pixels is too large (at most {MAX_PIXELS // 1_000_000} megapixels)"
    return None


def check_image_size(image: np.ndarray, what: str = "image") -> None:
    """:class:`ImageError` when ``image`` is too small or too large to look for markers in."""
    if image.ndim < 2:
        raise ImageError(f"{what}: not an image (an array of {image.ndim} dimensions)")
    problem = _size_problem(int(image.shape[1]), int(image.shape[0]))
    if problem:
        raise ImageError(f"{what}: {problem}")


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """The image at ``path`` as a BGR array, its dimensions checked from the header first."""
    import cv2
    from PIL import Image, UnidentifiedImageError

    p = Path(path)
    if not p.is_file():
        raise ImageError(f"{p}: cannot read image: {'file does not exist' if not p.exists() else 'not a file'}")
    try:
        # Opening reads the header only; nothing is decoded yet. Pillow's own warning about
        # large images is ours to give, with our limit.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as header:
                width, height = header.size
    except Image.DecompressionBombError:
        raise ImageError(f"{p}: too large (more than {MAX_PIXELS // 1_000_000} megapixels)") from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        reason = "not an image the companion can read" if isinstance(exc, UnidentifiedImageError) else str(exc)
        raise ImageError(f"{p}: cannot read image: {reason}") from None
    problem = _size_problem(width, height)
    if problem:
        raise ImageError(f"{p}: {problem}")
    image = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{p}: cannot read image: not an image OpenCV can read")
    check_image_size(image, str(p))
    return image
