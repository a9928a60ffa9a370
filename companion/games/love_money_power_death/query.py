"""The ``rop legal`` question for Love, Money, Power, Death, as a pure function: a round as far
as it is known (the noble, each player's revealed card or ``?``, the hands and the cards known
out of play), who wins it and why (L8, L9), and what each player not yet seen may commit (L6,
L14). A query that describes no possible moment is refused, naming the ruling.

>>> answer = legal(*parse_query("N3L", "ann=3La,bob=A2,cy=?,dee=4Db", "cy=1Pb+5M+A4", "2Pa+A1"))
>>> answer.to_json()
{'suit': 'L', 'winner': None, 'why': None, 'commits': {'cy': ['1Pb', '5M', 'A4']}}
>>> legal(*parse_query("N3L", "ann=3La,bob=A2,cy=1Pb,dee=4Db")).to_json()
{'suit': 'L', 'winner': 'bob', 'why': 'agent', 'commits': {}}
>>> legal(*parse_query("N3L", "ann=3La,bob=3La"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: L14: 3La is named twice (ann's card and bob's card): a card comes out once
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.love_money_power_death.cards import DEALT, DEALT_COUNT, Card
from companion.games.love_money_power_death.scoring import Why, decide_round, round_reason
from companion.games.love_money_power_death.setup import HAND_SIZE

__all__ = ["LegalAnswer", "legal", "parse_query", "parse_plays", "parse_hands", "parse_cards", "parse_noble"]

Plays = tuple[tuple[str, Card | None], ...]


@dataclass(frozen=True, slots=True)
class LegalAnswer:
    """A round as far as it is known: the ``noble`` (``None`` before it is turned), each
    player's card (``None`` when not seen), the ``winner`` and ``why`` when the noble and every
    card are known (L8, L9), the ``reason`` in words, and each unseen player's possible
    ``commits`` (L6, L14)."""

    noble: Card | None
    plays: Plays
    winner: str | None
    why: Why | None
    reason: str | None
    commits: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The answer as record-format.md gives it: ``suit``, ``winner``, ``why``, ``commits``."""
        return {
            "suit": self.noble.suit if self.noble else None,
            "winner": self.winner,
            "why": self.why.value if self.why else None,
            "commits": {p: [c.id for c in cards] for p, cards in self.commits.items()},
        }

    def lines(self) -> list[str]:
        """The answer in words."""
        noble = self.noble
        out = [f"{noble.id} is the noble: {noble.suit_name}, {noble.rank} crowns" if noble else "The noble is not turned yet (L7)"]
        out.append(", ".join(f"{p} {c.id if c else '?'}" for p, c in self.plays))
        if self.why is not None and noble is not None:
            taken = f"{self.winner} wins {noble.id}" if self.winner else f"Nobody wins {noble.id}"
            out.append(f"{taken}: {self.reason}")
        else:
            unseen = [p for p, c in self.plays if c is None]
            if unseen:
                out.append(f"Not decided: {', '.join(unseen)} {'has' if len(unseen) == 1 else 'have'} not revealed yet")
            else:
                out.append("Not decided: the noble is not turned yet")
        for player, cards in self.commits.items():
            ids = [c.id for c in cards]
            out.append(f"{player} may commit {' or '.join(ids) if len(ids) <= 3 else f'any of {len(ids)} cards: ' + ', '.join(ids)} (L6)")
        return out


