"""Reasons a beginner can follow, read off the search's own statistics.

Two kinds:

- *What changes hands*: for each kind of point (most World cards and most Power cards R9,
  the Fire Dragon R10, the Pride of Dragons R11, the Power Ring and its chain R12, clean sweeps
  R7, the Rule of Power R13), the expected difference between this move and the move it is
  compared with, over the same samples. Only differences of a tenth of a point or more are
  told.
- *Risks*: right after the move, in every sampled world, what the next player (an opponent)
  could take from the centre; a card of value, or a clean sweep, that they could take in a
  fair share of the samples is named, with how many unseen World cards would do it (R4, R5).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.rule_of_power.coach.outcome import CATEGORIES
from companion.games.rule_of_power.coach.policies import Policy, play_turn
from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Pass, Play

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["Risk", "ThreatCounter", "category_reasons", "risk_reasons", "short_move", "follow_until_turn", "REASON_THRESHOLD", "RISK_THRESHOLD"]

#: Expected points below which a difference of one kind is not worth telling.
REASON_THRESHOLD = 0.1
#: The share of samples from which a threat is worth telling.
RISK_THRESHOLD = 0.15


@dataclass(frozen=True, slots=True)
class Risk:
    """What the next player could take right after the move, and how likely they hold it."""

    kind: str
    """``"sweep"`` (the next player could clear the centre for a point, R7), ``"card"`` (the
    next player could take this card at once), ``"later"`` (an opponent took it before the
    player's next turn in the playouts, e.g. after a Mystic Crystal, R5)."""
    card: Card | None
    by: str
    chance: float
    unseen_takers: int
    """How many World cards the player cannot see would make that capture."""
    text: str
    short: str = ""
    """The same in a few words, for a narrow panel: ``risk 40%: bob takes 7P with any of 3 unseen (7s)``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "card": self.card.id if self.card else None,
            "by": self.by,
            "chance": round(self.chance, 3),
            "unseen_takers": self.unseen_takers,
            "text": self.text,
            "short": self.short,
        }


class ThreatCounter:
    """Counts, over samples, what the next player could capture right after a move, and
    which centre cards the playouts saw opponents take before the player's next turn: the
    game's :class:`~companion.coach.model.Watch`."""

    __slots__ = ("samples", "takes", "sweeps", "by", "lost", "lost_to", "centre")

    def __init__(self) -> None:
        self.centre: tuple[Card, ...] = ()
        """The centre right after the move, as the first sample saw it."""
        self.samples = 0
        self.takes: Counter[Card] = Counter()
        self.sweeps = 0
        self.by: str | None = None
        self.lost: Counter[Card] = Counter()
        self.lost_to: dict[Card, Counter[str]] = {}

    def taken_later(self, card: Card, by: str) -> None:
        """In one playout, opponent ``by`` took ``card`` before the player moved again."""
        self.lost[card] += 1
        self.lost_to.setdefault(card, Counter())[by] += 1

    def merge(self, other: ThreatCounter) -> None:
        """Add the counts of ``other`` (the same move's, in other samples)."""
        if not self.samples:
            self.centre = other.centre
        self.samples += other.samples
        self.takes.update(other.takes)
        self.sweeps += other.sweeps
        self.by = other.by or self.by
        self.lost.update(other.lost)
        for card, takers in other.lost_to.items():
            self.lost_to.setdefault(card, Counter()).update(takers)

    def renamed(self, swap: dict[Card, Card]) -> ThreatCounter:
        """The same counts for an equivalent move, its interchangeable cards renamed."""
        if not swap:
            return self
        out = ThreatCounter()
        out.samples, out.sweeps, out.by = self.samples, self.sweeps, self.by
        out.centre = tuple(swap.get(c, c) for c in self.centre)
        out.takes = Counter({swap.get(c, c): n for c, n in self.takes.items()})
        out.lost = Counter({swap.get(c, c): n for c, n in self.lost.items()})
        out.lost_to = {swap.get(c, c): n for c, n in self.lost_to.items()}
        return out

    def observe(self, game: GameState, player: str) -> None:
        """``game`` is a sampled world just after ``player``'s move."""
        if not self.samples:
            self.centre = game.centre
        self.samples += 1
        nxt = game.turn
        if game.phase is not Phase.TURN or nxt is None or not game.setup.is_opponent(player, nxt):
            return
        self.by = nxt
        centre = game.centre
        if not centre:
            return
        takes: set[Card] = set()
        sweep = False
        counts = game.deal_number != 1 and not game.is_last_deal
        for move in game.legal_moves:
            if type(move) is Play and move.capture:
                takes.update(move.capture)
                if counts and len(move.capture) == len(centre) and move.card.is_world and not game.is_empowered(move.card):
                    sweep = True
        self.takes.update(takes)
        self.sweeps += sweep


def follow_until_turn(game: GameState, player: str, deck: list[Card], rng: random.Random, policy: Policy, threats: ThreatCounter) -> None:
    """Play ``game`` (a sampled world just after ``player``'s move) on with ``policy`` (each
    player deciding from their own view) until the player's next turn or the end of the deal,
    noting in ``threats`` the centre cards opponents take meanwhile."""
    exposed = set(game.centre)
    setup = game.setup
    while exposed and game.phase is Phase.TURN and game.turn != player:
        mover = game.turn
        assert mover is not None
        move = play_turn(game, deck, rng, policy)
        if type(move) is Play and move.capture and setup.is_opponent(player, mover):
            for card in move.capture:
                if card in exposed:
                    threats.taken_later(card, mover)
                    exposed.discard(card)
        game.push(move, check=False)


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def short_move(move: Move) -> str:
    """A move in a few words, to name the move another is compared with: ``10E``, ``6M
    taking 5P+1P``, ``Thief on bob``, ``drawing a Fate card``."""
    if type(move) is Play:
        text = move.card.short
        if move.capture:
            return f"{text} taking {'+'.join(c.short for c in move.capture)}"
        return f"{text} on {move.target}" if move.target else text
    if type(move) is DrawFate:
        return "drawing a Fate card"
    if type(move) is Pass:
        return "passing"
    return str(move)


def category_reasons(item: MoveAdvice, other: MoveAdvice) -> list[str]:
    """Which points this move wins more or fewer of than ``other``, on average over the same
    samples, the biggest difference first: ``about 1.1 points more from the Power Ring and its
    chain (R12) than with 10E``. A move better on the whole but behind on every point told
    says first how much it wins in all, so that its reasons are not losses only."""
    mine, theirs = item.sample_categories, other.sample_categories
    n = min(len(mine), len(theirs))
    if not n:
        return []
    found = []
    for i, (_, label, rule) in enumerate(CATEGORIES):
        d = sum(mine[k][i] - theirs[k][i] for k in range(n)) / n
        if abs(d) >= REASON_THRESHOLD:
            found.append((d, label, rule))
    found.sort(key=lambda x: -abs(x[0]))
    than = short_move(other.move)
    out = []
    ahead = item.margin - other.margin
    if ahead >= REASON_THRESHOLD and not any(d > 0 for d, _, _ in found):
        out.append(f"about {ahead:.1f} points more this round in all than with {than}")
    for d, label, rule in found:
        out.append(f"about {abs(d):.1f} points {'more' if d > 0 else 'less'} from {label} ({rule}) than with {than}")
    mine_rop, theirs_rop = item.feats["rule_of_power"], other.feats["rule_of_power"]
    if mine_rop != theirs_rop and abs(mine_rop - theirs_rop) >= 0.02:
        out.append(f"the Rule of Power (R13) in {mine_rop:.0%} of the deals tried, against {theirs_rop:.0%} with {than}")
    return out


@lru_cache(maxsize=4096)
def _options(centre: tuple[Card, ...], value: int, empowered: bool) -> tuple[tuple[Card, ...], ...]:
    # Many unseen cards share a value: their captures are worked out once.
    return tuple(tuple(o) for o in capture_options(centre, value, empowered=empowered))


def _takers(centre: tuple[Card, ...], target: Card | None, unseen: Sequence[Card], empowered: bool) -> int:
    """Unseen World cards that, played next, would take ``target`` (or clear the centre)."""
    n = 0
    for card in unseen:
        assert card.value is not None
        options = _options(centre, card.value, empowered and card.is_wizard)
        if target is None:
            if any(len(o) == len(centre) for o in options) and not (empowered and card.is_wizard):
                n += 1
        elif any(target in o for o in options):
            n += 1
    return n


def _valuable(card: Card) -> bool:
    return card.is_world and (card.value == 7 or card.is_ring or card.is_power)


def risk_reasons(
    threats: ThreatCounter,
    centre: tuple[Card, ...],
    move: Move,
    game: GameState,
    player: str,
    unseen: Sequence[Card],
    takeable: frozenset[Card] = frozenset(),
) -> list[Risk]:
    """The risks worth telling for ``move``, strongest first (at most three): a clean sweep
    left to the next player, and the cards this move exposes: the card it lays, and the
    valuable cards (Dragons, Power cards) that another move would have taken (``takeable``)."""
    if not threats.samples:
        return []
    empowered = game.crystal_in_play
    laid = move.card if type(move) is Play and not move.capture and move.card.to_centre else None

    def exposed(card: Card) -> bool:
        return card in centre and (card is laid or (_valuable(card) and card in takeable))

    out = _sweep_risk(threats, centre, unseen, empowered)
    out += _card_risks(threats, centre, unseen, empowered, exposed)
    told = {r.card for r in out}
    out += _later_risks(threats, lambda card: card not in told and exposed(card))
    out.sort(key=lambda r: -r.chance)
    return out[:3]


def _sweep_risk(threats: ThreatCounter, centre: tuple[Card, ...], unseen: Sequence[Card], empowered: bool) -> list[Risk]:
    """The next player clearing the centre for a clean sweep point (R7), if likely enough."""
    share = threats.sweeps / threats.samples if threats.by else 0.0
    if share < RISK_THRESHOLD:
        return []
    by = threats.by or ""
    k = _takers(centre, None, unseen, empowered)
    total = sum(c.value or 0 for c in centre)
    what = f"any of {k} unseen cards" if k != 1 else "the one unseen card that can"
    return [
        Risk(
            "sweep",
            None,
            by,
            share,
            k,
            f"risk: leaves {len(centre)} card{'s' if len(centre) != 1 else ''} worth {total} in the centre: "
            f"{by} could clear it for a clean sweep point (R7) with {what}, about {share:.0%}",
            f"risk {share:.0%}: {by} clears the centre for a sweep (R7) with {k} unseen card{'s' if k != 1 else ''}",
        )
    ]


def _card_risks(
    threats: ThreatCounter, centre: tuple[Card, ...], unseen: Sequence[Card], empowered: bool, exposed: Callable[[Card], bool]
) -> list[Risk]:
    """The exposed cards the next player could take at once, each with the unseen cards that
    would take it (R4, R5), the likeliest first."""
    out = []
    by = threats.by or ""
    for card in sorted(threats.takes, key=lambda c: (-threats.takes[c], c.index)):
        share = threats.takes[card] / threats.samples
        if not exposed(card) or share < RISK_THRESHOLD:
            continue
        k = _takers(centre, card, unseen, empowered)
        alone = " alone" if len(centre) == 1 else ""
        with_, few = _taken_with(k, centre, card, unseen, empowered)
        out.append(
            Risk(
                "card",
                card,
                by,
                share,
                k,
                f"risk: leaves {card.long_label}{alone} in the centre: {by} could take it with {with_}, about {share:.0%}",
                f"risk {share:.0%}: {by} takes {card.short}{' (alone)' if alone else ''} with {few}",
            )
        )
    return out


def _taken_with(k: int, centre: tuple[Card, ...], card: Card, unseen: Sequence[Card], empowered: bool) -> tuple[str, str]:
    """The ``k`` unseen cards that would take ``card``, in a sentence and in a few words."""
    values = sorted({c.value for c in unseen if c.value is not None and _takes_with(centre, card, c, empowered)})
    kinds = ", ".join(f"{v}s" for v in values)
    if k > 1:
        return f"any of {k} unseen cards ({kinds})", f"any of {k} unseen ({kinds})"
    if k == 1:
        return f"the one unseen card that can ({kinds})", f"the one unseen {kinds[:-1]}"
    return "a Fate card (no unseen World card can)", "a Fate card (no unseen World card can)"


def _later_risks(threats: ThreatCounter, exposed: Callable[[Card], bool]) -> list[Risk]:
    """The exposed cards the playouts saw opponents take before the player's next turn (after
    a Mystic Crystal, R5, or by a player further round the table), the likeliest first."""
    out = []
    for card in sorted(threats.lost, key=lambda c: (-threats.lost[c], c.index)):
        share = threats.lost[card] / threats.samples
        if not exposed(card) or share < RISK_THRESHOLD:
            continue
        takers = threats.lost_to[card].most_common()
        who = " or ".join(p for p, _ in takers[:2])
        out.append(
            Risk(
                "later",
                card,
                takers[0][0],
                share,
                0,
                f"risk: {card.long_label} is taken by {who} before your next turn in about {share:.0%} of the playouts",
                f"risk {share:.0%}: {who} takes {card.short} before your next turn",
            )
        )
    return out


def _takes_with(centre: tuple[Card, ...], target: Card, card: Card, empowered: bool) -> bool:
    assert card.value is not None
    return any(target in o for o in _options(centre, card.value, empowered and card.is_wizard))
