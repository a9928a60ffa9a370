"""Who wins a noble (L8-L10) and who wins the game (L13), as pure functions of the cards.

>>> from companion.games.love_money_power_death.cards import Card
>>> c = Card.from_id
>>> decide_round(c("N3P"), [("ann", c("4Mb")), ("bob", c("A2")), ("cy", c("2Pa"))])
Decision(winner='bob', why=<Why.AGENT: 'agent'>, agents=('bob',), best=('bob',))
>>> decide_round(c("N2L"), [("ann", c("1Da")), ("bob", c("3Ma")), ("cy", c("3Pb"))]).why
<Why.TIE: 'tie'>
>>> decide_game(["ann", "bob"], {"ann": (c("N5L"),), "bob": (c("N2M"), c("N3P"))}).tiebreak
<TieBreak.FEWEST_NOBLES: 'fewest-nobles'>
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.games.love_money_power_death.cards import SUIT_NAMES, Card

__all__ = ["Why", "Decision", "RoundResult", "TieBreak", "Outcome", "decide_round", "decide_game", "round_reason"]


class Why(enum.Enum):
    """Why a round's noble went where it did (record-format.md, "Scores")."""

    AGENT = "agent"
    """The only agent of the round won it (L9)."""
    SUIT = "suit"
    """The highest rank among the contestants' cards of the noble's suit won it (L8)."""
    RANK = "rank"
    """No contestant revealed the noble's suit: the highest rank won it (L8)."""
    TIE = "tie"
    """The highest rank was shared: the noble was discarded (L8)."""
    ALL_AGENTS = "all-agents"
    """Every player revealed an agent: the noble was discarded (L9)."""


class Decision(NamedTuple):
    """A round decided: the ``winner`` (``None`` when the noble is discarded), ``why``, the
    players who revealed agents, and ``best``: the players whose cards decided it (the winner;
    the tied players; the agent)."""

    winner: str | None
    why: Why
    agents: tuple[str, ...]
    best: tuple[str, ...]


def decide_round(noble: Card, plays: Sequence[tuple[str, Card]]) -> Decision:
    """The round's winner by L8 and L9, from the noble and every player's revealed card.

    L9: a player who revealed the only agent wins; two or more agents drop out and the others
    are the contestants (every player revealed one: the noble is discarded). L8: among the
    contestants, the highest rank of the noble's suit wins; if none revealed that suit, the
    highest rank of any suit; a shared highest rank discards the noble."""
    agents = tuple(p for p, c in plays if c.is_agent)
    if len(agents) == 1:
        return Decision(agents[0], Why.AGENT, agents, agents)
    if len(agents) == len(plays):
        return Decision(None, Why.ALL_AGENTS, agents, ())
    contestants = [(p, c) for p, c in plays if not c.is_agent] if agents else list(plays)
    suited = [(p, c) for p, c in contestants if c.suit == noble.suit]
    pool, why = (suited, Why.SUIT) if suited else (contestants, Why.RANK)
    top = max(c.rank for _, c in pool)
    best = tuple(p for p, c in pool if c.rank == top)
    if len(best) > 1:
        return Decision(None, Why.TIE, agents, best)
    return Decision(best[0], why, agents, best)


