"""L4 (two or more players; the nobles in use, nobles x players <= 42) and L5 (the deal: the
noble pile, floor(42 / players) cards to each pile, the rest set aside, the hand the top
three)."""

from __future__ import annotations

import pytest

from companion.contract import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import DEALT, NOBLES
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, TurnUp
from companion.games.love_money_power_death.setup import LmpdSetup, max_nobles, nobles_for_count
from companion.games.love_money_power_death.state import Phase

from .helpers import c, dealt, full_deal, table

NAMES = GAME.default_players(42)


class TestL4PlayersAndNobles:
    @pytest.mark.parametrize(
        "players, most",
        [(2, 10), (3, 10), (4, 10), (5, 8), (6, 7), (7, 6), (8, 5), (9, 4), (10, 4), (14, 3), (21, 2), (42, 1)],
    )
    def test_nobles_times_players_is_at_most_42(self, players: int, most: int) -> None:
        assert max_nobles(players) == most
        assert len(GAME.make_setup(NAMES[:players], nobles=most).nobles) == most
        assert len(GAME.make_setup(NAMES[:players]).nobles) == most  # the default: as many as allowed
        if most < 10:
            with pytest.raises(IllegalMoveError, match=rf"^L4: {players} players play with at most {most} nobles? \(nobles x players <= 42"):
                GAME.make_setup(NAMES[:players], nobles=most + 1)

    def test_two_or_more_players_each_once(self) -> None:
        with pytest.raises(IllegalMoveError, match="^L4: a game has two or more players, not 1"):
            GAME.make_setup(["ann"])
        with pytest.raises(IllegalMoveError, match="^L4: each player sits once: ann is named twice"):
            GAME.make_setup(["ann", "bob", "ann"])
        with pytest.raises(IllegalMoveError, match="^L4: at most 42 players"):
            GAME.make_setup([f"p{k}" for k in range(43)], nobles=1)
        with pytest.raises(InvalidMoveError, match="may not hold"):
            GAME.make_setup(["ann=1", "bob"])
        with pytest.raises(InvalidMoveError, match="non-empty word"):
            GAME.make_setup([" ann", "bob"])

    def test_fewer_nobles_drop_the_fives_first(self) -> None:
        assert [n.id for n in nobles_for_count(8)] == ["N2L", "N2M", "N2P", "N2D", "N3L", "N3M", "N3P", "N3D"]
        assert [n.id for n in nobles_for_count(10, "money-death")][-2:] == ["N5M", "N5D"]
        assert [n.id for n in GAME.make_setup(["ann", "bob"], nobles=9, fives="power-death").nobles][-1:] == ["N5P"]
        with pytest.raises(IllegalMoveError, match="^L4: a table plays with 1 to 10 nobles"):
            nobles_for_count(11)

    def test_the_nobles_in_use_are_named_each_once_at_most_two_fives(self) -> None:
        setup = LmpdSetup.make(["ann", "bob"], ["N5D", "n3-love", "N2M"])
        assert [n.id for n in setup.nobles] == ["N2M", "N3L", "N5D"] and setup.rounds == 3
        with pytest.raises(IllegalMoveError, match="^L4: N3L is named twice: one deck holds each noble once"):
            LmpdSetup.make(["ann", "bob"], ["N3L", "N3L"])
        with pytest.raises(IllegalMoveError, match="^L4: one deck holds two rank-5 nobles, not 3"):
            LmpdSetup.make(["ann", "bob"], ["N5L", "N5M", "N5P"])
        with pytest.raises(IllegalMoveError, match="^L4: 3Ma is no noble"):
            LmpdSetup.make(["ann", "bob"], ["N2L", "3Ma"])
        with pytest.raises(IllegalMoveError, match="^L4: a table plays with at least one noble"):
            LmpdSetup(("ann", "bob"), ())
        with pytest.raises(UnknownCardError, match="nobles"):
            LmpdSetup.make(["ann", "bob"], ["N7L"])

    def test_the_options(self) -> None:
        nobles, fives = GAME.options
        assert (nobles.name, nobles.kind, nobles.default, nobles.low, nobles.high) == ("nobles", "int", 0, 0, 10)
        assert (fives.name, fives.kind, fives.default) == ("fives", "choice", "love-power") and len(fives.choices) == 6
        assert nobles.read("7") == 7 and fives.read("Money-Death") == "money-death"
        setup = GAME.make_setup(("ann", "bob", "cy"), nobles=9, fives="money-death")
        assert [n.id for n in setup.nobles][-1] == "N5M"
        assert GAME.make_setup(("ann", "bob"), nobles=["N2L", "N5D"]).rounds == 2
        with pytest.raises(ValueError, match="unknown option .target.: this game.s options are nobles, fives"):
            GAME.make_setup(["ann", "bob"], target=3)

    def test_nobles_not_in_use_are_out_of_the_game(self) -> None:
        state = dealt(["ann", "bob"], ["N3P", "N2L"], order=["N3P"])
        state.push(Commit.of("ann", state.hand("ann")[0].id))
        state.push(Commit.of("bob", state.hand("bob")[0].id))
        with pytest.raises(IllegalMoveError, match=r"^L4: N5L is not in use in this game \(the nobles in use are N2L, N3P\)"):
            state.push(TurnUp.of("N5L"))


