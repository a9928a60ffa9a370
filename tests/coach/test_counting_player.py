"""Rule of Power's counting player (``counter``) works out each value's best capture once per
centre; these tests hold it to the player it was, which listed the captures of every unseen
value on every centre it could leave (kept here as the reference): the same figure to the last
bit, and so the same move, on random positions of every table the coach is measured at."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.coach import opponents
from companion.games.rule_of_power.coach.opponents import SWEEP, best_takes, counting_move, expected_reply
from companion.games.rule_of_power.coach.policies import RolloutPolicy, realize
from companion.games.rule_of_power.coach.tables import TABLES
from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card, world_deck
from companion.games.rule_of_power.engine.game import Phase, deal_from
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Play
from companion.games.rule_of_power.engine.sampling import Sampler, embody
from companion.games.rule_of_power.engine.view import PlayerView

_WORTH = {c: opponents.card_worth(c) for c in Card._by_id.values()}


# -- the counting player as it was: every capture listed, for every value, on every centre


def _none_held(unseen: int, avoid: int, hand: int) -> float:
    if hand <= 0 or avoid <= 0:
        return 1.0
    if unseen - avoid < hand:
        return 0.0
    return comb(unseen - avoid, hand) / comb(unseen, hand)


def _best_take(centre: tuple[Card, ...], value: int, empowered: bool, sweeps: bool) -> float:
    best = 0.0
    for option in capture_options(centre, value, empowered=empowered):
        worth = sum(_WORTH[c] for c in option)
        if len(option) == len(centre) and sweeps and not empowered:
            worth += SWEEP
        best = max(best, worth)
    return best


def listed_reply(view: PlayerView, centre: tuple[Card, ...], unseen: Iterable[Card], hand: int) -> float:
    if not centre or hand <= 0:
        return 0.0
    by_value: dict[int, int] = {}
    pool = 0
    for card in unseen:
        pool += 1
        if card.value is not None:
            by_value[card.value] = by_value.get(card.value, 0) + 1
    if not pool:
        return 0.0
    crystal = bool(view.in_play) and any(x is FATE_CARDS[0] for _, x in view.in_play)
    sweeps = view.deal_number != 1 and not view.last_deal
    takes = sorted(
        ((_best_take(centre, v, crystal and v == 1, sweeps), n) for v, n in by_value.items()),
        key=lambda t: -t[0],
    )
    expected = 0.0
    covered = 0
    none_before = 1.0
    for worth, n in takes:
        if worth <= 0.0:
            break
        covered += n
        none_now = _none_held(pool, covered, min(hand, pool))
        expected += worth * (none_before - none_now)
        none_before = none_now
    return expected


def listed_move(view: PlayerView, rng: random.Random) -> Move:
    moves = view.decisions
    if len(moves) == 1:
        return moves[0]
    players = view.setup.players
    nxt = players[(players.index(view.player) + 1) % len(players)]
    hand = view.world_cards_by_seat[players.index(nxt)] if view.is_opponent(nxt) else 0
    unseen = view.unseen
    best: list[Move] = []
    best_value = -1e9
    for move in moves:
        if type(move) is DrawFate:
            left, gain = view.centre, 0.15
        elif type(move) is Play:
            card = move.card
            if not card.is_world and not card.to_centre and card is not FATE_CARDS[5]:
                continue
            left, gain, _ = opponents._after(view, move)
            gain -= 0.01 * (card.value or 0) if card.is_world else 0.0
        else:
            left, gain = view.centre, -0.5
        value = gain - listed_reply(view, left, unseen, hand)
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    if not best:
        return moves[rng.randrange(len(moves))]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


# -- positions: rounds of every table played on by the counting and the quick players


def positions(count: int, seed: int) -> list[PlayerView]:
    """``count`` views of a player to move with a choice, from rounds of every table (2 and 4
    players, Fate decks or not, the expansion), played by the counting player and, a third
    of the time, the quick player of the playouts, so that centres of every shape come up."""
    rng = random.Random(seed)
    quick = RolloutPolicy()
    tables = list(TABLES.values())
    out: list[PlayerView] = []
    while len(out) < count:
        opening = tables[len(out) % len(tables)](rng)
        world = Sampler(opening, opening.players[0]).sample(rng)
        game, deck = embody(opening, world), list(world.deck)
        while len(out) < count and game.phase is not Phase.OVER and game.phase is not Phase.ROUND:
            if game.phase is Phase.DEAL:
                game.push(deal_from(deck, game), check=False)
                continue
            me = game.turn
            assert me is not None
            view = PlayerView(game, game.player_seat(me))
            if len(view.decisions) > 1:
                out.append(view)
            player = counting_move if rng.random() < 2 / 3 else quick
            game.push(realize(game, player(view, rng), deck, rng), check=False)
    return out


@cache
def views() -> list[PlayerView]:
    """A thousand positions, made once when a test first asks."""
    return positions(1000, 20261129)


def _crystal(view: PlayerView) -> bool:
    return any(x is FATE_CARDS[0] for _, x in view.in_play)


def test_the_positions_cover_every_table_and_the_hard_cases() -> None:
    assert {len(v.setup.players) for v in views()} == {2, 4}
    assert any(v.setup.expansion for v in views())
    assert any(len(v.centre) >= 6 for v in views())
    assert any(map(_crystal, views())), "a Mystic Crystal in play (R5)"
    assert any(v.deal_number != 1 and not v.last_deal for v in views()) and any(v.last_deal for v in views())


@pytest.mark.parametrize("chunk", range(4))
def test_the_counting_player_makes_the_move_it_made_when_it_listed_every_capture(chunk: int) -> None:
    for k, view in enumerate(views()[chunk::4]):
        assert counting_move(view, random.Random(k)) == listed_move(view, random.Random(k)), view


def test_the_expected_reply_is_the_listed_one_to_the_last_bit() -> None:
    checked = 0
    # And positions with a Mystic Crystal in play: a Wizard takes the whole centre there (R5).
    crystal = [v for v in positions(3000, 5) if _crystal(v)]
    assert len(crystal) >= 40
    for view in views()[:150] + crystal:
        for move in view.decisions:
            left = opponents._after(view, move)[0]
            for hand in (1, 3, 5):
                assert expected_reply(view, left, view.unseen, hand) == listed_reply(view, left, view.unseen, hand), (view, move, hand)
                checked += 1
    assert checked > 1000


_DECK = [*world_deck(True)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_DECK + [FATE_CARDS[1], FATE_CARDS[2]]), min_size=1, max_size=10, unique=True),
    st.booleans(),
)
def test_each_values_best_take_is_the_best_listed_capture(centre: list[Card], sweeps: bool) -> None:
    table = best_takes(tuple(centre), sweeps)
    for value in range(1, 14):
        assert table[value] == _best_take(tuple(centre), value, False, sweeps), value


def test_at_a_table_of_teams_the_coach_plays_the_counting_players_move_unless_it_finds_better() -> None:
    from companion.games.rule_of_power.coach.model import MODEL

    teams = [v for v in views() if v.setup.teams]
    pairs = [v for v in views() if not v.setup.teams]
    assert teams and pairs
    quick = RolloutPolicy(noise=0.0, fate_rate=0.0)
    for view in teams:
        assert MODEL.plain_move(view) == counting_move(view, random.Random(0))
    for view in pairs:
        assert MODEL.plain_move(view) == quick(view, random.Random(0))
    # The two players differ often enough at four for the choice to matter.
    assert sum(counting_move(v, random.Random(0)) != quick(v, random.Random(0)) for v in teams) > len(teams) // 5
