"""The end of a round and of the game: the last capturer takes what is left in the centre (R6),
the round is scored with its reasons (R8-R12, :mod:`.scoring`), and the game is won by a side
holding every Power card (R13) or reaching the target ahead of every other side (R14)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.position import GameBase, Phase
from companion.games.rule_of_power.engine.scoring import RoundScore, score_round

__all__ = ["Termination", "Outcome", "RoundResult", "Rounds"]


class Termination(enum.Enum):
    """How a game ended."""

    TARGET = "target"
    """A side reached the target with a total greater than every other side's (R14)."""
    RULE_OF_POWER = "rule_of_power"
    """A side held every Power card at the end of a round (R13)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: str


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: its dealer, the scores with their reasons, what the last capturer
    swept up at the end (R6), and the game totals after it."""

    number: int
    dealer: str
    score: RoundScore
    last_capturer: str | None
    leftover: tuple[Card, ...]
    totals: Mapping[str, int]


class Rounds(GameBase):
    """The state's part for the scores: the running ones and a round's end (R6, R8-R14)."""

    def captured_by_side(self) -> dict[str, tuple[Card, ...]]:
        """Each side's captured cards so far this round, team stacks pooled."""
        sides = self.setup.sides
        out: dict[str, tuple[Card, ...]] = dict.fromkeys(sides, ())
        for k, stack in zip(self._side_index, self._core.stacks):
            out[sides[k]] += stack
        return out

    def sweeps_by_side(self) -> dict[str, int]:
        sides = self.setup.sides
        out = dict.fromkeys(sides, 0)
        for k, sweeps in zip(self._side_index, self._core.sweeps):
            out[sides[k]] += len(sweeps)
        return out

    def provisional_score(self) -> RoundScore:
        """The round's points as if it ended now (the running scores a dashboard shows)."""
        return score_round(self.captured_by_side(), self.sweeps_by_side(), expansion=self.setup.expansion, discarded=self._core.discards)

    def _end_round(self) -> None:
        """R6 then R8-R14: the last capturer takes the centre, the round is scored, and the
        game may be won."""
        c = self._core
        leftover = c.centre
        if leftover and c.last_capturer is not None:
            lc = c.last_capturer
            c.stacks[lc] = c.stacks[lc] + leftover
            c.centre = ()
            c.centre_fate = ()
        # What is still in the centre had nobody to take it (R6).
        score = score_round(self.captured_by_side(), self.sweeps_by_side(), expansion=self.setup.expansion, discarded=c.discards, left=c.centre)
        sides = self.setup.sides
        totals = tuple(t + score.sides[s].total for t, s in zip(c.totals, sides))
        c.totals = totals
        result = RoundResult(
            number=c.round_no,
            dealer=self.players[c.dealer],
            score=score,
            last_capturer=None if c.last_capturer is None else self.players[c.last_capturer],
            leftover=leftover,
            totals=dict(zip(sides, totals)),
        )
        c.results = c.results + (result,)
        if score.rule_of_power:
            c.outcome = Outcome(Termination.RULE_OF_POWER, score.rule_of_power)
        else:
            best = max(totals)
            leaders = [s for s, t in zip(sides, totals) if t == best]
            if best >= self.setup.target and len(leaders) == 1:
                c.outcome = Outcome(Termination.TARGET, leaders[0])
        c.phase = Phase.OVER if c.outcome else Phase.ROUND
