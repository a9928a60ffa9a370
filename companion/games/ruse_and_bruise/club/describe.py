"""Words for spectators: a ``rab-record/1`` event as a sentence, and a table of Ruse and Bruise
as the live page shows it while it plays: the round's goal cards as the board's columns, each
card under its goal card in order, a face-down card only as the back of its owner's colour
(never named, though a table kept by NFC records it: a spectator sees it when it is turned
over or revealed, B10, B16, B29), each column's count (n of m, closed by a Storm, B13, B16);
every player's hand, stack and discard pile counted, their goal cards and score (B28); what the
game waits for; and after a round its distribution column by column, step by step (B18-B26).

The page draws what any game gives it in these shapes (``board``: a heading per column and a
row per line; ``shown``: labelled rows of cards; ``notes``: lines of words).

>>> describe_event({"event": "place", "player": "bob", "column": 2, "card": "WIZ", "drew": "KING"})
'bob places a card face down in column 2 and draws'
>>> describe_event({"event": "turn", "column": 2, "card": "EXPL"})
'EXPL Explorer is turned over in column 2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.errors import UnknownCardError
from companion.games.ruse_and_bruise.cards import COLOURS, GOALS, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.distribution import ColumnDistribution
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.progress import progress
from companion.games.ruse_and_bruise.scoring import RoundResult, score_of

__all__ = ["TableView", "Replay", "back", "board", "describe_event", "face_up", "page_words", "round_points", "round_reasons"]


def back(colour: str) -> str:
    """The page's label of a face-down card of ``colour``: its back, nothing of its face."""
    return f"back-{colour}"


def face_up(card: Influence, colour: str) -> str:
    """The page's label of ``card`` face up in ``colour``: ``"EXPL-red"``."""
    return f"{card.id}-{colour}"


def page_words() -> dict[str, Any]:
    """Every card as the page draws it: each influence card face up in each colour, each
    colour's back (no name but the colour's), each influence card as a sentence names it
    (``"HERMIT Hermit"``, ``"HERMIT"``: one card, its name on hover), and the goal cards."""
    cards: dict[str, dict[str, Any]] = {}
    for colour in COLOURS:
        cards[back(colour)] = {"label": back(colour), "short": "▮", "value": None, "suit": f"rab-{colour} rab-back", "name": f"a {colour} card, face down", "marks": ""}
        for c in INFLUENCE:
            cards[face_up(c, colour)] = {"label": face_up(c, colour), "short": c.id, "value": c.printed, "suit": f"rab-{colour}", "name": f"{c.name} ({colour})", "marks": ""}
    # A card a sentence names (an event tells no owner): its id, its name on hover.
    for c in INFLUENCE:
        cards[c.id] = {"label": c.id, "short": c.id, "value": c.printed, "suit": "rab-card", "name": c.name, "marks": "", "forms": [c.long_label, c.id]}
    for g in GOALS:
        cards[g.id] = {"label": g.id, "short": g.id, "value": g.value, "suit": "rab-goal", "name": f"goal card {g.title}, {g.value} points", "marks": ""}
    return {"cards": cards, "points": {"goal_points": "goal card points won", "goal_cards": "goal cards won"}}


def _influence(card_id: Any) -> str | None:
    try:
        return Influence.from_id(str(card_id)).long_label
    except UnknownCardError:
        return None


