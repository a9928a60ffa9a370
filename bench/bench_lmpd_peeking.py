"""Love, Money, Power, Death: how far above a given opponent can any player get? A research
bench whose player CHEATS on purpose, to bound what an honest coach could reach; nothing in the
companion uses it, and it is no coach.

Two figures, on the same paired deals as ``./run bench coach_lmpd`` (the same ``--seed`` plays
the same deals, the seats rotated as there):

- **the peeking player**: it sees every card the table cannot (every pile in order, every
  hand, the noble pile in order, L5), but not what the other players commit this round (L6):
  it takes back any commit already made and supposes every other player commits at random, now
  and later. For each card of its hand it draws ``--futures`` such futures of the others'
  commits and scores the card by the margin it then gets with the rest of the game played best
  in that future (:func:`best_margins`, exact); it commits the card with the best mean. That is
  a real player that knows more than any player may (though not the best such player: it
  scores each future as if it were known); what no player can exceed is the next figure.
- **the clairvoyant bound**: the margin of a player who sees everything, including what the
  others will commit in every round, and so plays the best order of its cards for that game
  (:func:`best_margins` from the first round). Against opponents whose commits never depend on
  the player's (``random``: any card of its hand; ``eager``: its strongest card, by its hand
  and the nobles face down alone), no player, peeking or not, can expect more: on every game
  its margin is at most this one. The figure is the mean over ``--samples`` draws of the
  others' commits per deal and seat.

``--also`` runs the same search seeing less: ``cards`` sees every hand and pile but not the
noble pile's order (each future scores a fresh shuffle of the nobles face down, which are
public, L7); ``view`` does not cheat at all: each future is drawn in a world dealt again from
the player's view (the engine's resampling, as the coach samples). The gaps between the three
are what each kind of hidden card is worth to this search.

The margin is the player's crowns less the others' average, per game (L13), as in the coach's
benchmark.

    ./run bench lmpd_peeking                                     4 players against random, 100 deals
    ./run bench lmpd_peeking -- --players 2 --opponent eager --pairs 100
    ./run bench lmpd_peeking -- --also cards,view                 and the same search seeing less
    ./run bench lmpd_peeking -- --bound-only --pairs 300          the clairvoyant bound alone
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from bench.bench_coach_lmpd import ViewSeat, dealt, margin, paired_deals, pairing, pin
from companion.coach import stats
from companion.coach.model import Policy
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.coach.worlds import PlayoutState, table_move
from companion.games.love_money_power_death.moves import Commit
from companion.games.love_money_power_death.policies import VIEW_PLAYERS, random_choice
from companion.games.love_money_power_death.scoring import decide_round
from companion.games.love_money_power_death.state import LmpdState, Phase

#: Run only when named (``./run bench lmpd_peeking``): it measures no target of the companion.
ON_REQUEST = True

INDEPENDENT = ("random", "eager")
"""The opponents whose commits never depend on the player's: their own hand (their own pile
and their own earlier commits) and the nobles still face down (public, L7) alone. The bound
holds against these."""

SEES = ("everything", "cards", "view")
"""What the peeking player may see: every hidden card; every hand and pile but not the noble
pile's order; its own view alone (no peeking)."""

Future = list[dict[str, Card]]
"""The other players' commits, round by round from the round being decided."""


def opponent_futures(state: LmpdState, player: str, policy: Policy, rng: random.Random) -> Future:
    """The others' commits in this round and every later one, ``state`` played out with their
    commits this round taken back (never read) and made again by ``policy``. The player's own
    commits are its first card each round: sound only for opponents in :data:`INDEPENDENT`,
    whose commits do not depend on them."""
    world = PlayoutState.of(state)
    for other in state.committed:
        if other != player:
            world.withdraw(other)
    rounds: Future = []
    current: dict[str, Card] = {}
    while not world.is_game_over():
        deciding = world.deciding
        if deciding:
            for who in deciding:
                move = world.moves_of(who)[0] if who == player else policy(world.view(who), rng)
                world.push(move, check=False)
                if who != player:
                    assert type(move.card) is Card, "the bench deals every card face up"
                    current[who] = move.card
        else:
            if world.phase is Phase.REVEAL:
                rounds.append(current)
                current = {}
            world.push(table_move(world), check=False)
    return rounds


def best_margins(state: LmpdState, player: str, future: Future, nobles: Sequence[Card] | None = None) -> dict[Card, float]:
    """For each card of ``player``'s hand (who has not committed this round): their margin
    from this round on (crowns won, less the others' average, L13) if they commit it now and
    then play their cards in the best order for ``future``, the others' commits. Exact: the
    cards they may hold in a round are their hand and the top of their pile, drawn one a round
    but after the last (L11), so every order is tried (memoised on the cards played). The
    nobles turned are the noble pile's, top first, or ``nobles`` when given."""
    players = state.players
    others = len(players) - 1
    rounds = len(future)
    turned = (state.noble_pile if nobles is None else tuple(nobles))[:rounds]
    cards = [*state.hand(player), *state.pile(player)[: max(0, rounds - 1)]]
    assert all(type(c) is Card for c in (*turned, *cards)), "the bench deals every card face up"
    held = len(state.hand(player))
    gains: list[list[float]] = []
    for t in range(rounds):
        noble = turned[t]
        assert isinstance(noble, Card)
        row = []
        for i in range(min(held + t, len(cards))):
            plays = [(p, cast(Card, cards[i]) if p == player else future[t][p]) for p in players]
            winner = decide_round(noble, plays).winner
            row.append(0.0 if winner is None else noble.rank if winner == player else -noble.rank / others)
        gains.append(row)
    memo: dict[tuple[int, int], float] = {}

    def rest(t: int, played: int) -> float:
        if t == rounds:
            return 0.0
        key = (t, played)
        if key not in memo:
            row = gains[t]
            memo[key] = max(row[i] + rest(t + 1, played | 1 << i) for i in range(len(row)) if not played >> i & 1)
        return memo[key]

    return {cast(Card, cards[i]): gains[0][i] + rest(1, 1 << i) for i in range(held)}


