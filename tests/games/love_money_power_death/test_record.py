"""The record format ``lmpd-record/1`` (record-format.md): its example read and written exactly,
nulls and absent fields unseen, unknown keys ignored, malformed events and broken rules refused
naming the line and the ruling, unfinished records resumed, and ``complete()`` filling in the
cards later events tell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.contract import IllegalMoveError, InvalidMoveError, MalformedEventError, UnknownCardError
from companion.contract.registry import game_for_format
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.policies import simulate
from companion.games.love_money_power_death.record import CODEC, complete_moves
from companion.games.love_money_power_death.samples import sample_path
from companion.games.love_money_power_death.samples.generate import as_seen_by
from companion.records.format import RecordError, iter_record_lines, load_game
from companion.records.store import load_for_resume

from .helpers import c

NOBLES = ["N2L", "N2M", "N2P", "N2D", "N3L", "N3M", "N3P", "N3D", "N5L", "N5P"]
ORDER = ["N3P", "N2L", "N5L", "N2M", "N3D", "N2P", "N3L", "N5P", "N3M", "N2D"]
ANN_PILE = ["4Mb", "A3", "1Da", "2La", "1Ma", "1Mb", "2Ma", "4La", "4Lb", "5L", "1Pa", "1Pb", "2Db", "4Pa"]

# The record-format's example, its "..." written out: ann's pile of 14, the ten nobles, and the
# second round the scores' example shows (N2L discarded: bob's 3Ma and cy's 3Pb tie at rank 3).
EXAMPLE = [
    {"event": "game", "format": "lmpd-record/1", "players": ["ann", "bob", "cy"], "nobles": NOBLES},
    {"event": "deal", "order": ORDER, "piles": {"ann": ANN_PILE, "bob": None}, "aside": [], "hands": {"cy": ["2Pa", "5D", "A6"]}},
    {"event": "commit", "player": "bob", "card": None},
    {"event": "commit", "player": "ann", "card": "4Mb"},
    {"event": "commit", "player": "cy"},
    {"event": "noble", "card": "N3P"},
    {"event": "reveal", "cards": {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}},
    {"event": "draw", "cards": {"ann": "2La", "bob": None}},
    {"event": "commit", "player": "cy", "card": "3Pb"},
    {"event": "commit", "player": "ann", "card": "1Da"},
    {"event": "commit", "player": "bob"},
    {"event": "noble", "card": "N2L"},
    {"event": "reveal", "cards": {"ann": "1Da", "bob": "3Ma", "cy": "3Pb"}},
    {"event": "draw", "cards": None},
]

SCORES = {
    "game": "love-money-power-death",
    "rounds": [
        {"noble": "N3P", "plays": {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, "winner": "bob", "why": "agent"},
        {"noble": "N2L", "plays": {"ann": "1Da", "bob": "3Ma", "cy": "3Pb"}, "winner": None, "why": "tie"},
    ],
    "courts": {"ann": [], "bob": ["N3P"], "cy": []},
    "discarded": ["N2L"],
    "totals": {"ann": 0, "bob": 3, "cy": 0},
    "counts": {"ann": 0, "bob": 1, "cy": 0},
    "finished": False,
    "winner": None,
    "winners": [],
    "draw": False,
    "tiebreak": None,
}


def lines(events: list[dict]) -> list[str]:
    return [json.dumps(e) for e in events]


def write(tmp_path: Path, events: list[dict], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines(events)) + "\n", encoding="utf-8")
    return path


class TestTheExample:
    def test_each_event_reads_as_its_move(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        assert setup.players == ("ann", "bob", "cy") and [n.id for n in setup.nobles] == NOBLES
        moves = [CODEC.read_move(e, setup) for e in EXAMPLE[1:]]
        deal = moves[0]
        assert deal == Deal(tuple(map(c, ORDER)), (("ann", tuple(map(c, ANN_PILE))),), (), (("cy", (c("2Pa"), c("5D"), c("A6"))),))
        assert moves[1:4] == [Commit("bob", UNSEEN), Commit.of("ann", "4Mb"), Commit("cy", UNSEEN)]
        assert moves[4] == TurnUp.of("N3P")
        assert moves[5] == Reveal.of(setup.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"})
        assert moves[6] == Draw((("ann", c("2La")), ("bob", UNSEEN), ("cy", UNSEEN)))
        assert moves[-1] == Draw.of(setup.players)

    def test_the_example_replays_to_the_scores_of_the_example(self) -> None:
        state = load_game(lines(EXAMPLE))
        assert GAME.summary(state) == SCORES
        assert state.hand("ann") == (c("2La"), c("1Ma"), c("A3")) and state.hand("cy") == (c("5D"), c("A6")) and state.hand_unseen("cy") == 1

    def test_the_moves_are_written_back_in_the_form_of_the_format(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        moves = [CODEC.read_move(e, setup) for e in EXAMPLE[1:]]
        written = [json.loads(x) for x in iter_record_lines(setup, moves)]
        assert written[0] == EXAMPLE[0]
        assert written[1] == {"event": "deal", "order": ORDER, "piles": {"ann": ANN_PILE}, "aside": [], "hands": {"cy": ["2Pa", "5D", "A6"]}}
        assert written[2:5] == [
            {"event": "commit", "player": "bob", "card": None},
            {"event": "commit", "player": "ann", "card": "4Mb"},
            {"event": "commit", "player": "cy", "card": None},
        ]
        assert written[5] == {"event": "noble", "card": "N3P"} and written[6] == EXAMPLE[6]
        assert written[7] == {"event": "draw", "cards": {"ann": "2La", "bob": None, "cy": None}}
        assert [list(x)[0] for x in written] == ["event"] * len(written)  # "event" first on every line
        # Read back, the same moves.
        assert [CODEC.read_move(e, setup) for e in written[1:]] == moves

    def test_cards_are_written_in_the_form_of_l3_whatever_the_record_used(self) -> None:
        events = json.loads(json.dumps(EXAMPLE))
        events[0]["nobles"] = [n.lower().replace("n", "N-") for n in NOBLES]
        events[3]["card"] = "4 money b"
        events[6]["cards"] = {"ann": "4-Money-B", "bob": "agent 2", "cy": "2 power a"}
        state = load_game(lines(events))
        assert GAME.summary(state) == SCORES
        written = [json.loads(x) for x in iter_record_lines(state.setup, load_game(lines(events), keep_history=True).move_stack)]
        assert written[0]["nobles"] == NOBLES and written[3]["card"] == "4Mb" and written[6] == EXAMPLE[6]


class TestUnseenAndUnknown:
    def test_null_and_absent_are_unseen(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        for event in ({"event": "deal"}, {"event": "deal", "order": None, "piles": None, "aside": None, "hands": None}):
            assert CODEC.read_move(event, setup) == Deal()
        assert CODEC.read_move({"event": "deal", "piles": {"ann": [None] * 14}, "hands": {"bob": None}}, setup) == Deal()
        assert CODEC.read_move({"event": "draw"}, setup) == Draw.of(setup.players)
        assert CODEC.read_move({"event": "draw", "cards": {}}, setup) == Draw.of(setup.players)
        assert CODEC.read_move({"event": "commit", "player": "ann", "card": None}, setup) == Commit("ann", UNSEEN)

    def test_cards_unseen_inside_a_list(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        deal = CODEC.read_move({"event": "deal", "order": ["N3P"] + [None] * 9, "hands": {"ann": ["4Mb", None, None]}}, setup)
        assert deal.order == (c("N3P"),) + (UNSEEN,) * 9 and deal.hand_of("ann") == (c("4Mb"), UNSEEN, UNSEEN)
        written = CODEC.move_event(deal, setup)
        assert written["order"] == ["N3P"] + [None] * 9 and written["hands"] == {"ann": ["4Mb", None, None]}

    def test_unknown_keys_are_ignored(self) -> None:
        events = json.loads(json.dumps(EXAMPLE))
        events[0]["venue"] = "the club"
        events[0]["id"] = "0123"
        events[3]["at"] = 12.5
        events[5]["seen_by"] = {"camera": True}
        assert GAME.summary(load_game(lines(events))) == SCORES

    def test_the_registry_finds_the_format(self) -> None:
        assert game_for_format("lmpd-record/1") is GAME and CODEC.format == "lmpd-record/1"
        assert CODEC.events == ("deal", "commit", "noble", "reveal", "draw")


class TestRefusals:
    @pytest.mark.parametrize(
        "header, error, words",
        [
            ({"players": ["ann", "bob"]}, MalformedEventError, '"nobles" must be the list of the nobles in use'),
            ({"players": "ann", "nobles": NOBLES}, MalformedEventError, '"players" must be a list of names'),
            ({"players": ["ann"], "nobles": NOBLES}, IllegalMoveError, "L4: a game has two or more players"),
            ({"players": ["ann", "bob", "cy", "dee", "eve"], "nobles": NOBLES}, IllegalMoveError, "L4: 5 players play with at most 8 nobles"),
            ({"players": ["ann", "bob"], "nobles": ["N2L", "N2L"]}, IllegalMoveError, "L4: N2L is named twice"),
            ({"players": ["ann", "bob"], "nobles": ["N2L", "4Mb"]}, IllegalMoveError, "L4: 4Mb is no noble"),
            ({"players": ["ann", "bob"], "nobles": ["N9L"]}, UnknownCardError, '"nobles"'),
            ({"players": ["ann", "bob"], "nobles": NOBLES, "format": "cop-record/1"}, InvalidMoveError, "unknown record format"),
        ],
    )
    def test_a_header_that_is_no_table(self, header: dict, error: type, words: str) -> None:
        with pytest.raises(error, match=words):
            CODEC.read_setup({"event": "game", "format": "lmpd-record/1", **header})

    @pytest.mark.parametrize(
        "event, error, words",
        [
            ({"event": "commit", "player": 3, "card": "4Mb"}, MalformedEventError, '"player" must be a player\'s name'),
            ({"event": "commit", "player": "dan", "card": "4Mb"}, InvalidMoveError, "'dan' does not play"),
            ({"event": "commit", "player": "ann", "card": ["4Mb"]}, MalformedEventError, '"card" must be a card id'),
            ({"event": "commit", "player": "ann", "card": "4Mx"}, UnknownCardError, '"card": '),
            ({"event": "noble", "card": None}, MalformedEventError, '"card" must be a card id'),
            ({"event": "reveal", "cards": ["4Mb"]}, MalformedEventError, '"cards" must be an object'),
            ({"event": "reveal", "cards": {"ann": "4Mb", "bob": "A2"}}, InvalidMoveError, "cy's is not named"),
            ({"event": "reveal", "cards": {"ann": "4Mb", "bob": "A2", "cy": "2Pa", "dan": "1La"}}, InvalidMoveError, "'dan' does not play"),
            ({"event": "reveal", "cards": {"ann": "4Mb", "bob": "A2", "cy": None}}, MalformedEventError, '"cards.cy" must be a card id'),
            ({"event": "draw", "cards": "2La"}, MalformedEventError, '"cards" must be an object'),
            ({"event": "draw", "cards": {"dan": "2La"}}, InvalidMoveError, "'dan' does not play"),
            ({"event": "deal", "piles": ["4Mb"]}, MalformedEventError, '"piles" must be an object'),
            ({"event": "deal", "piles": {"ann": "4Mb"}}, MalformedEventError, '"piles.ann" must be a list of card ids'),
            ({"event": "deal", "order": "N3P"}, MalformedEventError, '"order" must be a list of card ids'),
            ({"event": "deal", "hands": {"dan": ["4Mb"]}}, InvalidMoveError, "'dan' does not play"),
            ({"event": "play", "player": "ann"}, InvalidMoveError, "unknown event 'play' \\(expected deal, commit, noble, reveal, draw\\)"),
            ({"event": "game"}, InvalidMoveError, 'a second "game" event'),
        ],
    )
    def test_a_malformed_event(self, event: dict, error: type, words: str) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        with pytest.raises(error, match=words):
            CODEC.read_move(event, setup)

    def test_an_event_that_breaks_a_rule_names_its_line_and_the_ruling(self, tmp_path: Path) -> None:
        events = json.loads(json.dumps(EXAMPLE))
        events[6]["cards"]["ann"] = "1Da"
        with pytest.raises(RecordError) as caught:
            load_game(lines(events))
        assert str(caught.value) == "line 7: L7: ann revealed 1Da but committed 4Mb" and caught.value.rule == "L7"
        events = json.loads(json.dumps(EXAMPLE))
        events.insert(5, {"event": "commit", "player": "ann", "card": "A3"})
        path = write(tmp_path, events)
        with pytest.raises(RecordError) as caught:
            load_game(path)
        assert str(caught.value) == f"{path}:6: L6: ann has committed this round already: a committed card cannot be taken back or changed"
        assert caught.value.line == 6 and caught.value.rule == "L6"

    def test_a_malformed_line_names_its_line(self) -> None:
        events = json.loads(json.dumps(EXAMPLE))
        events[4] = {"event": "commit", "player": "cy", "card": 7}
        with pytest.raises(RecordError, match='^line 5: "card" must be a card id, not 7$'):
            load_game(lines(events))

    def test_nothing_follows_the_last_reveal(self) -> None:
        setup, moves = simulate(["ann", "bob"], ["N3P"], seed=2)
        record = list(iter_record_lines(setup, moves)) + [json.dumps({"event": "draw", "cards": None})]
        with pytest.raises(RecordError, match="^line 7: L12: the game is over"):
            load_game(record)


class TestUnfinishedRecords:
    def test_a_record_may_stop_anywhere_and_goes_on(self, tmp_path: Path) -> None:
        for stop in (2, 4, 6, 8, 9, 10):
            path = write(tmp_path, EXAMPLE[:stop], f"stop{stop}.jsonl")
            state, report = load_for_resume(path)
            assert report.nothing_lost and len(state.move_stack) == stop - 1 and not state.is_game_over()
            assert GAME.summary(state)["finished"] is False and GAME.summary(state)["winners"] == []
        # The last one goes on where it stopped: bob commits, the noble, the reveal.
        state.push(Commit("bob", UNSEEN))
        state.push(TurnUp.of("N2L"))
        state.push(Reveal.of(state.players, {"ann": "1Da", "bob": "3Ma", "cy": "3Pb"}))
        assert GAME.summary(state) == SCORES

    def test_a_record_cut_mid_line_keeps_every_whole_event(self, tmp_path: Path) -> None:
        path = write(tmp_path, EXAMPLE[:9])
        with open(path, "a", encoding="utf-8") as fp:
            fp.write('{"event": "comm')
        state, report = load_for_resume(path)
        assert len(state.move_stack) == 8 and report.side_file is not None


class TestComplete:
    def test_commits_draws_and_hands_are_filled_in_where_later_moves_tell(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        moves = [CODEC.read_move(e, setup) for e in EXAMPLE[1:]]
        done = CODEC.complete(moves)
        # Commits unseen: the card the reveal names.
        assert done[1] == Commit.of("bob", "A2") and done[3] == Commit.of("cy", "2Pa") and done[9] == Commit.of("bob", "3Ma")
        # cy's draw: 3Pb, the only card cy held unseen when it was revealed.
        assert done[6] == Draw((("ann", c("2La")), ("bob", UNSEEN), ("cy", c("3Pb"))))
        # bob's hand dealt held A2 (revealed in round 1); after his draw, 3Ma could be either.
        deal = done[0]
        assert isinstance(deal, Deal) and deal.hand_of("bob") == (c("A2"), UNSEEN, UNSEEN) and deal.hand_of("cy") == (c("2Pa"), c("5D"), c("A6"))
        # The last draw: ann's from her pile seen at the deal.
        assert done[-1] == Draw((("ann", c("1Ma")), ("bob", UNSEEN), ("cy", UNSEEN)))
        # The completed record replays to the same game.
        replayed = load_game(iter_record_lines(setup, done), keep_history=True)
        assert GAME.summary(replayed) == SCORES and replayed.move_stack == done
        assert CODEC.complete(done) == done

    def test_a_record_seen_whole_is_complete(self) -> None:
        setup, moves = simulate(["ann", "bob", "cy", "dee"], seed=6)
        assert complete_moves(moves) == moves

    def test_a_record_kept_from_one_view_gets_every_commit(self) -> None:
        setup, moves = simulate(["ann", "bob", "cy"], seed=8, level=1)
        kept = as_seen_by("bob", moves)
        done = complete_moves(kept)
        assert [m for m in done if type(m) is Commit] == [m for m in moves if type(m) is Commit]
        state = load_game(iter_record_lines(setup, done))
        assert state.is_game_over() and state.outcome() == load_game(iter_record_lines(setup, moves)).outcome()

    def test_the_cards_set_aside_are_the_ones_no_pile_holds(self) -> None:
        setup, moves = simulate(["ann", "bob", "cy", "dee"], seed=12)
        deal = moves[0]
        assert isinstance(deal, Deal) and deal.aside is not None and len(deal.aside) == 2
        hidden = [Deal(deal.order, deal.piles, None, ())] + moves[1:]
        done = complete_moves(hidden)
        assert sorted(done[0].aside) == sorted(deal.aside)  # type: ignore[union-attr, arg-type]

    def test_an_unfinished_round_keeps_its_commits_unseen(self) -> None:
        setup = CODEC.read_setup(EXAMPLE[0])
        moves = [CODEC.read_move(e, setup) for e in EXAMPLE[1:11]]
        done = complete_moves(moves)
        assert done[9] == Commit("bob", UNSEEN) and done[1] == Commit.of("bob", "A2")

    def test_the_shipped_record_kept_from_anns_view(self) -> None:
        state = load_game(sample_path("lmpd-seen-by-ann"), keep_history=True)
        assert any(type(m) is Commit and m.card is UNSEEN for m in state.move_stack)
        done = CODEC.complete(state.move_stack)
        assert all(type(m) is not Commit or type(m.card) is Card for m in done)
        assert load_game(iter_record_lines(state.setup, done)).outcome() == state.outcome()

    def test_a_round_begins_with_the_deal_or_a_draw(self) -> None:
        assert CODEC.is_period_start(Deal()) and CODEC.is_period_start(Draw(()))
        assert not CODEC.is_period_start(Commit("ann")) and not CODEC.is_period_start(TurnUp.of("N3P"))
