"""The round under way, the panel the table reads after every event: the noble (face down
until everyone has committed, L7; then its suit and crowns, and how it will be decided), each
player's commitment (who has committed, never what: a card face down, L6), and once the cards
are face up each player's card, who won the noble and why (L8-L10). Between rounds it keeps the
last round's result in sight; at the end, the winner and the tie-break that decided (L13).

A refused move is flagged here with its ruling. In manual play it says what to type next. In
teaching mode it adds what the whole table may count (never a hand: the screen is shared): the
crowns still face down in each suit, the agents and the highest cards of each suit not revealed
yet, and, once the noble is up, how it is decided.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from companion.dashboard.flag import Flag
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.love_money_power_death.cards import AGENTS, DEALT, SUIT_NAMES, SUITS, Card
from companion.games.love_money_power_death.dashboard.cards import FACE_DOWN, TO_COMMIT, card_chip, face_down, suit_text
from companion.games.love_money_power_death.dashboard.settle import crowns_by_suit
from companion.games.love_money_power_death.dashboard.words import names_list, plural
from companion.games.love_money_power_death.scoring import RoundResult
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["RoundPanel", "how_decided", "counting"]

FLAG_STYLE = "bold #ffffff on #b00020"


def how_decided(noble: Card) -> str:
    """How ``noble`` is decided, in a few words (L8, L9)."""
    suit = SUIT_NAMES[noble.suit or ""]
    return f"the highest {suit} card wins; no {suit}: the highest rank; a lone agent beats all; a tie discards it (L8, L9)"


def counting(game: LmpdState) -> list[Text]:
    """What the whole table may count: the crowns still face down by suit, the agents and the
    highest card of each suit not revealed yet (they are in hands or piles, or set aside)."""
    out = set(game.revealed)
    left = game.nobles_left
    crowns = Text("Crowns face down: ", style="bold")
    crowns.append_text(crowns_by_suit(left))
    agents = sum(1 for a in AGENTS if a not in out)
    high = Text("Not revealed yet: ", style="bold")
    high.append(f"{agents} of {len(AGENTS)} agents; the highest ")
    for k, s in enumerate(SUITS):
        top = max((c.rank for c in DEALT if c.suit == s and c not in out), default=0)
        if k:
            high.append(", ")
        high.append_text(suit_text(s, long=False))
        high.append(f" {top}" if top else " none")
    return [crowns, high]


class RoundPanel(GamePanel):
    """The round under way and what the table does next."""

    BORDER_TITLE = "Round"

    flag: reactive[Flag | None] = reactive(None, layout=True)
    manual: reactive[bool] = reactive(False)

    def watch_flag(self, flag: Flag | None) -> None:
        self.refresh_panel()

    def watch_manual(self, manual: bool) -> None:
        self.refresh_panel()

    def render_game(self, game: LmpdState) -> Text:
        setup = game.setup
        phase = game.phase
        parts: list[Text] = []
        if self.flag is not None:
            head = Text(" REFUSED ", style=FLAG_STYLE)
            head.append(f" {self.flag.text}")
            parts.append(head)
        if phase is Phase.DEAL:
            self.border_title = "Round"
            parts.append(Text(
                f"{names_list(setup.players)}; {plural(setup.rounds, 'noble')} in use: the nobles are laid face down and the "
                f"other cards dealt face down, {setup.pile_size} to each pile, three to each hand (L5).",
                style="italic",
            ))
            parts += self._next(game)
            return lines(parts)
        if phase is Phase.OVER:
            self.border_title = f"Round {game.round_number} of {setup.rounds}, the last"
            last = game.last_round
            if last is not None:
                parts += self._decided(last)
            outcome = game.outcome()
            if outcome is not None:
                text = outcome.explain()
                parts.append(Text(f"Game over: {text}", style="bold reverse"))
            return lines(parts)
        self.border_title = f"Round {game.round_number} of {setup.rounds}"
        parts.append(self._noble(game))
        if phase is Phase.DRAW:
            last = game.last_round
            if last is not None:
                parts += self._decided(last)
        else:
            parts.append(self._commits(game))
            last = game.last_round
            if last is not None and not game.committed:
                parts.append(self._last(last))
        parts += self._next(game)
        if self.teaching:
            parts += counting(game)
        return lines(parts)

    def _noble(self, game: LmpdState) -> Text:
        noble = game.noble
        t = Text("Noble: ", style="bold")
        if noble is None:
            down = game.noble_pile_count
            t.append(f"face down ({down} in the pile) until all have committed (L7)")
            return t
        t.append_text(card_chip(noble))
        t.append(f" {noble.suit_name}, {plural(noble.rank, 'crown')}")
        if self.teaching:
            t.append(f": {how_decided(noble)}")
        return t

    def _commits(self, game: LmpdState) -> Text:
        """Each player and whether they have committed: never the card (L6)."""
        committed = set(game.committed)
        if not self.roomy:
            t = Text()
            for k, p in enumerate(game.players):
                if k:
                    t.append("  ")
                t.append(FACE_DOWN if p in committed else TO_COMMIT, style="bold")
                t.append(f" {p}", style="bold" if p in committed else "bold reverse")
            return t
        rows = []
        for p in game.players:
            if p in committed:
                cell = face_down()
                cell.append(" committed")
                who = Text(p, style="bold")
            else:
                cell = Text(f"{TO_COMMIT} to commit", style="italic")
                who = Text(p, style="bold reverse")
            rows.append([who, cell, Text(f"hand {game.hand_size(p)}", style="dim")])
        return grid([Column(""), Column(""), Column("")], rows, width=self.size.width or None)

    @property
    def roomy(self) -> bool:
        """Room for a line per player (a large terminal)."""
        return (self.size.width or 80) >= 50

    def _decided(self, r: RoundResult) -> list[Text]:
        """A decided round: each player's card, the winner marked, and why."""
        rows = []
        for p, card in r.plays:
            mark = Text(" wins", style="bold reverse") if p == r.winner else Text("")
            rows.append([Text(p, style="bold"), card_chip(card), mark])
        head = Text(f"Round {r.number}: ", style="bold")
        head.append_text(card_chip(r.noble))
        head.append(f" to {r.winner}" if r.winner else " discarded", style="bold")
        why = Text(f"{r.reason[0].upper()}{r.reason[1:]}.")
        return [grid([Column(""), Column(""), Column("")], rows, width=self.size.width or None), head, why]

    def _last(self, r: RoundResult) -> Text:
        t = Text(f"Last round, {r.number}: ", style="bold")
        t.append_text(card_chip(r.noble))
        t.append(f" to {r.winner}: {r.reason}" if r.winner else f" discarded: {r.reason}")
        return t

    def _next(self, game: LmpdState) -> list[Text]:
        phase = game.phase
        manual = self.manual
        if phase is Phase.DEAL:
            return [Text("Next: the deal, which the companion records by itself (F5)." if manual else "Next: the deal.", style="italic")]
        if phase is Phase.COMMIT:
            waiting = game.deciding
            typed = f" Type it as each does: {waiting[0]} commits." if manual else ""
            return [Text(f"Next: {names_list(waiting)} to commit a card face down (L6).{typed}", style="italic")]
        if phase is Phase.NOBLE:
            typed = " and type it (N3P)" if manual else ""
            return [Text(f"Next: everyone has committed: turn the top noble up{typed} (L7).", style="italic")]
        if phase is Phase.REVEAL:
            if manual:
                order = " ".join(f"{p}'s" for p in game.players)
                return [Text(f"Next: reveal every card, and type them in seating order in one line: reveal {order} (L7).", style="italic")]
            return [Text("Next: every committed card is revealed (L7).", style="italic")]
        if phase is Phase.DRAW:
            return [Text("Next: every player draws a card from their own pile (L11)." + (" The companion records it (F5)." if manual else ""), style="italic")]
        return []

    def on_resize(self) -> None:
        self.refresh_panel()
