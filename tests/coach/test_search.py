"""The coach's search: it never peeks, compares every move on common samples, refines."""

from __future__ import annotations

import pytest

from companion.coach import LEVELS, Coach, CoachError
from companion.games.rule_of_power.engine.sampling import Sampler
from companion.games.rule_of_power.engine.moves import Play
from companion.games.rule_of_power.engine.cards import Card

from tests.coach.positions import FULL_DECK, first_turn


def _advice_json(game, player, samples=6, seed=3):
    data = Coach("fast").advise(game, player, samples=samples, seed=seed).to_json()
    data.pop("elapsed_ms")
    return data


def test_hidden_cards_do_not_change_the_advice():
    # Same public table and the same hand for ann; bob's hand, the deck behind it and bob's
    # Fate deck differ. ann's advice must be identical, number for number.
    centre = ["W031", "W032", "W040", "W030"]
    a = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], centre,
                   fate={"ann": FULL_DECK, "bob": FULL_DECK})
    b = first_turn(["W014", "W019", "W008"], ["W007", "W017", "W027"], centre,
                   fate={"ann": FULL_DECK, "bob": ["F002", "F003", "F004", "F005", "F006", "F007", "F008"]})
    assert a.view("ann").unseen == b.view("ann").unseen
    assert _advice_json(a, "ann") == _advice_json(b, "ann")


def test_hidden_cards_do_not_change_the_advice_mid_round():
    centre = ["W031", "W032", "W040", "W030"]
    games = []
    for bob in (["W039", "W016", "W021"], ["W039", "W005", "W007"]):
        g = first_turn(["W014", "W019", "W008"], bob, centre)
        g.push(Play.from_ids("ann", "W019"))
        g.push(Play.from_ids("bob", "W039", ["W019"]))
        games.append(g)
    assert _advice_json(games[0], "ann", seed=11) == _advice_json(games[1], "ann", seed=11)


def test_samples_respect_the_view():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    sampler = Sampler(game, "ann")
    import random

    rng = random.Random(1)
    seen_in_bob = set()
    for _ in range(50):
        world = sampler.sample(rng)
        assert world.hands["ann"] == game.hand("ann")
        assert len(world.hands["bob"]) == 3 and len(world.deck) == game.deck_count
        dealt = set(world.hands["bob"]) | set(world.deck)
        assert dealt == set(game.view("ann").unseen)
        seen_in_bob.update(world.hands["bob"])
    # bob's hand is sampled, not copied: many different cards turn up in it.
    assert len(seen_in_bob) > 10


def test_every_move_is_judged_on_the_same_samples():
    # Without racing every decision gets every sample. On common samples two moves' results
    # move together, so their paired difference is tighter than the same difference taken
    # against another search's (independent) samples.
    from companion.coach.search import LEVELS, Search
    from companion.coach.stats import paired_interval

    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])

    def tallies(seed):
        search = Search(game, "ann", seed=seed, level=LEVELS["fast"], race=False).run(samples=60)
        assert all(m.samples == 60 for m in search.advice().moves)
        return list(search.tallies.values())

    a, b = tallies(5)[:2]
    other_b = tallies(6)[1]
    _, lo, hi = paired_interval(a.margins, b.margins)
    _, lo_ind, hi_ind = paired_interval(a.margins, other_b.margins)
    assert hi - lo < 0.8 * (hi_ind - lo_ind)


def test_interchangeable_cards_share_their_figures():
    # W018 and W028 are two plain 8s (R1: only the Power suit matters), as are W017 and W037:
    # the four captures below are one decision up to names, played out once.
    game = first_turn(["W018", "W028", "W012"], ["W016", "W021", "W039"], ["W037", "W017", "W001", "W040"])
    advice = Coach("fast").advise(game, "ann", samples=6, seed=5)
    eights = [m for m in advice.moves if m.text.startswith(("8M W018", "8E W028"))]
    assert len(eights) == 4
    assert len({(m.margin, m.win, m.samples) for m in eights}) == 1
    # Their risks name each move's own cards: taking W017 leaves W037, and the other way round.
    left = {m.text: {r.card.id for r in m.risks if r.card} for m in eights}
    for text, cards in left.items():
        taken = text.split(" takes ")[1].split(" + ")
        assert not cards & set(taken)


def test_refining_continues_the_same_search():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    once = Coach("fast").search(game, "ann", seed=2).run(samples=8).advice()
    twice = Coach("fast").search(game, "ann", seed=2).run(samples=3).run(samples=5).advice()
    assert [m.to_json() for m in once.moves] == [m.to_json() for m in twice.moves]
    assert once.playouts == 8 * len(once.moves)


def test_intervals_and_ranking():
    game = first_turn(["W006", "W040", "W030"], ["W016", "W021", "W039"], ["W001", "W002", "W003", "W007"])
    advice = Coach("fast").advise(game, "ann", samples=16, seed=1)
    best = advice.best
    # Taking the three Ring cards makes ann Power Master (R12): the search must see it.
    assert best.text.startswith("6P W006") and set(best.move.capture) == {Card.from_id(x) for x in ("W001", "W002", "W003")}
    for m in advice.moves:
        assert m.margin_low <= m.margin <= m.margin_high
        assert 0.0 <= m.win_low <= m.win <= m.win_high <= 1.0
    wins = [m.win for m in advice.moves]
    assert wins == sorted(wins, reverse=True)


