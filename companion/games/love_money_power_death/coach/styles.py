"""The other players' styles in the coach's playouts, read from what they revealed (L7).

A playout in which every other player commits the way the coach's own quick player does
imagines a table that keeps its agents and high cards for the right noble; a table that spends
them at once, or commits at random, plays another game. So each sampled world also seats every
other player with a *style* (:data:`STYLES`: the quick player, random play, or one of the
rule-of-thumb habits of :mod:`~companion.games.love_money_power_death.policies`), drawn by how
well each style explains what that player has revealed so far this game.

Every reveal is public (L7), and a style is weighed by the reveals alone: for each round
decided, how often that style reveals a card of that kind (an agent, or a resource of each
rank) in that round of a game at that table size, from games where every seat plays the style
(:func:`tabulate`; the counts ship in ``reveals.json``). Nobody saw the rest of the player's
hand (L6), so the weighing asks nothing of it. An eager player reveals agents and high ranks
early, a cautious one low ranks early and high ones late, random play anything at any time.
Before any reveal every style is as likely as another.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

from companion.coach.model import Policy, World
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.coach.policies import RolloutPolicy, alike
from companion.games.love_money_power_death.coach.worlds import LmpdWorlds, PlayoutState
from companion.games.love_money_power_death.moves import Commit
from companion.games.love_money_power_death.policies import VIEW_PLAYERS
from companion.games.love_money_power_death.setup import HAND_SIZE, MOST, LmpdSetup
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.view import LmpdView

__all__ = ["STYLES", "KINDS", "Seats", "StyledWorlds", "kind", "style_weights", "draw_seats", "tabulate", "reveal_counts"]

STYLES: dict[str, Policy] = {"quick": RolloutPolicy(), **VIEW_PLAYERS}
"""The styles a player of the playouts may have, by name: the coach's quick player, and the
game's simple players (random play and the rules of thumb)."""

KINDS = 6
"""The kinds of card a reveal is counted by: an agent (0), a resource of rank 1 to 5."""

SLACK = 0.15
"""How often a player commits another card than their style's (then any card of their hand):
one surprising reveal weighs a hand down without ruling it out."""

TRIES = 8
"""The deals a world tries at most for hands that fit what the others revealed last round."""

_PLAIN: dict[Policy, Policy] = {STYLES["quick"]: RolloutPolicy(noise=0.0)}
"""The quick player without its randomness, for which the slack stands when fitting hands."""

Seats = Mapping[str, Policy]
"""The style each other player commits with in one world."""


def kind(card: Card) -> int:
    """0 for an agent (it has no rank, L1), else the resource's rank."""
    return 0 if card.is_agent else card.rank


class StyledWorlds:
    """Worlds drawn from ``player``'s view of ``state`` (:class:`~.worlds.LmpdWorlds`), each
    with a style for every other player (its chance, :data:`Seats`), drawn by
    :func:`style_weights` from the same view."""

    def __init__(self, state: LmpdState, player: str) -> None:
        self.cards = LmpdWorlds(state, player)
        self.weights = style_weights(state.view(player))

    def sample(self, rng: random.Random) -> World:
        """One world: every card the player cannot see dealt again, then the others' styles
        drawn, and the card each of them committed already chosen by their style from their
        hand in the world (the same ``rng`` state, the same world)."""
        seats = draw_seats(self.weights, rng)
        for _ in range(TRIES):
            dealt = self.cards.sample(rng).state
            if all(rng.random() < fits(dealt, p, style) for p, style in seats.items()):
                break
        state = PlayoutState.of(dealt)
        for p in state.committed:
            if p in seats:
                # The card a player committed face down is theirs to choose, by their style.
                state.withdraw(p)
                state.push(seats[p](state.view(p), rng), check=False)
        return World(state, seats)


