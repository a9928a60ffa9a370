"""What can be played: the legal captures of the card just played and, in teaching mode, the
legal moves of every card in the hand of the player to move with the points each changes and
the risk the coach sees in it.

The risks come from :class:`~companion.games.rule_of_power.coach.risks.RiskScan`, from the player to move's view
only, in a thread of their own: the moves are listed at once, and their risks filled in a few
tens of milliseconds later (for the position still shown; a scan overtaken by the next move
stops and is forgotten)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.worker import get_current_worker

from companion.coach import CoachError
from companion.games.rule_of_power.coach.policies import decision_key
from companion.games.rule_of_power.coach.reasons import Risk
from companion.games.rule_of_power.coach.risks import SCAN_SAMPLES, RiskScan
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.dashboard.cards import card_chip, cards_line
from companion.games.rule_of_power.dashboard.commentary import move_effect, rule_hint
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.flag import Flag
from companion.dashboard.screens.hint import HintScreen, position_key
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Pass, Play

__all__ = ["Flag", "LastPlay", "PlayPanel", "risk_text", "position_key"]

#: Samples a scan adds between two looks at whether it is still wanted.
_SCAN_SLICE = 4




def risk_text(risk: Risk, *, compact: bool = False) -> Text:
    """A risk as teaching mode words it, in few words: ``risk 40%: bob takes 7P (alone) with
    any of 3 unseen (7s)``; ``compact``, for a small terminal: ``risk 40%: bob takes 7P``.
    The hint (F7) gives it at length."""
    short = risk.short or risk.text
    if compact and risk.card is not None:
        if risk.kind == "later":
            short = f"risk {risk.chance:.0%}: {risk.by} takes {risk.card.short} before your turn"
        else:
            short = f"risk {risk.chance:.0%}: {risk.by} takes {risk.card.short}"
    elif compact:
        short = f"risk {risk.chance:.0%}: {risk.by} sweeps the centre (R7)"
    head, _, body = short.partition(": ")
    t = Text(head + ":", style="bold #e5a50a")
    t.append(" " + body, style="#e5a50a")
    return t


@dataclass(frozen=True)
class LastPlay:
    """A card played to the centre and the captures it could make (R4, R5)."""

    move: Play
    options: tuple[tuple[Card, ...], ...]
    empowered: bool = False


def _exchanged(cards: Sequence[Card | object]) -> Text:
    """Cards exchanged in a swap: chips for those known, a count for those face down (their
    faces unseen, :data:`UNSEEN`)."""
    known = [c for c in cards if isinstance(c, Card)]
    t = cards_line(known) if known else Text()
    if len(known) < len(cards):
        t.append(f"{' +' if known else ''}{len(cards) - len(known)} face down", style="dim")
    return t


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
        # A swap (R22) names both sides: the same cards received for different cards given
        # are different moves, and read as such.
        for verb, cards in ((" gives ", move.given), (" gets " if not move.given else " and gets ", move.received)):
            if cards:
                t.append(verb)
                t.append_text(_exchanged(cards))
    elif move.discards:
        t.append(", ".join(f"{p} drops {c.short}" for p, c in move.discards))
    elif "drawn" in fate_rule(move.card).details:
        t.append("draw the top World card")
    else:
        t.append("into play")
    return t


def _refusal(flag: Flag) -> Text:
    t = Text()
    t.append(" ILLEGAL ", style="bold #ffffff on #b00020")
    t.append(" ")
    t.append(flag.text, style="bold")
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

    risks: dict[Hashable, list[Risk]] | None = None
    """The risks of the position :attr:`risks_for`, by decision; ``None`` while weighed."""
    risks_for: Hashable = None
    hint: HintScreen.Advised | None = None
    """The coach's hint's latest figures and their position (handed down by the screen):
    for that position, the risks shown are the hint's."""

    def watch_game(self, game: GameState | None) -> None:
        self._weigh_risks()
        super().watch_game(game)

    def watch_teaching(self, teaching: bool) -> None:
        self.set_class(teaching, "-teaching")
        self._weigh_risks()
        super().watch_teaching(teaching)

    @property
    def risks_pending(self) -> bool:
        """Teaching mode is waiting for the risks of the position shown."""
        return self.risks is None and self.risks_for is not None

    def _weigh_risks(self) -> None:
        """In teaching mode, start weighing the risks of the position shown, unless they are
        known or being weighed."""
        with self.guard:
            game = self.game
            if not self.teaching or game is None or game.phase is not Phase.TURN or game.turn is None:
                return
            key = position_key(game)
            if key == self.risks_for:
                return
            self.risks_for, self.risks = key, None
            try:
                # The scan copies the game here, in the app's thread: the worker reads only its copy.
                scan = RiskScan(game, game.turn)
            except CoachError:
                self.risks = {}
                return
        self.run_worker(lambda: self._scan(scan, key), thread=True, exclusive=True, group="teaching-risks", name="teaching risks")

    def _scan(self, scan: RiskScan, key: Hashable) -> None:
        worker = get_current_worker()
        while scan.samples < SCAN_SAMPLES:
            if worker.is_cancelled:
                return
            scan.run(min(_SCAN_SLICE, SCAN_SAMPLES - scan.samples))
        risks = scan.risks()
        if not worker.is_cancelled:
            self.app.call_from_thread(self._risks_weighed, key, risks)

    def _risks_weighed(self, key: Hashable, risks: dict[Hashable, list[Risk]]) -> None:
        if key != self.risks_for:
            return  # the table has moved on
        self.risks = risks
        self.refresh_panel()

    def watch_last_play(self) -> None:
        self.refresh_panel()

    def watch_flag(self) -> None:
        self.refresh_panel()

    def render_game(self, game: GameState) -> Text:
        whole = self._content(game, short=False)
        room = self.room()
        if room is None or self.flag is None or self.rows_of(whole) <= room:
            return whole
        if self.teaching and game.phase is Phase.TURN:
            # Short of room in teaching mode (a laptop's 80x24): the refused move, then the
            # legal moves, which are what the player needs next; the rule's reminder takes
            # the rows left, cut at a whole line.
            return self._teaching_first(game, room)
        # Short of room otherwise, a refused move is read whole with its rule and its
        # reminder right under it, and the word on what comes next goes (the status line
        # says it).
        return self._content(game, short=True)

    def _teaching_first(self, game: GameState, room: int) -> Text:
        flag = self.flag
        assert flag is not None
        body = lines([_refusal(flag), self._teaching(game)])
        hint = rule_hint(flag.rule)
        left = room - self.rows_of(body)
        if not hint or left <= 0:
            return body
        reminder = Text(f"In short, {flag.rule}: {hint}", style="dim")
        wrapped = reminder.wrap(self.app.console, self.size.width)
        if len(wrapped) > left:
            kept = wrapped[:left]
            last = kept[-1]
            last.rstrip()
            while last.cell_len + 4 > self.size.width and " " in last.plain:
                # Room for the mark that more follows: the last whole word goes.
                last.right_crop(last.cell_len - last.plain.rstrip().rindex(" "))
                last.rstrip()
            last.append(" ...", style="dim")
            reminder = Text("\n").join(kept)
        return lines([body, reminder])

    def _content(self, game: GameState, *, short: bool) -> Text:
        """The panel's parts; ``short``: the refused move's reminder right under it, and no
        word on what comes next."""
        parts: list[Text] = []
        flag = self.flag
        hint = rule_hint(flag.rule) if flag is not None else ""
        reminder = Text(f"In short, {flag.rule}: {hint}", style="dim") if flag is not None and hint else None
        if flag is not None:
            parts.append(_refusal(flag))
            if short and reminder is not None:
                parts.append(reminder)
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
        elif short:
            pass  # what comes next: the status line says it
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
        if reminder is not None and not short:
            # Last: the legal moves above are what the table needs next.
            parts.append(reminder)
        if not parts:
            return Text("")
        return lines(parts)

    def _teaching(self, game: GameState) -> Text:
        me = game.turn
        assert me is not None
        moves = list(game.legal_moves)
        rows: list[tuple[Text, Text, Text, Text | None]] = []
        title = Text(f"{me}'s legal moves", style="bold")
        hidden = game.unseen_in_hand(me)
        if hidden:
            title.append(f" ({hidden} card{'s' if hidden != 1 else ''} face down, not listed)", style="dim")
        if not moves:
            return lines([title, Text("  none known", style="italic")])
        position = position_key(game)
        risks = self.risks if self.risks_for == position else None
        hint = self.hint
        if hint is not None and hint.position == position:
            # The hint (F7) weighed the same risks on more sampled deals: one figure, its.
            risks = {m.key: [r for r in m.risks if isinstance(r, Risk)] for m in hint.advice.moves}
            title.append("  risks as the hint (F7) weighs them", style="dim italic")
        elif risks is None:
            title.append("  weighing the risks...", style="dim italic")
        compact = self.screen.has_class("-paged")
        for move in moves[:40]:
            effect = move_effect(game, move)
            card = getattr(move, "card", None)
            who = card_chip(card) if card is not None else Text("-")
            gains = Text()
            if effect.delta:
                gains.append(f"{effect.delta:+d} pt ", style="bold")
            gains.append("; ".join(effect.gains), style="italic")
            told = (risks or {}).get(decision_key(move), [])
            rows.append((who, move_label(move), gains, risk_text(told[0], compact=compact) if told else None))
        more = len(moves) - 40
        width = self.size.width - 2 if self.size.width else None
        if width is not None and width < 60:
            # A narrow panel: one move to a paragraph, wrapped at words, so that neither the
            # capture nor its points are cut into a column of a few letters.
            body = []
            for who, label, gains, risk in rows:
                line = Text.assemble(who, " ", label)
                if gains:
                    line.append(": " if label else " ")
                    line.append_text(gains)
                if risk is not None:
                    line.append("\n" if compact else "\n  ")
                    line.append_text(risk)
                body.append(line)
            if more > 0:
                body.append(Text(f"... and {more} more", style="dim"))
            return lines([title, *body])
        cells: list[list[Text]] = []
        for who, label, gains, risk in rows:
            if risk is not None:
                gains = Text("\n").join([gains, risk]) if gains else risk
            cells.append([who, label, gains])
        if more > 0:
            cells.append([Text(""), Text(f"... and {more} more", style="dim"), Text("")])
        return lines([title, grid([Column()] * 3, cells, gap=1, width=self.size.width or None)])
