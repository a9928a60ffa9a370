"""The Circle of Power as a picture, with the four cities of the moment on it (C3).

The four types stand at the corners of a square, J -> Q -> K -> A -> J, each arrow pointing to
the attacker (the rulebook's J < Q < K < A < J: Q takes J, K takes Q, A takes K, J takes A);
beside each type, the cities of that type and who holds them. The jokers stand apart, between
the colours: a joker takes any red city, any black city takes a joker. An arrow is drawn bold
when cities stand at both its ends (that attack is possible now), and reversed for the attacks
open to the winner of the initiative. Under the picture every attack possible now is named,
attacker first, and the cities under threat from nobody (the ones that would rebel, C14).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from companion.dashboard.grid import lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.circle_of_power.cards import CIRCLE, Card, attack_reason
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.rules import threats, victims
from companion.games.circle_of_power.setup import COLOURED_CITIES
from companion.games.circle_of_power.dashboard.cards import card_chip

__all__ = ["CirclePanel", "circle_picture", "attack_lines"]

LIVE = "bold #f08c00"
"""An attack possible now."""
CHOSEN = "bold reverse #f08c00"
"""An attack open to the winner of the initiative."""
DEAD = "dim"

_CORE = 8
"""The width of ``J ────> Q``."""


def _holders(cities: Sequence[tuple[str, Card]], width: int) -> Text:
    """The cities of one type with their holders (``ann JH, cy JS``), or the cards alone when
    that does not fit in ``width``."""
    named = Text()
    for k, (name, card) in enumerate(cities):
        if k:
            named.append(", ")
        named.append(f"{name} ")
        named.append_text(card_chip(card))
    if named.cell_len <= width:
        return named
    bare = Text()
    for k, (_, card) in enumerate(cities):
        if k:
            bare.append(" ")
        bare.append_text(card_chip(card))
    return bare


def _pad(text: Text, width: int, *, right: bool) -> Text:
    gap = " " * max(0, width - text.cell_len)
    out = Text(gap) if right else Text()
    out.append_text(text)
    if not right:
        out.append(gap)
    return out


def circle_picture(seats: Sequence[str], cities: Sequence[Card | None], width: int, *, chosen: Sequence[tuple[int, int]] = ()) -> list[Text]:
    """The square J -> Q -> K -> A -> J with the cities beside their types, in ``width``
    cells; ``chosen``: (attacker, defender) seats whose arrows are the winner's to choose."""
    by_type: dict[str, list[tuple[str, Card]]] = {t: [] for t in CIRCLE}
    for name, card in zip(seats, cities):
        if card is not None and not card.is_joker:
            by_type[card.rank].append((name, card))
    slot = max(4, (width - _CORE - 2) // 2)
    chosen_types = set()
    for a, d in chosen:
        attacker, defender = cities[a], cities[d]
        if attacker is not None and defender is not None:
            chosen_types.add((attacker.rank, defender.rank))

    def style(weak: str, strong: str) -> str:
        if (strong, weak) in chosen_types:
            return CHOSEN
        return LIVE if by_type[weak] and by_type[strong] else DEAD

    def node(t: str) -> Text:
        return Text(t, style="bold")

    top = _pad(_holders(by_type["J"], slot), slot, right=True)
    top.append(" ")
    top.append_text(node("J"))
    top.append(" ────> ", style=style("J", "Q"))
    top.append_text(node("Q"))
    # The right-hand types end their lines: their cities may take what the line has left.
    right = max(slot, width - slot - _CORE - 3)
    top.append(" ")
    top.append_text(_holders(by_type["Q"], right))
    up = Text(" " * (slot + 1))
    up.append("^", style=style("A", "J"))
    up.append(" " * (_CORE - 2))
    up.append("│", style=style("Q", "K"))
    down = Text(" " * (slot + 1))
    down.append("│", style=style("A", "J"))
    down.append(" " * (_CORE - 2))
    down.append("v", style=style("Q", "K"))
    bottom = _pad(_holders(by_type["A"], slot), slot, right=True)
    bottom.append(" ")
    bottom.append_text(node("A"))
    bottom.append(" <──── ", style=style("K", "A"))
    bottom.append_text(node("K"))
    bottom.append(" ")
    bottom.append_text(_holders(by_type["K"], right))
    return [top, up, down, bottom]


def joker_line(seats: Sequence[str], cities: Sequence[Card | None], *, chosen: Sequence[tuple[int, int]] = ()) -> Text:
    """``red JH QD ─> joker X1 ─> black QS AC``: the jokers between the colours (C3)."""
    reds = [c for c in cities if c is not None and not c.is_joker and c.colour == "red"]
    blacks = [c for c in cities if c is not None and not c.is_joker and c.colour == "black"]
    jokers = [c for c in cities if c is not None and c.is_joker]
    picked = {(cities[a], cities[d]) for a, d in chosen}
    joker_attacks = any(a is not None and a.is_joker for a, _ in picked)
    on_joker = any(d is not None and d.is_joker for _, d in picked)
    t = Text("red ", style="bold")
    for card in reds:
        t.append_text(card_chip(card))
        t.append(" ")
    t.append("─> ", style=CHOSEN if joker_attacks else LIVE if reds and jokers else DEAD)
    t.append("joker ", style="bold")
    for card in jokers:
        t.append_text(card_chip(card))
        t.append(" ")
    if not jokers:
        t.append("- ", style="dim")
    t.append("─> ", style=CHOSEN if on_joker else LIVE if blacks and jokers else DEAD)
    t.append("black", style="bold")
    for card in blacks:
        t.append(" ")
        t.append_text(card_chip(card))
    return t


def attack_lines(seats: Sequence[str], cities: Sequence[Card | None], *, chosen: Sequence[tuple[int, int]] = ()) -> list[Text]:
    """Every attack possible now, attacker first (``bob QS may take ann JH (Q attacks J)``),
    the winner's own marked ``>``; then the cities under threat from nobody."""
    out = []
    for a, name in enumerate(seats):
        mine = cities[a]
        if mine is None:
            continue
        for d in victims(a, list(cities)):
            theirs = cities[d]
            assert theirs is not None
            mine_now = (a, d) in chosen
            t = Text("> " if mine_now else "", style="bold")
            t.append(f"{name} ", style="bold" if mine_now else "")
            t.append_text(card_chip(mine))
            t.append(" may take ", style="bold" if mine_now else "")
            t.append(f"{seats[d]} ", style="bold" if mine_now else "")
            t.append_text(card_chip(theirs))
            t.append(f" ({attack_reason(mine, theirs)})", style="dim")
            out.append(t)
    if not out:
        out.append(Text("No city may take another now: a winner regroups (C10).", style="italic"))
    safe = [(n, c) for k, (n, c) in enumerate(zip(seats, cities)) if c is not None and not threats(k, list(cities))]
    if safe:
        t = Text("Under threat from nobody (would rebel, C14): ", style="dim")
        for k, (name, card) in enumerate(safe):
            if k:
                t.append(", ", style="dim")
            t.append(f"{name} ")
            t.append_text(card_chip(card))
        out.append(t)
    return out


class CirclePanel(GamePanel):
    """The circle with the four cities on it, and who may take whom."""

    BORDER_TITLE = "The circle (C3)"

    def render_game(self, game: CircleState) -> Text:
        # One cell to spare: the side column's scroll bar may take it without a new layout.
        width = (self.content_region.width or 41) - 1
        seats = game.seats
        if not seats:
            cities: list[Card | None] = [None] * 4
            seats = ("", "", "", "")
        else:
            cities = [game.city(n) for n in seats]
        chosen: list[tuple[int, int]] = []
        winner = game.to_move if game.phase is Phase.ACT else None
        if winner is not None:
            w = seats.index(winner)
            chosen = [(w, c.victim) for c in game.choices() if c.victim is not None]
        parts: list[Text] = [Text("Arrows point to the attacker.", style="dim")]
        parts += circle_picture(seats, cities, width, chosen=chosen)
        parts.append(joker_line(seats, cities, chosen=chosen))
        if game.variant == COLOURED_CITIES:
            parts.append(Text("In an attack a joker takes the other city's colour (C19).", style="dim"))
        if game.seats:
            parts.append(Text("Who may take whom now:", style="bold"))
            parts += attack_lines(seats, cities, chosen=chosen)
        else:
            parts.append(Text("No cities yet: the first season is set up first.", style="italic"))
        return lines(parts)

    def on_resize(self) -> None:
        self.refresh_panel()
