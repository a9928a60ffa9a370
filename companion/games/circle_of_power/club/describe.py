"""Words for spectators: a ``cop-record/1`` event as a sentence, and a table of Circle of
Power as the live page shows it while it plays: each emperor in their seat with their city, the
trump suit it gives them (C9), their line (trophies face up, destroyed cities face down, C12,
C18), this season's points and the totals (C16); the next available city and the city deck
(C7); the cards played in the current action in order, and who holds the initiative and why
(C9); the last season settled with every point's reason.

The page draws what any game gives it in these shapes (``board``: a heading per column and a
row per emperor, a list cell being cards; ``shown``: labelled rows of cards; ``notes``: lines
of words), so that Circle of Power's panel needs no code of its own in the page.

>>> describe_event({"event": "play", "player": "bob", "card": "7H", "drew": "4C"})
'bob plays 7H seven of hearts'
>>> describe_event({"event": "retake", "player": "cy", "victim": "ann", "discard": "QS"})
"cy retakes ann's city, ann discarding QS queen of spades"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.circle_of_power.cards import ALL_CARDS, Card
from companion.games.circle_of_power.game import ACTIONS, CircleState, Phase
from companion.games.circle_of_power.progress import progress
from companion.games.circle_of_power.scoring import SeasonResult
from companion.games.circle_of_power.setup import LONELY_TYRANT, is_dummy
from companion.contract.errors import UnknownCardError

__all__ = ["COLUMNS", "TableView", "Replay", "board", "card_label", "describe_event", "page_words", "season_reasons"]

#: The columns of a table's board on the page, one row per emperor in their seat.
COLUMNS = ("emperor", "city", "trump", "line", "this season", "total")
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_label(card_id: Any) -> str:
    """A card as spectators read it: ``"QS queen of spades"``; an unseen one in words."""
    if card_id is None:
        return "an unseen card"
    try:
        return Card.from_id(str(card_id)).long_label
    except UnknownCardError:
        return str(card_id)


def page_words() -> dict[str, Any]:
    """Every card as the page draws it, by id (C1): on its colour as the dashboard draws it, red
    hearts and diamonds, black spades and clubs, since colour decides what a joker may attack
    and what attacks a joker (C3); the jokers, which have no colour of their own (C1; in
    Coloured Cities each takes the colour of the other city in an attack, C19), gold. Its name
    and colour on hover; the words that name it (``"QS queen of spades"``, ``"QS"``) become the
    card."""
    cards: dict[str, dict[str, Any]] = {}
    for c in ALL_CARDS:
        colour = c.colour or "no colour of its own (C1; in Coloured Cities the colour of the other city in an attack, C19)"
        cards[c.id] = {
            "label": c.id,
            "short": c.id,
            "value": c.number or None,
            "suit": f"cop-{c.colour or 'joker'}",
            "name": f"{c.title}, {colour}",
            "marks": "",
            "forms": [c.long_label, c.id],
        }
    return {"cards": cards}


def describe_event(event: Mapping[str, Any]) -> str:
    """One record event (the ``game`` header included) as a sentence."""
    kind = event.get("event")
    who = event.get("player", "?")
    if kind == "game":
        variant = event.get("variant", "basic")
        target = "" if variant == LONELY_TYRANT else f", target {event.get('target', 6)}"
        return f"New game of Circle of Power: {', '.join(event.get('players', []))} ({variant}{target})"
    if kind == "season":
        cities = event.get("cities") or {}
        seats = ", ".join(f"{name} {cities.get(name, '?')}" for name in event.get("seats", []))
        return f"New season, {event.get('dealer')} deals; cities {seats}"
    if kind == "reveal":
        return f"Next city turned up: {card_label(event.get('card'))}"
    if kind == "play":
        return f"{who} plays {card_label(event.get('card'))}"
    if kind == "conquer":
        keep = ", keeping their own city (C19)" if event.get("keep") else ""
        return f"{who} conquers {event.get('victim')}'s city{keep}"
    if kind == "retake":
        lost = f", {event.get('victim')} discarding {card_label(event['discard'])}" if event.get("discard") else ""
        return f"{who} retakes {event.get('victim')}'s city{lost}"
    if kind == "regroup":
        lost = f", losing {card_label(event['discard'])} to rebellion (C14)" if event.get("discard") else ""
        return f"{who} regroups{lost}"
    if kind == "reshuffle":
        return "The battle deck is reshuffled (C15)"
    return str(kind)


def season_reasons(result: SeasonResult) -> list[str]:
    """Each emperor's points in a settled season with their reasons (C16), the cities that
    count towards a knock-out (C18) and the knock-outs."""
    out = [f"{name} {result.explain(name)}" for name in result.seats]
    lost = [f"{name} {n}" for name, n in result.destroyed.items() if n]
    if lost:
        out.append("destroyed cities that count (C18): " + ", ".join(lost))
    if result.knocked_out:
        out.append("knocked out (C18): " + ", ".join(result.knocked_out))
    if result.cut_short:
        out.append("cut short by the Lonely Tyrant (C18)")
    return out


def _line(state: CircleState, name: str) -> list[str]:
    """The line as the table shows it: trophies face up, destroyed cities face down."""
    return [c.id if up else "▮" for c, up in state.line(name)]


def board(state: CircleState) -> dict[str, Any]:
    """This season's emperors in their seats (clockwise): city, trump suit, line, this
    season's points and total; empty before the first season."""
    totals = state.totals
    trumps = state.trump_suits
    rows = []
    for name in state.seats:
        city = state.city(name)
        suit = trumps.get(name)
        rows.append(
            {
                "emperor": name + (" (dummy)" if is_dummy(name) else ""),
                "key": name,
                "cells": [
                    name + (" (dummy)" if is_dummy(name) else ""),
                    [city.id] if city is not None else "no city",
                    _SUIT_WORDS[suit] if suit else "none",
                    _line(state, name),
                    len(state.trophies(name)),  # a point a trophy (C16)
                    totals.get(name, 0),
                ],
            }
        )
    return {"headings": list(COLUMNS), "rows": rows}


