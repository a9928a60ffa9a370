"""The engine: deals, turns, captures, sweeps, Fate cards, round end and winning (R4-R25)."""

import pytest

from companion.games.rule_of_power.engine.game import GameSetup, GameState, IllegalMoveError, Phase, Termination, deal_sizes
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, InvalidMoveError, NewRound, Pass, Play

from tests.engine.helpers import card, draw, fate_deck, ids, play, start

HANDS = {"ann": ["W012", "W013", "W005"], "bob": ["W016", "W021", "W040"]}


def raises(rule, fn, *args, match=None):
    with pytest.raises(IllegalMoveError) as err:
        fn(*args)
    assert err.value.rule == rule, str(err.value)
    if match:
        assert match in str(err.value)
    return err.value


# ---------------------------------------------------------------- setup and dealing


def test_players_and_teams_are_checked():
    """R16: 2-6 players, teams of equal size sitting alternately."""
    raises("R16", GameSetup, ("ann",))
    raises("R16", GameSetup, tuple("abcdefg"))
    raises("R16", GameSetup, ("ann", "bob", "cy", "dee"), (("ann", "bob"), ("cy", "dee")), match="alternately")
    setup = GameSetup(("ann", "bob", "cy", "dee"), (("ann", "cy"), ("bob", "dee")))
    assert setup.sides == ("ann+cy", "bob+dee")
    six = GameSetup(tuple("abcdef"), (("a", "c", "e"), ("b", "d", "f")))
    assert six.side_of("e") == "a+c+e"
    GameSetup(tuple("abcdef"), (("a", "d"), ("b", "e"), ("c", "f")))
    raises("R16", GameSetup, ("a", "b", "c", "d"), (("a",), ("b",), ("c",), ("d",)))


def test_targets_are_eleven_and_steps_of_five():
    """R14: 11 by default, 16, 21, 26, ... by agreement."""
    for t in (11, 16, 21, 26, 31):
        assert GameSetup(("a", "b"), target=t).target == t
    raises("R14", GameSetup, ("a", "b"), None, 15)
    raises("R14", GameSetup, ("a", "b"), None, 10)


@pytest.mark.parametrize(
    "players,expansion,deals",
    [(2, False, 6), (3, False, 4), (4, False, 3), (5, False, 3), (6, False, 2), (2, True, 8), (4, True, 4), (6, True, 3)],
)
def test_number_of_deals(players, expansion, deals):
    """Rulebook: six deals for two players, four for three, three for four (R15)."""
    left, first, n = 52 if expansion else 40, True, 0
    while left:
        left -= sum(deal_sizes(players, left, first)) + (4 if first else 0)
        first, n = False, n + 1
    assert n == deals


def test_short_last_deal_goes_one_card_at_a_time():
    """R15: five players, 6 cards left: the first from the dealer's left gets 2, the others 1."""
    assert deal_sizes(5, 6, False) == [2, 1, 1, 1, 1]
    assert deal_sizes(4, 3, False) == [1, 1, 1, 0]
    assert deal_sizes(2, 40, True) == [3, 3]


def test_deal_is_checked():
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound("bob"))
    raises("R15", game.push, Deal.make({"ann": ["W001", "W002"], "bob": ["W003", "W004", "W005"]}, ["W006", "W007", "W008", "W009"]), match="3 cards")
    raises("R15", game.push, Deal.make(HANDS, ["W006", "W007", "W008"]), match="4 cards in the centre")
    raises("R15", game.push, Deal.make({"ann": ["W001", "W002", "W003"], "bob": ["W003", "W004", "W005"]}, ["W006", "W007", "W008", "W009"]), match="dealt twice")
    raises("R15", game.push, Deal.make({"ann": ["W041", "W002", "W003"], "bob": ["W010", "W004", "W005"]}, ["W006", "W007", "W008", "W009"]), match="not in this game's deck")
    game.push(Deal.make(HANDS, ["W006", "W007", "W008", "W009"]))
    assert game.turn == "ann" and game.deck_count == 40 - 10