def round_reason(noble: Card, plays: Sequence[tuple[str, Card]], decision: Decision) -> str:
    """Why the round went as it did, in words, with the ruling: ``"bob revealed the only agent
    (A2) (L9)"``."""
    cards = dict(plays)
    why = decision.why
    if why is Why.AGENT:
        who = decision.winner or ""
        return f"{who} revealed the only agent ({cards[who].id}) (L9)"
    if why is Why.ALL_AGENTS:
        return f"every player revealed an agent: {noble.id} is discarded (L9)"
    lead = ""
    if len(decision.agents) > 1:
        lead = f"the agents of {' and '.join(decision.agents)} cancel out (L9); "
    suit = SUIT_NAMES[noble.suit or ""]
    named = [f"{p}'s {cards[p].id}" for p in decision.best]
    if why is Why.SUIT:
        return f"{lead}{named[0]} is the highest {suit} card (L8)"
    if why is Why.RANK:
        return f"{lead}nobody revealed {suit}: {named[0]} is the highest rank (L8)"
    if cards[decision.best[0]].suit == noble.suit:
        return f"{lead}{' and '.join(named)} tie as the highest {suit} cards: {noble.id} is discarded (L8)"
    return f"{lead}nobody revealed {suit}: {' and '.join(named)} tie as the highest ranks: {noble.id} is discarded (L8)"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A decided round (L8-L10): its number (from 1), the noble, every player's revealed card
    in seating order, the winner (``None`` when the noble was discarded), ``why``, and the
    reason in words (:attr:`reason`)."""

    number: int
    noble: Card
    plays: tuple[tuple[str, Card], ...]
    winner: str | None
    why: Why
    agents: tuple[str, ...] = ()
    """The players who revealed an agent (L9)."""
    best: tuple[str, ...] = ()
    """The players whose cards decided the round: the winner, or those tied (L8)."""

    @classmethod
    def decide(cls, number: int, noble: Card, plays: tuple[tuple[str, Card], ...]) -> RoundResult:
        decision = decide_round(noble, plays)
        return cls(number, noble, plays, decision.winner, decision.why, decision.agents, decision.best)

    @property
    def reason(self) -> str:
        """Why the round went as it did, in words, with the ruling (:func:`round_reason`)."""
        return round_reason(self.noble, self.plays, Decision(self.winner, self.why, self.agents, self.best))

    @property
    def discarded(self) -> bool:
        """Whether the noble was discarded (L8, L9, L10)."""
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        """The round as ``rop replay --json`` lists it: noble, plays, winner, why."""
        return {"noble": self.noble.id, "plays": {p: c.id for p, c in self.plays}, "winner": self.winner, "why": self.why.value}


class TieBreak(enum.Enum):
    """What decided the game (L13)."""

    SCORE = "score"
    """One player has the highest score."""
    FEWEST_NOBLES = "fewest-nobles"
    """Among the players sharing the highest score, one has the fewest nobles."""
    SHARED = "shared"
    """Two or more players share the highest score and the fewest nobles: they share the win
    (the whole table, when nobody won a noble)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended (L13): ``winners`` in seating order, ``winner`` the single
    winner (``None`` for a shared win), ``draw``, the ``tiebreak`` that decided, and every
    player's score (``totals``) and number of nobles (``counts``)."""

    winners: tuple[str, ...]
    tiebreak: TieBreak
    totals: tuple[tuple[str, int], ...]
    counts: tuple[tuple[str, int], ...]

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def draw(self) -> bool:
        return len(self.winners) > 1

    def explain(self) -> str:
        """The result in words, with the ruling."""
        totals = dict(self.totals)
        counts = dict(self.counts)
        first = self.winners[0]
        score = totals[first]
        nobles = counts[first]
        if self.tiebreak is TieBreak.SCORE:
            return f"{first} wins with {score} (L13)"
        if self.tiebreak is TieBreak.FEWEST_NOBLES:
            return f"{first} wins: {score} like others, with the fewest nobles ({nobles}) (L13)"
        if score == 0:
            return "nobody won a noble: the whole table shares the win (L13)"
        return f"{' and '.join(self.winners)} share the win: {score} each with {nobles} noble{'s' if nobles != 1 else ''} (L13)"


def decide_game(players: Sequence[str], courts: Mapping[str, Sequence[Card]]) -> Outcome:
    """L13: the highest score (the sum of the ranks in a court) wins; among players sharing it,
    the fewest nobles; players sharing both share the win. The rulebook's third sentence ("the
    lowest combined ranking") is not applied: those still tied have equal sums."""
    totals = {p: sum(c.rank for c in courts.get(p, ())) for p in players}
    counts = {p: len(courts.get(p, ())) for p in players}
    top = max(totals.values())
    best = [p for p in players if totals[p] == top]
    if len(best) == 1:
        tiebreak = TieBreak.SCORE
    else:
        fewest = min(counts[p] for p in best)
        best = [p for p in best if counts[p] == fewest]
        tiebreak = TieBreak.FEWEST_NOBLES if len(best) == 1 else TieBreak.SHARED
    return Outcome(tuple(best), tiebreak, tuple(totals.items()), tuple(counts.items()))