@dataclass
class PeekingSeat:
    """The peeking player (this module's docstring): it reads the whole ``state`` but the
    others' commits this round, and supposes the others commit as ``model`` does.

    What it sees (:data:`SEES`): ``everything``; ``cards``, every hand and pile but not the
    noble pile's order (each future scored on a fresh shuffle of the nobles face down); or
    ``view``, which does not cheat: each future is drawn in a world dealt again from the
    player's view (the engine's resampling, as the coach's samples are). Each future is
    scored as if it were known, which it is not."""

    model: Policy = random_choice
    futures: int = 30
    sees: str = "everything"

    def __post_init__(self) -> None:
        if self.sees not in SEES:
            raise ValueError(f"a peeking player sees one of {', '.join(SEES)}, not {self.sees!r}")

    def __call__(self, state: LmpdState, player: str, rng: random.Random) -> Commit:
        moves = state.moves_of(player)
        if len(moves) == 1:
            return moves[0]
        totals: dict[Card, float] = {}
        for _ in range(self.futures):
            world = state.resample(player, rng) if self.sees == "view" else state
            nobles = None
            if self.sees == "cards":
                nobles = sorted(state.nobles_left)
                rng.shuffle(nobles)
            for card, value in best_margins(world, player, opponent_futures(world, player, self.model, rng), nobles).items():
                totals[card] = totals.get(card, 0.0) + value
        return max(moves, key=lambda m: totals[cast(Card, m.card)])


def clairvoyant(state: LmpdState, player: str, policy: Policy, rng: random.Random, samples: int) -> float:
    """The clairvoyant bound for ``player`` from ``state`` on: the mean over ``samples`` draws
    of the others' commits (by ``policy``) of the best margin for that draw, the crowns already
    won counted."""
    best = [max(best_margins(state, player, opponent_futures(state, player, policy, rng)).values()) for _ in range(samples)]
    return margin(state, player) + stats.mean(best)


def bound(policy: Policy, players: int, deals: int, seed: int, samples: int) -> list[float]:
    """The clairvoyant bound per deal (the mean over its seats), on the deals of
    :func:`bench.bench_coach_lmpd.pairing` with the same ``seed``."""
    names = GAME.default_players(players)
    out = []
    for the_deal, rng in paired_deals(names, deals, seed):
        values = [clairvoyant(dealt(names, the_deal), mine, policy, random.Random(rng.getrandbits(32)), samples) for mine in names]
        out.append(sum(values) / len(values))
    return out


def bound_line(name: str, players: int, values: Sequence[float], seconds: float) -> str:
    lo, hi = stats.interval(values)
    return f"  {name:26} {players} players, {len(values)} deals: margin at most {stats.mean(values):+.2f} crowns a game (95 % {lo:+.2f} to {hi:+.2f}) ({seconds:.0f} s)"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench lmpd_peeking", description="A player that sees every hidden card, and the bound on any player (this bench cheats on purpose).")
    parser.add_argument("--players", type=int, default=4, help=f"the table size, of {GAME.min_players} to {GAME.max_players} (default 4)")
    parser.add_argument("--opponent", choices=INDEPENDENT, default="random", help="the policy in every other seat (default random)")
    parser.add_argument("--pairs", type=int, default=100, help="deals (default 100)")
    parser.add_argument("--futures", type=int, default=30, help="the peeking player's draws of the others' commits per decision (default 30)")
    parser.add_argument("--samples", type=int, default=50, help="the bound's draws of the others' commits per deal and seat (default 50)")
    parser.add_argument("--bound-only", action="store_true", help="the clairvoyant bound alone, not the peeking player")
    parser.add_argument("--also", default="", help="also the same search seeing less: cards (not the noble order), view (no peeking), or both: cards,view")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed, as the coach's benchmark (default 1)")
    args = parser.parse_args(argv)
    if not GAME.min_players <= args.players <= GAME.max_players:
        parser.error(f"--players {args.players}: a size of {GAME.min_players} to {GAME.max_players}")
    if min(args.pairs, args.futures, args.samples) < 1:
        parser.error("--pairs, --futures and --samples must each be at least 1")
    also = [x for x in args.also.split(",") if x]
    if any(x not in SEES[1:] for x in also):
        parser.error(f"--also {args.also!r}: of {', '.join(SEES[1:])}")
    policy = random_choice if args.opponent == "random" else VIEW_PLAYERS[args.opponent]
    print(f"Love, Money, Power, Death: players that see every hidden card, against {args.opponent} ({pin()})", flush=True)
    start = time.perf_counter()
    values = bound(policy, args.players, args.pairs, args.seed, args.samples)
    print(bound_line(f"clairvoyant vs {args.opponent}", args.players, values, time.perf_counter() - start), flush=True)
    for sees in ([] if args.bound_only else ["everything"]) + also:
        start = time.perf_counter()
        figures = pairing(PeekingSeat(random_choice, args.futures, sees), ViewSeat(policy), args.players, args.pairs, args.seed)
        name = "peeking" if sees == "everything" else f"seeing {sees}"
        print(figures.line(f"{name} vs {args.opponent}", args.players, time.perf_counter() - start), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))
