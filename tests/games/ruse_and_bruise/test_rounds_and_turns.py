"""Set-up (B6), rounds and columns (B7), turns (B8), drawing (B9), completion and the round's
end (B16), the next round's first player (B17), the distribution carried out (B18, B27) and
the game's end (B28), on games played move by move."""

from __future__ import annotations

import random

import pytest

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Place, Swap
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import EXAMPLE
from tests.games.ruse_and_bruise.helpers import card, passes, place, play, reveal, rnd, table, turn, winners

STORM = card("STORM")

HANDS = {"ann": ["KING", "EXPL", "WIZ"], "bob": ["QUEEN", "ASSN", "CLOAK"]}


def two() -> RabState:
    return table(2, HANDS)


# ---------------------------------------------------------------------- B6, B7


def test_a_game_has_2_to_6_players_each_a_colour_of_their_own() -> None:
    for n in range(2, 7):
        assert len(GAME.make_setup(["ann", "bob", "cy", "dee", "eve", "fay"][:n], values="example").colours) == n
    with pytest.raises(IllegalMoveError, match="B6: a game has 2 to 6 players, not 7"):
        GAME.make_setup(["a", "b", "c", "d", "e", "f", "g"], values="example")
    with pytest.raises(IllegalMoveError, match="B6: a game has 2 to 6 players, not 1"):
        GAME.make_setup(["a"], values="example")
    with pytest.raises(IllegalMoveError, match="B6: each player has a colour of their own: ann and bob are both red"):
        GAME.make_setup(["ann", "bob"], values="example", colours="red,red")
    with pytest.raises(IllegalMoveError, match="B1: bob's colour is one of blue, white, red, yellow, green, black, not 'pink'"):
        GAME.make_setup(["ann", "bob"], values="example", colours={"ann": "red", "bob": "pink"})
    with pytest.raises(IllegalMoveError, match="B6: each player sits once"):
        GAME.make_setup(["ann", "ann"], values="example")
    with pytest.raises(InvalidMoveError, match="may not hold"):
        GAME.make_setup(["ann", "b:ob"], values="example")


def test_the_deal_as_seen_three_cards_each_and_six_goal_cards_per_stack() -> None:
    with pytest.raises(IllegalMoveError, match="B6: ann's starting hand holds 3 cards, not 2"):
        GAME.make_setup(["ann", "bob"], values="example", hands={"ann": ["KING", "QUEEN"]})
    with pytest.raises(IllegalMoveError, match="B1: ann's starting hand names a card twice"):
        GAME.make_setup(["ann", "bob"], values="example", hands={"ann": ["KING", "king", None]})
    with pytest.raises(IllegalMoveError, match="B6: goal stack 2 holds 5 cards, not 6"):
        GAME.make_setup(["ann", "bob"], values="example", goals=[["music-1"] + [None] * 5, [None] * 5])
    with pytest.raises(IllegalMoveError, match="B5: music-1 is dealt twice"):
        GAME.make_setup(["ann", "bob"], values="example", goals=[["music-1"] + [None] * 5, ["music-1"] + [None] * 5])
    state = table(2, {"ann": ["KING", None, None]})
    assert state.hand("ann") == (card("KING"),) and state.hand_size("ann") == 3 and state.stack_size("ann") == 22
    assert state.hand("bob") == () and state.hand_size("bob") == 3


def test_each_round_turns_over_the_top_goal_card_of_every_stack() -> None:
    goals = [["music-3a", "trade-1", None, None, None, None], ["fencing-5", None, None, None, None, None]]
    state = table(2, HANDS, goals)
    with pytest.raises(IllegalMoveError, match="B29: the top goal card of stack 2 is fencing-5, not trade-1"):
        state.push(rnd("music-3a", "trade-1"))
    with pytest.raises(IllegalMoveError, match="B7: a round turns over one goal card per stack: 2, not 3"):
        state.push(rnd("music-3a", "fencing-5", "trade-2"))
    with pytest.raises(IllegalMoveError, match="B29: trade-1 lies in goal stack 1, not on top of stack 2"):
        table(2, HANDS, [[None] + ["trade-1"] + [None] * 4, [None] * 6]).push(rnd("music-1", "trade-1"))
    state.push(rnd("music-3a", "fencing-5"))
    assert [c.goal.id for c in state.columns] == ["music-3a", "fencing-5"] and state.goal_stack_size(1) == 5
    assert state.phase is Phase.PLACE and state.to_move == "ann"  # the first player listed starts round 1 (B6)


def test_a_goal_card_is_turned_over_once() -> None:
    state = play(table(2, HANDS), rnd("music-3a", "trade-1"))
    assert state.whereabouts("ann").hand == 3
    with pytest.raises(IllegalMoveError, match="B5: music-3a was turned over already"):
        play(table(2, HANDS), rnd("music-3a", "music-3a"))