def test_first_player_is_left_of_dealer_every_deal_and_deal_moves_left():
    """R15: the player on the dealer's left plays first in every deal; the next round's
    dealer is the previous dealer's left."""
    game = start(("ann", "bob", "cy"), {"ann": ["W011"] * 0 + ["W011", "W012", "W013"], "bob": ["W014", "W015", "W016"], "cy": ["W017", "W018", "W019"]}, dealer="bob")
    assert game.turn == "cy"
    raises("R17", game.push, Play.from_ids("ann", "W011"), match="cy's turn")


def test_new_round_dealer_must_be_left_of_previous(tmp_path):
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

    setup = make_setup(3)
    game = GameState(setup)
    table = VirtualTable(setup, seed=1)
    while game.round_number < 2 or game.phase is not Phase.ROUND:
        assert not game.is_game_over(), "this seed's game lasts more than two rounds"
        game.push(table.next_move(game))
    prev = game.dealer
    wrong = setup.players[(setup.players.index(prev) + 2) % 3]
    raises("R15", game.push, NewRound(wrong), match="moves to the left")


# ---------------------------------------------------------------- turns and captures


def test_play_must_capture_when_it_can_and_must_take_single():
    """R4, with the rulebook's examples."""
    game = start(hands=HANDS, centre=("W002", "W014", "W036", "W029"))
    raises("R4", game.push, Play.from_ids("ann", "W012"), match="so it must (take 2P W002)")
    game2 = start(hands={"ann": ["W016", "W013", "W005"], "bob": ["W012", "W021", "W040"]}, centre=("W002", "W014", "W036", "W029"))
    raises("R4", game2.push, Play.from_ids("ann", "W016", ["W002", "W014"]), match="single card")
    game2.push(Play.from_ids("ann", "W016", ["W036"]))
    assert ids(game2.stack("ann")) == ["W036", "W016"]
    raises("R4", game2.push, Play.from_ids("bob", "W012"), match="W002")


def test_card_not_in_hand_names_where_it_is():
    game = start(hands=HANDS)
    raises("R17", game.push, Play.from_ids("ann", "W016"), match="bob's hand")
    raises("R17", game.push, Play.from_ids("ann", "W031"), match="centre")
    raises("R17", game.push, Play.from_ids("ann", "W030"), match="still in the World deck")
    with pytest.raises(InvalidMoveError, match="unknown player 'zed'"):
        game.push(Play.from_ids("zed", "W012"))


def test_capture_order_on_stack_is_captured_then_capturing_card():
    """R23: captured cards in the order listed, the capturing card last (the top)."""
    game = start(hands={"ann": ["W019", "W013", "W005"], "bob": ["W016", "W021", "W040"]}, centre=("W031", "W032", "W036", "W024"))
    play(game, "ann", "W019", ["W036", "W032", "W031"])
    assert ids(game.stack("ann")) == ["W036", "W032", "W031", "W019"]
    assert game.last_capturer == "ann"


def test_pass_only_without_world_cards_and_deal_ends_when_no_world_card_is_held():
    """R17."""
    game = start(hands=HANDS, centre=("W031", "W032", "W033", "W036"))
    raises("R17", game.push, Pass("ann"), match="must play")
    for p, c in [("ann", "W012"), ("bob", "W016"), ("ann", "W013"), ("bob", "W021"), ("ann", "W005"), ("bob", "W040")]:
        opts = game.capture_options(card(c))
        game.push(Play(p, card(c), opts[0] if opts else ()))
    assert game.phase is Phase.DEAL and game.turn is None
    raises("R15", game.push, Play.from_ids("ann", "W011"), match="next deal is due")


def test_push_pop_restores_exactly():
    game = start(hands=HANDS, centre=("W031", "W032", "W033", "W036"))
    before = (game.centre, game.hand("ann"), game.stack("ann"), game.turn, game.deck_count)
    play(game, "ann", "W013", ["W033"])
    assert game.centre == (card("W031"), card("W032"), card("W036"))
    assert game.pop() == Play.from_ids("ann", "W013", ["W033"])
    assert (game.centre, game.hand("ann"), game.stack("ann"), game.turn, game.deck_count) == before


def test_illegal_move_leaves_state_unchanged():
    game = start(hands=HANDS)
    n = len(game.move_stack)
    with pytest.raises(IllegalMoveError):
        game.push(Play.from_ids("ann", "W012", ["W031"]))
    assert len(game.move_stack) == n and card("W012") in game.hand("ann")


