"""Reasons a beginner can follow, read off the search's own figures, and the risks of each
decision, read off what the playouts saw right after it.

- *Reasons* compare two decisions on the same samples: how often each wins the initiative
  (a card) or keeps it for the next action (an act: the rulebook's winning strike), how often
  the player holds a card of their trump suit when the next action begins (the look-ahead:
  the city held and the next city decide the trump suit, C9), how often their city is taken
  over, and the points that change hands through conquests (C12), retakes (C13), rebellions
  (C14) and destroyed cities (C18). Only differences of ten percentage points, or a tenth of
  a point, are told.
- *Risks* come from the first action decided after the decision (:class:`ActionWatch`): who
  wins its initiative and what they then do. An opponent player taking over the player's
  city, a city taken that costs the player a trophy or a holy city, an opponent player
  winning a trophy, the player's own city rebelling (C14): each is told from a 15 % share of
  the samples up, with, for a card, how many unseen cards would let that opponent beat it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.coach.model import Watched
from companion.games.circle_of_power.cards import BLACK, Card, attack_reason, colour_in_attack
from companion.games.circle_of_power.coach.outcome import CATEGORIES
from companion.games.circle_of_power.coach.policies import Player, advance, decide
from companion.games.circle_of_power.coach.worlds import Chance, CircleWorlds
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Act, Conquer, Move, Play, Regroup, Retake
from companion.games.circle_of_power.rules import strength, trump_suit
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy

if TYPE_CHECKING:
    from companion.coach.search import MoveAdvice

__all__ = ["Risk", "ActionWatch", "watch_action", "category_reasons", "risk_reasons", "REASON_THRESHOLD", "SHARE_THRESHOLD", "RISK_THRESHOLD"]

#: Expected points below which a difference of one kind is not worth telling.
REASON_THRESHOLD = 0.1
#: A difference of shares (of the samples) below which it is not worth telling.
SHARE_THRESHOLD = 0.1
#: The share of samples from which a risk is worth telling.
RISK_THRESHOLD = 0.15


@dataclass(frozen=True, slots=True)
class Risk:
    """What may happen to the player in the first action decided after the move."""

    kind: str
    """``"city"`` (an emperor takes over the player's city), ``"trophy"`` (an opponent player
    wins a trophy elsewhere) or ``"rebellion"`` (the player wins with nothing to attack and
    their city rebels, C14)."""
    by: str
    chance: float
    text: str
    short: str
    unseen_beaters: int | None = None
    """For a card, how many battle cards the player cannot see would let ``by``, who plays
    after them, beat it (C9); ``None`` otherwise."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "by": self.by,
            "chance": round(self.chance, 3),
            "unseen_beaters": self.unseen_beaters,
            "text": self.text,
            "short": self.short,
        }


class ActionWatch:
    """Counts, over samples, who won the first action decided after the decision and what
    they did with it: the game's :class:`~companion.coach.model.Watch`."""

    __slots__ = ("samples", "wins", "taken", "costly", "how", "cities", "gains", "rebellions", "rebel_city")

    def __init__(self) -> None:
        self.samples = 0
        self.wins: Counter[str] = Counter()
        """Who held the initiative."""
        self.taken: Counter[str] = Counter()
        """Who took over the player's city."""
        self.costly: Counter[str] = Counter()
        """... and cost the player a trophy (a retake, C13) or a holy city (C18, C19)."""
        self.how: dict[str, Counter[str]] = {}
        """By whom, how: ``"conquer"``, ``"retake"``, ``"destroy"``."""
        self.cities: dict[str, Counter[tuple[Card, Card]]] = {}
        """By whom, with which city against which of the player's."""
        self.gains: Counter[str] = Counter()
        """Which opponent player won a trophy from another emperor."""
        self.rebellions = 0
        """The player won with nothing to attack and lost a trophy to the rebellion (C14)."""
        self.rebel_city: Counter[Card] = Counter()

    def merge(self, other: ActionWatch) -> None:
        self.samples += other.samples
        self.wins.update(other.wins)
        self.taken.update(other.taken)
        self.costly.update(other.costly)
        for by, how in other.how.items():
            self.how.setdefault(by, Counter()).update(how)
        for by, pairs in other.cities.items():
            self.cities.setdefault(by, Counter()).update(pairs)
        self.gains.update(other.gains)
        self.rebellions += other.rebellions
        self.rebel_city.update(other.rebel_city)

    def observe(self, state: CircleState, player: str, act: Act) -> None:
        """``act`` is the winner's, about to be pushed on ``state``."""
        winner = act.player
        self.wins[winner] += 1
        variant = state.variant
        if isinstance(act, (Conquer, Retake)):
            victim = act.victim
            theirs, mine = state.city(winner), state.city(victim)
            assert theirs is not None and mine is not None
            if victim == player:
                how = "retake" if isinstance(act, Retake) else "conquer"
                if isinstance(act, Conquer) and not _wins_trophy(variant, theirs, mine):
                    how = "destroy"
                self.taken[winner] += 1
                if how == "destroy" or (isinstance(act, Retake) and act.discard is not None):
                    self.costly[winner] += 1
                self.how.setdefault(winner, Counter())[how] += 1
                self.cities.setdefault(winner, Counter())[(theirs, mine)] += 1
            elif type(act) is Conquer and winner != player and _rival(state, winner) and _wins_trophy(variant, theirs, mine):
                self.gains[winner] += 1
        elif type(act) is Regroup and winner == player and act.discard is not None:
            self.rebellions += 1
            city = state.city(player)
            assert city is not None
            self.rebel_city[city] += 1


