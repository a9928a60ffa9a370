"""The end-of-season settlement: every point with its reason (each trophy, whom it was taken
from and in which action; the trophies lost on the way), the destroyed cities and knock-outs of
the variants, the totals, who is closest to the target, and the verdict: who wins, or who deals
the next season and where everyone sits (C4, C5, C16-C20)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from companion.dashboard.screens.settlement import Settlement
from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.effects import DESTROYED, DISCARD, TROPHIES
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Move, Season
from companion.games.circle_of_power.scoring import KNOCK_OUT, SeasonResult
from companion.games.circle_of_power.setup import BASIC, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.dashboard.cards import card_chip
from companion.games.circle_of_power.dashboard.widgets.seasons import closest_words
from companion.games.circle_of_power.dashboard.words import line_name, names_list
from companion.games.circle_of_power.dashboard.screens import TCSS

__all__ = ["SeasonSettlement", "SeasonStory", "season_story", "settlement_steps"]


@dataclass
class SeasonStory:
    """Where the cards of a season's lines came from: each trophy's loser and action, each
    trophy lost and how, each destroyed city's attacker and action."""

    won: dict[Card, tuple[str, int]] = field(default_factory=dict)
    """A trophy: whom it was taken from, in which action."""
    lost: list[tuple[str, Card, str, int]] = field(default_factory=list)
    """(owner, trophy, how, action): trophies discarded by a retake or a rebellion."""
    destroyed: dict[tuple[str, Card], tuple[str, int]] = field(default_factory=dict)
    """(owner, city): who destroyed it, in which action."""
    after: CircleState | None = None
    """The game as it stood right after the season."""


def season_story(state: CircleState, moves: Sequence[Move], number: int) -> SeasonStory:
    """The story of season ``number`` of the game ``moves`` make (replayed from the start)."""
    replay = state.game.new_state(state.setup, keep_history=False)
    story = SeasonStory()
    for move in moves:
        if type(move) is Season and replay.season_number == number:
            break
        fx = replay.apply(move)
        if replay.season_number != number or fx.player is None:
            if fx.result is not None and fx.result.number == number:
                story.after = replay
                break
            continue
        for t in fx.transfers:
            if not isinstance(t.card, Card):
                continue
            if t.destination == TROPHIES and t.source_owner is not None:
                story.won[t.card] = (t.source_owner, fx.action)
            elif t.source == TROPHIES and t.destination == DISCARD and t.source_owner is not None:
                how = "to a rebellion" if fx.kind == "regroup" else f"to {fx.player}'s retake"
                story.lost.append((t.source_owner, t.card, how, fx.action))
            elif t.destination == DESTROYED and t.destination_owner is not None:
                story.destroyed[(t.destination_owner, t.card)] = (fx.player, fx.action)
        if fx.result is not None and fx.result.number == number:
            story.after = replay
            break
    return story


def _points(result: SeasonResult, story: SeasonStory, variant: str) -> Text:
    t = Text()
    for k, name in enumerate(result.seats):
        if k:
            t.append("\n")
        points = result.points.get(name, 0)
        t.append(f"{name}: {points} point{'s' if points != 1 else ''}", style="bold")
        cards = result.trophies.get(name, ())
        if cards:
            t.append(" - ")
            for j, card in enumerate(cards):
                if j:
                    t.append(", ")
                t.append_text(card_chip(card))
                origin = story.won.get(card)
                if origin is not None:
                    t.append(f" taken from {origin[0]} in action {origin[1]}")
        else:
            t.append(f" - nothing in {name}'s {line_name(variant)}", style="dim")
        for owner, card, how, action in story.lost:
            if owner == name:
                t.append("; lost ")
                t.append_text(card_chip(card))
                t.append(f" {how} in action {action}")
    return t


def _destroyed(result: SeasonResult, story: SeasonStory, totals: dict[str, int]) -> Text:
    t = Text()
    for name in result.seats:
        cards = result.destroyed_cards.get(name, ())
        if not cards:
            continue
        if t.plain:
            t.append("\n")
        t.append(f"{name}: ", style="bold")
        for j, card in enumerate(cards):
            if j:
                t.append(", ")
            t.append_text(card_chip(card))
            by = story.destroyed.get((name, card))
            if by is not None:
                t.append(f" by {by[0]} in action {by[1]}")
        if is_dummy(name):
            t.append("; a dummy's cities count for nothing (C18)", style="dim")
        else:
            counted = result.destroyed.get(name, 0)
            t.append(f"; {counted} count{'s' if counted == 1 else ''}, {min(totals.get(name, 0), KNOCK_OUT)} of {KNOCK_OUT} in all (C18)")
    if not t.plain:
        t.append("No city was destroyed this season.", style="dim")
    if result.knocked_out:
        t.append(f"\nKnocked out: {names_list(result.knocked_out)}: five holy cities destroyed (C18); a dummy takes the seat from next season (C4).", style="bold")
    return t