def describe_event(event: Mapping[str, Any]) -> str:
    """One record event (the ``game`` header included) as a sentence. A card placed face down,
    put under a Cloak, drawn, dealt or sent away by an Assassin is never named: a spectator
    sees a card when it is turned over or revealed (B10, B12, B16, B29)."""
    kind = event.get("event")
    if kind == "game":
        players = event.get("players") or []
        colours = event.get("colours") or {}
        seats = ", ".join(f"{p} ({colours.get(p, '?')})" if isinstance(colours, Mapping) else str(p) for p in players)
        return f"New game of Ruse and Bruise: {seats}"
    if kind == "round":
        goals = ", ".join(map(str, event.get("goals") or []))
        drew = event.get("drew")
        topped = f"; {', '.join(map(str, drew))} fill up their hands (B9)" if isinstance(drew, Mapping) and drew else ""
        return f"A round begins: the goal cards {goals} are turned over (B7){topped}"
    if kind == "place":
        return f"{event.get('player', '?')} places a card face down in column {event.get('column', '?')} and draws"
    if kind == "pass":
        return f"{event.get('player', '?')} holds no card and passes (B8)"
    if kind == "turn":
        name = _influence(event.get("card")) or str(event.get("card"))
        return f"{name} is turned over in column {event.get('column', '?')}"
    if kind == "explorer":
        to = event.get("to")
        return "The Explorer stays: the next column is closed by a Storm (B11)" if to is None else f"The Explorer moves to column {to} (B11)"
    if kind == "assassin":
        return "The Assassin sends the card that arrived below him to its owner's discard pile, unturned (B12)"
    if kind == "storm":
        return f"The Storm closes column {event.get('column', '?')}: it is complete (B13)"
    if kind == "cloak":
        who = event.get("player", "?")
        return f"{who} places a card face down under the Invisibility Cloak (B14)" if event.get("placed") else f"{who} places nothing under the Invisibility Cloak (B14)"
    if kind == "traitor":
        swap = event.get("swap")
        who = event.get("player", "?")
        return f"{who}'s Traitor keeps the goal cards where they are (B15)" if swap is None else f"{who}'s Traitor exchanges the goal card with column {swap}'s (B15)"
    if kind == "reveal":
        return "The round is over: every face-down card is turned over (B16)"
    if kind == "distribution":
        winners = event.get("winners") or []
        return "The goal cards go to " + ", ".join(str(w) if w else "nobody" for w in winners) + " (B18-B26)"
    return str(kind)


def round_reasons(columns: Sequence[ColumnDistribution]) -> list[str]:
    """A round's distribution in words, column by column and step by step (B18-B26): each
    goal card, the abilities in force in order, each card's value and why, the sums, the winner
    and why."""
    out: list[str] = []
    for k, col in enumerate(columns, 1):
        lines = col.lines()
        out.append(f"Column {k}: {lines[0]}")
        out.extend(line.strip() for line in lines[1:])
    return out


def round_points(result: RoundResult, players: Sequence[str]) -> dict[str, dict[str, int]]:
    """Each player's goal cards won in a round and their points (B27)."""
    points = {p: {"goal_cards": 0, "goal_points": 0} for p in players}
    for col in result.columns:
        if col.winner is not None:
            points[col.winner]["goal_cards"] += 1
            points[col.winner]["goal_points"] += col.goal.value
    return points


_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def board(state: RabState) -> dict[str, Any]:
    """The round's goal cards as columns, each column's cards under its goal card in order
    (the first row the card closest to it): a face-up card by name in its owner's colour, a
    face-down card only as its owner's colour's back (B10, B29); and each column's count."""
    colour = dict(zip(state.setup.players, state.setup.colours))
    if state.phase in (Phase.ROUND, Phase.OVER) and state.results:
        return _distributed(state.results[-1], colour)
    columns = state.columns
    if state.round_number == 0 or not columns:
        return {"headings": [], "rows": []}
    headings = [""] + [f"column {c.number}" for c in columns]
    goal_row: list[Any] = ["goal card"] + [[c.goal.id] if isinstance(c.goal, Goal) else "face down" for c in columns]
    counts: list[Any] = ["cards"]
    for c in columns:
        text = f"{c.holds} of {c.needs}"
        if c.closed:
            text += ", closed by a Storm (B13)"
        elif c.complete:
            text += ", complete (B16)"
        counts.append(text)
    rows = [{"key": "goal", "cells": goal_row}, {"key": "count", "cells": counts}]
    for depth in range(max(c.holds for c in columns)):
        cells: list[Any] = [_ORDINAL.get(depth + 1, f"{depth + 1}th") + " card"]
        for c in columns:
            if depth >= len(c.cards):
                cells.append("")
                continue
            owner, card, up = c.cards[depth]
            cells.append([face_up(card, colour[owner]) if up and card is not None else back(colour[owner])])
        rows.append({"key": f"card {depth + 1}", "cells": cells})
    return {"headings": headings, "rows": rows}