def fits(state: LmpdState, player: str, style: Policy) -> float:
    """The chance that ``player``, of ``style``, revealed what they did last round holding the
    hand ``state`` (a world) gives them: their hand now, the commit included, less one card
    drawn since (L11), and the card revealed. An eager player who revealed a 2 held nothing
    higher then, and holds it still; random play fits any hand."""
    last = state.last_round
    if last is None or style is STYLES["random"]:
        return 1.0
    card = dict(last.plays)[player]
    commit = state.commit_of(player)
    now = state.hand(player) + ((commit,) if type(commit) is Card else ())
    drew = len(now) >= HAND_SIZE and bool(now)
    kept = now[1:] if drew else now  # which card came by the draw does not matter: the deal is at random
    hand = tuple(sorted((card, *kept)))
    nobles_left = tuple(sorted((*state.nobles_left, last.noble)))
    piles = state.pile_sizes
    if drew:
        piles[player] += 1
    view = LmpdView(
        player=player,
        phase="commit",
        round=last.number,
        nobles_left=nobles_left,
        noble=None,
        noble_pile=len(nobles_left),
        hand=hand,
        hand_unseen=0,
        commit=None,
        committed=(),
        hand_sizes=dict.fromkeys(state.players, len(hand)),
        pile_sizes=piles,
        aside=state.aside_count,
        rounds=state.rounds[:-1],
        courts={},
        discarded=(),
        totals={},
        outcome=None,
        decisions=tuple(Commit(player, c) for c in hand),
    )
    key = alike(Commit(player, card))
    same = sum(1 for c in hand if alike(Commit(player, c)) == key) / len(hand)
    chosen = alike(_PLAIN.get(style, style)(view, random.Random(0)))
    return (1.0 - SLACK) * (chosen == key) + SLACK * same


def style_weights(view: LmpdView) -> dict[str, tuple[float, ...]]:
    """For each other player than ``view.player``, the chance of each of :data:`STYLES` (in
    its order) given the kinds of card they revealed in the rounds decided so far (uniform at
    a table size the counts do not cover)."""
    players = tuple(view.hand_sizes)
    counts = reveal_counts().get(len(players), {})
    out = {}
    for p in players:
        if p == view.player:
            continue
        logged = [0.0] * len(STYLES)
        for i, name in enumerate(STYLES):
            rows = counts.get(name, [])
            for r in view.rounds:
                if r.number <= len(rows):
                    row = rows[r.number - 1]
                    # Add-one smoothing: a reveal a style never made in the games counted is rare, not impossible.
                    logged[i] += math.log((row[kind(dict(r.plays)[p])] + 1) / (sum(row) + KINDS))
        top = max(logged)
        weights = [math.exp(lg - top) for lg in logged]
        total = sum(weights)
        out[p] = tuple(w / total for w in weights)
    return out


def draw_seats(weights: Mapping[str, Sequence[float]], rng: random.Random) -> dict[str, Policy]:
    """One style for each weighed player, drawn by their weights."""
    policies = list(STYLES.values())
    return {p: rng.choices(policies, w)[0] for p, w in weights.items()}


@cache
def reveal_counts() -> dict[int, dict[str, list[list[int]]]]:
    """The counts shipped in ``reveals.json``: by table size, by style, per round the reveals
    of each kind (:func:`tabulate`)."""
    text = resources.files(__package__).joinpath("reveals.json").read_text(encoding="utf-8")
    return {int(n): table for n, table in json.loads(text).items()}


def tabulate(players: int, games: int, seed: int = 0) -> dict[str, list[list[int]]]:
    """By style, per round, the reveals of each kind (:func:`kind`) in ``games`` games of
    ``players`` players with as many nobles as they allow (L4), every seat playing the style
    from its own view, the table's moves by chance. Repeatable by ``seed``."""
    names = [f"p{i + 1}" for i in range(players)]
    out = {}
    for name, style in STYLES.items():
        rows: list[list[int]] = []
        for g in range(games):
            rng = random.Random(seed * 1_000_003 + g)
            state = LmpdState(LmpdSetup.make(names, MOST), keep_history=False)
            while not state.is_game_over():
                deciding = state.deciding
                if deciding:
                    for who in deciding:
                        state.push(style(state.view(who), rng))
                else:
                    state.push(state.random_table_move(rng))
            for r in state.rounds:
                while len(rows) < r.number:
                    rows.append([0] * KINDS)
                for _, card in r.plays:
                    rows[r.number - 1][kind(card)] += 1
        out[name] = rows
    return out


def main() -> None:
    """Write ``reveals.json`` afresh: every table size, about 3,000 reveals a style and round."""
    from companion.games.love_money_power_death import GAME

    tables = {n: tabulate(n, -(-3000 // n), seed=n) for n in range(GAME.min_players, GAME.max_players + 1)}
    path = resources.files(__package__).joinpath("reveals.json")
    with resources.as_file(path) as file:
        file.write_text(json.dumps(tables, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
