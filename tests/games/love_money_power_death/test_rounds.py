"""A round and the end: L6 (commits, all at once), L7 (the noble, then the reveal), L8 (suit,
then rank), L9 (agents), L10 (courts and discards), L11 (the draw), L12 (the end) and L13 (the
winner and its tie-breaks)."""

from __future__ import annotations

import pytest

from companion.contract import IllegalMoveError, InvalidMoveError
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.scoring import TieBreak, Why, decide_game, decide_round
from companion.games.love_money_power_death.state import Phase

from .helpers import c, commit_all, dealt, play_round, table

THREE = {"ann": ["4Mb", "A3", "1Da"], "bob": ["A2", "3Ma", "2Lb"], "cy": ["2Pa", "5D", "A6"]}


class TestL6Commits:
    def test_every_player_commits_at_once_in_any_order(self) -> None:
        state = dealt(hands=THREE)
        assert state.deciding == ("ann", "bob", "cy") and state.simultaneous and state.to_move is None
        state.push(Commit.of("cy", "5D"))
        assert state.deciding == ("ann", "bob") and state.committed == ("cy",)
        state.push(Commit.of("ann", "1Da"))
        assert state.deciding == ("bob",) and state.phase is Phase.COMMIT
        state.push(Commit.of("bob", "A2"))
        assert state.deciding == () and state.phase is Phase.NOBLE and state.committed == ("ann", "bob", "cy")

    def test_any_card_of_the_hand_may_be_committed_no_suit_to_follow(self) -> None:
        state = dealt(hands=THREE)
        assert [m.card.id for m in state.moves_of("ann")] == ["4Mb", "1Da", "A3"]  # type: ignore[union-attr]
        assert all(state.is_legal(m) for m in state.moves_of("ann"))
        assert set(state.legal_moves) == {m for p in state.players for m in state.moves_of(p)}

    def test_a_committed_card_is_neither_taken_back_nor_changed(self) -> None:
        state = dealt(hands=THREE)
        state.push(Commit.of("ann", "4Mb"))
        for card in ("1Da", "4Mb", None):
            with pytest.raises(IllegalMoveError, match="^L6: ann has committed this round already: a committed card cannot be taken back or changed"):
                state.push(Commit.of("ann", card))
        assert state.moves_of("ann") == [] and state.hand("ann") == (c("1Da"), c("A3"))
        assert state.hand_size("ann") == 2 and state.commit_of("ann") is c("4Mb")

    def test_one_card_from_ones_own_hand(self) -> None:
        state = table()
        state.push(Deal.make(hands=THREE))  # only the hands were seen: 5M may be anywhere else
        with pytest.raises(IllegalMoveError, match=r"^L6: ann committed 5M, which is not in ann's hand \(4Mb, 1Da, A3\)"):
            state.push(Commit.of("ann", "5M"))

    def test_nobles_are_never_in_a_hand(self) -> None:
        state = dealt(hands=THREE)
        with pytest.raises(IllegalMoveError, match="^L6: ann committed N3L: nobles are never in a hand"):
            state.push(Commit.of("ann", "N3L"))

    def test_a_commit_unseen_is_a_card_of_the_hand(self) -> None:
        state = dealt(hands=THREE)
        state.push(Commit.of("bob"))
        assert state.commit_of("bob") is UNSEEN and state.hand_size("bob") == 2
        assert state.hand("bob") == (c("2Lb"), c("3Ma"), c("A2"))  # the companion did not see which

    def test_only_players_commit(self) -> None:
        state = dealt(hands=THREE)
        with pytest.raises(InvalidMoveError, match="'dan' does not play"):
            state.push(Commit.of("dan", "4Mb"))
        assert state.moves_of("dan") == [] and state.player_of(Commit.of("cy", "5D")) == "cy"


