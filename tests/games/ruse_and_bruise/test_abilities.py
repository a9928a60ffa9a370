"""The immediate abilities (B10-B15): a card turned over by the card arriving below it acts at
once, whoever owns it; the choices are its owner's, who may not be the player in turn."""

from __future__ import annotations

import pytest

from companion.contract.errors import IllegalMoveError
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.game import Phase, RabState
from tests.games.ruse_and_bruise.helpers import assassin, card, cloak, explore, place, play, rnd, storm, swap, table, turn

GOALS = ("music-3a", "trade-2", "fencing-5")


def three(ann: str, bob: str, cy: str) -> RabState:
    """Three players with the hands given (``"EXPL,KING,QUEEN"``), round 1 begun: column 1
    music-3a, column 2 trade-2, column 3 fencing-5."""
    state = table(3, {"ann": ann.split(","), "bob": bob.split(","), "cy": cy.split(",")})
    return play(state, rnd(*GOALS))


def ids(state: RabState, column: int) -> list[tuple[str, str | None, bool]]:
    return [(owner, c.id if c else None, up) for owner, c, up in state.column(column).cards]


# ---------------------------------------------------------------------- B10


def test_a_card_arriving_below_a_face_down_card_turns_it_over_and_a_face_up_one_stays() -> None:
    state = three("KING,QUEEN,JULIET", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "KING", "EXPL"), place("bob", 1, "WIZ", "ASSN"))
    assert state.waiting.what == "turn" and state.waiting.column == 1
    with pytest.raises(IllegalMoveError, match="B10: the card turned over is the one above the card that arrived in column 1, not in column 2"):
        state.push(turn(2, "KING"))
    with pytest.raises(IllegalMoveError, match="B29: the card turned over in column 1 is ann's: not QUEEN, since ann's card there is KING"):
        state.push(turn(1, "QUEEN"))
    play(state, turn(1, "KING"), place("cy", 1, "ALCH", "DOPPEL"), turn(1, "WIZ"))
    play(state, place("ann", 1, "QUEEN", "DRAGON"), turn(1, "ALCH"))
    # The card above bob's Wizard's neighbour is face up: nothing more is turned over.
    assert ids(state, 1) == [("ann", "KING", True), ("bob", "WIZ", True), ("cy", "ALCH", True), ("ann", "QUEEN", False)]
    assert state.to_move == "bob"
    with pytest.raises(IllegalMoveError, match="B8: no explorer now: bob places a card face down"):
        state.push(explore(2))


