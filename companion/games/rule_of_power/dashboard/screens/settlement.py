"""The end-of-round settlement: each point and tie-break in turn, the game totals against
the target, the verdict (R6-R14), and the round's biggest mistakes.

The mistakes are the coach's review of the round (``rop review``'s marks, each decision judged
from what its player could see then), worked out in a thread as soon as the settlement is
shown: their section says the coach is going over the round until it is done, and fills in
then; the settlement can be read and closed meanwhile."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.worker import get_current_worker

from companion.coach import Coach, CoachError, Mark, review
from companion.dashboard.screens.settlement import Settlement
from companion.games.rule_of_power.coach.review import biggest, round_span
from companion.games.rule_of_power.dashboard.cards import cards_line
from companion.dashboard.widgets.base import side_label
from companion.games.rule_of_power.dashboard.widgets.pride import pride_table
from companion.games.rule_of_power.engine.game import GameSetup, GameState, Outcome, RoundResult, Termination
from companion.games.rule_of_power.engine.moves import Move
from companion.games.rule_of_power.engine.scoring import POINT_KEYS
from companion.games.rule_of_power.completion import complete_deals

__all__ = ["SettlementScreen", "settlement_steps", "verdict", "mistakes_text", "MISTAKES_TITLE", "MISTAKE_SAMPLES"]

MISTAKES_TITLE = "The round's biggest mistakes (the coach)"
#: Samples per decision: a round reviewed in a second or two of a thread; the same marks
#: every time (``rop review`` takes more, for firmer marks).
MISTAKE_SAMPLES = 8
_SHOWN_MISTAKES = 3

_POINT_NAMES = {
    "world_cards": "Most World cards (R9)",
    "power_cards": "Most Power cards (R9)",
    "fire_dragon": "Fire Dragon (R10)",
    "pride_of_dragons": "Pride of Dragons (R11)",
    "power_master": "Power Master (R12)",
    "power_points": "Power chain (R12)",
    "sweeps": "Clean sweeps (R7)",
}


def _body(explanation: str) -> str:
    """An explanation without its title ('Pride of Dragons: bob, ...' -> 'bob, ...')."""
    head, sep, rest = explanation.partition(": ")
    return rest if sep else explanation


def verdict(setup: GameSetup, result: RoundResult, outcome: Outcome | None, next_dealer: str | None) -> str:
    """Who wins, or why another round is played (R13, R14)."""
    totals = result.totals
    target = setup.target
    if outcome is not None and outcome.termination is Termination.RULE_OF_POWER:
        return f"{outcome.winner} holds every Power card: the Rule of Power wins the game at once, whatever the totals (R13)."
    if outcome is not None:
        t = totals[outcome.winner]
        return f"{outcome.winner} has {t}, at least the target of {target} and more than every other side: {outcome.winner} wins the game (R14)."
    best = max(totals.values())
    leaders = [s for s, t in totals.items() if t == best]
    after = f" Next round: {next_dealer} deals (R15)." if next_dealer else ""
    if best >= target:
        return f"{' and '.join(leaders)} share the lead with {best}: nobody wins on a tie, another round is played (R14).{after}"
    return f"Nobody has reached {target} yet (best {best}): another round is played (R14).{after}"


def settlement_steps(setup: GameSetup, result: RoundResult, outcome: Outcome | None, next_dealer: str | None) -> list[tuple[str, RenderableType]]:
    """The settlement, one point at a time: (title, body)."""
    score = result.score
    steps: list[tuple[str, RenderableType]] = []
    if result.leftover:
        who = result.last_capturer or "nobody (no capture this round), so they count for nobody"
        body = Text(f"Left in the centre after the last card, to {who} (R6): ")
        body.append_text(cards_line(result.leftover))
    else:
        body = Text("The centre was empty after the last card (R6).")
    steps.append(("End of the round", body))
    for race in (score.world_cards, score.power_cards):
        steps.append((race.name + " (R9)", Text(_body(race.explain()))))
    steps.append(("Fire Dragon (R10)", Text(_body(score.dragon.explain()))))
    steps.append(("Pride of Dragons (R11)", Group(pride_table(score.pride), Text(_body(score.pride.explain())))))
    ring = score.power_ring
    holders = Text("Ring cards: ")
    for k, (card, side) in enumerate(ring.ring.items()):
        if k:
            holders.append(", ")
        holders.append(f"{card.long_label} - {side or 'nobody'}")
    steps.append(("Power Ring (R12)", Group(holders, Text(_body(ring.explain())))))
    sweeps = [f"{side} {n}" for side, n in score.sweeps.items() if n]
    steps.append(("Clean sweeps (R7)", Text(", ".join(sweeps) if sweeps else "No clean sweep this round.")))
    if score.rule_of_power:
        steps.append(("Rule of Power (R13)", Text(f"{score.rule_of_power} holds every Power card!", style="bold reverse")))
    sides = list(score.sides)
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("point")
    for s in sides:
        table.add_column(side_label(s), justify="right")
    for key in POINT_KEYS:
        table.add_row(_POINT_NAMES[key], *[str(getattr(score.sides[s], key)) for s in sides])
    table.add_row(Text("Round", style="bold"), *[Text(str(score.sides[s].total), style="bold") for s in sides])
    table.add_row(Text(f"Game total (target {setup.target})", style="bold"), *[Text(str(result.totals[s]), style="bold reverse") for s in sides])
    steps.append(("Points of the round and game totals", table))
    steps.append(("Verdict", Text(verdict(setup, result, outcome, next_dealer), style="bold")))
    return steps


def mistakes_text(marks: Sequence[Mark]) -> Text:
    """The section on the round's biggest mistakes, from the coach's marks of its decisions."""
    if not marks:
        return Text("Every decision this round was forced: nothing to judge.", style="italic")
    worst = biggest(marks, _SHOWN_MISTAKES)
    t = Text()
    if not worst:
        t.append(f"None: each of the {len(marks)} decisions was within 0.1 of the best move's winning chances.", style="italic")
    for k, m in enumerate(worst):
        if k:
            t.append("\n")
        t.append(f"{m.player}: {m.played}", style="bold")
        t.append(f"  {m.verdict.upper()}", style="bold #e5a50a" if m.verdict == "inaccuracy" else "bold #ff5f5f")
        t.append(
            f" (chance to win {m.played_advice.win:.0%} instead of {m.best_advice.win:.0%}, "
            f"about {m.margin_drop:.1f} points fewer this round)",
            style="dim",
        )
        t.append(f"\n  better: {m.best}")
        for why in m.why[:1]:
            t.append(f"\n  {why}", style="italic")
    bad = sum(1 for m in marks if m.verdict != "good")
    t.append(
        f"\n{len(marks)} decisions judged, {bad} marked, each from what its player could see then "
        "(rop review gives every one).",
        style="dim",
    )
    return t


class SettlementScreen(Settlement):
    """Walks through the settlement of a round, one point per key press (or on the clock of
    the demo table)."""

    DEFAULT_CSS = """
    SettlementScreen {
        align: center middle;
    }
    SettlementScreen > Vertical {
        width: 96%;
        max-width: 110;
        height: 94%;
        border: thick $accent;
        background: $surface;
    }
    SettlementScreen #settlement-title {
        text-style: bold;
        background: $accent;
        color: $text;
        padding: 0 1;
        width: 100%;
    }
    SettlementScreen VerticalScroll {
        padding: 0 1;
    }
    SettlementScreen .step {
        margin-bottom: 1;
        height: auto;
    }
    SettlementScreen .step-title {
        text-style: bold underline;
        height: auto;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.result: RoundResult | None = None
        self.review_job: tuple[GameSetup, tuple[Move, ...], int] | None = None
        """The game and the round to review (its setup, the moves to its end, its first move)."""
        self.mistakes: list[Mark] | None = None
        """The coach's marks of the round's decisions, once reviewed."""
        self._reviewed: dict[Hashable, list[Mark]] = {}
        self._reviewing: Hashable = None

    def load(self, state: GameState, result: RoundResult, moves: Sequence[Move] | None = None) -> None:
        """Round ``result`` of ``state``'s game to settle: the game's outcome if it was the last
        round, else who deals the next (R15); the screen is installed once and shown for every
        round. ``moves``: the game's moves (at least to the end of this round), for the round's
        biggest mistakes."""
        last = state.results[-1] if state.results else None
        outcome = state.outcome() if last is not None and last.number == result.number else None
        players = state.players
        next_dealer = None if outcome else players[(players.index(result.dealer) + 1) % len(players)]
        self.settle(state.setup, result, outcome, next_dealer, moves=moves)

    def settle(
        self, setup: GameSetup, result: RoundResult, outcome: Outcome | None, next_dealer: str | None, *, moves: Sequence[Move] | None = None
    ) -> None:
        """The round to settle, with the game's ``outcome`` and the ``next_dealer``."""
        self.result = result
        self.steps = settlement_steps(setup, result, outcome, next_dealer)
        self.review_job = None
        self.mistakes = None
        if moves is not None:
            try:
                begin, end = round_span(moves, result.number)
            except ValueError:
                pass
            else:
                self.review_job = (setup, tuple(moves[:end]), begin)
                self.mistakes = self._reviewed.get(self.review_job)
                body = mistakes_text(self.mistakes) if self.mistakes is not None else Text(
                    "The coach is going over the round's decisions...", style="italic"
                )
                self.steps.append((MISTAKES_TITLE, body))
        self.begin()

    def heading(self) -> str | None:
        result = self.result
        return None if result is None else f"Settlement of round {result.number} (dealer {result.dealer})"

    def all_shown(self) -> None:
        self._start_review()

    def closing(self) -> None:
        self.workers.cancel_group(self, "settlement-review")
        self._reviewing = None

    def _start_review(self) -> None:
        # Only once someone reaches the section: a table tracked by its sensors plays the next
        # round meanwhile, and the review's second or two of processor is better spent there.
        job = self.review_job
        if job is not None and self.mistakes is None and self._reviewing != job:
            self._reviewing = job
            self.run_worker(lambda: self._review(job), thread=True, exclusive=True, group="settlement-review", name="round review")

    @property
    def review_begun(self) -> bool:
        """The coach has been set to this round's decisions (once the section is reached)."""
        return self.review_job is not None and (self._reviewing == self.review_job or self.mistakes is not None)

    @property
    def reviewing(self) -> bool:
        """The round's mistakes are still being worked out."""
        return self.review_job is not None and self.mistakes is None

    def _review(self, job: tuple[GameSetup, tuple[Move, ...], int]) -> None:
        worker = get_current_worker()
        setup, moves, begin = job
        try:
            marks = review(
                setup, complete_deals(moves), coach=Coach("fast"), samples=MISTAKE_SAMPLES, start=begin, stop=lambda: worker.is_cancelled
            )
        except CoachError:
            marks = []  # a view that does not add up (a hand never completed): nothing to tell
        if not worker.is_cancelled:
            self.app.call_from_thread(self._review_done, job, marks)

    def _review_done(self, job: tuple[GameSetup, tuple[Move, ...], int], marks: list[Mark]) -> None:
        self._reviewed[job] = marks
        if job != self.review_job:
            return  # another round's settlement is up now
        self.mistakes = marks
        self.steps[-1] = (MISTAKES_TITLE, mistakes_text(marks))
        self._draw(self.shown)