def test_legal_moves_view():
    game = start(hands=HANDS, centre=("W002", "W014", "W036", "W029"))
    moves = list(game.legal_moves)
    assert Play.from_ids("ann", "W013") in game.legal_moves  # no 3 and no pair makes 3
    assert Play.from_ids("ann", "W005", ["W002", "W029"]) not in game.legal_moves  # 2 + 9 is not 5
    for m in moves:
        assert m in game.legal_moves
    assert Play.from_ids("ann", "W016") not in game.legal_moves
    assert game.legal_moves.count() == len(moves) and bool(game.legal_moves)


# ---------------------------------------------------------------- sweeps and round end


@pytest.mark.parametrize("players,teams", [(2, 0), (3, 0), (4, 2)])
def test_sweeps_and_leftover_follow_r6_r7(players, teams):
    """Play whole simulated rounds with Fate cards and recount, independently of the
    engine, the sweeps (R7: a natural, not empowered World card clearing the centre outside
    the first and the last deal) and the leftover (R6)."""
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

    setup = make_setup(players, teams)
    counted = {"sweeps": 0, "excluded": 0}
    for seed in range(25):
        game = GameState(setup)
        table = VirtualTable(setup, seed=seed, fate=True, fate_rate=0.3)
        expected = {s: 0 for s in setup.sides}
        last_capturer = None
        while game.round_number < 1 or game.phase is Phase.TURN or game.phase is Phase.DEAL:
            move = table.next_move(game)
            deal_no, last, centre_before = game.deal_number, game.is_last_deal, game.centre
            empowered = isinstance(move, Play) and move.card.is_wizard and game.crystal_in_play
            game.push(move)
            if isinstance(move, Play) and move.card.to_centre and move.capture:
                last_capturer = move.player
                if len(move.capture) == len(centre_before):
                    if move.card.is_world and not empowered and deal_no != 1 and not last:
                        expected[setup.side_of(move.player)] += 1
                        counted["sweeps"] += 1
                    else:
                        counted["excluded"] += 1
        result = game.results[0]
        assert dict(result.score.sweeps) == expected, seed
        assert result.last_capturer == last_capturer
        if last_capturer is not None:
            assert not game.centre or game.phase is Phase.OVER
    # The recount saw both kinds, so it tests something.
    assert counted["sweeps"] > 0 and counted["excluded"] > 0, counted


def test_leftover_goes_to_the_last_capturer():
    """R6: the cards left in the centre at the end go to whoever captured last."""
    from companion.games.rule_of_power.simulation.virtual_table import simulate_game, make_setup

    game, _ = simulate_game(make_setup(2), seed=9)
    for r in game.results:
        if r.leftover:
            assert r.last_capturer is not None
            assert set(r.leftover) <= set(r.score.captured[r.last_capturer])


def test_a_fire_dragon_discarded_to_a_dark_decay_is_named_in_the_settlement():
    """R10 with R21: whole simulated rounds; where W007 went to the discards, the round's
    reason says so, and where a side captured it, it names that side."""
    from companion.games.rule_of_power.engine.cards import FIRE_DRAGON
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

    setup = make_setup(2)
    seen = set()
    for seed in range(12):
        game = GameState(setup)
        table = VirtualTable(setup, seed=seed, fate=True, fate_rate=0.5)
        while game.round_number < 1 or game.phase is Phase.TURN or game.phase is Phase.DEAL:
            game.push(table.next_move(game))
        score = game.results[0].score
        line = score.reasons()[2]
        if FIRE_DRAGON in game.discards:
            assert score.fire_dragon is None and line == "Fire Dragon: nobody holds 7P W007 Fire Dragon, it was discarded (R21), so no point (R10)"
            seen.add("discarded")
        else:
            holder = score.fire_dragon
            assert holder is not None and FIRE_DRAGON in score.captured[holder]
            assert line == f"Fire Dragon: {holder} holds 7P W007 Fire Dragon (+1, R10)"
            seen.add("held")
    assert seen == {"discarded", "held"}


# ---------------------------------------------------------------- Fate cards