def _totals(state: CircleState, result: SeasonResult) -> Table:
    variant = state.variant
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("emperor")
    if variant != LONELY_TYRANT:
        table.add_column("season", justify="right")
        table.add_column("total", justify="right")
    if variant != BASIC:
        table.add_column("destroyed", justify="right")
    for name in result.totals:
        row: list[Text | str] = [Text(name + (" (out)" if name in state.knocked_out else ""), style="bold")]
        if variant != LONELY_TYRANT:
            row += [str(result.points.get(name, 0)) if name in result.seats else "-", Text(str(result.totals[name]), style="bold reverse")]
        if variant != BASIC:
            row.append("-" if is_dummy(name) else f"{min(result.destroyed_totals.get(name, 0), KNOCK_OUT)}/{KNOCK_OUT}")
        table.add_row(*row)
    return table


def _season_move(moves: Sequence[Move], number: int) -> Season | None:
    """The set-up of season ``number`` among ``moves``, ``None`` when it is not yet made."""
    seasons = [m for m in moves if type(m) is Season]
    return seasons[number - 1] if len(seasons) >= number else None


def verdict(state: CircleState, result: SeasonResult, moves: Sequence[Move] = ()) -> str:
    """Who wins, or why another season is played and how it is set up (C4, C5, C17, C18): as
    the table set it up, once it has (``moves``), else as the rules place it."""
    outcome = state.outcome() if state.results and state.results[-1].number == result.number else None
    if outcome is not None:
        return outcome.explain()[0].upper() + outcome.explain()[1:] + "."
    setup = state.setup
    why = []
    if setup.variant != LONELY_TYRANT:
        players = [p for p in setup.players if p not in state.knocked_out]
        best = max((result.totals.get(p, 0) for p in players), default=0)
        why.append(f"no player still in has reached {setup.target} (best {best}, C17)")
    if setup.variant != BASIC:
        left = [p for p in setup.players if p not in state.knocked_out]
        why.append(f"{names_list(left)} {'is' if len(left) == 1 else 'are'} still in (C18)")
    made = _season_move(moves, result.number + 1)
    seats: tuple[str, ...] | None
    dealer: str | None
    if made is not None:
        seats, dealer = made.seats, made.dealer
    elif state.season_number == result.number:
        seats, dealer = state.expected_seats(), state.expected_dealer()
    else:
        seats, dealer = None, None
    nxt = f" Season {result.number + 1}: {dealer} deals (C5); the emperors sit {', '.join(seats)} (C4)." if seats and dealer else ""
    return f"Another season is played: {'; '.join(why)}.{nxt}"


def settlement_steps(state: CircleState, result: SeasonResult, moves: Sequence[Move]) -> list[tuple[str, RenderableType]]:
    """The settlement of season ``result``, one point at a time: (title, body)."""
    story = season_story(state, moves, result.number)
    variant = state.variant
    after = story.after
    steps: list[tuple[str, RenderableType]] = []
    cut = " It was cut short: the Lonely Tyrant is left (C18)." if result.cut_short else ""
    steps.append((f"End of season {result.number}", Text(f"Dealt by {result.dealer}; the emperors sat {', '.join(result.seats)}.{cut}")))
    if variant != LONELY_TYRANT:
        steps.append(("Points: one per trophy in each line (C16)", _points(result, story, variant)))
    if variant != BASIC:
        totals = dict(result.destroyed_totals)
        steps.append((f"Destroyed cities ({'C19' if variant != LONELY_TYRANT else 'C18'})", _destroyed(result, story, totals)))
    steps.append(("Totals", _totals(state, result)))
    closest = closest_words(after if after is not None else state, with_season=False)
    if closest:
        steps.append(("Closest to the end", Text(closest)))
    steps.append(("Verdict", Text(verdict(state, result, moves), style="bold")))
    return steps


class SeasonSettlement(Settlement):
    """Walks through the settlement of a season, one point per key press (or on the clock of
    the demo table)."""

    CSS_PATH = TCSS

    def __init__(self) -> None:
        super().__init__()
        self.result: SeasonResult | None = None

    def load(self, state: CircleState, result: SeasonResult, moves: Sequence[Move]) -> None:
        """Season ``result`` of ``state``'s game to settle (``moves``: the game's, at least to
        the season's end); the screen is installed once and shown for every season."""
        self.result = result
        self.steps = settlement_steps(state, result, moves)
        self.begin()

    def heading(self) -> str | None:
        result = self.result
        return None if result is None else f"Settlement of season {result.number} (dealer {result.dealer})"