def _rival(state: CircleState, name: str) -> bool:
    return not is_dummy(name) and name not in state.knocked_out


def _wins_trophy(variant: str, attacker: Card, defender: Card) -> bool:
    """Whether a conquest makes a trophy (C12), not a destroyed city (C18, C19)."""
    if variant == LONELY_TYRANT:
        return False
    if variant == COLOURED_CITIES:
        return colour_in_attack(defender, attacker) != BLACK
    return True


def watch_action(state: CircleState, player: str, chance: Chance, rng: random.Random, policy: Player) -> ActionWatch:
    """Play a world just after ``player``'s decision on with ``policy`` (each player deciding
    from their own view) up to the first act after it, noting who wins and what they do; the
    state is left after that act."""
    watch = ActionWatch()
    watch.samples = 1
    while True:
        phase = state.phase
        if phase is Phase.ACT:
            break
        if phase is Phase.SEASON or phase is Phase.OVER:
            return watch  # the season (or the game) ended first
        advance(state, chance, rng, policy)
    act = decide(state, chance, rng, policy)
    assert isinstance(act, (Conquer, Retake, Regroup))
    watch.observe(state, player, act)
    state.push(act, check=False)
    return watch


# ---------------------------------------------------------------------- reasons


def _is_play(item: MoveAdvice) -> bool:
    return item.details.get("act") == "play"


def category_reasons(item: MoveAdvice, other: MoveAdvice) -> list[str]:
    """What ``item`` gains or gives up against ``other`` on the common samples, in a
    beginner's words: the initiative, the trump card for the next action, the city, then the
    points of each kind, the biggest difference first."""
    out: list[str] = []
    now = "in this action" if _is_play(item) else "in the next action"
    ini, ini_o = item.feats.get("initiative", 0.0), other.feats.get("initiative", 0.0)
    if abs(ini - ini_o) >= SHARE_THRESHOLD:
        if _is_play(item):
            out.append(f"wins the initiative (C9) in {ini:.0%} of the samples, against {ini_o:.0%} for {other.text}")
        else:
            out.append(
                f"keeps the initiative in the next action in {ini:.0%} of the samples (a winning strike), "
                f"against {ini_o:.0%} for {other.text}"
            )
    ready, ready_o = item.feats.get("trump_ready", 0.0), other.feats.get("trump_ready", 0.0)
    if abs(ready - ready_o) >= SHARE_THRESHOLD:
        out.append(
            f"leaves you a card of your trump suit when the next action begins (C9) in {ready:.0%} of the samples, "
            f"against {ready_o:.0%} for {other.text}"
        )
    taken, taken_o = item.feats.get("city_taken", 0.0), other.feats.get("city_taken", 0.0)
    if abs(taken - taken_o) >= SHARE_THRESHOLD:
        out.append(f"your city is taken over {now} in {taken:.0%} of the samples, against {taken_o:.0%} for {other.text}")
    mine, theirs = item.sample_categories, other.sample_categories
    n = min(len(mine), len(theirs))
    found = []
    for i, (_, label, rule) in enumerate(CATEGORIES):
        d = sum(mine[k][i] - theirs[k][i] for k in range(n)) / n if n else 0.0
        if abs(d) >= REASON_THRESHOLD:
            found.append((d, label, rule))
    found.sort(key=lambda x: -abs(x[0]))
    for d, label, rule in found:
        out.append(f"{_points(d, label, rule)} in expectation, compared with {other.text}")
    return out


#: The kinds of points that are losses: what they tell is fewer or more losses.
_LOSSES = {"rebellions": "to rebellions", "destroyed cities": "to destruction"}


def _points(d: float, label: str, rule: str) -> str:
    """``gains 0.45 points through conquests (C12)``, ``loses 0.20 fewer points to rebellions
    (C14)``: a difference of one kind of points, in words."""
    if label in _LOSSES:
        what = "points" if label == "rebellions" else "cities"
        return f"loses {abs(d):.2f} {'fewer' if d > 0 else 'more'} {what} {_LOSSES[label]} ({rule})"
    return f"{'gains' if d > 0 else 'gives up'} {abs(d):.2f} points through {label} ({rule})"