def test_an_ability_missing_or_wrong_is_refused() -> None:
    state = three("EXPL,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 1, "WIZ", "ASSN"), turn(1, "EXPL"))
    assert state.waiting.reason == "ann's Explorer was turned over in column 1: he moves to column 2 (B11)"
    with pytest.raises(IllegalMoveError, match="B11: no card placed now: ann's Explorer was turned over in column 1: he moves to column 2, an explorer event comes next"):
        state.push(place("cy", 2, "ALCH"))
    with pytest.raises(IllegalMoveError, match="B11: .*: an explorer event comes next, not an assassin event"):
        state.push(assassin("WIZ"))


# ---------------------------------------------------------------------- B11


def test_an_explorer_moves_to_the_next_column_face_down_and_turns_over_the_card_above_him() -> None:
    state = three("EXPL,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 2, "WIZ", "ASSN"), place("cy", 3, "ALCH", "DOPPEL"))
    play(state, place("ann", 1, "KING", "ROMEO"), turn(1, "EXPL"))
    with pytest.raises(IllegalMoveError, match="B11: ann's Explorer moves to the next column, 2, not 3"):
        state.push(explore(3))
    effects = state.apply(explore(2))
    assert effects.kind == "explorer" and effects.column == 1 and effects.player is None
    # Face down at the bottom of column 2; the card directly above him there is turned over.
    assert ids(state, 1) == [("ann", "KING", False)]
    assert ids(state, 2) == [("bob", "WIZ", False), ("ann", "EXPL", False)]
    assert state.waiting.what == "turn" and state.waiting.column == 2
    play(state, turn(2, "WIZ"))
    # The turn's draw came after every ability (B9): ann's hand holds ROMEO now.
    assert card("ROMEO") in state.hand("ann") and state.to_move == "bob"
    # Face down again, he moves again when next turned over: from the last column to the first.
    play(state, place("bob", 2, "WITCH", "PRINCE"), turn(2, "EXPL"), explore(3), turn(3, "ALCH"))
    play(state, place("cy", 3, "LORD", "SQUIRE"), turn(3, "EXPL"), explore(1), turn(1, "KING"))
    assert ids(state, 1) == [("ann", "KING", True), ("ann", "EXPL", False)]


def test_explorers_chain() -> None:
    state = three("EXPL,KING,QUEEN", "EXPL,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 2, "EXPL", "ASSN"), place("cy", 3, "ALCH", "DOPPEL"))
    play(state, place("ann", 1, "KING", "ROMEO"), turn(1, "EXPL"), explore(2), turn(2, "EXPL"))
    assert state.waiting.reason == "bob's Explorer was turned over in column 2: he moves to column 3 (B11)"
    play(state, explore(3), turn(3, "ALCH"))
    assert ids(state, 2) == [("ann", "EXPL", False)] and ids(state, 3) == [("cy", "ALCH", True), ("bob", "EXPL", False)]
    assert state.to_move == "bob"


def test_an_explorer_enters_a_complete_column_but_not_one_closed_by_a_storm() -> None:
    state = three("EXPL,KING,QUEEN", "STORM,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 2, "STORM", "ASSN"), place("cy", 2, "ALCH", "DOPPEL"))
    play(state, turn(2, "STORM"))
    assert state.waiting.reason == "bob's Storm was turned over in column 2: the column is complete and closed (B13)"
    with pytest.raises(IllegalMoveError, match="B13: the Storm closes its own column, 2, not 1"):
        state.push(storm(1))
    play(state, storm(2))
    assert state.column(2).closed and state.complete(2) and state.column(2).holds == 2
    with pytest.raises(IllegalMoveError, match="B13: column 2 is closed by a Storm: no card may be placed in it"):
        state.push(place("ann", 2, "KING"))
    play(state, place("ann", 1, "KING", "ROMEO"), turn(1, "EXPL"))
    assert "column 2 is closed by a Storm: he stays (B11)" in state.waiting.reason
    with pytest.raises(IllegalMoveError, match=r'B11: column 2 is closed by a Storm: ann\'s Explorer stays in column 1 \("to": null\)'):
        state.push(explore(2))
    play(state, explore(None))
    assert ids(state, 1) == [("ann", "EXPL", True), ("ann", "KING", False)]
    # The column he would leave keeps its card; the next card placed below him does nothing.
    play(state, place("bob", 1, "WITCH", "PRINCE"), turn(1, "KING"))


def test_the_column_an_explorer_leaves_loses_a_card() -> None:
    # Column 2 (trade-2) holds 2 cards when ann's Explorer is turned over there; he moves on:
    # at the end of the turn it holds 1 and is not complete (B11, B16).
    state = three("EXPL,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 2, "EXPL", "JULIET"), place("bob", 2, "WIZ", "ASSN"), turn(2, "EXPL"), explore(3))
    assert not state.complete(2) and state.column(2).holds == 1 and state.column(3).holds == 1


# ---------------------------------------------------------------------- B12


def test_the_assassin_sends_the_card_that_arrived_below_him_to_its_owners_discard_pile() -> None:
    state = three("ASSN,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "ASSN", "JULIET"), place("bob", 1, "WIZ", "ROMEO"), turn(1, "ASSN"))
    assert state.waiting.what == "assassin" and state.to_move is None
    with pytest.raises(IllegalMoveError, match="B12: the Assassin sends the card that arrived below him to its owner's discard pile: not bob's WITCH, since the card that arrived is bob's WIZ"):
        state.push(assassin("WITCH"))
    effects = state.apply(assassin("WIZ"))
    assert (effects.card, effects.owner) == (card("WIZ"), "bob")
    # Unturned, so his ability never acted; the Assassin stays face up.
    assert ids(state, 1) == [("ann", "ASSN", True)] and state.discards("bob") == (card("WIZ"),)
    assert card("ROMEO") in state.hand("bob") and state.hand_size("bob") == 3  # the turn's draw
    # He acts no more: a card placed below him is not touched.
    play(state, place("cy", 1, "ALCH", "DOPPEL"))
    assert ids(state, 1) == [("ann", "ASSN", True), ("cy", "ALCH", False)] and state.to_move == "ann"


def test_the_assassin_sends_an_arriving_explorer_to_its_owners_discard_pile() -> None:
    state = three("EXPL,KING,QUEEN", "ASSN,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 2, "ASSN", "ROMEO"), place("cy", 1, "ALCH", "DOPPEL"))
    play(state, turn(1, "EXPL"), explore(2), turn(2, "ASSN"), assassin(None))
    # Named or not, the arriving Explorer is known: everyone saw him move.
    assert state.discards("ann") == (card("EXPL"),) and ids(state, 2) == [("bob", "ASSN", True)]
    assert ids(state, 1) == [("cy", "ALCH", False)]


# ---------------------------------------------------------------------- B13


def test_a_storm_in_a_column_already_complete_closes_it_too() -> None:
    state = three("STORM,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 2, "STORM", "JULIET"), place("bob", 2, "WIZ", "ROMEO"), turn(2, "STORM"), storm(2))
    assert state.complete(2) and state.column(2).closed


def test_the_closure_belongs_to_the_column_after_a_traitor_swap() -> None:
    state = three("STORM,KING,QUEEN", "TRAITOR,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "STORM", "JULIET"), place("bob", 3, "TRAITOR", "ROMEO"), place("cy", 1, "ALCH", "DOPPEL"))
    play(state, turn(1, "STORM"), storm(1))
    assert state.complete(1) and not state.complete(3)
    play(state, place("ann", 3, "KING", "ROMEO"), turn(3, "TRAITOR"))
    assert state.to_move == "bob"  # bob's Traitor: bob decides, though it is ann's turn
    play(state, swap("bob", 1))
    # fencing-5 came into the Storm's column: complete; music-3a went to column 3 with 2 cards.
    assert [c.goal.id for c in state.columns] == ["fencing-5", "trade-2", "music-3a"]  # type: ignore[union-attr]
    assert state.complete(1) and not state.complete(3)


# ---------------------------------------------------------------------- B14


def test_the_cloaks_owner_may_place_a_card_under_it_and_draws_at_once() -> None:
    state = three("CLOAK,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "CLOAK", "JULIET"), place("bob", 2, "WIZ", "ROMEO"), place("cy", 1, "ALCH", "DOPPEL"))
    play(state, turn(1, "CLOAK"))
    # cy placed, ann's Cloak was turned over: ann decides.
    assert state.to_move == "ann" and state.waiting.what == "cloak"
    assert state.waiting.reason == "ann's Invisibility Cloak was turned over in column 1: ann may place a card from their hand under it, then draws (B14)"
    with pytest.raises(IllegalMoveError, match="B14: the Invisibility Cloak in column 1 is ann's: the choice is ann's, not cy's"):
        state.push(cloak("cy", "LORD"))
    with pytest.raises(IllegalMoveError, match="B29: ann places PRINCE under the Invisibility Cloak, but ann's PRINCE is in ann's stack"):
        state.push(cloak("ann", "PRINCE"))
    effects = state.apply(cloak("ann", "KING", "PRINCE"))
    assert effects.player == "ann"
    # Between the Cloak and the card that turned it over; nothing turned over by it.
    assert ids(state, 1) == [("ann", "CLOAK", True), ("ann", "KING", False), ("cy", "ALCH", False)]
    assert set(state.hand("ann")) == {card("QUEEN"), card("JULIET"), card("PRINCE")}
    assert state.hand_size("ann") == 3 and state.to_move == "ann"  # ann draws at once, cy at the turn's end
    assert card("DOPPEL") in state.hand("cy")


def test_the_cloaks_owner_may_decline_and_an_empty_hand_places_nothing() -> None:
    state = three("CLOAK,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "CLOAK", "JULIET"), place("bob", 1, "WIZ", "ROMEO"), turn(1, "CLOAK"))
    options = list(state.legal_moves)
    assert cloak("ann", placed=False) in options and all(m.player == "ann" for m in options)  # type: ignore[union-attr]
    play(state, cloak("ann", placed=False))
    assert ids(state, 1) == [("ann", "CLOAK", True), ("bob", "WIZ", False)]


def test_a_cloaks_draw_comes_before_the_turns_draw() -> None:
    # ann places below her own Cloak: the Cloak's draw comes first, so it cannot take the card
    # her place event says she draws at the turn's end (B9, B14).
    state = three("CLOAK,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 1, "CLOAK", "JULIET"), place("bob", 2, "WIZ", "ROMEO"), place("cy", 2, "ALCH", "DOPPEL"))
    play(state, turn(2, "WIZ"), place("ann", 1, "KING", "PRINCE"), turn(1, "CLOAK"))
    with pytest.raises(IllegalMoveError, match="B9: ann draws PRINCE at the end of this turn .* after the Cloak's draw it is no longer in ann's stack"):
        state.push(cloak("ann", "QUEEN", "PRINCE"))
    assert all(m.drew is not card("PRINCE") for m in state.legal_moves)  # type: ignore[union-attr]
    play(state, cloak("ann", "QUEEN", "SQUIRE"))
    assert set(state.hand("ann")) == {card("JULIET"), card("SQUIRE"), card("PRINCE")}


# ---------------------------------------------------------------------- B15


def test_the_traitors_owner_may_exchange_the_goal_card_with_any_other_column_or_decline() -> None:
    state = three("TRAITOR,KING,QUEEN", "WIZ,WITCH,MUSK", "ALCH,LORD,MINNE")
    play(state, place("ann", 2, "TRAITOR", "JULIET"), place("bob", 2, "WIZ", "ROMEO"), turn(2, "TRAITOR"))
    assert state.to_move == "ann"
    with pytest.raises(IllegalMoveError, match=r"B15: the Traitor's goal card in column 2 is exchanged with another column's \(1 to 3\), not 2"):
        state.push(swap("ann", 2))
    with pytest.raises(IllegalMoveError, match="B15: the Traitor in column 2 is ann's: the choice is ann's, not bob's"):
        state.push(swap("bob", 1))
    assert sorted(m.swap or 0 for m in state.legal_moves) == [0, 1, 3]  # type: ignore[union-attr]
    play(state, swap("ann", 3))
    assert [c.goal.id for c in state.columns] == ["music-3a", "fencing-5", "trade-2"]  # type: ignore[union-attr]
    state.pop()
    play(state, swap("ann", None))
    assert [c.goal.id for c in state.columns] == list(GOALS)  # type: ignore[union-attr]


def test_a_traitor_that_completes_every_goal_card_ends_the_round_once_the_turn_is_drawn() -> None:
    state = three("KING,QUEEN,CARDINAL", "TRAITOR,WIZ,WITCH", "ALCH,LORD,MINNE")
    play(state, place("ann", 3, "KING", "JULIET"), place("bob", 3, "TRAITOR", "ROMEO"), turn(3, "KING"))
    play(state, place("cy", 1, "ALCH", "DOPPEL"), place("ann", 1, "QUEEN", "PRINCE"), turn(1, "ALCH"))
    play(state, place("bob", 1, "WIZ", "SQUIRE"), turn(1, "QUEEN"), place("cy", 1, "LORD", "DRAGON"), turn(1, "WIZ"))
    play(state, place("ann", 1, "JULIET", "HERMIT"), turn(1, "LORD"), place("bob", 2, "WITCH", "GIANT"))
    play(state, place("cy", 2, "MINNE", "BEGGAR"), turn(2, "WITCH"))
    # Column 1 (music-3a) holds 5, column 2 (trade-2) 2, column 3 (fencing-5) 2 and then 3.
    assert state.complete(1) and state.complete(2) and not state.complete(3)
    play(state, place("ann", 3, "CARDINAL", "MUSK"), turn(3, "TRAITOR"))
    assert state.to_move == "bob"  # bob's Traitor, in ann's turn
    play(state, swap("bob", None))
    assert state.phase is Phase.PLACE and state.to_move == "bob"
    state.pop()
    effects = state.apply(swap("bob", 1))
    # fencing-5 heads the column of 5 cards, music-3a the column of 3: every goal card is
    # complete, the round ends, after ann's draw (B15, B16).
    assert effects.round_over and effects.completed == (3,)
    assert state.phase is Phase.REVEAL and card("MUSK") in state.hand("ann")
    assert state._core.starter == 1  # bob begins the next round (B17)


def test_every_choice_of_a_cloak_or_a_traitor_is_its_owners_whoever_is_in_turn() -> None:
    from companion.games.ruse_and_bruise.policies import simulate
    from companion.games.ruse_and_bruise.moves import Cloak, Place, Swap, TurnOver
    from companion.games.ruse_and_bruise.values import EXAMPLE

    seen = 0
    for seed in range(12):
        setup, moves = simulate(["ann", "bob", "cy", "dee"], EXAMPLE, seed)
        state = GAME.new_state(setup)
        placer = None
        for m in moves:
            if isinstance(m, Place):
                placer = m.player
            if isinstance(m, (Cloak, Swap)):
                owner = state.waiting.player
                assert m.player == owner == state.to_move
                seen += owner != placer
            state.push(m)
            if isinstance(m, TurnOver) and m.card.immediate:
                assert state.waiting.card is m.card
    assert seen > 0  # some were decided by a player not in turn