def legal(noble: Card | None, plays: Sequence[tuple[str, Card | None]], hands: Mapping[str, Sequence[Card]] | None = None, out: Sequence[Card] = ()) -> LegalAnswer:
    """The round's outcome and the possible commits.

    ``plays`` names every player in seating order with the card they revealed, ``None`` when
    not seen; ``hands`` the cards known in players' hands (for an unseen player the hand they
    commit from, at most three cards; for another what is left of theirs, at most two); ``out``
    further resources and agents known to be in no hand. Raises
    :class:`~companion.contract.errors.IllegalMoveError` (naming the ruling) or
    :class:`~companion.contract.errors.InvalidMoveError` for a query that describes no possible
    moment."""
    hands = dict(hands or {})
    players = [p for p, _ in plays]
    if len(players) < 2:
        raise IllegalMoveError("L4", f"a round has two or more players, not {len(players)}")
    if len(players) > DEALT_COUNT:
        raise IllegalMoveError("L4", f"at most {DEALT_COUNT} players can play (nobles x players <= 42), not {len(players)}")
    for player in players:
        if players.count(player) > 1:
            raise IllegalMoveError("L4", f"each player sits once: {player} is named twice")
    if noble is not None and not noble.is_noble:
        raise IllegalMoveError("L7", f"the round's noble is a noble, not {noble.id}")
    named: dict[Card, str] = {}
    if noble is not None:
        named[noble] = "the noble"

    def mention(card: Card, where: str) -> None:
        if card in named:
            raise IllegalMoveError("L14", f"{card.id} is named twice ({named[card]} and {where}): a card comes out once")
        named[card] = where

    for player, card in plays:
        if card is None:
            continue
        if card.is_noble:
            raise IllegalMoveError("L6", f"{player} revealed {card.id}: nobles are never in a hand")
        mention(card, f"{player}'s card")
    for player, cards in hands.items():
        if player not in players:
            raise InvalidMoveError(f"--hands: {player!r} is not in --plays ({', '.join(players)})")
        revealed = dict(plays)[player] is not None
        most = HAND_SIZE - 1 if revealed else HAND_SIZE
        if len(cards) > most:
            left = "what is left of a hand after its card is revealed" if revealed else "a hand"
            raise IllegalMoveError("L5", f"{player}'s hand: {left} holds at most {most} cards, not {len(cards)}")
        if not revealed and not cards:
            raise IllegalMoveError("L11", f"{player} has no card to commit: every player has a card in every round")
        for card in cards:
            if card.is_noble:
                raise IllegalMoveError("L6", f"{player}'s hand holds {card.id}: nobles are never in a hand")
            mention(card, f"{player}'s hand")
    for card in out:
        if card.is_noble:
            raise InvalidMoveError(f"--out lists resources and agents known to be in no hand, not the noble {card.id}")
        mention(card, "--out")
    pool = tuple(c for c in DEALT if c not in named)
    unseen = [p for p, c in plays if c is None]
    free = [p for p in unseen if p not in hands]
    if len(free) > len(pool):
        raise IllegalMoveError("L14", f"no card is left for {free[len(pool)]} to commit: every resource and agent is named")
    commits = {p: tuple(hands[p]) if p in hands else pool for p in unseen}
    winner = why = reason = None
    if noble is not None and not unseen:
        shown = tuple((p, c) for p, c in plays if c is not None)
        decision = decide_round(noble, shown)
        winner, why, reason = decision.winner, decision.why, round_reason(noble, shown, decision)
    return LegalAnswer(noble, tuple(plays), winner, why, reason, commits)


# ---------------------------------------------------------------------- reading the command line


def parse_noble(text: str | None) -> Card | None:
    """``--noble``: a noble, or nothing before it is turned."""
    if text is None or not text.strip():
        return None
    return Card.from_id(text.strip())


def parse_plays(text: str) -> Plays:
    """``--plays ann=3La,bob=A2,cy=?,dee=`` in seating order: each player's revealed card, or
    ``?`` (or nothing) for a card not seen yet."""
    out: list[tuple[str, Card | None]] = []
    for part in (s.strip() for s in text.split(",")):
        if not part:
            continue
        player, eq, card = part.partition("=")
        player, card = player.strip(), card.strip()
        if not eq or not player:
            raise InvalidMoveError(f"--plays: write name=card (or name=? for a card not seen yet), not {part!r}")
        out.append((player, None if card in ("", "?") else Card.from_id(card)))
    return tuple(out)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards joined by ``+`` (or commas): ``2Pa+A1``."""
    return tuple(Card.from_id(p.strip()) for p in text.replace(",", "+").split("+") if p.strip())


def parse_hands(text: str) -> dict[str, tuple[Card, ...]]:
    """``--hands cy=1Pb+5M+A4,ann=2La``: the cards known in players' hands."""
    out: dict[str, tuple[Card, ...]] = {}
    for part in (s.strip() for s in text.split(",")):
        if not part:
            continue
        player, eq, cards = part.partition("=")
        player = player.strip()
        if not eq or not player:
            raise InvalidMoveError(f"--hands: write name=card+card, not {part!r}")
        if player in out:
            raise InvalidMoveError(f"--hands: {player}'s hand is given twice")
        out[player] = parse_cards(cards)
    return out


def parse_query(noble: str | None, plays: str, hands: str = "", out: str = "") -> tuple[Card | None, Plays, dict[str, tuple[Card, ...]], tuple[Card, ...]]:
    """The arguments of :func:`legal` from the command line's words."""
    return parse_noble(noble), parse_plays(plays), parse_hands(hands), parse_cards(out)
