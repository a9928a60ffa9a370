"""What can be played: the legal captures of the card just played and, in teaching mode, the
legal moves of every card in the hand of the player to move with the points each changes."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive

from companion.engine.cards import Card
from companion.dashboard.cards import card_chip, cards_line
from companion.dashboard.commentary import move_effect
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.engine.fate import fate_rule
from companion.engine.game import GameState, Phase
from companion.engine.moves import DrawFate, Move, Pass, Play

__all__ = ["Flag", "LastPlay", "PlayPanel"]


@dataclass(frozen=True)
class LastPlay:
    """A card played to the centre and the captures it could make (R4, R5)."""

    move: Play
    options: tuple[tuple[Card, ...], ...]
    empowered: bool = False


@dataclass(frozen=True)
class Flag:
    """An illegal move the table tried, with the rule it breaks."""

    player: str | None
    text: str
    rule: str | None


def move_label(move: Move) -> Text:
    if isinstance(move, DrawFate):
        return Text("draw a Fate card (R17)")
    if isinstance(move, Pass):
        return Text("pass (R17)")
    assert isinstance(move, Play)
    t = Text()
    if move.card.to_centre:
        if move.capture:
            t.append("takes ")
            t.append_text(cards_line(move.capture))
        else:
            t.append("to the centre", style="italic")
    elif move.target:
        t.append(f"on {move.target}")
        if move.stolen:
            t.append(" takes ")
            t.append_text(card_chip(move.stolen))
        if move.received:
            # Cards exchanged face down (UNSEEN) have no chip: they are counted instead.
            known = [c for c in move.received if isinstance(c, Card)]
            t.append(" gets ")
            if known:
                t.append_text(cards_line(known))
            if len(known) < len(move.received):
                t.append(f"{' +' if known else ''}{len(move.received) - len(known)} face down", style="dim")
    elif move.discards:
        t.append(", ".join(f"{p} drops {c.short}" for p, c in move.discards))
    elif "drawn" in fate_rule(move.card).details:
        t.append("draw the top World card")
    else:
        t.append("into play")
    return t


class PlayPanel(GamePanel):
    DEFAULT_CSS = """
    PlayPanel {
        max-height: 50%;
        overflow-y: auto;
    }
    """

    BORDER_TITLE = "Play"

    last_play: reactive[LastPlay | None] = reactive(None, always_update=True)
    manual: reactive[bool] = reactive(False)
    """Manual play: the table enters deals with F5."""

    @property
    def _next_key(self) -> str:
        return "; press F5" if self.manual else ""
    flag: reactive[Flag | None] = reactive(None, always_update=True)

    def watch_last_play(self) -> None:
        self.refresh_panel()

    def watch_flag(self) -> None:
        self.refresh_panel()

    def render_game(self, game: GameState) -> Text:
        parts: list[Text] = []
        if self.flag is not None:
            t = Text()
            t.append(" ILLEGAL ", style="bold #ffffff on #b00020")
            t.append(" ")
            t.append(self.flag.text, style="bold")
            parts.append(t)
        last = self.last_play
        if last is not None:
            t = Text()
            t.append(f"{last.move.player} played ")
            t.append_text(card_chip(last.move.card, names=True))
            if last.empowered:
                t.append(" empowered by the Crystal (R5)", style="italic")
            t.append("\n  could take: ")
            if last.options:
                for k, option in enumerate(last.options):
                    if k:
                        t.append(" | ")
                    chosen = tuple(option) == tuple(last.move.capture)
                    t.append_text(cards_line(option))
                    if chosen:
                        t.append(" <- taken", style="bold")
            else:
                t.append("nothing, so it stays in the centre (R4)", style="italic")
            parts.append(t)
        if game.phase is Phase.TURN and self.teaching:
            parts.append(self._teaching(game))
        elif game.phase is Phase.TURN:
            n = game.world_cards_in_hand(game.turn or "")
            parts.append(Text(f"{game.turn} to move ({n} World card{'s' if n != 1 else ''} in hand). Teaching mode (F2) shows the options.", style="dim"))
        elif game.phase is Phase.DEAL:
            parts.append(Text(f"Every hand is played out: {game.dealer} deals again (R15){self._next_key}.", style="dim"))
        elif game.phase is Phase.ROUND and game.results:
            players = game.players
            nxt = players[(players.index(game.dealer or players[0]) + 1) % len(players)]
            parts.append(Text(f"The round is over (F3: the settlement). Next round: {nxt} deals (R15){self._next_key}.", style="dim"))
        elif game.phase is Phase.ROUND:
            parts.append(Text(f"A new game: the first round is about to be dealt{self._next_key}.", style="dim"))
        if not parts:
            return Text("")
        return lines(parts)

    def _teaching(self, game: GameState) -> Text:
        me = game.turn
        assert me is not None
        moves = list(game.legal_moves)
        rows: list[list[Text]] = []
        title = Text(f"{me}'s legal moves", style="bold")
        hidden = game.unseen_in_hand(me)
        if hidden:
            title.append(f" ({hidden} card{'s' if hidden != 1 else ''} face down, not listed)", style="dim")
        if not moves:
            return lines([title, Text("  none known", style="italic")])
        for move in moves[:40]:
            effect = move_effect(game, move)
            card = getattr(move, "card", None)
            who = card_chip(card) if card is not None else Text("-")
            gains = Text()
            if effect.delta:
                gains.append(f"{effect.delta:+d} pt ", style="bold")
            gains.append("; ".join(effect.gains), style="italic")
            rows.append([who, move_label(move), gains])
        more = len(moves) - 40
        width = self.size.width - 2 if self.size.width else None
        if width is not None and width < 60:
            # A narrow panel: one move to a paragraph, wrapped at words, so that neither the
            # capture nor its points are cut into a column of a few letters.
            body = []
            for who, label, gains in rows:
                line = Text.assemble(who, " ", label)
                if gains:
                    line.append(": " if label else " ")
                    line.append_text(gains)
                body.append(line)
            if more > 0:
                body.append(Text(f"... and {more} more", style="dim"))
            return lines([title, *body])
        if more > 0:
            rows.append([Text(""), Text(f"... and {more} more", style="dim"), Text("")])
        return lines([title, grid([Column()] * 3, rows, gap=1, width=self.size.width or None)])