def fate_game(ann_top, bob_top=(), hands=None, centre=("W031", "W032", "W033", "W036"), players=("ann", "bob"), teams=None):
    hands = hands or HANDS
    fate = {"ann": fate_deck(*ann_top), "bob": fate_deck(*bob_top)} if "cy" not in players else {p: fate_deck(*(ann_top if p == "ann" else bob_top if p == "bob" else ())) for p in players}
    return start(players, hands, centre, fate=fate, teams=teams)


def test_fate_deck_rules():
    """R18: seven distinct Fate cards, the same all game."""
    game = GameState(GameSetup(("ann", "bob")))
    raises("R18", game.push, NewRound.make("bob", {"ann": ["F001", "F002"]}), match="7 cards")
    raises("R18", game.push, NewRound.make("bob", {"ann": ["F001"] * 7}), match="two copies")
    raises("R18", game.push, NewRound.make("bob", {"ann": ["W001"] + fate_deck()[:6]}), match="World card")


def test_draw_fate_once_per_deal_while_holding_world_cards():
    """R17: draw the top card of one's own Fate deck instead of playing, once per deal."""
    game = fate_game(("F006",))
    draw(game, "ann")
    assert ids(game.fate_hand("ann")) == ["F006"] and game.fate_deck_count("ann") == 6
    assert game.turn == "bob"
    play(game, "bob", "W016", ["W036"])
    raises("R17", game.push, DrawFate("ann"), match="once per deal")


def test_mystic_crystal_empowers_wizards_and_two_crystals_discard_both():
    """R5, R19."""
    hands = {"ann": ["W011", "W013", "W005"], "bob": ["W021", "W019", "W040"]}
    game = fate_game(("F001",), ("F001",), hands=hands, centre=("W032", "W034", "W038", "W039"))
    draw(game, "ann")
    draw(game, "bob")
    play(game, "ann", "F001")
    assert game.crystal_in_play and game.in_play == (("ann", card("F001")),)
    opts = game.capture_options(card("W021"))
    assert [set(o) for o in opts] == [set(game.centre)]
    raises("R5", game.push, Play.from_ids("bob", "W021", ["W032"]), match="whole centre")
    play(game, "bob", "F001")
    assert not game.crystal_in_play and ids(game.discards).count("F001") == 2


def test_warlock_and_vampire_play_to_centre_and_never_sweep():
    """R20, R7."""
    hands = {"ann": ["W011", "W013", "W005"], "bob": ["W021", "W019", "W040"]}
    game = fate_game(("F003",), hands=hands, centre=("W020", "W034", "W038", "W039"))
    draw(game, "ann")
    play(game, "bob", "W019", ["W039"])
    raises("R4", game.push, Play.from_ids("ann", "F003"), match="must")
    play(game, "ann", "F003", ["W020"])
    assert ids(game.stack("ann")) == ["W020", "F003"] and game.sweeps("ann") == ()


def test_exorcist():
    """R24: not while a Minion lies in the centre; discards Creatures in the centre; bars new
    Creatures; leaves when a 4 is played."""
    hands = {"ann": ["W011", "W013", "W014"], "bob": ["W021", "W019", "W040"]}
    game = fate_game(("F007",), ("F003",), hands=hands, centre=("W024", "W035", "W038", "W039"))
    draw(game, "ann")
    draw(game, "bob")
    raises("R24", game.push, Play.from_ids("ann", "F007"), match="Minion")
    play(game, "ann", "W014", ["W024"])
    play(game, "bob", "F003")
    assert card("F003") in game.centre
    play(game, "ann", "F007")
    assert game.exorcist_in_play and card("F003") not in game.centre and card("F003") in game.discards
    assert game.in_play == (("ann", card("F007")),)


def test_exorcist_bars_creatures_and_a_minion_removes_it():
    hands = {"ann": ["W011", "W013", "W012"], "bob": ["W021", "W014", "W040"]}
    game = fate_game(("F007",), ("F002",), hands=hands, centre=("W033", "W035", "W038", "W039"))
    draw(game, "ann")
    draw(game, "bob")
    play(game, "ann", "F007")
    raises("R24", game.push, Play.from_ids("bob", "F002"), match="no Creature")
    play(game, "bob", "W014")
    assert not game.exorcist_in_play and card("F007") in game.discards


