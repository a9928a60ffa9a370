"""What a person reads on a screen the dashboard drew (a snapshot's or a screenshot's SVG),
and the words cut at a panel's edge in it.

A panel keeps a cell of padding inside its border and wraps its words, so a letter against a
right border was cropped, and an ellipsis (``…``) is a line cut short."""

from __future__ import annotations

import html
import re

__all__ = ["cut_words", "screen_rows"]

_TEXT = re.compile(r'<text class="[^"]*" x="([0-9.]+)" y="[0-9.]+" textLength="[0-9.]+" clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">([^<]*)</text>')
#: The width of a cell in Textual's SVG export.
_CELL = 12.2
#: Characters a panel's right edge is drawn with.
_RIGHT_EDGES = "│┃╮╯┤▎▐▕"


def screen_rows(svg: str) -> list[str]:
    """The screen's rows of text, each as wide as the screen, from Textual's SVG export."""
    cells: dict[int, dict[int, str]] = {}
    for x, line, text in _TEXT.findall(svg):
        col = round(float(x) / _CELL)
        row = cells.setdefault(int(line), {})
        for k, ch in enumerate(html.unescape(text).replace("\xa0", " ").replace("\n", " ")):
            row[col + k] = ch
    if not cells:
        raise ValueError("no terminal text in this SVG: not a Textual screenshot")
    width = max(max(r) for r in cells.values() if r) + 1
    return ["".join(cells.get(n, {}).get(c, " ") for c in range(width)) for n in range(max(cells) + 1)]


def cut_words(rows: list[str]) -> list[str]:
    """Every place a word is cut: ``"row 3: '...the com…'"``; empty when every word is whole."""
    found = []
    for n, row in enumerate(rows):
        for m in re.finditer(r"\S*…", row):
            found.append(f"row {n}: {row[max(0, m.start() - 20):m.end()]!r} (cut short)")
        for m in re.finditer(rf"[A-Za-z0-9][{_RIGHT_EDGES}]", row):
            found.append(f"row {n}: {row[max(0, m.start() - 20):m.end()]!r} (cropped at a panel's edge)")
        if row and row[-1].isalnum():
            found.append(f"row {n}: {row[-21:]!r} (cropped at the screen's edge)")
    return found
