"""Running scores per side: the four cardinal points, the Power Ring, sweeps, the round
total and the game totals against the target, with Rule of Power alerts (R9-R14)."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.engine.cards import power_cards
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel, side_label
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.scoring import RoundScore

__all__ = ["ScoresPanel", "rule_of_power_alerts"]


def _cell(value: object, won: bool, *, short: bool = False) -> Text:
    text = f"{value} +1" if won and not short else f"{value}"
    return Text(text, style="bold reverse" if won else "")


def rule_of_power_alerts(game: GameState, score: RoundScore) -> list[str]:
    """Sides that could still hold every Power card at the end of the round (R13)."""
    ladder = power_cards(game.setup.expansion)
    out = []
    captured = score.captured
    held = {side: [c for c in ladder if c in cards] for side, cards in captured.items()}
    lost = [c for c in ladder if c in game.discards]
    for side, cards in held.items():
        others = sum(len(v) for s, v in held.items() if s != side)
        if others or lost or not cards:
            continue
        missing = len(ladder) - len(cards)
        if missing == 0:
            out.append(f"RULE OF POWER: {side} holds every Power card and wins the game at the round's end (R13)")
        elif len(cards) >= len(ladder) // 2:
            out.append(f"Rule of Power watch: {side} holds {len(cards)} of {len(ladder)} Power cards, no other side holds one (R13)")
    return out


class ScoresPanel(GamePanel):
    BORDER_TITLE = "Scores"

    def render_game(self, game: GameState) -> Text:
        score = game.provisional_score()
        in_round = game.round_number > len(game.results)
        if not in_round and game.results:
            score = game.results[-1].score
            self.border_title = f"Scores, round {game.results[-1].number} (final)"
        else:
            self.border_title = f"Scores, round {game.round_number} (running)" if game.round_number else "Scores"
        sides = list(game.setup.sides)
        totals = game.totals
        target = game.setup.target
        pts = score.sides
        projected = {s: totals[s] + pts[s].total for s in sides} if in_round else totals
        wide = 17 + sum(max(len(side_label(x)), 10) + 1 for x in sides)
        if self.size.width and self.size.width < wide:
            table = self._by_side(score, sides, totals, projected, in_round)
        else:
            table = self._by_point(score, sides, totals, projected, in_round, target)
        parts = [table]
        for alert in rule_of_power_alerts(game, score):
            parts.append(Text(alert, style="bold #ffffff on #b00020" if alert.startswith("RULE") else "bold"))
        leaders = [s for s in sides if projected[s] >= target]
        if leaders and not game.outcome():
            parts.append(Text(f"At the target if the round ended now: {', '.join(leaders)} (R14: highest total wins)", style="italic"))
        return lines(parts)

    def _by_point(self, score: RoundScore, sides: list[str], totals: dict[str, int], projected: dict[str, int], in_round: bool, target: int) -> Text:
        """A row per point, a column per side (room enough)."""
        columns = [Column("point (rule)")] + [Column(side_label(side), justify="right") for side in sides]
        pts = score.sides
        pride = score.pride
        ring = score.power_ring
        ring_cells = []
        for s in sides:
            n = sum(1 for holder in ring.ring.values() if holder == s)
            if ring.master == s:
                ring_cells.append(Text(f"Master +{ring.points}", style="bold reverse"))
            else:
                ring_cells.append(Text(f"{n}/3 rings"))
        if in_round:
            game_cells = [Text(f"{totals[s]}->{projected[s]}", style="bold") for s in sides]
        else:
            game_cells = [Text(str(totals[s]), style="bold reverse") for s in sides]
        rows: list[list[Text | str]] = [
            ["World cards R9", *[_cell(score.world_cards.counts[s], score.world_cards.winner == s) for s in sides]],
            ["Power cards R9", *[_cell(score.power_cards.counts[s], score.power_cards.winner == s) for s in sides]],
            ["Fire Dragon R10", *[_cell("7P" if score.fire_dragon == s else "-", score.fire_dragon == s) for s in sides]],
            ["Pride R11", *[_cell("-".join(str(n) for n in pride.sequences[s][:3]) + "..", pride.winner == s) for s in sides]],
            ["Power Ring R12", *ring_cells],
            ["Sweeps R7", *[Text(str(pts[s].sweeps), style="bold" if pts[s].sweeps else "") for s in sides]],
            [Text("Round", style="bold"), *[Text(str(pts[s].total), style="bold") for s in sides]],
            [Text(f"Game /{target}", style="bold"), *game_cells],
        ]
        return grid(columns, rows)

    def _by_side(self, score: RoundScore, sides: list[str], totals: dict[str, int], projected: dict[str, int], in_round: bool) -> Text:
        """A row per side, a short column per point (many sides in a narrow panel)."""
        columns = [Column("side")] + [Column(title, justify="right") for title in ("Wld", "Pow", "FD", "Prd", "Ring", "Sw", "Rnd", "Game")]
        ring = score.power_ring
        rows = []
        for s in sides:
            p = score.sides[s]
            n = sum(1 for holder in ring.ring.values() if holder == s)
            rows.append(
                [
                    Text(s, style="bold"),
                    _cell(score.world_cards.counts[s], score.world_cards.winner == s, short=True),
                    _cell(score.power_cards.counts[s], score.power_cards.winner == s, short=True),
                    _cell("+1" if score.fire_dragon == s else "-", score.fire_dragon == s, short=True),
                    _cell("+1" if score.pride.winner == s else "-", score.pride.winner == s, short=True),
                    Text(f"+{ring.points}", style="bold reverse") if ring.master == s else Text(f"{n}/3"),
                    Text(str(p.sweeps)),
                    Text(str(p.total), style="bold"),
                    Text(f"{totals[s]}>{projected[s]}" if in_round else str(totals[s]), style="bold"),
                ]
            )
        legend = Text("Wld/Pow most World/Power cards R9, FD Fire Dragon R10, Prd Pride R11, Ring R12, Sw sweeps R7", style="dim")
        return lines([grid(columns, rows, gap=1), legend])

    def on_resize(self) -> None:
        self.refresh_panel()
