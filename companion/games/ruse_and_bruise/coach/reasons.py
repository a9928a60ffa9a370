"""Reasons a newcomer can follow, read off the search's own figures, and the risks of each
decision, read off what the playouts saw right after it.

- *Reasons* compare two decisions on the same samples: how often each takes the goal card of
  its column and the most goal points of the round, then the goal points (B26), the new
  areas towards the doubling (B28) and the strength kept in hand (B27), the biggest
  difference first. Only differences of ten percentage points, or a fifth of a point, are
  told.
- *Risks* come from the table played on up to the player's next decision (:class:`TurnWatch`):
  the card just placed sent to its owner's discard pile by an Assassin above it (B12); a
  strong card or a distribution card of the player's turned face up by the next card placed
  below it, for everyone to see (B10); the column closed by a Storm (B13). Each is told from
  a 15 % share of the samples up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.coach.model import Watched
from companion.games.ruse_and_bruise.cards import Influence
from companion.games.ruse_and_bruise.coach.policies import Player, advance
from companion.games.ruse_and_bruise.coach.worlds import RabWorlds
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Place

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["Risk", "TurnWatch", "watch_turn", "category_reasons", "risk_reasons", "risks", "REASON_THRESHOLD", "SHARE_THRESHOLD", "RISK_THRESHOLD"]

#: Expected points below which a difference of one kind is not worth telling.
REASON_THRESHOLD = 0.2
#: A difference of shares (of the samples) below which it is not worth telling.
SHARE_THRESHOLD = 0.1
#: The share of samples from which a risk is worth telling.
RISK_THRESHOLD = 0.15

_SHOWN_CARDS = frozenset(("KING", "QUEEN", "JULIET", "MUSK", "WIZ", "WITCH", "PRINCE", "SQUIRE", "DRAGON", "BEGGAR", "DOPPEL", "HERMIT", "GIANT", "ROMEO"))
"""Cards whose being turned face up tells the others something worth keeping from them: the
strongest numbers and the distribution cards (B18-B26)."""


@dataclass(frozen=True, slots=True)
class Risk:
    """What may happen to the player's card before their next decision."""

    kind: str
    """``"assassin"`` (the card goes to the discard pile, B12), ``"revealed"`` (it is turned
    face up, B10) or ``"storm"`` (its column is closed, B13)."""
    by: str
    chance: float
    text: str
    short: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": self.by, "chance": round(self.chance, 3), "text": self.text, "short": self.short}


class TurnWatch:
    """Counts, over samples, what became of the player's decision up to their next one: the
    game's :class:`~companion.coach.model.Watch`."""

    __slots__ = ("samples", "assassinated", "revealed", "storms", "card", "player")

    def __init__(self) -> None:
        self.samples = 0
        self.player: str | None = None
        """The player whose decision it is: their own Assassin or Storm is theirs to tell."""
        self.assassinated: Counter[str] = Counter()
        """By whose Assassin the card was sent to the discard pile."""
        self.revealed: Counter[str] = Counter()
        """Whose card, placed below it, turned it face up."""
        self.storms: Counter[str] = Counter()
        """Whose Storm closed the column."""
        self.card: Influence | None = None
        """The card of the decision, when the world names it."""

    def merge(self, other: TurnWatch) -> None:
        self.samples += other.samples
        self.assassinated.update(other.assassinated)
        self.revealed.update(other.revealed)
        self.storms.update(other.storms)
        if self.card is None:
            self.card = other.card
        if self.player is None:
            self.player = other.player


def _placed(state: RabState, move: Move) -> tuple[int, int] | None:
    """Where the card of ``move``, just pushed, lies: (column index, slot), ``None`` for a
    decision that placed nothing."""
    c = state._core  # the coach's own part reads the world directly
    if type(move) is Place:
        assert isinstance(move, Place)
        k = move.column - 1
        lay = c.cols[k][-1] if c.cols[k] else None
        return (k, lay.slot) if lay is not None and not lay.up else None
    if type(move) is Cloak and move.placed:
        for k, col in enumerate(c.cols):
            for lay in col:
                if lay.slot == c.slot_next - 1 and not lay.up:
                    return (k, lay.slot)
    return None


def watch_turn(state: RabState, player: str, move: Move, rng: random.Random, policy: Player) -> TurnWatch:
    """Play a world just after ``player``'s ``move`` on with ``policy`` (each player deciding
    from their own view) up to ``player``'s next decision or the round's end, noting what
    became of the card placed; the state is left there."""
    watch = TurnWatch()
    watch.samples = 1
    watch.player = player
    where = _placed(state, move)
    if where is None:
        return watch
    k, slot = where
    me = state.players.index(player)
    c = state._core
    lay = next((x for x in c.cols[k] if x.slot == slot and x.owner == me), None)
    watch.card = lay.card if lay is not None else None
    while True:
        phase = state.phase
        if phase is Phase.ROUND or phase is Phase.OVER or state.to_move == player:
            return watch
        c = state._core
        at = c.at
        who = state.to_move
        if who is None and at is not None:
            ak, pos = at
            acting = c.cols[ak][pos]
            if phase is Phase.TURN and acting.owner == me and acting.slot == slot:
                below = c.cols[ak][pos + 1]
                watch.revealed[state.players[below.owner]] += 1
            elif phase is Phase.ABILITY and acting.card is not None:
                if acting.card.id == "ASSN" and pos + 1 < len(c.cols[ak]):
                    victim = c.cols[ak][pos + 1]
                    if victim.owner == me and victim.slot == slot:
                        watch.assassinated[state.players[acting.owner]] += 1
                        return watch
                elif acting.card.id == "STORM" and ak == k and acting.owner != me:  # one's own Storm is meant
                    watch.storms[state.players[acting.owner]] += 1
        advance(state, rng, policy)


