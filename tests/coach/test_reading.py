"""Rule of Power's worlds read the plays of the deal under way (:mod:`companion.games.
rule_of_power.coach.reading`): a player who laid a low card into a centre their Dragon would
have taken likely holds no Dragon; read from the plays and the public table alone."""

from __future__ import annotations

import random

from companion.coach import Coach
from companion.games.rule_of_power.coach import opponents
from companion.games.rule_of_power.coach.model import RuleOfPowerWorlds
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
from companion.games.rule_of_power.engine.sampling import Sampler

SEVENS = {Card.from_id(c) for c in ("W017", "W027", "W037")}
"""The 7s ann cannot place: each would have taken the Power 7 from the centre (R4)."""


def laid_low(bob: list[str], *, keep_history: bool = True) -> GameState:
    """bob, first to play, lays his 2 into a centre of 7P, 8, 9 and 10 (each taken by a card
    of its value alone, R4: nothing else takes anything), then it is ann's turn."""
    game = GameState(GameSetup(("ann", "bob")), keep_history=keep_history)
    game.push(NewRound.make("ann"))
    game.push(Deal.make({"ann": ["W011", "W022", "W035"], "bob": bob}, ["W007", "W020", "W029", "W038"]))
    game.push(Play.from_ids("bob", "W032"))
    assert game.turn == "ann"
    return game


def test_a_player_who_left_a_dragon_in_the_centre_is_dealt_a_seven_less_often() -> None:
    game = laid_low(["W032", "W013", "W024"])
    worlds = RuleOfPowerWorlds(game, "ann")
    (evidence,) = worlds.reading.evidence["bob"]
    assert SEVENS <= evidence.better and evidence.fits
    # A card of 2 to 6 takes nothing here; only a 1 would have been laid before the 2 (the
    # weaker card first).
    assert {c.value for c in evidence.better if (c.value or 0) <= 6} == {1}

    def share_with_a_seven(sample) -> float:  # type: ignore[no-untyped-def]
        rng = random.Random(4)
        return sum(bool(SEVENS & set(sample(rng).hands["bob"])) for _ in range(2000)) / 2000

    uniform = share_with_a_seven(Sampler(game, "ann").sample)
    read = share_with_a_seven(lambda rng: worlds.reading.redeal(worlds.sampler.sample(rng), rng))
    assert 0.14 < uniform < 0.22  # 1 - C(29, 2) / C(32, 2) = 0.18
    assert read < uniform / 4  # 0.03 against 0.19


def test_the_reading_reads_the_plays_and_no_hidden_card() -> None:
    # The same plays, bob's two cards still in hand (and so the deck) different.
    one, other = laid_low(["W032", "W013", "W024"]), laid_low(["W032", "W015", "W026"])
    assert one.view("ann") == other.view("ann")
    assert RuleOfPowerWorlds(one, "ann").reading.evidence == RuleOfPowerWorlds(other, "ann").reading.evidence

    def advice(game: GameState) -> dict:  # type: ignore[type-arg]
        data = Coach("fast").advise(game, "ann", samples=6, seed=2).to_json()
        data.pop("elapsed_ms")
        return data

    assert advice(one) == advice(other)


def test_the_reading_keeps_none_of_the_centres_it_scores() -> None:
    # Each card laid on a table of the past makes a centre that will not come again: kept in
    # the counting player's table, they filled it and the heap the collector walks.
    game = laid_low(["W032", "W013", "W024"])
    opponents._TAKES.clear()  # a cache: emptied, it only costs time
    assert RuleOfPowerWorlds(game, "ann").reading.evidence
    assert not opponents._TAKES


def test_nothing_is_read_without_the_history_nor_of_the_player_advised() -> None:
    assert not RuleOfPowerWorlds(laid_low(["W032", "W013", "W024"], keep_history=False), "ann").reading
    game = laid_low(["W032", "W013", "W024"])
    game.push(Play.from_ids("ann", "W011"))
    assert set(RuleOfPowerWorlds(game, "bob").reading.evidence) == {"ann"}  # bob reads ann's play ...
    game.push(Play.from_ids("bob", "W013", ["W032", "W011"]))
    assert {p: len(e) for p, e in RuleOfPowerWorlds(game, "ann").reading.evidence.items()} == {"bob": 2}  # ... ann bob's two


def test_the_position_before_a_move_is_the_table_as_it_was() -> None:
    game = laid_low(["W032", "W013", "W024"])
    before = game.before(len(game.move_stack) - 1)
    assert before.turn == "bob" and len(before.centre) == 4 and before.view("ann").hand == game.view("ann").hand
    assert len(game.centre) == 5  # the game itself as it is