def test_dark_decay_every_opponent_discards_one():
    """R21: opponents only, not team-mates; their choice of World or Fate card."""
    players = ("ann", "bob", "cy", "dee")
    hands = {"ann": ["W011", "W012", "W013"], "bob": ["W014", "W015", "W016"], "cy": ["W017", "W018", "W019"], "dee": ["W021", "W022", "W023"]}
    game = fate_game(("F004",), players=players, hands=hands, teams=(("ann", "cy"), ("bob", "dee")))
    game.push(DrawFate("ann"))
    for p, c in [("bob", "W014"), ("cy", "W017"), ("dee", "W021")]:
        opts = game.capture_options(card(c))
        game.push(Play(p, card(c), opts[0] if opts else ()))
    raises("R21", game.push, Play.from_ids("ann", "F004", discards={"bob": "W015", "cy": "W018", "dee": "W022"}), match="opponents only")
    raises("R21", game.push, Play.from_ids("ann", "F004", discards={"bob": "W015"}), match="dee did not")
    raises("R21", game.push, Play.from_ids("ann", "F004", discards={"bob": "W015", "dee": "W015"}), match="not in their hand")
    play(game, "ann", "F004", discards={"bob": "W015", "dee": "W022"})
    assert ids(game.hand("bob")) == ["W016"] and ids(game.hand("dee")) == ["W023"]
    assert {"W015", "W022", "F004"} <= set(ids(game.discards))


def test_mirror_swap():
    """R22: k = min(a, b) cards change hands; team-mates can be targets."""
    hands = {"ann": ["W011", "W012", "W013"], "bob": ["W014", "W015", "W016"]}
    game = fate_game(("F005",), hands=hands, centre=("W031", "W032", "W038", "W039"))
    draw(game, "ann")
    play(game, "bob", "W014")
    # ann holds 3 World cards, bob 2: two cards each way; ann's two are picked blind.
    raises("R22", game.push, Play.from_ids("ann", "F005", target="bob", given=["W011"], received=["W015"]), match="exactly 2")
    raises("R22", game.push, Play.from_ids("ann", "F005", target="ann", given=[], received=[]), match="another player")
    raises("R22", game.push, Play.from_ids("ann", "F005", target="bob", given=["W011", "W019"], received=["W015", "W016"]), match="W019")
    play(game, "ann", "F005", target="bob", given=["W011", "W012"], received=["W015", "W016"])
    assert sorted(ids(game.hand("ann"))) == ["W013", "W015", "W016"]
    assert sorted(ids(game.hand("bob"))) == ["W011", "W012"]
    # ann knows where her cards went; bob knows where his did.
    assert game.view("ann").known_elsewhere == {card("W011"): "bob", card("W012"): "bob"}
    assert card("W011") not in game.view("ann").unseen


def test_thief_takes_the_top_card():
    """R23: the top card of an opponent's stack (the capturing card), not a capture; an
    empty stack gives nothing."""
    hands = {"ann": ["W011", "W012", "W013"], "bob": ["W016", "W015", "W017"]}
    game = fate_game(("F006",), hands=hands, centre=("W036", "W032", "W038", "W039"))
    draw(game, "ann")
    play(game, "bob", "W016", ["W036"])
    raises("R23", game.push, Play.from_ids("ann", "F006", target="bob", stolen="W036"), match="top card")
    play(game, "ann", "F006", target="bob", stolen="W016")
    assert ids(game.stack("ann")) == ["W016"] and ids(game.stack("bob")) == ["W036"]
    assert game.last_capturer == "bob"  # a theft is not a capture (R6)


def test_thief_on_empty_stack_and_not_on_team_mate():
    players = ("ann", "bob", "cy", "dee")
    hands = {"ann": ["W011", "W012", "W013"], "bob": ["W014", "W015", "W016"], "cy": ["W017", "W018", "W019"], "dee": ["W021", "W022", "W023"]}
    game = fate_game(("F006",), players=players, hands=hands, teams=(("ann", "cy"), ("bob", "dee")), centre=("W034", "W035", "W038", "W039"))
    draw(game, "ann")
    for p, c in [("bob", "W015"), ("cy", "W017"), ("dee", "W021")]:
        opts = game.capture_options(card(c))
        game.push(Play(p, card(c), opts[0] if opts else ()))
    raises("R23", game.push, Play.from_ids("ann", "F006", target="cy"), match="not one")
    raises("R23", game.push, Play.from_ids("ann", "F006", target="dee", stolen="W021"), match="empty")
    top = game.stack("bob")[-1].id
    play(game, "ann", "F006", target="bob", stolen=top)