def test_no_game_begins_without_a_values_table() -> None:
    setup = RabSetup(("ann", "bob"), ("blue", "white"), None)
    state = GAME.new_state(setup)
    assert state.waiting.reason.startswith("the table's values table is missing, so the game cannot begin (B4)")
    assert "rop cards values --game ruse-and-bruise" in state.waiting.reason
    with pytest.raises(IllegalMoveError, match=r"B4: this game has no values table: enter the table's once \(rop cards values --game ruse-and-bruise\)"):
        state.push(rnd("music-3a", "trade-1"))


# ---------------------------------------------------------------------- B8, B9


def test_a_turn_places_a_card_face_down_at_the_bottom_of_a_column_then_draws() -> None:
    state = play(two(), rnd("music-3a", "trade-2"), place("ann", 1, "KING", "QUEEN"))
    assert state.column(1).cards == (("ann", card("KING"), False),)
    assert state.hand("ann") == (card("QUEEN"), card("EXPL"), card("WIZ")) and state.stack_size("ann") == 21
    assert state.to_move == "bob"  # clockwise (B8)
    play(state, place("bob", 1, "CLOAK", "KING"))
    # The card directly above is face down: it is turned over first, whoever owns it (B10).
    assert state.to_move is None and state.waiting.what == "turn"
    play(state, turn(1, "KING"))
    assert state.column(1).cards == (("ann", card("KING"), True), ("bob", card("CLOAK"), False))
    assert state.to_move == "ann"


def test_a_card_goes_only_where_the_rules_let_it() -> None:
    state = play(two(), rnd("music-3a", "trade-2"))
    with pytest.raises(IllegalMoveError, match="B8: it is ann's turn, not bob's"):
        state.push(place("bob", 1, "QUEEN"))
    with pytest.raises(IllegalMoveError, match="B7: the columns are 1 to 2, not 3"):
        state.push(place("ann", 3, "KING"))
    with pytest.raises(IllegalMoveError, match="B29: ann places QUEEN, but ann's QUEEN is in ann's stack"):
        state.push(place("ann", 1, "QUEEN"))
    with pytest.raises(IllegalMoveError, match="B29: ann draws EXPL at the end of this turn, but ann's EXPL is in ann's hand"):
        state.push(place("ann", 1, "KING", "EXPL"))
    with pytest.raises(InvalidMoveError, match="unknown player 'zed'"):
        state.push(place("zed", 1, "KING"))
    with pytest.raises(IllegalMoveError, match="B8: no card turned over now: ann places a card face down at the bottom of a column, a place event comes next"):
        state.push(turn(1, "KING"))
    assert state.move_stack == [rnd("music-3a", "trade-2")]  # nothing refused was kept


def test_a_player_with_an_empty_hand_passes_and_one_holding_a_card_must_place() -> None:
    state = play(two(), rnd("music-3a", "trade-2"))
    with pytest.raises(IllegalMoveError, match="B8: ann holds 3 cards: a player holding a card must place one"):
        state.push(passes("ann"))


def _round_of_two(state: RabState) -> None:
    """ann and bob fill columns 1 (music-3a) and 2 (trade-1): the round ends."""
    play(
        state,
        rnd("music-3a", "trade-1"),
        place("ann", 2, "KING", "QUEEN"),  # column 2 complete with 1 card
        place("bob", 1, "QUEEN", "KING"),
        place("ann", 1, "WIZ", "JULIET"),
        turn(1, "QUEEN"),
        place("bob", 1, "ASSN", "JULIET"),
        turn(1, "WIZ"),
    )


def test_the_round_ends_when_every_goal_card_is_complete_and_every_face_down_card_is_revealed() -> None:
    state = two()
    _round_of_two(state)
    assert state.phase is Phase.REVEAL and state.complete(1) and state.complete(2)
    with pytest.raises(IllegalMoveError, match="B16: column 1 holds 1 face-down card, from the goal card down: name every one, not 0"):
        state.push(reveal("", "KING"))
    with pytest.raises(IllegalMoveError, match="B29: column 1, card 3 is bob's: not KING, since the card there is bob's ASSN"):
        state.push(reveal("KING", "KING"))
    play(state, reveal("ASSN", "KING"))
    # The Assassin turned over at the round's end does not act (B16): every card stays.
    assert [x[1].id for x in state.column(1).cards] == ["QUEEN", "WIZ", "ASSN"] and all(up for _, _, up in state.column(1).cards)
    assert state.phase is Phase.DISTRIBUTE
    dist = state.distribution_now()
    # The Wizard takes bob's Queen: bob's Assassin (6) beats ann's Wizard (2).
    assert dist is not None and [d.winner for d in dist] == ["bob", "ann"]
    with pytest.raises(IllegalMoveError, match=r"B26: column 1's goal card music-3a goes to bob, not ann: bob has the highest sum, 6"):
        state.push(winners("ann", "ann"))
    effects = state.apply(winners("bob", "ann"))
    assert effects.result is not None and effects.result.winners == ("bob", "ann")
    # B27: winners take their goal cards; every card of the columns to its owner's discard pile.
    assert [g.id for g in state.won("ann")] == ["trade-1"] and [g.id for g in state.won("bob")] == ["music-3a"]
    assert state.discards("ann") == (card("KING"), card("WIZ")) and state.discards("bob") == (card("QUEEN"), card("ASSN"))
    assert state.hand_size("ann") == 3 and state.hand_size("bob") == 3
    # B17: the next round begins with the player after the one who placed the round's last card.
    assert state.phase is Phase.ROUND
    play(state, rnd("music-5", "religion-1"))
    assert state.to_move == "ann" and state.round_number == 2


