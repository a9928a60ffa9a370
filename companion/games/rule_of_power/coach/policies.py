"""Decisions and the players the coach simulates.

A *decision* is what a player chooses: which card, which capture, which target. What chance
or another player decides (the card a Renewal draws, R25; the cards a Mirror Swap takes
without looking, R22; what each opponent discards to a Dark Decay, R21) is not part of it:
:func:`decision_key` folds those moves together, and :func:`realize` draws them in a sampled
world.

Three players live here. Each reads one player's view alone (:class:`~companion.games.
rule_of_power.engine.view.PlayerView`: their hand, the public table, their decisions) and
returns a decision; :func:`realize` then makes it a move of the world:

- :func:`random_move`: any decision, uniformly;
- :func:`greedy_move`: the decision with the best immediate points, the round scored as if
  it ended now (R9-R12, R7); ties go to the side that captures more cards, then to chance;
- :class:`RolloutPolicy`: the fast player of the coach's playouts, a greedy player on card
  values with a little randomness, so that playouts are quick and varied.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card
from companion.games.rule_of_power.engine.game import GameState, Phase, deal_from
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Pass, Play
from companion.games.rule_of_power.engine.scoring import score_round
from companion.games.rule_of_power.engine.view import OPEN_DECISIONS, PlayerView

__all__ = [
    "decision_key",
    "equivalence_key",
    "interchange",
    "decisions",
    "realize",
    "describe",
    "random_move",
    "greedy_move",
    "RolloutPolicy",
    "play_out",
    "play_turn",
    "side_margin",
    "points_after",
    "Policy",
]

_RENEWAL = FATE_CARDS[7]
_SWAP = FATE_CARDS[4]
_DECAY = FATE_CARDS[3]
_THIEF = FATE_CARDS[5]

Key = Hashable

Policy = Callable[[PlayerView, random.Random], Move]
"""A player of playouts: ``policy(view, rng)`` is the decision of ``view.player``, who is to
move, from their view alone (:func:`realize` makes it a move of the world)."""


def decision_key(move: Move) -> Key:
    """What the player chose in ``move``, without what chance or others decided."""
    if type(move) is Play:
        if move.card is _RENEWAL or move.card is _DECAY:
            return ("play", move.card.id, (), None)
        return ("play", move.card.id, tuple(sorted(c.id for c in move.capture)), move.target)
    return (type(move).__name__.lower(), None, (), None)


def _class(card: Card) -> object:
    # Suits matter only for the Power suit (R1, R9, R12): any two other World cards of one
    # value are interchangeable for every rule and every point.
    return ("v", card.value) if card.is_world and not card.is_power else card.id


def equivalence_key(move: Move) -> Key:
    """Decisions that differ only by interchangeable cards (same value, neither a Power
    card) share this key: they lead to games equal up to the names of those cards."""
    key = decision_key(move)
    if type(move) is not Play or not move.card.to_centre:
        return key
    return ("play", _class(move.card), tuple(sorted(map(repr, map(_class, move.capture)))), move.target)


def interchange(a: Move, b: Move) -> dict[Card, Card]:
    """The card swaps that turn equivalent decision ``a`` into ``b`` (and back)."""
    swap: dict[Card, Card] = {}
    if type(a) is not Play or type(b) is not Play:
        return swap
    pairs = [(a.card, b.card)]
    order = lambda c: (repr(_class(c)), c.index)  # noqa: E731
    pairs += zip(sorted(a.capture, key=order), sorted(b.capture, key=order))
    for x, y in pairs:
        if x is not y:
            swap[x] = y
            swap[y] = x
    return swap


def decisions(game: GameState) -> dict[Key, list[Move]]:
    """The legal moves of the player to move, grouped by decision, in a stable order."""
    out: dict[Key, list[Move]] = {}
    for move in game.legal_moves:
        out.setdefault(decision_key(move), []).append(move)
    return dict(sorted(out.items(), key=lambda kv: repr(kv[0])))


def realize(game: GameState, decision: Move, deck: list[Card], rng: random.Random) -> Move:
    """The move of ``decision`` (any move making it) in a complete world, what chance and the
    others choose drawn there: a Renewal draws the top of the deck (R25), a Mirror Swap's
    blind picks and Dark Decay's discards are drawn at random among the legal ones."""
    if type(decision) is not Play or decision.card not in OPEN_DECISIONS:
        return decision
    card = decision.card
    if card is _RENEWAL:
        return Play(decision.player, card, drawn=deck.pop() if game.deck_count else None)
    key = decision_key(decision)
    options = [m for m in game.legal_moves if type(m) is Play and m.card is card and decision_key(m) == key]
    return options[rng.randrange(len(options))] if len(options) > 1 else options[0]


