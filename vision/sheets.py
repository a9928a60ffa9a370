"""Printable marker sheets: stickers for the seal corner of each card, and the mat's corner
markers, as PNG (300 dpi) and PDF.

Every module is a whole number of printer dots at 300 dpi (19 dots for seals, 89 for the mat),
so markers print crisp and true to size when printed at 100 % ("actual size", no "fit to
page"); each sheet carries a 100 mm bar to check that with a ruler.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.contract import Card
from companion.contract.registry import game
from companion.observations.outfiles import OutputError, atomic_output, check_writable_dir
from vision.layout import Layout
from vision.markers import (
    PRINT_DPI,
    STICKER_MM,
    SealBack,
    SealMarker,
    module_grid,
)

__all__ = [
    "STICKING",
    "Sticker",
    "sticker_image",
    "sticker_label",
    "sticker_name",
    "sticking",
    "mat_marker_image",
    "write_card_sheets",
    "write_mat_sheets",
    "A4_MM",
]

A4_MM = (210.0, 297.0)
_SEAL_DOTS = 19  # dots per module, seal markers
_MAT_DOTS = 89  # dots per module, mat corner markers
_MARGIN_MM = 12.0
_GAP_MM = 3.0
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _dots(mm: float) -> int:
    return round(mm * PRINT_DPI / 25.4)


#: Printed under the title of every sheet of card stickers: where a sticker goes, unless the
#: game's table spec says otherwise (:attr:`companion.contract.Stickers.where`).
STICKING = (
    "Cut along the grey outlines. Stick each sticker on the card it names, upright,",
    "in the seal corner: bottom left of the face, 2 mm from both edges, words at the bottom.",
)


def sticking(game_name: str) -> tuple[str, ...]:
    """Where a sticker goes on the cards of ``game_name``, in the words printed on the sheets."""
    spec = getattr(game(game_name), "table", None)
    return (spec.stickers.where if spec is not None else ()) or STICKING


@dataclass(frozen=True, slots=True)
class Sticker:
    """One sticker to print: the marker and the words printed under it, two lines: the card's
    short form, id and owner (``"7P W007 ann"``), then the card's name (``"Fire Dragon"``), so
    that a person matching stickers to cards reads what they hold in their hand. A back's
    sticker (:class:`~vision.markers.SealBack`) reads ``"back blue"`` over the deck's name: the
    same on every card of that copy."""

    marker: SealMarker | SealBack
    label: str
    name: str = ""

    @property
    def file_name(self) -> str:
        """The single PNG's name: the card's id, or ``back-<deck>`` for a back."""
        return f"back-{self.marker.deck}" if isinstance(self.marker, SealBack) else self.marker.card.id


def sticker_image(sticker: Sticker) -> np.ndarray:
    """The sticker at 300 dpi (grey ``uint8``): marker with its white margin, label below, a
    light cut outline."""
    w, h = _dots(STICKER_MM[0]), _dots(STICKER_MM[1])
    img = np.full((h, w), 255, np.uint8)
    grid = module_grid(sticker.marker.tag_id)
    side = grid.shape[0] * _SEAL_DOTS
    marker = cv2.resize(grid, (side, side), interpolation=cv2.INTER_NEAREST)
    x0 = (w - side) // 2
    img[x0 : x0 + side, x0 : x0 + side] = marker
    top, bottom = x0 + side + 2, h - 4
    if sticker.name:
        middle = top + (bottom - top) * 11 // 20
        _text_fit(img, sticker.label, (2, top, w - 2, middle), max_scale=1.1)
        _text_fit(img, sticker.name, (2, middle + 1, w - 2, bottom), max_scale=1.0)
    else:
        _text_fit(img, sticker.label, (2, top, w - 2, bottom), max_scale=1.1)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), 200, 1)
    return img


def mat_marker_image(corner_label: str, tag_id: int, note: str, *, title: str) -> np.ndarray:
    """One mat corner marker on a full A4 page (300 dpi, grey), with its name and where it goes;
    ``title`` is the game whose table the mat is."""
    page = np.full((_dots(A4_MM[1]), _dots(A4_MM[0])), 255, np.uint8)
    grid = module_grid(tag_id)
    side = grid.shape[0] * _MAT_DOTS
    x0 = (page.shape[1] - side) // 2
    y0 = _dots(40)
    page[y0 : y0 + side, x0 : x0 + side] = cv2.resize(grid, (side, side), interpolation=cv2.INTER_NEAREST)
    # Marks at the centre of each edge help place the marker's centre on the mat.
    cx, cy = x0 + side // 2, y0 + side // 2
    for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        p = (cx + dx * (side // 2 + 10), cy + dy * (side // 2 + 10))
        q = (cx + dx * (side // 2 + 70), cy + dy * (side // 2 + 70))
        cv2.line(page, p, q, 0, 3)
    _text_fit(page, f"{title} table mat: {corner_label} corner (marker {tag_id})", (_dots(15), _dots(15), page.shape[1] - _dots(15), _dots(28)), max_scale=2.2)
    _text_fit(page, note, (_dots(15), y0 + side + _dots(14), page.shape[1] - _dots(15), y0 + side + _dots(24)), max_scale=1.6)
    _scale_bar(page, _dots(15), page.shape[0] - _dots(20))
    return page


def write_card_sheets(
    stickers: Sequence[Sticker],
    out_dir: Path,
    *,
    title: str,
    single_dir: Path | None = None,
    how: Sequence[str] = STICKING,
) -> list[Path]:
    """Write the stickers on A4 sheets (``sheet-NN.png`` and one ``markers.pdf``) into
    ``out_dir``, and one PNG per sticker (``<card>.png``) into ``single_dir`` (default
    ``out_dir``); ``how`` says on each sheet where a sticker goes. Returns the files written."""
    check_writable_dir(out_dir, create=True)
    single_dir = single_dir or out_dir
    check_writable_dir(single_dir, create=True)
    written = []
    for s in stickers:
        path = single_dir / f"{s.file_name}.png"
        _save_png(sticker_image(s), path)
        written.append(path)
    pages = _layout_pages([sticker_image(s) for s in stickers], title, how)
    for i, page in enumerate(pages, 1):
        path = out_dir / f"sheet-{i:02d}.png"
        _save_png(page, path)
        written.append(path)
    pdf = out_dir / "markers.pdf"
    _save_pdf(pages, pdf)
    written.append(pdf)
    return written


def write_mat_sheets(layout: Layout, out_dir: Path) -> list[Path]:
    """One A4 page per corner marker of ``layout``'s mat (PNG each, plus ``mat.pdf``); the
    corners are the same markers for every game, the page names the layout's."""
    check_writable_dir(out_dir, create=True)
    pages, written = [], []
    w, h = layout.mat_mm
    for place in layout.mat_markers:
        cx, cy = place.centre_mm
        left = f"{cx:g} mm from the left edge" if cx < w / 2 else f"{w - cx:g} mm from the right edge"
        top = f"{cy:g} mm from the top edge" if cy < h / 2 else f"{h - cy:g} mm from the bottom edge"
        note = f"centre it {left}, {top} of the {w:g} x {h:g} mm mat ({layout.name})"
        page = mat_marker_image(place.corner.label, place.corner.tag_id, note, title=game(layout.game).title)
        path = out_dir / f"{place.corner.label}.png"
        _save_png(page, path)
        pages.append(page)
        written.append(path)
    pdf = out_dir / "mat.pdf"
    _save_pdf(pages, pdf)
    written.append(pdf)
    return written