def test_renewal_draws_from_the_deck():
    """R25: the top World card into hand; nothing on an empty deck."""
    game = fate_game(("F008",))
    draw(game, "ann")
    play(game, "bob", "W016", ["W036"])
    raises("R25", game.push, Play.from_ids("ann", "F008"), match="draws one")
    raises("R25", game.push, Play.from_ids("ann", "F008", drawn="W016"), match="capture stack")
    before = game.deck_count
    play(game, "ann", "F008", drawn="W030")
    assert card("W030") in game.hand("ann") and game.deck_count == before - 1


def test_fate_card_not_drawn_cannot_be_played():
    game = fate_game(("F006",))
    raises("R17", game.push, Play.from_ids("ann", "F001"), match="Fate cards in ann's hand")


def test_player_with_only_fate_cards_may_play_one_or_pass():
    """R17: a player with no World cards left may play a Fate card from hand or pass; a
    player holding World cards may not pass."""
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

    setup = make_setup(2)
    game = GameState(setup)
    table = VirtualTable(setup, seed=3, fate=True)
    while not game.is_game_over():
        if game.phase is Phase.TURN:
            me = game.turn
            moves = list(game.legal_moves)
            if not game.world_cards_in_hand(me) and game.fate_hand(me):
                assert Pass(me) in moves
                assert any(isinstance(m, Play) and m.card.is_fate for m in moves)
                return
            assert Pass(me) not in moves
            # One player draws in odd deals, the other in even ones, and nobody plays a Fate
            # card: in the second deal the first player runs out of World cards first,
            # still holding the Fate card drawn in the first.
            drawer = setup.players[(game.deal_number - 1) % 2]
            pick = next((m for m in moves if isinstance(m, DrawFate) and me == drawer), None)
            pick = pick or next(m for m in moves if isinstance(m, Play) and m.card.is_world)
            game.push(pick)
        else:
            game.push(table.next_move(game))
    pytest.fail("no position with only Fate cards in hand was reached")


# ---------------------------------------------------------------- winning


def test_winner_needs_target_and_strictly_greatest_total():
    """R14, R13, via simulated games: check the engine's verdict after each round."""
    from companion.games.rule_of_power.simulation.virtual_table import simulate_game, make_setup

    for seed in range(25):
        game, _ = simulate_game(make_setup(3, expansion=seed % 2 == 0), seed=seed, fate=True)
        outcome = game.outcome()
        assert outcome is not None
        for k, r in enumerate(game.results):
            totals = r.totals
            best = max(totals.values())
            leaders = [s for s, t in totals.items() if t == best]
            decided = r.score.rule_of_power is not None or (best >= 11 and len(leaders) == 1)
            assert decided == (k == len(game.results) - 1), (seed, k)
        if outcome.termination is Termination.RULE_OF_POWER:
            assert game.results[-1].score.rule_of_power == outcome.winner


def test_game_over_refuses_moves():
    from companion.games.rule_of_power.simulation.virtual_table import simulate_game, make_setup

    game, _ = simulate_game(make_setup(2), seed=1)
    assert game.phase is Phase.OVER and not list(game.legal_moves)
    raises("R14", game.push, NewRound("ann"), match="over")


# ---------------------------------------------------------------- hidden hands


def test_unseen_hands_are_followed_and_checked():
    """A camera sees cards only when played: a face-down deal is followed all the same, and
    rules that need no hidden card are still checked."""
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound("bob"))
    game.push(Deal.make({"ann": [None] * 3, "bob": [None] * 3}, ["W002", "W014", "W036", "W029"]))
    assert game.unseen_in_hand("ann") == 3 and game.hand("ann") == ()
    raises("R17", game.push, Play.from_ids("ann", "W014"), match="centre")  # lies in the centre
    raises("R4", game.push, Play.from_ids("ann", "W016"))  # a 6 must capture W036
    play(game, "ann", "W016", ["W036"])
    assert game.unseen_in_hand("ann") == 2 and card("W016") not in game.unlocated
    raises("R17", game.push, Play.from_ids("bob", "W016"))  # already played
    raises("R17", game.push, Pass("bob"), match="must play")


