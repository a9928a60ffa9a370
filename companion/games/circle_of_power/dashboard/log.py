"""The event log's lines for a move just applied: the move in words (a card played and whether
it is trump, who took the initiative and why, the winner's act and every card it moved, a city
turned up, the reshuffle, a season's set-up) and, at the end of a season, each emperor's points
with their reasons, the totals and the result (C4-C20).

>>> from companion.games.circle_of_power import GAME
>>> from companion.games.circle_of_power.moves import Play, Reveal, Season
>>> from companion.session import Applied
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> moves = [Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"),
...          Reveal.from_id("JD"), Play.from_ids("bob", "7H"), Play.from_ids("cy", "10S"),
...          Play.from_ids("@1", "2S"), Play.from_ids("ann", "5H")]
>>> for index, move in enumerate(moves):
...     lines = log_entries(state, Applied("test", index, move, state.apply(move)))
>>> print(lines[0].text)
ann plays 5H, trump for ann (city KH); ann takes the initiative: ann's 5H is trump for ann (ann's city is KH) and beats cy's 10S (C9)
"""

from __future__ import annotations

from companion.dashboard.widgets.event_log import LogEntry
from companion.games.circle_of_power.effects import Effects
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Reshuffle, Retake, Reveal, Season
from companion.games.circle_of_power.scoring import KNOCK_OUT, SeasonResult
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.dashboard.words import act_words, names_list, trump_source
from companion.session import Applied

__all__ = ["log_entries", "move_words", "result_lines"]


def move_words(state: CircleState, move: Move, fx: Effects) -> str:
    """``move``, just applied to ``state`` with ``fx``, in words for the log."""
    if type(move) is Play:
        return _play_words(state, move, fx)
    if type(move) is Conquer or type(move) is Retake or type(move) is Regroup:
        return act_words(state, move, fx)
    if type(move) is Reveal:
        return _reveal_words(state, move)
    if type(move) is Reshuffle:
        dummies = state.dummies
        piles = f"; {names_list(dummies)} put{'s' if len(dummies) == 1 else ''} 6 of them on {'its pile' if len(dummies) == 1 else 'their piles'}" if dummies else ""
        return f"The battle deck ran out: the 24 cards of actions 1-6 are shuffled into a new battle deck{piles} (C15)"
    assert type(move) is Season
    return _season_words(state, move)


def _play_words(state: CircleState, move: Play, fx: Effects) -> str:
    p, card = move.player, move.card
    text = f"{p} plays {card.id}"
    if is_dummy(p):
        text += ", the top card of its pile"
    if card.suit is not None and card.suit == state.trump_suits.get(p):
        text += f", trump for {p} ({trump_source(state, p)})"
    if fx.drew is not None:
        text += f", and draws {fx.drew.id}"
    if fx.initiative is not None:
        text += f"; {fx.initiative.player} takes the initiative: {fx.initiative.reason} (C9)"
    return text


def _reveal_words(state: CircleState, move: Reveal) -> str:
    card = move.card
    text = f"{card.id} is turned up: the next available city (C7)"
    if card is state.bottom:
        text = f"{card.id}, the bottom joker, is turned up: the city deck's last card (C7)"
    jokers = [n for n, c in state.cities.items() if c is not None and c.is_joker]
    for name in jokers:
        suit = state.trump_suits.get(name)
        text += f"; {name}'s joker has trump {suit} from it (C9)" if suit else f"; {name}'s joker has no trump: {card.id} is a joker (C9)"
    return text


def _season_words(state: CircleState, move: Season) -> str:
    cities = ", ".join(f"{n} {c.id}" for n, c in move.cities)
    leader = state.leader
    return (
        f"Season {state.season_number}: {move.dealer} deals; clockwise {', '.join(move.seats)}; cities {cities}; "
        f"{move.bottom.id} face up at the bottom of the city deck; {leader} leads action 1 (C4-C6)"
    )


def result_lines(state: CircleState, result: SeasonResult) -> list[str]:
    """A season's points with their reasons, each emperor in their seat (C16, C18, C19)."""
    lonely = state.variant == LONELY_TYRANT
    out = []
    for name in result.seats:
        cards = result.trophies.get(name, ())
        text = f"{name}: {result.points.get(name, 0)} point{'s' if result.points.get(name, 0) != 1 else ''}"
        if cards:
            text += f" ({', '.join(c.id for c in cards)} in {name}'s line)"
        if lonely or state.variant == COLOURED_CITIES:
            lost = result.destroyed_cards.get(name, ())
            if lost:
                counted = result.destroyed.get(name, 0)
                why = "a dummy's count for nothing" if is_dummy(name) else f"{counted} count{'s' if counted == 1 else ''} towards a knock-out"
                text += f"; destroyed {', '.join(c.id for c in lost)} ({why})"
        out.append(text)
    if result.knocked_out:
        out.append(f"Knocked out: {names_list(result.knocked_out)} (C18)")
    return out


def log_entries(state: CircleState, event: Applied) -> list[LogEntry]:
    """The event log's lines for a move just applied to ``state``: the move in words, and, at a
    season's end, the points with their reasons, the totals and the result."""
    move, fx = event.move, event.effects
    kind = "round" if type(move) is Season else "deal" if fx.kind in ("conquer", "retake", "regroup") else "move"
    text = move_words(state, move, fx)
    if fx.knocked_out:
        text += f"; {names_list(fx.knocked_out)} {'is' if len(fx.knocked_out) == 1 else 'are'} knocked out: five holy cities destroyed (C18)"
    out = [LogEntry(text, event.index, kind)]
    result = fx.result
    if result is not None:
        after = event.index + 1
        out.extend(LogEntry(line, None, "note", after=after) for line in result_lines(state, result))
        if state.variant == LONELY_TYRANT:
            # No points in Lonely Tyrant: what counts is the destroyed cities (C18).
            players = [n for n in result.totals if not is_dummy(n)]
            lost = ", ".join(f"{n} {min(result.destroyed_totals.get(n, 0), KNOCK_OUT)}/{KNOCK_OUT}" for n in players)
            out.append(LogEntry(f"Season {result.number} over. Holy cities destroyed: {lost}", None, "result", after=after))
        else:
            totals = ", ".join(f"{n} {t}" for n, t in result.totals.items())
            out.append(LogEntry(f"Season {result.number} over. Totals: {totals}", None, "result", after=after))
        outcome = state.outcome()
        if outcome is not None:
            words = outcome.explain()
            out.append(LogEntry(words[0].upper() + words[1:], None, "result", after=after))
    return out
