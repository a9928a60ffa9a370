"""The panels' tables: aligned columns as one Text, fitted to the panel's width."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

import companion.dashboard.grid
from companion.dashboard.grid import Column, grid, lines


def test_docstring_examples() -> None:
    result = doctest.testmod(companion.dashboard.grid)
    assert result.attempted > 0 and result.failed == 0


def test_columns_line_up_left_and_right() -> None:
    out = grid([Column("player"), Column("hand", justify="right"), Column("top")], [["ann", "1", "5M"], ["beatrice", "12", "-"]])
    assert out.plain.split("\n") == [
        "player    hand  top",
        "ann          1  5M",
        "beatrice    12  -",
    ]


def test_styles_of_cells_and_headers_are_kept() -> None:
    out = grid([Column("side", header_style="bold reverse"), Column()], [[Text("ann", style="bold"), Text(" 7P ", style="on #f0c040")]])
    styled = {(out.plain[s.start : s.end], str(s.style)) for s in out.spans}
    assert ("side", "bold reverse") in styled
    assert ("ann", "bold") in styled
    assert (" 7P ", "on #f0c040") in styled


def test_a_grid_too_wide_closes_its_gaps_then_shortens_headers() -> None:
    columns = [Column("player"), Column("stack", justify="right"), Column("sweeps")]
    rows = [["ann", "3", "-"]]
    assert grid(columns, rows, width=40).plain.split("\n")[0] == "player  stack  sweeps"
    assert grid(columns, rows, width=20).plain.split("\n")[0] == "player stack sweeps"
    narrow = grid(columns, rows, width=16).plain.split("\n")
    assert narrow[0] == "play\u2026 sta\u2026 swee\u2026"
    assert all(len(line) <= 16 for line in narrow)


def test_the_last_column_wraps_under_itself() -> None:
    cards = Text(" ".join(f"{v}P" for v in range(1, 11)))
    out = grid([Column(justify="right"), Column()], [["Powers", cards]], gap=1, width=20).plain.split("\n")
    assert out[0].startswith("Powers 1P 2P")
    assert all(line.startswith(" " * 7) for line in out[1:])
    assert all(len(line.rstrip()) <= 20 for line in out)
    assert " ".join(" ".join(out).split()) == "Powers " + cards.plain


def test_lines_stacks_parts() -> None:
    assert lines([Text("a"), Text("b c")]).plain == "a\nb c"


words = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@given(
    rows=st.lists(st.tuples(words, words, st.lists(words, max_size=8).map(" ".join)), min_size=1, max_size=6),
    width=st.integers(min_value=30, max_value=80),
)
def test_every_cell_is_shown_in_order_and_fits_when_it_can(rows: list[tuple[str, str, str]], width: int) -> None:
    out = grid([Column(), Column(justify="right"), Column()], rows, width=width).plain
    assert out.split() == [w for row in rows for cell in row for w in cell.split()]
    # The first two columns are at most 13 cells wide here, so every line fits.
    assert all(len(line.rstrip()) <= width for line in out.split("\n"))