class TestL7NobleAndReveal:
    def test_the_noble_is_turned_when_every_player_has_committed_and_not_before(self) -> None:
        state = dealt(hands=THREE, order=["N3P"])
        commit_all(state, {"ann": "4Mb", "bob": "A2"})
        with pytest.raises(IllegalMoveError, match="^L7: the noble is turned once every player has committed, and not before: cy to commit"):
            state.push(TurnUp.of("N3P"))
        with pytest.raises(IllegalMoveError, match="^L7: the cards are revealed once every player has committed and the noble is turned: cy to commit"):
            state.push(Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}))
        state.push(Commit.of("cy", "2Pa"))
        with pytest.raises(IllegalMoveError, match="^L7: the noble is turned before the cards are revealed"):
            state.push(Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}))
        assert list(state.legal_moves) == [TurnUp.of("N3P")]
        state.push(TurnUp.of("N3P"))
        assert state.noble is c("N3P") and state.noble_pile_count == 9 and state.phase is Phase.REVEAL
        with pytest.raises(IllegalMoveError, match="^L7: this round's noble, N3P, is turned already"):
            state.push(TurnUp.of("N2L"))
        with pytest.raises(IllegalMoveError, match="^L6: ann has committed this round already"):
            state.push(Commit.of("ann", "1Da"))

    def test_each_revealed_card_is_the_one_committed(self) -> None:
        state = dealt(hands=THREE, order=["N3P"])
        commit_all(state, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"})
        state.push(TurnUp.of("N3P"))
        with pytest.raises(IllegalMoveError, match="^L7: bob revealed 3Ma but committed A2$"):
            state.push(Reveal.of(state.players, {"ann": "4Mb", "bob": "3Ma", "cy": "2Pa"}))
        assert list(state.legal_moves) == [Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"})]

    def test_a_card_committed_unseen_is_checked_at_the_reveal(self) -> None:
        state = table()
        state.push(Deal.make(hands=THREE))
        commit_all(state, {"ann": None, "bob": None, "cy": None})
        state.push(TurnUp.of("N3P"))
        assert list(state.legal_moves) == []  # the cards face down are not listed
        with pytest.raises(IllegalMoveError, match=r"^L7: ann revealed 5M, which is not in ann's hand \(4Mb, 1Da, A3\)"):
            state.push(Reveal.of(state.players, {"ann": "5M", "bob": "A2", "cy": "2Pa"}))
        state.push(Reveal.of(state.players, {"ann": "1Da", "bob": "A2", "cy": "2Pa"}))
        assert state.hand("ann") == (c("4Mb"), c("A3"))

    def test_the_noble_is_the_top_of_the_noble_pile(self) -> None:
        state = dealt(hands=THREE, order=["N3P", "N2L"])
        commit_all(state, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"})
        with pytest.raises(IllegalMoveError, match="^L14: the top of the noble pile is N3P, not N2L"):
            state.push(TurnUp.of("N2L"))
        with pytest.raises(IllegalMoveError, match="^L7: the card turned up is a noble from the noble pile, not 4Mb"):
            state.push(TurnUp.of("4Mb"))

    def test_a_reveal_names_every_player(self) -> None:
        state = dealt(hands=THREE, order=["N3P"])
        commit_all(state, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"})
        state.push(TurnUp.of("N3P"))
        with pytest.raises(InvalidMoveError, match="cy's is not named"):
            Reveal.of(state.players, {"ann": "4Mb", "bob": "A2"})
        with pytest.raises(InvalidMoveError, match=r"a reveal names every player's card: cy's is missing \(L7\)"):
            state.push(Reveal(((("ann", c("4Mb")), ("bob", c("A2"))))))
        with pytest.raises(InvalidMoveError, match="in seating order"):
            state.push(Reveal((("bob", c("A2")), ("ann", c("4Mb")), ("cy", c("2Pa")))))


# L8 and L9, case by case: (noble, plays, winner, why).
CASES = [
    ("N3L", {"ann": "2La", "bob": "5M", "cy": "1Lb"}, "ann", Why.SUIT),  # the suit beats a higher rank
    ("N3L", {"ann": "2Ma", "bob": "5D", "cy": "4Pa"}, "bob", Why.RANK),  # nobody has the suit: rank
    ("N2M", {"ann": "3Ma", "bob": "3Mb", "cy": "1La"}, None, Why.TIE),  # two copies tie in suit and rank
    ("N2L", {"ann": "1Da", "bob": "3Ma", "cy": "3Pb"}, None, Why.TIE),  # equal ranks of other suits tie too
    ("N2P", {"ann": "5P", "bob": "2Pa", "cy": "2Pb"}, "ann", Why.SUIT),  # equal cards below the highest change nothing
    ("N2L", {"ann": "5M", "bob": "2Da", "cy": "2Pa"}, "ann", Why.RANK),
    ("N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, "bob", Why.AGENT),  # the only agent wins whatever else
    ("N5L", {"ann": "5L", "bob": "A1"}, "bob", Why.AGENT),
    ("N3L", {"ann": "A1", "bob": "A2", "cy": "1La", "dee": "5M"}, "cy", Why.SUIT),  # agents drop out, L8 among the rest
    ("N3L", {"ann": "A1", "bob": "A2", "cy": "1Db"}, "cy", Why.RANK),  # a single one left wins with any card
    ("N3D", {"ann": "A1", "bob": "1Db", "cy": "A4"}, "bob", Why.SUIT),
    ("N2L", {"ann": "A1", "bob": "A2", "cy": "3Ma", "dee": "3Pb"}, None, Why.TIE),  # a tie among those left
    ("N2L", {"ann": "A1", "bob": "A2"}, None, Why.ALL_AGENTS),  # two players, both agents
    ("N2L", {"ann": "A1", "bob": "A2", "cy": "A3"}, None, Why.ALL_AGENTS),
]


class TestL8L9WhoWinsTheNoble:
    @pytest.mark.parametrize("noble, plays, winner, why", CASES)
    def test_the_rules_of_the_round(self, noble: str, plays: dict[str, str], winner: str | None, why: Why) -> None:
        decision = decide_round(c(noble), [(p, c(x)) for p, x in plays.items()])
        assert (decision.winner, decision.why) == (winner, why)

    @pytest.mark.parametrize("noble, plays, winner, why", CASES)
    def test_the_same_through_a_game(self, noble: str, plays: dict[str, str], winner: str | None, why: Why) -> None:
        players = list(plays)
        state = dealt(players, [noble], hands={p: [x] for p, x in plays.items()})
        result = play_round(state, noble, plays)
        assert (result.winner, result.why, result.noble, result.number) == (winner, why, c(noble), 1)
        assert state.courts == {p: ((c(noble),) if p == winner else ()) for p in players}
        assert state.discarded == (() if winner else (c(noble),))

    def test_the_reasons_in_words(self) -> None:
        state = dealt(["ann", "bob", "cy", "dee"], hands={"ann": ["A1"], "bob": ["A2"], "cy": ["3Ma"], "dee": ["3Pb"]})
        result = play_round(state, "N2L", {"ann": "A1", "bob": "A2", "cy": "3Ma", "dee": "3Pb"})
        assert result.reason == "the agents of ann and bob cancel out (L9); nobody revealed Love: cy's 3Ma and dee's 3Pb tie as the highest ranks: N2L is discarded (L8)"
        cases = {
            ("N3L", ("2La", "5M")): "ann's 2La is the highest Love card (L8)",
            ("N3L", ("2Ma", "5D")): "nobody revealed Love: bob's 5D is the highest rank (L8)",
            ("N2M", ("3Ma", "3Mb")): "ann's 3Ma and bob's 3Mb tie as the highest Money cards: N2M is discarded (L8)",
            ("N3P", ("4Mb", "A2")): "bob revealed the only agent (A2) (L9)",
            ("N3P", ("A1", "A2")): "every player revealed an agent: N3P is discarded (L9)",
        }
        for (noble, (a, b)), words in cases.items():
            state = dealt(["ann", "bob"], [noble], hands={"ann": [a], "bob": [b]})
            assert play_round(state, noble, {"ann": a, "bob": b}).reason == words


class TestL10CourtsAndDiscards:
    def test_courts_keep_the_nobles_in_the_order_won_and_revealed_cards_are_out_of_play(self) -> None:
        state = dealt(
            ["ann", "bob"],
            ["N2L", "N3L", "N2M", "N3P"],
            hands={"ann": ["2La", "3La", "A1"], "bob": ["1La", "1Lb", "A2"]},
            draws={"ann": ["4Ma"], "bob": ["3Pa"]},
            order=["N3P", "N2L", "N2M", "N3L"],
        )
        play_round(state, "N3P", {"ann": "A1", "bob": "1La"})
        play_round(state, "N2L", {"ann": "2La", "bob": "1Lb"})
        play_round(state, "N2M", {"ann": "3La", "bob": "A2"})
        assert state.courts == {"ann": (c("N3P"), c("N2L")), "bob": (c("N2M"),)}
        assert [x.id for x in state.revealed] == ["1La", "1Lb", "2La", "3La", "A1", "A2"]
        assert state.where(c("2La")) == "revealed in round 2" and state.where(c("N2L")) == "the noble of round 2"

    def test_a_discarded_noble_counts_for_nobody(self) -> None:
        state = dealt(["ann", "bob"], ["N5L"], hands={"ann": ["A1"], "bob": ["A2"]})
        play_round(state, "N5L", {"ann": "A1", "bob": "A2"})
        assert state.discarded == (c("N5L"),) and state.totals == {"ann": 0, "bob": 0} and state.counts == {"ann": 0, "bob": 0}


class TestL11Draw:
    def test_every_player_draws_the_top_of_their_own_pile_after_each_round_but_the_last(self) -> None:
        state = dealt(hands=THREE, draws={"ann": ["2La"], "bob": ["4Pa"], "cy": ["3Pb"]}, order=["N3P"])
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, draw=False)
        assert state.phase is Phase.DRAW and list(state.legal_moves) == [Draw.of(state.players, {"ann": "2La", "bob": "4Pa", "cy": "3Pb"})]
        with pytest.raises(IllegalMoveError, match="^L11: every player draws before the next round's commits"):
            state.push(Commit.of("ann", "1Da"))
        with pytest.raises(IllegalMoveError, match="^L11: every player draws before the next noble is turned"):
            state.push(TurnUp.of("N2L"))
        effects = state.apply(Draw.of(state.players, {"ann": "2La"}))
        assert effects.kind == "draw" and effects.empty == ()
        assert state.hand("ann") == (c("2La"), c("1Da"), c("A3")) and state.hand("bob") == (c("2Lb"), c("3Ma"), c("4Pa"))
        with pytest.raises(IllegalMoveError, match="^L11: the players draw once, after the round's reveal"):
            state.push(Draw.of(state.players))

    def test_a_player_whose_pile_is_empty_draws_nothing_and_the_hand_shrinks(self) -> None:
        players = ["ann", "bob", "cy", "dee", "eve", "fay"]
        state = dealt(players)  # seven nobles, piles of seven: four draws each, then none
        sizes = []
        for rnd in range(7):
            assert state.hand_sizes == dict.fromkeys(players, state.hand_size("ann")) and state.hand_size("ann") >= 1
            sizes.append(state.hand_size("ann"))
            plays = {p: state.hand(p)[0].id for p in players}
            noble = state.noble_pile[0].id  # type: ignore[union-attr]
            play_round(state, noble, plays, draw=False)
            if state.is_game_over():
                break
            if rnd >= 4:
                with pytest.raises(IllegalMoveError, match="^L11: ann's pile is empty: ann drew nothing, not"):
                    state.push(Draw.of(state.players, {"ann": "5D"}))
            effects = state.apply(Draw.of(state.players))
            assert effects.empty == (tuple(players) if rnd >= 4 else ())
        assert sizes == [3, 3, 3, 3, 3, 2, 1] and state.is_game_over()
        assert state.hand_sizes == dict.fromkeys(players, 0)

    def test_a_draw_names_each_player_once(self) -> None:
        state = dealt(hands=THREE, order=["N3P"])
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, draw=False)
        with pytest.raises(InvalidMoveError, match="'dan' does not play"):
            Draw.of(state.players, {"dan": "1La"})
        with pytest.raises(InvalidMoveError, match="a draw names each player once, in seating order"):
            state.push(Draw((("ann", UNSEEN),)))


class TestL12TheEnd:
    def test_the_game_has_as_many_rounds_as_nobles_and_ends_with_the_last_reveal(self) -> None:
        state = dealt(["ann", "bob"], ["N2L", "N3M"], hands={"ann": ["1La", "2La", "3La"], "bob": ["1Ma", "2Ma", "3Ma"]}, order=["N2L", "N3M"])
        play_round(state, "N2L", {"ann": "1La", "bob": "1Ma"})
        assert not state.is_game_over() and state.round_number == 2
        effects = state.apply(Commit.of("ann", "2La"))
        assert effects.waiting == ("bob",)
        state.push(Commit.of("bob", "3Ma"))
        state.push(TurnUp.of("N3M"))
        effects = state.apply(Reveal.of(state.players, {"ann": "2La", "bob": "3Ma"}))
        assert effects.result is not None and effects.outcome is not None and effects.outcome.winners == ("bob",)
        assert state.is_game_over() and state.phase is Phase.OVER and state.round_number == 2
        assert state.deciding == () and list(state.legal_moves) == [] and state.noble_pile_count == 0
        for move in (Draw.of(state.players), Commit.of("ann", "3La"), TurnUp.of("N2L")):
            with pytest.raises(IllegalMoveError, match="^L12: the game is over: the last noble's round is decided, and nothing follows its reveal"):
                state.push(move)
        # Cards left in hands and piles count nothing.
        assert state.totals == {"ann": 2, "bob": 3} and state.hand_size("ann") == 2 and state.pile_size("ann") == 17

    def test_the_table_has_no_move_once_it_is_over(self) -> None:
        import random

        state = dealt(["ann", "bob"], ["N2L"], hands={"ann": ["1La"], "bob": ["1Ma"]})
        play_round(state, "N2L", {"ann": "1La", "bob": "1Ma"})
        with pytest.raises(ValueError, match="the game is over"):
            state.random_table_move(random.Random(1))


class TestL13Winner:
    def test_the_highest_score_wins(self) -> None:
        outcome = decide_game(["ann", "bob", "cy"], {"ann": (c("N5L"), c("N2M")), "bob": (c("N3P"),), "cy": ()})
        assert (outcome.winner, outcome.winners, outcome.tiebreak, outcome.draw) == ("ann", ("ann",), TieBreak.SCORE, False)
        assert outcome.explain() == "ann wins with 7 (L13)"

    def test_a_shared_score_goes_to_the_fewest_nobles(self) -> None:
        outcome = decide_game(["ann", "bob", "cy"], {"ann": (c("N2L"), c("N3M")), "bob": (c("N5P"),), "cy": (c("N2M"),)})
        assert (outcome.winner, outcome.tiebreak) == ("bob", TieBreak.FEWEST_NOBLES)
        assert outcome.explain() == "bob wins: 5 like others, with the fewest nobles (1) (L13)"

    def test_the_same_score_and_nobles_share_the_win(self) -> None:
        outcome = decide_game(["ann", "bob", "cy"], {"ann": (c("N5L"),), "bob": (c("N5P"),), "cy": (c("N2L"), c("N3M"))})
        assert (outcome.winner, outcome.winners, outcome.draw, outcome.tiebreak) == (None, ("ann", "bob"), True, TieBreak.SHARED)
        assert outcome.explain() == "ann and bob share the win: 5 each with 1 noble (L13)"

    def test_the_third_sentence_is_not_applied(self) -> None:
        # The rulebook's "lowest combined ranking" cannot separate players with equal sums, and
        # over the whole table it would make cy (0) the winner.
        outcome = decide_game(["ann", "bob", "cy"], {"ann": (c("N2L"), c("N3M")), "bob": (c("N3P"), c("N2D")), "cy": ()})
        assert outcome.winners == ("ann", "bob") and outcome.tiebreak is TieBreak.SHARED

    def test_when_nobody_won_a_noble_the_whole_table_shares_the_win(self) -> None:
        state = dealt(["ann", "bob"], ["N2L"], hands={"ann": ["A1"], "bob": ["A2"]})
        play_round(state, "N2L", {"ann": "A1", "bob": "A2"})
        outcome = state.outcome()
        assert outcome is not None and outcome.winners == ("ann", "bob") and outcome.tiebreak is TieBreak.SHARED
        assert outcome.explain() == "nobody won a noble: the whole table shares the win (L13)"

    def test_winners_are_in_seating_order(self) -> None:
        outcome = decide_game(["cy", "ann", "bob"], {"ann": (c("N3L"),), "bob": (), "cy": (c("N3P"),)})
        assert outcome.winners == ("cy", "ann")

    def test_no_outcome_while_the_game_goes_on(self) -> None:
        assert table().outcome() is None and dealt().outcome() is None