def _distributed(result: RoundResult, colour: Mapping[str, str]) -> dict[str, Any]:
    """A distributed round's columns as they lay once revealed (B16): every card face up, its
    value in the column or why it has none, and who took each goal card (B18-B26)."""
    columns = result.columns
    headings = [""] + [f"column {k}" for k in range(1, len(columns) + 1)]
    rows: list[dict[str, Any]] = [
        {"key": "goal", "cells": ["goal card", *([c.goal.id] for c in columns)]},
        {"key": "winner", "cells": [f"round {result.number}", *(f"to {c.winner} ({c.why})" if c.winner else "to nobody (B26)" for c in columns)]},
    ]
    for depth in range(max((len(c.cards) for c in columns), default=0)):
        cells: list[Any] = [_ORDINAL.get(depth + 1, f"{depth + 1}th") + " card"]
        for c in columns:
            if depth >= len(c.cards):
                cells.append("")
                continue
            card = c.cards[depth]
            worth = f"removed by the {'Wizard' if card.removed == 'WIZ' else 'Witch'}" if card.removed else "no value" if card.value is None else str(card.value)
            cells.append([face_up(card.card, colour[card.owner]), {"text": worth}])
        rows.append({"key": f"card {depth + 1}", "cells": cells})
    return {"headings": headings, "rows": rows}


def _shown(state: RabState) -> list[dict[str, Any]]:
    """Each player in their seat: their colour, what they hold counted, their goal cards and
    score (B28)."""
    out = []
    for p, colour in zip(state.setup.players, state.setup.colours):
        won = state.won(p)
        s = score_of(won)
        label = f"{p} ({colour}): hand {state.hand_size(p)}, stack {state.stack_size(p)}, discards {state.discard_size(p)}; score {s.score}; goal cards"
        out.append({"label": label, "role": "player", "cards": [g.id for g in won]})
    return out


def _notes(state: RabState) -> list[str]:
    """Once every card is revealed, the distribution to come, step by step (a distributed
    round's is the page's settlement, ``last_round``); at the end every player's score and the
    winner (B28). What the game waits for is the table's progress (:mod:`..progress`), said
    once, above."""
    notes = []
    phase = state.phase
    if phase is Phase.DISTRIBUTE:
        due = state.distribution_now()
        if due is not None:
            notes.append(f"Round {state.round_number}'s distribution, as the cards lie:")
            notes.extend(round_reasons(due))
    outcome = state.outcome()
    if outcome is not None:
        for p, s in outcome.score_pairs:
            notes.append(f"{p}: {s.words()}")
        text = outcome.explain()
        notes.append(text[0].upper() + text[1:] + " (B28)")
    return notes


class TableView:
    """What the live page shows of one table (see the module's words), worked out after every
    move; the last round's distribution once."""

    def __init__(self) -> None:
        self._last: tuple[int, dict[str, Any]] | None = None

    def state(self, game: RabState, header: Mapping[str, Any]) -> dict[str, Any]:
        setup = game.setup
        outcome = game.outcome()
        state: dict[str, Any] = {
            "players": list(setup.players),
            "sides": list(setup.players),
            "round": game.round_number,
            "phase": game.waiting.what,
            "progress": progress(game)._asdict(),
            "turn": game.to_move,
            "totals": game.totals,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "termination": ("draw" if outcome.draw else "score") if outcome else None,
            "board": board(game),
            "shown": _shown(game),
            "notes": _notes(game),
        }
        if game.results:
            if self._last is None or self._last[0] != len(game.results):
                last = game.results[-1]
                self._last = (len(game.results), {"number": last.number, "points": round_points(last, setup.players), "reasons": round_reasons(last.columns)})
            state["last_round"] = self._last[1]
        return state


class Replay:
    """A stored game step by step for the page: after each event the columns, the players,
    the totals, and at the end of each round its distribution step by step."""

    def __init__(self) -> None:
        self._rounds = 0

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"totals": {}}

    def after(self, game: RabState) -> dict[str, Any]:
        step: dict[str, Any] = {
            "totals": game.totals, "progress": progress(game)._asdict(), "board": board(game), "shown": _shown(game), "notes": _notes(game),
        }
        if len(game.results) > self._rounds:
            self._rounds = len(game.results)
            result = game.results[-1]
            step["settlement"] = {"round": result.number, "points": round_points(result, game.players), "reasons": round_reasons(result.columns)}
        return step