def _layout_pages(images: list[np.ndarray], title: str, how: Sequence[str] = STICKING) -> list[np.ndarray]:
    pw, ph = _dots(A4_MM[0]), _dots(A4_MM[1])
    margin, gap = _dots(_MARGIN_MM), _dots(_GAP_MM)
    top = margin + _dots(19)
    bottom = ph - margin - _dots(12)
    if not images:
        return []
    sw, sh = images[0].shape[1], images[0].shape[0]
    cols = (pw - 2 * margin + gap) // (sw + gap)
    rows = (bottom - top + gap) // (sh + gap)
    per_page = cols * rows
    pages: list[np.ndarray] = []
    for start in range(0, len(images), per_page):
        page = np.full((ph, pw), 255, np.uint8)
        number = len(pages) + 1
        total = (len(images) + per_page - 1) // per_page
        _text_fit(page, f"{title} - sheet {number} of {total} - print at 100 %", (margin, margin, pw - margin, margin + _dots(7)), max_scale=1.8)
        for k, line in enumerate(how):
            y = margin + _dots(8 + 5 * k)
            _text_fit(page, line, (margin, y, pw - margin, y + _dots(4.5)), max_scale=1.3)
        for i, img in enumerate(images[start : start + per_page]):
            r, c = divmod(i, cols)
            x, y = margin + c * (sw + gap), top + r * (sh + gap)
            page[y : y + sh, x : x + sw] = img
        _scale_bar(page, margin, ph - margin - _dots(4))
        pages.append(page)
    return pages