# ---------------------------------------------------------------------- reasons


def _placing(item: MoveAdvice) -> bool:
    return item.details.get("decision") in ("place", "cloak") and item.details.get("column") is not None


def category_reasons(item: MoveAdvice, other: MoveAdvice) -> list[str]:
    """What ``item`` gains or gives up against ``other`` on the common samples, in a
    newcomer's words, the biggest difference first."""
    out: list[str] = []
    if _placing(item) or _placing(other):
        here, there = item.feats.get("column_won", 0.0), other.feats.get("column_won", 0.0)
        if abs(here - there) >= SHARE_THRESHOLD:
            out.append(f"takes the goal card of its column in {here:.0%} of the samples, against {there:.0%} for {other.text}")
    most, most_o = item.feats.get("round_won", 0.0), other.feats.get("round_won", 0.0)
    if abs(most - most_o) >= SHARE_THRESHOLD:
        out.append(f"takes the most goal points of the round in {most:.0%} of the samples, against {most_o:.0%} for {other.text}")
    mine, theirs = item.sample_categories, other.sample_categories
    n = min(len(mine), len(theirs))
    found = []
    for i in range(3):
        d = sum(mine[k][i] - theirs[k][i] for k in range(n)) / n if n else 0.0
        if abs(d) >= REASON_THRESHOLD:
            found.append((abs(d), _points(i, d, other.text)))
    found.sort(key=lambda x: -x[0])
    out.extend(text for _, text in found)
    return out


def _points(kind: int, d: float, other: str) -> str:
    """A difference of one kind, in words: goal points (B26), areas (B28), numbers in hand
    (B27, shown in numbers, not tens)."""
    more = "more" if d > 0 else "fewer"
    if kind == 0:
        return f"takes {abs(d):.1f} {more} goal points this round (B26) than {other}"
    if kind == 1:
        return f"takes {abs(d):.1f} {more} new areas towards the doubling (B28) than {other}"
    kept = "more" if d > 0 else "less"
    return f"keeps about {abs(d) * 10:.0f} {kept} in numbers in hand for the rounds to come (B27) than {other}"


# ---------------------------------------------------------------------- risks


def risk_reasons(watch: TurnWatch | None, move: Move) -> list[Risk]:
    """The risks worth telling of ``move``, strongest first (at most three)."""
    if watch is None or not watch.samples:
        return []
    n = watch.samples
    card = watch.card
    what = f"your {card.id}" if card is not None else "your card"
    column = getattr(move, "column", None)
    out: list[Risk] = []

    def whose(name: str) -> str:
        return "your" if name == watch.player else f"{name}'s"

    killed = sum(watch.assassinated.values())
    if killed / n >= RISK_THRESHOLD:
        by = watch.assassinated.most_common(1)[0][0]
        share = killed / n
        out.append(
            Risk(
                "assassin",
                by,
                share,
                f"risk: the face-down card above it may be {whose(by)} Assassin: {what} would go to your discard pile unturned (B12), "
                f"in about {share:.0%} of the samples",
                f"risk {share:.0%}: an Assassin discards {what} (B12)",
            )
        )
    shown = sum(watch.revealed.values())
    if shown / n >= RISK_THRESHOLD and (card is None or card.id in _SHOWN_CARDS):
        by = watch.revealed.most_common(1)[0][0]
        share = shown / n
        out.append(
            Risk(
                "revealed",
                by,
                share,
                f"risk: {by} places a card below it before your next turn and turns {what} face up (B10), for everyone to see, "
                f"in about {share:.0%} of the samples",
                f"risk {share:.0%}: {by} turns {what} face up (B10)",
            )
        )
    closed = sum(watch.storms.values())
    if closed / n >= RISK_THRESHOLD and column is not None:
        by = watch.storms.most_common(1)[0][0]
        share = closed / n
        out.append(
            Risk(
                "storm",
                by,
                share,
                f"risk: {whose(by)} Storm closes column {column} before your next turn (B13): no card may follow yours there, "
                f"in about {share:.0%} of the samples",
                f"risk {share:.0%}: a Storm closes column {column} (B13)",
            )
        )
    out.sort(key=lambda r: (-r.chance, r.kind, r.by))
    return out[:3]


def risks(worlds: RabWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
    """Each decision's risks."""
    out: dict[Hashable, list[Risk]] = {}
    for group in watched:
        for key, move in group.members:
            out[key] = risk_reasons(group.watch, move)
    return out

