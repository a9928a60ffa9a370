"""The end of a round and of the game: each round's distribution (B18-B27) and the scores
(B28).

A player's plain score is the sum of their goal cards' values. With goal cards of all six
areas they may instead double the sum of six of them, one per area, less 1 point for each
other goal card; the companion takes the highest card of each area, and the score is the
better of the two. The highest score wins; an equal highest score is a draw.

>>> cards = [Goal.from_id(g) for g in ("alchemy-1", "fencing-4", "agriculture-5", "trade-2", "religion-2", "music-1", "agriculture-3a")]
>>> s = score(cards)
>>> s.plain, s.doubled, s.score, s.words()
(18, 29, 29, '1+4+5+2+2+1 = 15, doubled 30, less 1 for 1 other goal card = 29 (better than the plain 18, B28)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.ruse_and_bruise.cards import AREAS, Goal
from companion.games.ruse_and_bruise.distribution import ColumnDistribution

__all__ = ["Score", "score", "score_of", "RoundResult", "Outcome", "decide"]


@dataclass(frozen=True, slots=True)
class Score:
    """A player's score (B28): ``plain``, the sum of their goal cards; ``doubled``, with goal
    cards of all six areas, twice the sum of the highest card of each area (``six``) less 1
    for each other goal card (``None`` without all six areas); ``score``, the better."""

    plain: int
    doubled: int | None
    score: int
    six: tuple[Goal, ...] = ()
    others: int = 0
    missing: tuple[str, ...] = ()
    """The areas of which the player has no goal card."""

    def to_json(self) -> dict[str, Any]:
        return {"plain": self.plain, "doubled": self.doubled, "score": self.score}

    def words(self) -> str:
        """How the score is made, in words."""
        if self.doubled is None:
            return f"{self.plain} (no goal card of {', '.join(self.missing)}: no doubling, B28)"
        six = sum(g.value for g in self.six)
        less = f", less {self.others} for {self.others} other goal card{'s' if self.others != 1 else ''}" if self.others else ""
        better = f"better than the plain {self.plain}" if self.doubled > self.plain else f"the plain {self.plain} is better" if self.plain > self.doubled else f"as the plain {self.plain}"
        return f"{'+'.join(str(g.value) for g in self.six)} = {six}, doubled {2 * six}{less} = {self.doubled} ({better}, B28)"


def score(cards: Sequence[Goal]) -> Score:
    """The score of a player holding goal ``cards`` (B28)."""
    plain = sum(g.value for g in cards)
    best: dict[str, Goal] = {}
    for g in cards:
        if g.area not in best or g.value > best[g.area].value:
            best[g.area] = g
    if len(best) < len(AREAS):
        return Score(plain, None, plain, missing=tuple(a for a in AREAS if a not in best))
    six = tuple(best[a] for a in AREAS)
    others = len(cards) - len(six)
    doubled = 2 * sum(g.value for g in six) - others
    return Score(plain, doubled, max(plain, doubled), six, others)


@lru_cache(maxsize=4096)
def score_of(cards: tuple[Goal, ...]) -> Score:
    """:func:`score` of a tuple of goal cards, kept for the next time it is asked (a player's
    goal cards change only at a round's end, their score is read after every move)."""
    return score(cards)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round distributed (B18-B27): its ``number``, each column's distribution, column 1
    first (:class:`~companion.games.ruse_and_bruise.distribution.ColumnDistribution`), and the
    winners of the goal cards (``None`` where nobody takes part)."""

    number: int
    columns: tuple[ColumnDistribution, ...]

    @property
    def winners(self) -> tuple[str | None, ...]:
        return tuple(c.winner for c in self.columns)

    def to_json(self) -> dict[str, Any]:
        """``{"columns": [...]}`` as ``rop replay --json`` prints a round."""
        return {"columns": [c.to_json(k) for k, c in enumerate(self.columns, 1)]}

    def words(self) -> str:
        """``"music-3a to bob (highest), fencing-5 to ann (closest), trade-1 to nobody"``."""
        return ", ".join(f"{c.goal.id} to {c.winner or 'nobody'} ({c.why})" for c in self.columns)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended (B28): the ``winner`` (``None`` for a draw), whether it is a
    ``draw``, and every player's :class:`Score`, as (player, score) pairs."""

    winner: str | None
    draw: bool
    score_pairs: tuple[tuple[str, Score], ...]

    @property
    def scores(self) -> dict[str, Score]:
        return dict(self.score_pairs)

    def explain(self) -> str:
        """``"ann wins with 29"``, ``"a draw: ann and bob with 20 each"``."""
        best = max(s.score for _, s in self.score_pairs)
        if self.winner is not None:
            return f"{self.winner} wins with {best}"
        tied = [p for p, s in self.score_pairs if s.score == best]
        return f"a draw: {' and '.join(tied)} with {best} each"


def decide(won: Mapping[str, Sequence[Goal]]) -> Outcome:
    """The game's end (B28): every player's score, the highest wins, a shared highest is a
    draw."""
    scores = tuple((p, score(cards)) for p, cards in won.items())
    best = max(s.score for _, s in scores)
    top = [p for p, s in scores if s.score == best]
    return Outcome(top[0] if len(top) == 1 else None, len(top) > 1, scores)