def test_player_view_hides_other_hands():
    game = start(hands=HANDS)
    view = game.view("ann")
    assert view.hand == game.hand("ann")
    assert view.hand_sizes == {"ann": 3, "bob": 3}
    assert not set(game.hand("bob")) & set(view.hand)
    # bob's cards are unseen to ann, and so are the deck's 30
    assert set(game.hand("bob")) <= view.unseen and len(view.unseen) == 33


def test_expansion_card_without_expansion_is_rejected():
    game = start(hands=HANDS)
    raises("R2", game.push, Play.from_ids("ann", "W041"), match="expansion")


def test_fate_deck_order_unseen():
    """A Fate deck whose order the companion cannot see: a draw adds an unseen card, and a
    Fate card played later is accepted if it is still in that deck (R17, R18)."""
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob", {"ann": fate_deck("F006"), "bob": fate_deck()}, fate_order_known=False))
    game.push(Deal.make(HANDS, ["W031", "W032", "W033", "W036"]))
    draw(game, "ann")
    assert game.fate_hand("ann") == () and game.fate_deck_count("ann") == 6
    assert game.hand_size("ann") == 4
    play(game, "bob", "W016", ["W036"])
    raises("R17", game.push, Play.from_ids("ann", "F008"), match="Fate cards in ann's hand")  # not in her deck
    play(game, "ann", "F006", target="bob", stolen="W016")
    assert game.fate_deck_count("ann") == 6 and card("F006") not in game.fate_deck("ann")
    raises("R17", game.push, Play.from_ids("bob", "F001"))  # bob drew nothing


def test_mirror_swap_of_face_down_cards():
    """A swap the companion cannot see (hands dealt face down): counts move, and a card
    swapped in is accepted when played later (R22)."""
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob", {"ann": fate_deck("F005"), "bob": fate_deck()}))
    game.push(Deal.make({"ann": [None] * 3, "bob": [None] * 3}, ["W031", "W032", "W038", "W039"]))
    draw(game, "ann")
    play(game, "bob", "W014")  # from bob's face-down hand
    raises("R22", game.push, Play("ann", card("F005"), target="bob", given=(UNSEEN,), received=(UNSEEN,)), match="exactly 2")
    game.push(Play("ann", card("F005"), target="bob", given=(UNSEEN, UNSEEN), received=(UNSEEN, UNSEEN)))
    assert (game.unseen_in_hand("ann"), game.unseen_in_hand("bob")) == (3, 2)
    play(game, "bob", "W026", ["W032", "W014"])  # a card bob may have received in the swap
    assert game.unseen_in_hand("bob") == 1


def test_hidden_cards_are_placed_in_a_copy_and_the_table_stays_as_it_is():
    """The coach's samples: every hand and the deck placed, the public table untouched."""
    game = start(hands={"ann": ["W001", "W002", "W003"], "bob": ["W004", "W005", "W006"]})
    deck = sorted(game.unlocated)
    swapped = game.with_hidden_cards(
        {"ann": game.hand("bob"), "bob": game.hand("ann")}, {}, {}, deck[1:] + [deck[0]]
    )
    assert ids(swapped.hand("ann")) == ["W004", "W005", "W006"]
    assert ids(game.hand("ann")) == ["W001", "W002", "W003"]  # the original keeps its own
    assert swapped.centre == game.centre and swapped.turn == game.turn
    assert swapped.unlocated == frozenset(deck)
    assert not swapped.move_stack
    swapped.push(Play("ann", card("W004"), (card("W031"), card("W033"))))  # 4P takes 1D + 3D (R4)
    with pytest.raises(InvalidMoveError, match="ann holds 3 World cards, not 2"):
        game.with_hidden_cards({"ann": game.hand("ann")[:2], "bob": game.hand("bob")}, {}, {}, deck)