def describe(move: Move) -> str:
    """A move in words for the table, cards in the one notation of every message (short form,
    id, name): ``7P W007 Fire Dragon takes 1D W031 + 6D W036``."""
    if type(move) is Play:
        card = move.card
        text = card.long_label
        if card is _RENEWAL:
            return f"{text}: draw a World card"
        if card is _DECAY:
            return f"{text}: every opponent discards a card"
        if move.target:
            return f"{text} on {move.target}"
        if move.capture:
            return f"{text} takes {' + '.join(c.label for c in move.capture)}"
        if card.to_centre:
            return f"{text} to the centre"
        return text
    if type(move) is DrawFate:
        return "draw a Fate card"
    if type(move) is Pass:
        return "pass"
    return repr(move)


def side_margin(game: GameState | PlayerView, player: str, points: dict[str, int]) -> int:
    """``player``'s side's points less the best other side's."""
    mine = game.setup.side_of(player)
    return points[mine] - max(v for s, v in points.items() if s != mine)


def _ordered(view: PlayerView) -> list[Move]:
    """The view's decisions in the order of their keys: the order the simple players draw from."""
    return sorted(view.decisions, key=lambda m: repr(decision_key(m)))


def random_move(view: PlayerView, rng: random.Random) -> Move:
    """Any decision of the player to move, uniformly."""
    options = _ordered(view)
    return options[rng.randrange(len(options))]


def points_after(view: PlayerView, move: Move) -> dict[str, int]:
    """Each side's round points as if the round ended just after the decision ``move`` (R7,
    R9-R12), from the public table: a capture adds the cards taken and the card played to the
    player's stack, a clean sweep counts (a natural World card emptying the centre outside the
    first and last deal, R7), the Thief moves the top of a stack (R23), and a move that leaves
    nobody a World card with the deck empty ends the round, the centre going to the last
    capturer (R6, R17). What the victims of a Dark Decay discard is theirs to choose (R21): it
    is taken to end nothing."""
    setup = view.setup
    players = setup.players
    stacks = list(view.stacks_by_seat)
    sweeps = [len(s) for s in view.sweeps_by_seat]
    world = list(view.world_cards_by_seat)
    me = players.index(view.player)
    centre = view.centre
    last = view.last_capturer
    if type(move) is Play:
        card = move.card
        if card.is_world:
            world[me] -= 1
        if move.capture:
            stacks[me] = stacks[me] + move.capture + (card,)
            natural = card.is_world and not view.is_empowered(card)
            if natural and len(move.capture) == len(centre) and view.deal_number != 1 and not view.last_deal:
                sweeps[me] += 1
            centre = tuple(x for x in centre if x not in move.capture)
            last = view.player
        elif card.to_centre:
            centre = centre + (card,)
        elif card is _THIEF and move.stolen is not None and move.target is not None:
            t = players.index(move.target)
            stacks[t] = stacks[t][:-1]
            stacks[me] = stacks[me] + (move.stolen,)
    if last is not None and centre and not view.deck_count and not any(world):
        k = players.index(last)
        stacks[k] = stacks[k] + centre
    captured: dict[str, tuple[Card, ...]] = dict.fromkeys(setup.sides, ())
    swept = dict.fromkeys(setup.sides, 0)
    for p, stack, n in zip(players, stacks, sweeps):
        side = setup.side_of(p)
        captured[side] += stack
        swept[side] += n
    return score_round(captured, swept, expansion=setup.expansion, discarded=view.discards).totals()