def _shown(state: CircleState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if not state.seats:
        return out
    out.append(_next_city(state))
    out.append(
        {
            "label": f"Action {min(state.action_number, ACTIONS)} of {ACTIONS}",
            "role": "plays",
            "cards": [f"{name} {card.id}" for name, card in state.played],
            "empty": "no card played yet",
        }
    )
    return out


def _next_city(state: CircleState) -> dict[str, Any]:
    """The next available city (C7): face up; face down while the table is to turn it up; or
    none, in the season's last action or with the city deck empty."""
    nxt = state.next_city
    count = state.city_deck_count
    deck = f"{count} in the city deck"
    if nxt is not None:
        return {"label": f"Next available city ({deck})", "role": "next", "cards": [nxt.id]}
    if state.phase is Phase.REVEAL and count:
        return {"label": f"Next available city: not turned up yet, the table turns it up next ({deck}, C7)", "role": "next", "cards": ["▮"]}
    if state.action_number >= ACTIONS and state.phase in (Phase.PLAY, Phase.ACT):
        # The season's last action turns up no city, and nobody takes one (C7).
        return {"label": "No next available city: the season's last action gives none (C7)", "role": "next", "cards": [], "empty": ""}
    return {"label": f"No next available city ({deck})", "role": "next", "cards": [], "empty": ""}


def _notes(state: CircleState) -> list[str]:
    notes = []
    held = state.initiative
    if held is not None:
        notes.append(f"Initiative: {held.reason}")
    if state.phase is Phase.ACT and state.to_move is not None:
        notes.append(f"{state.to_move} won the action and chooses an act (C10):")
        notes.extend(f"{c.act}: {c.why}" for c in state.choices())
    if state.knocked_out:
        notes.append("Knocked out (C18): " + ", ".join(state.knocked_out))
    return notes


class TableView:
    """What the live page shows of one table (see the module's words), worked out after every
    move; the last settled season once."""

    def __init__(self) -> None:
        self._last: tuple[int, dict[str, Any]] | None = None

    def state(self, game: CircleState, header: Mapping[str, Any]) -> dict[str, Any]:
        setup = game.setup
        outcome = game.outcome()
        state: dict[str, Any] = {
            "players": list(setup.players),
            "sides": list(game.emperors),
            "target": None if setup.variant == LONELY_TYRANT else setup.target,
            "variant": setup.variant,
            "round": game.season_number,
            "phase": game.phase.value,
            "turn": game.to_move,
            "progress": progress(game)._asdict(),
            "dealer": game.dealer,
            "totals": game.totals,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "termination": outcome.how.value if outcome else None,
            "board": board(game),
            "shown": _shown(game),
            "notes": _notes(game),
        }
        if game.results:
            if self._last is None or self._last[0] != len(game.results):
                last = game.results[-1]
                self._last = (len(game.results), {"number": last.number, "points": dict(last.points), "reasons": season_reasons(last)})
            state["last_round"] = self._last[1]
        return state


class Replay:
    """A stored game step by step for the page: after each event the board, the cards of the
    action, the totals, and at the end of each season its settlement with the reasons."""

    def __init__(self) -> None:
        self._seasons = 0

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"totals": {}}

    def after(self, game: CircleState) -> dict[str, Any]:
        step: dict[str, Any] = {
            "totals": game.totals, "progress": progress(game)._asdict(), "board": board(game), "shown": _shown(game), "notes": _notes(game),
        }
        if len(game.results) > self._seasons:
            self._seasons = len(game.results)
            result = game.results[-1]
            step["settlement"] = {
                "round": result.number,
                "points": {name: {"total": n} for name, n in result.points.items()},
                "reasons": season_reasons(result),
            }
        return step