# ---------------------------------------------------------------------- risks


def _beaters(state: CircleState, player: str, card: Card, by: str, unseen: Sequence[Card]) -> int | None:
    """How many unseen cards would let ``by``, who plays after ``player`` in the action under
    way, beat every card played so far and ``card`` (C9); ``None`` when ``by`` played before."""
    seats = state.seats
    played = [name for name, _ in state.played]
    if by in played or by == player:
        return None
    nxt = state.next_city
    best = strength(card, trump_suit(state.city(player), nxt))
    for name, x in state.played:
        best = max(best, strength(x, trump_suit(state.city(name), nxt)))
    suit = trump_suit(state.city(by), nxt)
    assert by in seats
    return sum(1 for x in unseen if strength(x, suit) >= best)


def _city_risk(watch: ActionWatch, by: str, move: Move, worlds: CircleWorlds) -> Risk:
    state = worlds.state
    share = watch.taken[by] / watch.samples
    how = watch.how[by].most_common(1)[0][0]
    theirs, mine = watch.cities[by].most_common(1)[0][0]
    now = "in this action" if type(move) is Play else "in the next action"
    beaters = None
    win = f"{by} could win the initiative {now}"
    if type(move) is Play:
        beaters = _beaters(state, worlds.player, move.card, by, worlds.unseen)
        if beaters is not None:
            win += f" (any of {beaters} unseen cards beats your {move.card.id} for {by})"
    if how == "retake":
        what, end, word = "retake", "you lose a trophy (C13)", "retakes"
    elif how == "destroy":
        what, end, word = "destroy", "you lose a holy city (C18)", "destroys"
    else:
        what, end, word = "take over", f"{mine.id} becomes {by}'s trophy (C12)", "takes"
    reason = attack_reason(theirs, mine)
    text = f"risk: {win} and {what} your city {mine.id} with {theirs.id} ({reason}): about {share:.0%} of the samples; {end}"
    short = f"risk {share:.0%}: {by} {word} your {mine.id} ({reason})"
    return Risk("city", by, share, text, short, beaters)


def _trophy_risk(watch: ActionWatch, by: str, move: Move, worlds: CircleWorlds) -> Risk:
    share = watch.gains[by] / watch.samples
    now = "in this action" if type(move) is Play else "in the next action"
    beaters = None
    extra = ""
    if type(move) is Play:
        beaters = _beaters(worlds.state, worlds.player, move.card, by, worlds.unseen)
        if beaters is not None:
            extra = f" (any of {beaters} unseen cards beats your {move.card.id} for {by})"
    text = f"risk: {by} could win the initiative {now}{extra} and conquer a city: a trophy for {by} (C12) in about {share:.0%} of the samples"
    return Risk("trophy", by, share, text, f"risk {share:.0%}: {by} wins a trophy", beaters)


def _rebellion_risk(watch: ActionWatch, move: Move, worlds: CircleWorlds) -> Risk:
    share = watch.rebellions / watch.samples
    city = watch.rebel_city.most_common(1)[0][0]
    now = "in this action" if type(move) is Play else "in the next action"
    text = (
        f"risk: you win the initiative {now} with no city to attack in about {share:.0%} of the samples: "
        f"your city {city.id} is under threat from nobody, so it rebels and you lose a trophy (C14)"
    )
    return Risk("rebellion", worlds.player, share, text, f"risk {share:.0%}: your {city.id} rebels, a trophy lost (C14)")


def risk_reasons(watch: ActionWatch | None, move: Move, worlds: CircleWorlds) -> list[Risk]:
    """The risks worth telling of ``move``, strongest first (at most three): an emperor taking
    over the player's city (an opponent player, or anyone when it costs the player a trophy or
    a holy city), an opponent player winning a trophy, the player's city rebelling."""
    if watch is None or not watch.samples:
        return []
    state = worlds.state
    out: list[Risk] = []
    for by, n in watch.taken.items():
        if n / watch.samples >= RISK_THRESHOLD and (_rival(state, by) or watch.costly[by] * 2 >= n):
            out.append(_city_risk(watch, by, move, worlds))
    for by, n in watch.gains.items():
        if n / watch.samples >= RISK_THRESHOLD:
            out.append(_trophy_risk(watch, by, move, worlds))
    if watch.rebellions / watch.samples >= RISK_THRESHOLD:
        out.append(_rebellion_risk(watch, move, worlds))
    out.sort(key=lambda r: (-r.chance, r.kind, r.by))
    return out[:3]


def risks(worlds: CircleWorlds, watched: Sequence[Watched]) -> dict[Hashable, list[Risk]]:
    """Each decision's risks; alike decisions (:func:`~.policies.alike`) share their counts."""
    out: dict[Hashable, list[Risk]] = {}
    for group in watched:
        for key, move in group.members:
            out[key] = risk_reasons(group.watch, move, worlds)
    return out
