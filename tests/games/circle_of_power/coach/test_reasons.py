"""The reasons and risks are the search's own figures, told in a beginner's words: positions
whose facts are certain give the certain figures."""

from __future__ import annotations

from companion.coach import Coach
from companion.games.circle_of_power.cards import attack_reason
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.rules import strength, threats, trump_suit, victims

from .positions import find, is_act


def _seat_cities(state: CircleState):
    seats = state.seats
    return seats, [state.city(n) for n in seats]


def _last_to_play(state: CircleState) -> bool:
    return state.phase is Phase.PLAY and len(state.played) == 3 and state.to_move in state.players


def _winning(state: CircleState):
    """The cards of the player to move (the last to play) that win the initiative (C9)."""
    me = state.to_move
    nxt = state.next_city
    best = max(strength(c, trump_suit(state.city(n), nxt)) for n, c in state.played)
    mine = trump_suit(state.city(me), nxt)
    return {c for c in state.hand(me) if strength(c, mine) >= best}


def _one_card_wins(state: CircleState) -> bool:
    return _last_to_play(state) and len(_winning(state)) == 1 and len(set(state.hand(state.to_move))) > 1


def test_the_last_to_play_wins_the_initiative_for_certain_with_the_one_winning_card():
    spot = find(_one_card_wins, seeds=range(80))
    state = spot.state
    (card,) = _winning(state)
    advice = Coach("fast").advise(state, state.to_move, samples=8, seed=1)
    item = next(m for m in advice.moves if m.details["card"] == card.id)
    assert item.feats["initiative"] == 1.0
    assert all(m.feats["initiative"] == 0.0 for m in advice.moves if m is not item)
    assert any(r.startswith("wins the initiative (C9) in 100% of the samples, against 0% for play ") for r in item.reasons)


def _rebels_if_it_wins(state: CircleState) -> bool:
    if not _one_card_wins(state):
        return False
    seats, cities = _seat_cities(state)
    seat = seats.index(state.to_move)
    return not victims(seat, cities) and not threats(seat, cities) and bool(state.trophies(state.to_move))


def test_winning_with_nothing_to_attack_and_no_threat_is_a_certain_rebellion():
    spot = find(_rebels_if_it_wins, seeds=range(300))
    state = spot.state
    me = state.to_move
    (card,) = _winning(state)
    advice = Coach("fast").advise(state, me, samples=8, seed=2)
    item = next(m for m in advice.moves if m.details["card"] == card.id)
    rebellion = [r for r in item.risks if r.kind == "rebellion"]
    assert rebellion and rebellion[0].chance == 1.0
    city = state.city(me)
    assert f"your city {city.id} is under threat from nobody, so it rebels and you lose a trophy (C14)" in rebellion[0].text
    assert rebellion[0].text in item.reasons  # the risks close the reasons
    assert all(r.kind != "rebellion" for m in advice.moves if m is not item for r in m.risks)
    # the rebellion is a point lost on every sample: the search ranks the winning card lower
    assert advice.best is not item and item.categories["rebellions"] < advice.best.categories["rebellions"]


def _rival_after_me_attacks_me(state: CircleState) -> bool:
    if state.phase is not Phase.PLAY or state.played or state.to_move not in state.players:
        return False
    seats, cities = _seat_cities(state)
    me = seats.index(state.to_move)
    return any(seats[j] in state.players for j in threats(me, cities)) and len(set(state.hand(state.to_move))) > 1


def test_the_risk_of_losing_the_city_names_the_attacker_and_the_circle():
    for spot in _spots_where(_rival_after_me_attacks_me):
        state = spot.state
        advice = Coach("fast").advise(state, state.to_move, samples=12, seed=3)
        told = [(m, r) for m in advice.moves for r in m.risks if r.kind == "city"]
        if told:
            break
    else:
        raise AssertionError("no city risk told in any position where a rival threatens the city")
    item, risk = told[0]
    mine, theirs = state.city(state.to_move), state.city(risk.by)
    assert risk.chance >= 0.15 and risk.by in state.players
    assert f"your city {mine.id} with {theirs.id} ({attack_reason(theirs, mine)})" in risk.text
    assert f"beats your {item.details['card']} for {risk.by}" in risk.text and risk.unseen_beaters is not None
    assert risk.short.startswith(f"risk {risk.chance:.0%}: {risk.by} ")


def _spots_where(predicate):
    from .positions import spots

    return (s for s in spots(seeds=range(40)) if predicate(s.state))


def test_acts_are_told_by_the_winning_strike_and_the_points():
    spot = find(is_act, seeds=range(40))
    state = spot.state
    advice = Coach("fast").advise(state, state.to_move, samples=10, seed=4)
    assert all(m.details["act"] in ("conquer", "retake", "regroup") for m in advice.moves)
    words = " ".join(r for m in advice.moves for r in m.reasons)
    assert "keeps the initiative in the next action" in words or "points through" in words or "points to" in words
    assert "wins the initiative (C9)" not in words  # that is a card's reason
