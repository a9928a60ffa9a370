"""The four emperors in their seats, clockwise: the dealer and who is to move, each city and
trump suit (C9), the line behind the city (victories, destruction or history, C12, C18, C19),
the points of the season so far and the game totals (C16), and in the variants the destroyed
cities that count towards a knock-out (C18)."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.scoring import KNOCK_OUT
from companion.games.circle_of_power.setup import BASIC, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.dashboard.cards import card_chip, suit_text
from companion.games.circle_of_power.dashboard.words import line_name

__all__ = ["EmperorsPanel", "line_text", "total_cell", "trump_cell"]


def line_text(game: CircleState, name: str) -> Text:
    """``name``'s line: trophies face up, destroyed cities face down in brackets."""
    out = Text()
    for card, face_up in game.line(name):
        if out.plain:
            out.append(" ")
        if face_up:
            out.append_text(card_chip(card))
        else:
            out.append("(", style="dim")
            out.append_text(card_chip(card, dim=True))
            out.append(")", style="dim")
    return out if out.plain else Text("-", style="dim")


def trump_cell(game: CircleState, name: str) -> Text:
    """The trump suit's letter; ``*`` after it when a joker borrows it from the next city (C9)."""
    suit = game.trump_suits.get(name)
    cell = suit_text(suit)
    city = game.city(name)
    if suit is not None and city is not None and city.is_joker:
        cell.append("*", style="bold")
    return cell


def total_cell(game: CircleState, name: str) -> Text:
    """``name``'s game total (C16): ``3`` between seasons, ``3>5`` during one where they hold
    two trophies (the total before this season, then with its points so far)."""
    before = game.totals.get(name, 0)
    in_season = game.phase is not Phase.SEASON and game.phase is not Phase.OVER and name in game.seats
    points = len(game.trophies(name)) if in_season else 0
    return Text(f"{before}>{before + points}" if points else str(before), style="bold")


class EmperorsPanel(GamePanel):
    BORDER_TITLE = "Emperors"

    given: dict[str, int] = {}
    """How many cards of each player's hand they told the companion privately (F8): the
    panel says how many, never which."""

    def render_game(self, game: CircleState) -> Text:
        variant = game.variant
        width = self.size.width or 40
        self.border_title = f"Emperors and their {line_name(variant)}" if width >= 48 else "Emperors"
        if not game.seats:
            dummies = len(game.setup.dummies)
            them = f" and {dummies} dumm{'y' if dummies == 1 else 'ies'}" if dummies else ""
            return Text(f"{', '.join(game.players)}{them}: the seats are taken at the first season (C4).", style="italic")
        # Room for the line beside the other columns, or each line under its emperor.
        beside = width >= 48
        counts = variant != BASIC
        in_season = game.phase is not Phase.SEASON and game.phase is not Phase.OVER
        columns = [Column(""), Column("emperor"), Column("city"), Column("trump")]
        if variant != LONELY_TYRANT:
            columns += [Column("pts", justify="right"), Column("total", justify="right")]
        if counts:
            columns.append(Column("lost", justify="right"))
        if beside:
            columns.append(Column("line"))
        rows: list[list[Text | str]] = []
        below: list[Text] = []
        for name in game.seats:
            mark = (">" if game.to_move == name else " ") + ("D" if game.dealer == name else "")
            who = Text(name, style="bold reverse" if game.to_move == name else "bold")
            if name in game.knocked_out:
                who.append(" out", style="dim")
            city = game.city(name)
            row: list[Text | str] = [mark, who, card_chip(city) if city is not None else Text("-", style="dim"), trump_cell(game, name)]
            if variant != LONELY_TYRANT:
                row += [str(len(game.trophies(name)) if in_season else 0), total_cell(game, name)]
            if counts:
                row.append("-" if is_dummy(name) else f"{min(game.destroyed_count(name), KNOCK_OUT)}/{KNOCK_OUT}")
            if beside:
                row.append(line_text(game, name))
            else:
                under = Text("    line: ", style="dim")
                under.append_text(line_text(game, name))
                below.append(under)
            rows.append(row)
        table = grid(columns, rows, width=width)
        if not beside:
            # Each emperor's line under their row (the first line of the grid is its header).
            first, *table_rows = table.split("\n")
            merged = [first]
            for row_text, under in zip(table_rows, below):
                merged += [row_text, under]
            table = lines(merged)
        parts = [table]
        notes = []
        if game.setup.variant != LONELY_TYRANT:
            notes.append(f"target {game.setup.target} (C17)")
        if game.dummies:
            notes.append(f"{' and '.join(game.dummies)}: dumm{'y' if len(game.dummies) == 1 else 'ies'} (C11)")
        if notes:
            parts.append(Text("; ".join(notes), style="dim"))
        given = [f"{name}'s hand: given ({n} card{'s' if n != 1 else ''})" for name, n in self.given.items() if in_season and name in game.seats]
        if given:
            parts.append(Text("; ".join(given) + " (F7: hint)", style="dim"))
        return lines(parts)

    def on_resize(self) -> None:
        self.refresh_panel()