class TestL5TheDeal:
    @pytest.mark.parametrize("players, pile, aside", [(2, 21, 0), (3, 14, 0), (4, 10, 2), (5, 8, 2), (6, 7, 0), (8, 5, 2), (10, 4, 2)])
    def test_each_pile_gets_42_over_players_and_the_rest_is_set_aside(self, players: int, pile: int, aside: int) -> None:
        setup = GAME.make_setup(NAMES[:players])
        assert (setup.pile_size, setup.aside_size, setup.hand_size) == (pile, aside, 3)
        state = dealt(NAMES[:players])
        assert state.pile_sizes == dict.fromkeys(NAMES[:players], pile - 3)
        assert state.hand_sizes == dict.fromkeys(NAMES[:players], 3) and state.aside_count == aside
        assert state.noble_pile_count == len(setup.nobles) and state.phase is Phase.COMMIT

    def test_the_hand_is_the_top_three_of_the_pile_or_all_of_it(self) -> None:
        state = dealt(hands={"ann": ["4Mb", "A3", "1Da"]})
        assert [x.id for x in state.hand("ann")] == ["4Mb", "1Da", "A3"]
        many = dealt(NAMES[:14], nobles=3)
        assert many.setup.pile_size == 3 and many.hand_sizes[NAMES[13]] == 3 and many.pile_sizes[NAMES[13]] == 0
        most = dealt(NAMES[:42], nobles=1)
        assert most.setup.hand_size == 1 and most.hand_sizes[NAMES[41]] == 1 and most.pile_sizes[NAMES[41]] == 0

    def test_a_deal_unseen_leaves_every_card_face_down(self) -> None:
        state = table()
        state.push(Deal())
        assert state.hand_unseen("ann") == 3 and state.pile("bob") == (UNSEEN,) * 11 and state.noble_pile == (UNSEEN,) * 10
        assert state.hand_sizes == {"ann": 3, "bob": 3, "cy": 3}

    def test_a_hand_given_beside_its_pile_is_its_top_three(self) -> None:
        state = table()
        deal = full_deal(state, hands={"ann": ["4Mb", "A3", "1Da"]})
        pile = deal.pile_of("ann")
        assert pile is not None
        ok = Deal(deal.order, deal.piles, deal.aside, (("ann", (c("1Da"), c("4Mb"), c("A3"))),))
        state.push(ok)
        state.pop()
        wrong = Deal(deal.order, deal.piles, deal.aside, (("ann", (c("1Da"), c("4Mb"), pile[5])),))
        with pytest.raises(IllegalMoveError, match=r"^L5: ann's hand is the top 3 cards of ann's pile, and .* is in ann's pile \(6th\)"):
            state.push(wrong)

    def test_a_hand_given_without_its_pile(self) -> None:
        state = table()
        state.push(Deal.make(hands={"cy": ["2Pa", "5D", "A6"]}))
        assert [x.id for x in state.hand("cy")] == ["2Pa", "5D", "A6"] and state.hand_unseen("cy") == 0
        assert state.hand_unseen("ann") == 3

    @pytest.mark.parametrize(
        "change, message",
        [
            (lambda d: Deal(d.order, d.piles[:1] + (("bob", d.piles[1][1][:-1]),) + d.piles[2:], d.aside), r"^L5: bob's pile holds 14 cards \(42 / 3 players\), not 13"),
            (lambda d: Deal(d.order, d.piles, (c("1La"),)), r"^L5: with 3 players, 0 cards are set aside \(42 mod 3\), not 1"),
            (lambda d: Deal(d.order[:-1], d.piles, d.aside), r"^L5: the noble pile holds the 10 nobles in use, not 9"),
            (lambda d: Deal((c("1La"),) + d.order[1:], d.piles, d.aside), r"^L1: 1La is dealt twice|^L5: the noble pile"),
            (lambda d: Deal((c("N5M"),) + d.order[1:], d.piles, d.aside), r"^L4: the noble pile holds the nobles in use"),
            (lambda d: Deal(d.order, (("ann", (c("N5M"),) + d.piles[0][1][1:]),) + d.piles[1:], d.aside), r"^L6: N5M is a noble: nobles are laid in the noble pile and never dealt"),
            (lambda d: Deal(d.order, (("ann", (d.piles[1][1][0],) + d.piles[0][1][1:]),) + d.piles[1:], d.aside), r"^L1: .* is dealt twice \(in ann's pile \(1st\) and in bob's pile \(1st\)\): one deck holds each card once"),
            (lambda d: Deal(d.order, d.piles, d.aside, (("ann", d.piles[0][1][:2]),)), r"^L5: ann's hand is the top 3 cards of ann's pile: 3 cards, not 2"),
        ],
    )
    def test_a_deal_the_rules_do_not_allow_is_refused(self, change, message: str) -> None:
        state = table()
        deal = full_deal(state)
        before = state.phase
        with pytest.raises(IllegalMoveError, match=message):
            state.push(change(deal))
        assert state.phase is before and state.move_stack == []

    def test_the_cards_are_dealt_once_and_first(self) -> None:
        state = table()
        with pytest.raises(IllegalMoveError, match="^L5: the cards are dealt first"):
            state.push(Commit.of("ann"))
        with pytest.raises(IllegalMoveError, match="^L5: the cards are dealt first"):
            state.push(Draw.of(state.players))
        state.push(Deal())
        with pytest.raises(IllegalMoveError, match="^L5: the cards are dealt once, before the first round"):
            state.push(Deal())

    def test_a_deal_naming_someone_who_does_not_play_is_malformed(self) -> None:
        state = table()
        with pytest.raises(InvalidMoveError, match="'dan' does not play"):
            state.push(Deal(None, (("dan", (UNSEEN,) * 14),)))

    def test_a_random_deal_uses_every_card_once(self) -> None:
        import random

        for players in range(2, 7):
            state = table(NAMES[:players])
            deal = GAME.chance_move(state, random.Random(players))
            assert isinstance(deal, Deal) and deal.order is not None and deal.aside is not None
            cards = [x for _, pile in deal.piles for x in pile] + list(deal.aside)
            assert sorted(cards) == sorted(DEALT) and sorted(deal.order) == sorted(state.setup.nobles)
            assert set(deal.order) <= set(NOBLES)
