"""Aligned columns drawn as one rich ``Text``, and panels built of lines.

The panels draw their tables with :func:`grid` rather than rich's ``Table``: a single
``Text`` is measured and drawn by Textual's own content code, where a ``Table`` (or a
``Group``) is rendered by rich once for the layout and again for the screen, every time a
panel changes. After a move that was most of the time the dashboard took to show it.

>>> from rich.text import Text
>>> print(grid([Column("player"), Column("stack", justify="right")], [["ann", "3"], ["bob", "12"]]))
player  stack
ann         3
bob        12
>>> print(grid([Column(), Column()], [["7s", Text("7P 7M 7D 7E")]], width=9))
7s  7P 7M
    7D 7E
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from rich.console import Console
from rich.text import Text

__all__ = ["Column", "grid", "lines"]

# Text.wrap wants a console, for its defaults only; the terminal's own is not needed.
_WRAP_CONSOLE = Console(file=io.StringIO(), width=200, color_system=None)


@dataclass(frozen=True)
class Column:
    """A column of a :func:`grid`: its header (none when every header is empty) and how its
    cells line up."""

    header: str = ""
    justify: Literal["left", "right"] = "left"
    header_style: str = "bold"


def grid(columns: Sequence[Column], rows: Iterable[Sequence[Text | str]], *, gap: int = 2, width: int | None = None) -> Text:
    """The rows under their headers, each column as wide as its widest cell, ``gap`` spaces
    apart. With a ``width``, a grid too wide for it closes up its gaps and shortens headers
    wider than their column ("stack" to "sta…"), and the last column wraps within what is
    left, so that a long list of cards stays in its column."""
    body = [[cell if isinstance(cell, Text) else Text(cell) for cell in row] for row in rows]
    widths = [0] * len(columns)
    for row in body:
        for k, cell in enumerate(row):
            widths[k] = max(widths[k], cell.cell_len)
    if any(c.header for c in columns):
        headers = [c.header for c in columns]
        widths = [max(w, len(h)) for w, h in zip(widths, headers)]
        if width and sum(widths) + gap * (len(widths) - 1) > width:
            gap = 1
            _fit_headers(widths, body, width - gap * (len(widths) - 1))
        body.insert(0, [Text(_shorten(h, w), style=c.header_style) for h, w, c in zip(headers, widths, columns)])
    last = len(columns) - 1
    indent = sum(widths[:last]) + gap * last
    room = max(1, width - indent) if width else None
    out: list[Text] = []
    for row in body:
        line = Text()
        for k, cell in enumerate(row):
            if k:
                line.append(" " * gap)
            if k == last:
                break
            pad = " " * (widths[k] - cell.cell_len)
            if columns[k].justify == "right":
                line.append(pad)
                line.append_text(cell)
            else:
                line.append_text(cell)
                line.append(pad)
        cell = row[last] if len(row) > last else Text()
        if columns[last].justify == "right":
            line.append(" " * (widths[last] - cell.cell_len))
        if room is not None and cell.cell_len > room:
            pieces = cell.wrap(_WRAP_CONSOLE, room)
            line.append_text(pieces[0])
            out.append(line)
            for piece in pieces[1:]:
                follow = Text(" " * indent)
                follow.append_text(piece)
                out.append(follow)
        else:
            line.append_text(cell)
            out.append(line)
    return lines(out)


def _fit_headers(widths: list[int], body: list[list[Text]], room: int) -> None:
    """Narrow the columns whose header is wider than their cells, the widest first, until the
    grid fits in ``room`` cells or every such column is down to its cells (or 2)."""
    cells = [max((row[k].cell_len for row in body if len(row) > k), default=0) for k in range(len(widths))]
    while sum(widths) > room:
        k = max(range(len(widths)), key=lambda k: widths[k] - max(cells[k], 2))
        if widths[k] <= max(cells[k], 2):
            return
        widths[k] -= 1


def _shorten(header: str, width: int) -> str:
    return header if len(header) <= width else header[: width - 1] + "\u2026"


def lines(parts: Iterable[Text]) -> Text:
    """Texts one under the other: a panel of several parts as one ``Text``."""
    return Text("\n").join(parts)