def greedy_move(view: PlayerView, rng: random.Random) -> Move:
    """The decision with the best immediate points for the mover's side (R7, R9-R12)."""
    me = view.player
    now = side_margin(view, me, points_after(view, Pass(me)))
    best: list[Move] = []
    best_value: tuple[int, int] | None = None
    for move in _ordered(view):
        if type(move) is Play and move.card is _RENEWAL:
            value = (now, 0)
        else:
            value = (side_margin(view, me, points_after(view, move)), len(move.capture) if type(move) is Play else 0)
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[rng.randrange(len(best))]


def _weight(card: Card) -> float:
    """Roughly what a captured card is worth in round points: a share of most cards (R9),
    of most Power cards (R9), of the Pride (R11), the Fire Dragon (R10), the Ring (R12)."""
    if not card.is_world:
        return 0.0
    w = 0.06
    if card.is_power:
        w += 0.12
        if card.is_ring:
            w += 0.7
    if card.value == 7:
        w += 0.3
        if card.is_power:
            w += 1.0
    elif card.value == 6:
        w += 0.08
    return w


_WEIGHTS = {c: _weight(c) for c in Card._by_id.values()}
_VALUES: dict[Card, int] = {c: c.value or 0 for c in Card._by_id.values()}
"""Every card's capturing value, 0 for a Fate card that has none (R20)."""


class RolloutPolicy:
    """The quick player of playouts: captures what is worth most, counts a clean sweep (R7),
    lays its least valuable card when it cannot capture, and now and then (``noise``) plays
    at random, so that many playouts cover what real players might do."""

    def __init__(self, noise: float = 0.1, fate_rate: float = 0.15, exposure: float = 0.4) -> None:
        self.noise = noise
        self.fate_rate = fate_rate
        self.exposure = exposure

    def __call__(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.decisions
        if len(moves) == 1:
            return moves[0]
        if rng.random() < self.noise:
            return moves[rng.randrange(len(moves))]
        weights, values = _WEIGHTS, _VALUES
        centre = view.centre
        centre_n = len(centre)
        centre_sum = sum([values[c] for c in centre])
        sweeps_count = view.deal_number != 1 and not view.last_deal
        players = view.setup.players
        me = view.player
        nxt = players[(players.index(me) + 1) % len(players)]
        # Leaving a centre to clear matters only when the next player is an opponent (R16).
        exposure = self.exposure if sweeps_count and view.is_opponent(nxt) else 0.0
        best: Move | None = None
        best_value = -99.0
        fate: list[Move] = []
        for move in moves:
            if type(move) is not Play or not move.card.is_world:
                fate.append(move)
                continue
            card = move.card
            capture = move.capture
            if capture:
                value = weights[card] + sum([weights[c] for c in capture]) + 0.5
                left = centre_sum - sum([values[c] for c in capture])
                if len(capture) == centre_n:
                    if sweeps_count:
                        value += 1.0
                elif left <= 10:
                    value -= exposure  # the next player may clear what is left (R7)
            else:
                value = -weights[card]
                if centre_sum + values[card] <= 10:
                    value -= exposure
            if value > best_value:
                best, best_value = move, value
        if fate and (best is None or rng.random() < self.fate_rate):
            return fate[rng.randrange(len(fate))]
        assert best is not None
        return best


def play_turn(game: GameState, deck: list[Card], rng: random.Random, policy: Policy) -> Move:
    """The move of the player to move in a complete world: their decision by ``policy`` from
    their view, realized in the world (the policy never sees it)."""
    me = game.turn
    assert me is not None
    # ``game.view(me)``, made here directly: a playout makes one for every move.
    return realize(game, policy(PlayerView(game, game.player_seat(me)), rng), deck, rng)


def play_out(game: GameState, deck: list[Card], rng: random.Random, policy: Policy) -> None:
    """Play ``game`` (a complete world, its deck ``deck``) to the end of the round, each player
    deciding from their own view."""
    push = game.push
    while True:
        phase = game.phase
        if phase is Phase.TURN:
            push(play_turn(game, deck, rng, policy), check=False)
        elif phase is Phase.DEAL:
            push(deal_from(deck, game), check=False)
        else:
            return
