"""The game's end and the scores (B28): the plain sum, the doubling with goal cards of all six
areas less 1 for each other goal card, the better of the two; the rulebook's final accounting."""

from __future__ import annotations

from companion.games.ruse_and_bruise.scoring import decide, score
from tests.games.ruse_and_bruise.helpers import goal


def cards(*ids: str):  # type: ignore[no-untyped-def]
    return [goal(i) for i in ids]


def test_the_rulebooks_final_accounting() -> None:
    # Leonardo: one card of each area, 3 + 2 + 2 + 3 + 1 + 2 = 13, doubled 26 (the rulebook's
    # table is garbled; B28 gives the sums).
    leonardo = score(cards("alchemy-3a", "fencing-2", "agriculture-2", "trade-3b", "religion-1", "music-2"))
    assert (leonardo.plain, leonardo.doubled, leonardo.score) == (13, 26, 26)
    # Sarab: 4 + 3 + 4 + 4 + 5 = 20, not every area: the plain sum.
    sarab = score(cards("alchemy-4", "fencing-3a", "trade-4", "religion-4", "music-5"))
    assert (sarab.plain, sarab.doubled, sarab.score) == (20, None, 20)
    assert sarab.missing == ("agriculture",) and sarab.words() == "20 (no goal card of agriculture: no doubling, B28)"
    # Isabelle: six areas 1 + 4 + 5 + 2 + 2 + 1 = 15, doubled 30, less 1 for her seventh card.
    isabelle = score(cards("alchemy-1", "fencing-4", "agriculture-5", "trade-2", "religion-2", "music-1", "fencing-3a"))
    assert (isabelle.plain, isabelle.doubled, isabelle.score) == (18, 29, 29)
    assert isabelle.words() == "1+4+5+2+2+1 = 15, doubled 30, less 1 for 1 other goal card = 29 (better than the plain 18, B28)"


def test_the_highest_card_of_each_area_is_doubled_and_the_better_score_taken() -> None:
    s = score(cards("alchemy-1", "alchemy-5", "fencing-1", "agriculture-1", "trade-1", "religion-1", "music-1"))
    assert [g.id for g in s.six] == ["alchemy-5", "fencing-1", "agriculture-1", "trade-1", "religion-1", "music-1"]
    assert (s.plain, s.doubled, s.score, s.others) == (11, 19, 19, 1)
    # Many other cards: the plain sum is better.
    many = score(cards("alchemy-1", "fencing-1", "agriculture-1", "trade-1", "religion-1", "music-1", *[f"{a}-5" for a in ("alchemy", "fencing", "trade")], "alchemy-4", "fencing-4", "trade-4", "alchemy-3a", "fencing-3a", "trade-3a", "alchemy-3b"))
    assert many.doubled is not None and many.score == many.plain > many.doubled
    assert score([]).score == 0


def test_the_highest_score_wins_and_an_equal_highest_score_is_a_draw() -> None:
    out = decide({"ann": cards("music-5"), "bob": cards("trade-4"), "cy": []})
    assert (out.winner, out.draw, out.explain()) == ("ann", False, "ann wins with 5")
    out = decide({"ann": cards("music-5"), "bob": cards("trade-5"), "cy": cards("music-4")})
    assert (out.winner, out.draw, out.explain()) == (None, True, "a draw: ann and bob with 5 each")