def _scale_bar(page: np.ndarray, x: int, y: int) -> None:
    length = _dots(100)
    cv2.rectangle(page, (x, y - 12), (x + length, y), 0, -1)
    cv2.putText(page, "100 mm: measure to check the print scale", (x + length + 30, y), _FONT, 1.3, 0, 2, cv2.LINE_AA)


def _text_fit(img: np.ndarray, text: str, box: tuple[int, int, int, int], *, max_scale: float) -> None:
    # Largest Hershey font size (up to max_scale) that fits the box; the label must stay legible.
    x0, y0, x1, y1 = box
    scale, thickness = max_scale, max(1, int(max_scale * 2))
    while scale > 0.3:
        (tw, th), base = cv2.getTextSize(text, _FONT, scale, thickness)
        if tw <= x1 - x0 and th + base <= y1 - y0:
            break
        scale *= 0.9
        thickness = max(1, int(scale * 2))
    (tw, th), base = cv2.getTextSize(text, _FONT, scale, thickness)
    cv2.putText(img, text, (x0 + (x1 - x0 - tw) // 2, y0 + (y1 - y0 + th) // 2), _FONT, scale, 0, thickness, cv2.LINE_AA)


def _save_png(image: np.ndarray, path: Path) -> None:
    from PIL import Image

    # Through a temporary file: a sheet is either whole or not there.
    with atomic_output(path, "wb") as out:
        Image.fromarray(image).save(out, format="PNG", dpi=(PRINT_DPI, PRINT_DPI), optimize=True)


def _save_pdf(pages: list[np.ndarray], path: Path) -> None:
    from PIL import Image

    images = [Image.fromarray(p) for p in pages]
    if images:
        with atomic_output(path, "wb") as out:
            images[0].save(out, format="PDF", save_all=True, append_images=images[1:], resolution=float(PRINT_DPI))


def output_dir(root: Path, name: str) -> Path:
    """``root / name``, made if need be, for a sheet set: ``name`` must be one plain
    directory name (an owner's name, ``mat``, ``nobody``), so nothing is written outside
    ``root``; :class:`OutputError` when it cannot be made or written."""
    if not name or name in (".", "..") or any(c in name for c in "/\\:") or not name.isprintable():
        raise OutputError(root / name, f"{name!r} is not a plain directory name")
    check_writable_dir(root, create=True)
    return check_writable_dir(root / name, create=True)


def card_stickers(cards: Sequence[Card], slot: int | None, owner: str | None) -> list[Sticker]:
    """Stickers for ``cards`` of one owner (``slot``/``owner`` both ``None`` for no owner): each
    card's front, then, for the cards of decks whose backs carry seals, one back sticker each."""
    fronts = [Sticker(SealMarker(c, slot), sticker_label(c, owner), sticker_name(c)) for c in cards]
    backs = []
    for card in cards:
        spec = getattr(game(card.game), "table", None)
        deck = spec.deck_of(card) if spec is not None else None
        if deck is not None and deck.backs:
            copy = deck.colours[slot] if deck.colours and slot is not None else slot
            backs.append(Sticker(SealBack(card.game, deck.name, copy), f"back {owner}" if owner else "back", deck.title))
    return fronts + backs


def sticker_label(card: Card, owner: str | None) -> str:
    """The sticker's first line, as the card's game writes it, then the owner: ``"7P W007 ann"``,
    ``"F006 ann"``, ``"10H ann"``."""
    text = game(card.game).cards.sticker_label(card)
    return f"{text} {owner}" if owner else text


def sticker_name(card: Card) -> str:
    """The sticker's second line: the card's name, ``"Fire Dragon"``, ``"ten of hearts"``."""
    name: str = game(card.game).cards.sticker_name(card)
    return name