def test_completion_is_judged_when_the_turn_is_over() -> None:
    state = play(two(), rnd("music-3a", "trade-1"), place("ann", 2, "KING", "QUEEN"))
    assert state.complete(2) and not state.complete(1)
    col = state.column(2)
    assert (col.holds, col.needs, col.complete, col.closed) == (1, 1, True, False)


def test_players_may_place_under_a_complete_goal_card() -> None:
    state = play(two(), rnd("music-3a", "trade-1"), place("ann", 2, "KING", "QUEEN"), place("bob", 2, "QUEEN", "KING"))
    assert state.waiting.what == "turn" and state.column(2).holds == 2


def _lay_everything(state: RabState) -> list[object]:
    """Play the round so that nobody completes column 2: every card goes to column 1 while it
    is open, each Storm kept for last (placed, drawn), every Cloak and Traitor declined. The
    moves made."""
    made = []
    while state.phase not in (Phase.REVEAL, Phase.OVER):
        if state.to_move is None:
            move = state.random_table_move(random.Random(0))
        else:
            options = list(state.legal_moves)
            if isinstance(options[0], (Cloak, Swap)):
                move = next(m for m in options if (m.placed is False if isinstance(m, Cloak) else m.swap is None))
            else:
                move = min(options, key=lambda m: (getattr(m, "column", 0), getattr(m, "card", None) is STORM, getattr(m, "drew", None) is STORM))
        state.push(move)
        made.append(move)
    return made


def test_the_round_also_ends_when_no_player_holds_a_card_and_short_hands_draw_up_to_three() -> None:
    state = play(two(), rnd("music-5", "trade-5"))
    made = _lay_everything(state)
    # Every card was placed (the Assassins' victims drawn again from the discard pile shuffled
    # into the stack, B9); the last turns drew nothing, with stack and discard pile empty.
    assert state.phase is Phase.REVEAL and not state.complete(2)
    assert all(state.hand_size(p) == 0 and state.stack_size(p) == 0 for p in ("ann", "bob"))
    places = [m for m in made if isinstance(m, Place)]
    assert places[-1].drew is None and state.column(1).closed
    # A player whose hand is empty passes: nothing placed, nothing drawn (B8).
    assert passes("bob") in made or passes("ann") in made
    # B17: the player after the one who placed the round's last card begins the next round.
    starter = "ann" if places[-1].player == "bob" else "bob"
    play(state, state.random_table_move(random.Random(1)))
    dist = state.distribution_now()
    assert dist is not None and dist[1].goal.id == "trade-5"
    play(state, winners(*(d.winner for d in dist)))
    # B9: holding fewer than 3 cards, each draws up to 3 to start the round.
    assert state.hand_size("ann") == state.hand_size("bob") == 0
    with pytest.raises(IllegalMoveError, match="B9: ann holds 0 cards and draws 3 to start round 2, not 1"):
        state.push(rnd("music-1", "trade-1", drew={"ann": ["KING"]}))
    play(state, rnd("music-1", "trade-1", drew={"ann": ["KING", "WIZ", "EXPL"], "bob": [None, "QUEEN", None]}))
    assert state.hand("ann") == (card("KING"), card("EXPL"), card("WIZ")) and state.hand("bob") == (card("QUEEN"),)
    assert state.hand_size("bob") == 3 and state.stack_size("bob") == 22
    assert state.to_move == starter
    with pytest.raises(IllegalMoveError, match="B9: ann holds 3 cards at the start of round 3: nothing to draw"):
        _finish_round_and_draw(state)


def _finish_round_and_draw(state: RabState) -> None:
    while state.phase is not Phase.ROUND:
        state.push(state.random_table_move(random.Random(2)) if state.to_move is None else next(iter(state.legal_moves)))
    state.push(rnd("music-2", "trade-2", drew={"ann": ["KING"]}))


def test_the_game_ends_after_the_sixth_round_with_the_scores() -> None:
    from companion.games.ruse_and_bruise.policies import simulate

    setup, moves = simulate(["ann", "bob", "cy"], EXAMPLE, seed=5)
    state = GAME.new_state(setup)
    for m in moves:
        state.push(m)
    assert state.is_game_over() and len(state.results) == 6 and state.waiting.what == "over"
    outcome = state.outcome()
    assert outcome is not None
    best = max(state.totals.values())
    assert (outcome.winner is None) == outcome.draw == (list(state.totals.values()).count(best) > 1)
    with pytest.raises(IllegalMoveError, match="B28: no new round after the game's end"):
        state.push(rnd("music-1", "trade-1", "alchemy-1"))
    assert not list(state.legal_moves) and state.to_move is None