class TickClock:
    """A clock that moves on ``step`` seconds each time it is read: a run's budget is then
    counted in playouts (the search reads it once per playout), not in wall time."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_the_budget_bounds_a_run():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    clock = TickClock(0.001)  # every playout seems to take 1 ms
    search = Coach("fast", clock=clock).search(game, "ann")
    search.run(budget_ms=10.5)
    # No playout is begun that would end past the deadline: ten fit in 10.5 ms, not eleven.
    assert search.playouts == 10
    assert search.elapsed_ms <= 10.5 + 1
    search.run(budget_ms=10.5)  # and the next run refines
    assert search.playouts == 20


def test_a_slow_playout_is_not_begun_late():
    # The cost of the next playout is foreseen from the slowest of the last ones.
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    ticks = iter([0.0, 0.030] + [0.031 + 0.001 * k for k in range(1000)])
    search = Coach("fast", clock=lambda: next(ticks)).search(game, "ann")
    search.run(budget_ms=50)
    # The first playout took 30 ms: a second one would likely end at 60 ms, past 50.
    assert search.playouts == 1


def test_runs_in_slices_give_the_figures_of_one_run():
    # A run that stops halfway through a sample leaves it for the next run; only finished
    # samples count, so slices of one playout end exactly where one run of 8 samples does.
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    sliced = Coach("fast", seed=4, clock=TickClock(0.001)).search(game, "ann")
    runs = 0
    while sliced.samples < 8:
        sliced.run(budget_ms=1)
        runs += 1
        assert sliced.playouts == runs  # one playout per slice
    whole = Coach("fast", seed=4).search(game, "ann").run(samples=8)
    assert runs > 8  # samples were left half played between slices
    assert [m.to_json() for m in sliced.advice().moves] == [m.to_json() for m in whole.advice().moves]


def test_a_first_answer_before_any_sample_is_finished():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    search = Coach("fast", clock=TickClock(0.001)).search(game, "ann").run(budget_ms=1)
    assert search.samples == 0 and search.playouts == 1
    advice = search.advice()  # finishes the first sample: a ranking of every move
    assert advice.samples == 1 and all(m.samples == 1 for m in advice.moves)


def test_a_one_shot_answer_takes_the_levels_fewest_samples_within_its_ceiling():
    # Every playout seems to take 6.5 ms: the budget buys three samples of the three moves,
    # and rop hint's answer goes on to the level's fewest samples (four) while its ceiling
    # lasts; the hint at the table keeps to its budget instead.
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    level = LEVELS["default"]
    search = Coach("default", clock=TickClock(0.0065)).search(game, "ann").run()
    assert search.samples == 3 and len(search.tallies) == 3
    advice = Coach("default", clock=TickClock(0.0065)).advise(game, "ann")
    assert advice.samples == level.min_samples
    assert level.budget_ms < advice.elapsed_ms <= level.most_ms + 6.5  # within a playout of the ceiling


def test_a_one_shot_answer_begins_no_playout_that_would_end_past_its_ceiling():
    # Every playout seems to take 17 ms (a table of four with the Higher Powers): the budget
    # leaves less than a playout before the ceiling, so none more is begun; one begun
    # whatever was left ended past it (the answer took 119 ms of the clock here).
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    level = LEVELS["default"]
    budget_only = Coach("default", clock=TickClock(0.017)).search(game, "ann").run()
    assert budget_only.samples < level.min_samples and level.most_ms - budget_only.elapsed_ms < 17
    advice = Coach("default", clock=TickClock(0.017)).advise(game, "ann")
    assert advice.elapsed_ms == budget_only.elapsed_ms <= level.most_ms
    assert advice.samples == budget_only.samples


def test_a_one_shot_answer_stops_at_its_ceiling():
    # However slow the machine (a clock that jumps a second a read), the answer takes no more
    # than its first sample: a ranking of every move, not the level's fewest samples.
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    advice = Coach("default", clock=TickClock(1.0)).advise(game, "ann")
    assert advice.samples == 1 < LEVELS["default"].min_samples
    assert all(m.samples == 1 for m in advice.moves)


def test_not_the_players_turn():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    with pytest.raises(CoachError, match="ann's turn, not bob's"):
        Coach().advise(game, "bob", samples=1)
    with pytest.raises(CoachError, match="unknown player"):
        Coach().advise(game, "zed", samples=1)


def test_a_team_mate_s_hand_is_hidden_too():
    # Teams (R16): ann's partner cy holds different cards in the two games; ann cannot see
    # them, so her advice is the same.
    from companion.games.rule_of_power.engine.game import GameSetup, GameState
    from companion.games.rule_of_power.engine.moves import Deal, NewRound

    def game(cy):
        setup = GameSetup(("ann", "bob", "cy", "dee"), (("ann", "cy"), ("bob", "dee")))
        g = GameState(setup)
        g.push(NewRound.make("dee"))
        rest = {"bob": ["W011", "W021", "W031"], "dee": ["W013", "W023", "W033"]}
        g.push(Deal.make({"ann": ["W014", "W019", "W008"], "bob": rest["bob"], "cy": cy, "dee": rest["dee"]},
                         ["W035", "W036", "W040", "W030"]))
        return g

    a = _advice_json(game(["W007", "W017", "W027"]), "ann")
    b = _advice_json(game(["W001", "W002", "W003"]), "ann")
    assert a == b
    assert a["moves"][0]["margin_interval"][0] <= a["moves"][0]["margin"]


def test_as_a_player_the_coach_needs_evidence_to_leave_the_plain_move():
    from companion.games.rule_of_power.coach.policies import RolloutPolicy, decision_key
    import random

    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    plain = RolloutPolicy(noise=0.0, fate_rate=0.0)(game.view("ann"), random.Random(0))
    advice = Coach("fast").advise(game, "ann", samples=30, seed=2)
    stubborn = Coach("fast", confidence=1e9).pick(advice, game)
    assert stubborn.key == decision_key(plain)
    assert Coach("fast", confidence=0.0).pick(advice, game).key == advice.best.key
