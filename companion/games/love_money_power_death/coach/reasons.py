"""Reasons a newcomer can follow, read off the search's own figures, and the risks of each
commit, read off what the playouts saw in the round it was made in.

- *Reasons* compare two commits on the same samples: how often each wins this round's noble
  (whose suit nobody knows yet, L7; always told, and the other commit's share beside it from a
  difference of ten points), and the crowns each brings by the end of the game through
  lone agents (L9), the highest card of the noble's suit, and rank alone (L8). A share is told
  from a difference of ten points, crowns from a tenth of a crown.
- *Risks* come from the round the commit is made in (:class:`RoundWatch`): another player's
  lone agent taking the noble (L9), another card beating the player's (L8), the player's card
  tying the highest so that the noble is discarded (L8), the player's agent meeting another
  (L9). Each is told from a 15 % share of the samples up, at most three, the strongest first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.coach.model import Policy, Watched
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.coach.outcome import CATEGORIES
from companion.games.love_money_power_death.coach.policies import play_round
from companion.games.love_money_power_death.scoring import Why
from companion.games.love_money_power_death.state import LmpdState

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["Risk", "RoundWatch", "watch_round", "category_reasons", "risks", "REASON_THRESHOLD", "SHARE_THRESHOLD", "RISK_THRESHOLD"]

#: Crowns below which a difference of one kind is not worth telling.
REASON_THRESHOLD = 0.1
#: A difference of shares (of the samples) below which it is not worth telling.
SHARE_THRESHOLD = 0.1
#: The share of samples from which a risk is worth telling.
RISK_THRESHOLD = 0.15


@dataclass(frozen=True, slots=True)
class Risk:
    """What may happen to the player's commit in its round."""

    kind: str
    """``"agent"`` (another player's lone agent takes the noble, L9), ``"beaten"`` (another
    card beats the player's, L8), ``"tie"`` (the player's card ties the highest: the noble is
    discarded, L8) or ``"cancel"`` (the player's agent meets another, L9)."""
    by: str | None
    """The player most often behind it (``None`` for a tie)."""
    chance: float
    text: str
    short: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": self.by, "chance": round(self.chance, 3), "text": self.text, "short": self.short}


class RoundWatch:
    """Counts, over samples, how the round of the commit went for the player: the game's
    :class:`~companion.coach.model.Watch`."""

    __slots__ = ("samples", "won", "agent", "beaten", "tie", "cancel")

    def __init__(self) -> None:
        self.samples = 0
        self.won = 0
        self.agent: Counter[str] = Counter()
        """Who took the noble with a lone agent."""
        self.beaten: Counter[str] = Counter()
        """Who took it with a card beating the player's (no lone agent)."""
        self.tie = 0
        """The player's card tied the highest: the noble was discarded."""
        self.cancel = 0
        """The player's agent met another agent: both dropped out."""

    def merge(self, other: RoundWatch) -> None:
        self.samples += other.samples
        self.won += other.won
        self.agent.update(other.agent)
        self.beaten.update(other.beaten)
        self.tie += other.tie
        self.cancel += other.cancel


def watch_round(state: LmpdState, player: str, chance: Mapping[str, Policy] | None, rng: random.Random, policy: Policy) -> RoundWatch:
    """Play a world just after ``player``'s commit on to its round's reveal (the others
    committing from their own views), and note how the round went for the player; the state is
    left after the reveal."""
    watch = RoundWatch()
    watch.samples = 1
    number = state.round_number
    play_round(state, chance, rng, policy)
    result = state.rounds[number - 1]
    card = dict(result.plays)[player]
    if result.winner == player:
        watch.won = 1
    elif result.why is Why.AGENT and result.winner is not None:
        watch.agent[result.winner] = 1
    elif result.winner is not None:
        watch.beaten[result.winner] = 1
    elif result.why is Why.TIE and player in result.best:
        watch.tie = 1
    if card.is_agent and len(result.agents) > 1:
        watch.cancel = 1
    return watch


