"""Reviewing a finished game: each decision marked by the drop in winning chances.

The marks follow the spirit of lichess's: winning chances on a scale from -1 (certain loss)
to +1 (certain win), i.e. ``2 * win - 1``, and a decision is marked by how much lower they are
after the move played than after the best move the coach found:

======================  ==================
drop                    mark
======================  ==================
below 0.1               good
0.1 or more             inaccuracy
0.2 or more             mistake
0.3 or more             blunder
======================  ==================

Each decision is judged from what its player could know at that moment (their view then,
never the cards seen later), on common samples for every alternative. Who made a move is the
game's to say (:meth:`State.player_of <companion.contract.State.player_of>`): at a node where
the players commit at once, each commitment is judged from its player's view, in which the
commitments others made before it are still face down. Forced moves (one legal decision) are
not marked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.coach.model import CoachModel, model_of
from companion.coach.search import Coach, MoveAdvice
from companion.coach.stats import paired_interval
from companion.contract import Move, State

__all__ = ["Mark", "review", "verdict", "biggest", "THRESHOLDS"]

#: (drop in winning chances on the -1..1 scale, mark), strongest first.
THRESHOLDS: tuple[tuple[float, str], ...] = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))


def verdict(drop: float) -> str:
    for threshold, name in THRESHOLDS:
        if drop >= threshold:
            return name
    return "good"


@dataclass(slots=True)
class Mark:
    """The judgement of one decision."""

    index: int
    """The move's position in the game's move list (0-based)."""
    player: str
    round: int
    """The scoring period the decision was made in (the game's round, season...), 1-based."""
    played: str
    verdict: str
    drop: float
    """Winning chances lost against the best move, on the -1..1 scale."""
    margin_drop: float
    """Expected points of the period lost against the best move."""
    best: str
    played_advice: MoveAdvice
    best_advice: MoveAdvice
    why: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "player": self.player,
            "round": self.round,
            "played": self.played,
            "verdict": self.verdict,
            "drop": round(self.drop, 3),
            "margin_drop": round(self.margin_drop, 3),
            "win_played": round(self.played_advice.win, 3),
            "win_best": round(self.best_advice.win, 3),
            "best": self.best,
            "why": list(self.why),
        }


def review(
    setup: Any,
    moves: Sequence[Move],
    player: str | None = None,
    *,
    coach: Coach | None = None,
    samples: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    start: int = 0,
    stop: Callable[[], bool] | None = None,
) -> list[Mark]:
    """Mark every decision of ``player`` (everyone's when ``None``) in the game ``moves`` of
    ``setup`` (a game's :class:`~companion.contract.Setup`), from the move at index
    ``start`` on (the moves before it are only replayed).

    Each decision is searched from the view its player had before it, with the coach's
    budget (or exactly ``samples`` samples, for repeatable results). ``stop`` is asked
    before each decision: when it says so, the marks so far are returned."""
    coach = coach or Coach("default")
    model = model_of(setup.game)
    game = setup.game.new_state(setup, keep_history=True)  # the coach may read what was played
    marks: list[Mark] = []
    for index, move in enumerate(moves):
        if stop is not None and stop():
            break
        who = game.player_of(move) if index >= start and game.deciding else None
        if who is not None and (player is None or who == player) and len(model.decisions(game, who)) > 1:
            # The coach's own seed, as a hint of the same position takes it: one estimate of one
            # position, whichever tool asks.
            advice = coach.advise(game, who, samples=samples)
            mark = _mark(model, game, index, who, move, advice.find(move), advice.best)
            if mark is not None:
                marks.append(mark)
        game.push(move)
        if progress:
            progress(index + 1, len(moves))
    return marks


def _mark(model: CoachModel, game: State, index: int, who: str, move: Move, played: MoveAdvice | None, best: MoveAdvice) -> Mark | None:
    """The mark of ``who``'s ``move`` (``played``: the search's advice on it) against the best move;
    ``None`` for a move the search did not rank."""
    if played is None:
        return None
    drop = sure_drop(best, played)
    why: list[str] = []
    if played is not best:
        why = model.reasons(best, played)[:3]
        why += [r.text for r in played.risks][:2]
    return Mark(
        index=index,
        player=who,
        round=model.period_of(game),
        played=model.describe(move),
        verdict=verdict(drop),
        drop=drop,
        margin_drop=max(0.0, best.margin - played.margin),
        best=best.text,
        played_advice=played,
        best_advice=best,
        why=why,
    )


def sure_drop(best: MoveAdvice, played: MoveAdvice) -> float:
    """Winning chances (-1..1 scale) ``played`` loses against ``best``, when the samples show
    it for sure: the 95 % interval of their difference on the common samples lies above zero.
    The best of many moves measured on a few samples looks better than it is, and a move
    within that noise of it is no mistake: the coach's own choices are then rarely marked."""
    if played is best or best.sample_wins is played.sample_wins:
        return 0.0
    n = min(len(best.sample_wins), len(played.sample_wins))
    if n >= 2:
        _, low, _ = paired_interval(best.sample_wins[:n], played.sample_wins[:n])
        if low <= 0.0:
            return 0.0
    return max(0.0, 2.0 * (best.win - played.win))


def biggest(marks: Sequence[Mark], n: int = 3) -> list[Mark]:
    """The ``n`` worst decisions that are marked (inaccuracy or worse), the biggest drop in
    winning chances first (in game order among equals)."""
    bad = [m for m in marks if m.verdict != "good"]
    return sorted(bad, key=lambda m: (-m.drop, m.index))[:n]