# ---------------------------------------------------------------------- reasons


def _crowns(d: float) -> str:
    return f"{abs(d):.2f} crown{'' if abs(d) == 1 else 's'}"


def category_reasons(item: MoveAdvice, other: MoveAdvice) -> list[str]:
    """What ``item`` gains or gives up against ``other`` on the common samples, in a
    newcomer's words: this round's noble, then the crowns of each kind, the biggest difference
    first."""
    out: list[str] = []
    won, won_o = item.feats.get("noble", 0.0), other.feats.get("noble", 0.0)
    # The chance to win the noble is always told: it is what a newcomer asks first.
    against = f", against {won_o:.0%} for {other.text}" if abs(won - won_o) >= SHARE_THRESHOLD else ""
    out.append(f"wins this round's noble (its suit unknown until everyone has committed, L7) in {won:.0%} of the samples{against}")
    mine, theirs = item.sample_categories, other.sample_categories
    n = min(len(mine), len(theirs))
    found = []
    for i, (_, label, rule) in enumerate(CATEGORIES):
        d = sum(mine[k][i] - theirs[k][i] for k in range(n)) / n if n else 0.0
        if abs(d) >= REASON_THRESHOLD:
            found.append((d, label, rule))
    found.sort(key=lambda x: -abs(x[0]))
    for d, label, rule in found:
        verb = "gains" if d > 0 else "gives up"
        out.append(f"{verb} {_crowns(d)} of {label} ({rule}) by the game's end, compared with {other.text}")
    return out


# ---------------------------------------------------------------------- risks


def _who(counts: Counter[str]) -> tuple[str, str]:
    """The player most often behind it, and how to name them: ``bob``, or ``another player``
    when it is spread over several."""
    name, n = counts.most_common(1)[0]
    return name, name if n * 2 >= sum(counts.values()) else "another player"


def risk_reasons(watch: RoundWatch | None, move: Any) -> list[Risk]:
    """The risks worth telling of ``move`` (a commit), strongest first, at most three."""
    if watch is None or not watch.samples:
        return []
    card = move.card
    label = card.id if type(card) is Card else "card"
    out: list[Risk] = []
    share = sum(watch.agent.values()) / watch.samples
    if share >= RISK_THRESHOLD:
        by, named = _who(watch.agent)
        out.append(Risk(
            "agent", by, share,
            f"risk: {named} reveals the only agent and takes the noble whatever your {label} (L9): about {share:.0%} of the samples",
            f"risk {share:.0%}: {named}'s lone agent (L9)",
        ))
    share = sum(watch.beaten.values()) / watch.samples
    if share >= RISK_THRESHOLD:
        by, named = _who(watch.beaten)
        out.append(Risk(
            "beaten", by, share,
            f"risk: {named} beats your {label} with a higher card of the noble's suit, or of any suit when nobody has it (L8): "
            f"about {share:.0%} of the samples",
            f"risk {share:.0%}: {named} beats it (L8)",
        ))
    share = watch.tie / watch.samples
    if share >= RISK_THRESHOLD:
        out.append(Risk(
            "tie", None, share,
            f"risk: your {label} ties another card as the highest, and the noble is discarded (L8): about {share:.0%} of the samples",
            f"risk {share:.0%}: a tie discards it (L8)",
        ))
    share = watch.cancel / watch.samples
    if share >= RISK_THRESHOLD:
        out.append(Risk(
            "cancel", None, share,
            f"risk: another agent meets your {label}: both drop out and the others contest the noble (L9): "
            f"about {share:.0%} of the samples",
            f"risk {share:.0%}: agents cancel (L9)",
        ))
    out.sort(key=lambda r: (-r.chance, r.kind))
    return out[:3]


def risks(watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
    """Each commit's risks; alike commits share their counts."""
    out: dict[Hashable, list[Risk]] = {}
    for group in watched:
        for key, move in group.members:
            out[key] = risk_reasons(group.watch, move)
    return out
