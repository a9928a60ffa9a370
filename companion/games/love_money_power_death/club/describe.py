"""Words for spectators: an ``lmpd-record/1`` event as a sentence, and a table of Love, Money,
Power, Death as the live page shows it while it plays: each player in their seat, whether they
have committed this round (never what: a commit event may carry its card, as a table kept from
every seat records it, but a spectator sees it only at the reveal, L6, L7), their pile and hand,
their court, crowns and nobles (L10, L13); the noble once turned (L7), the nobles still face
down and the discarded ones; the last round decided with every card, who won and why (L8-L10);
and at the end the winner and the tie-break that decided (L13).

The page draws what any game gives it in these shapes (``board``: a heading per column and a
row per player, a list cell being cards; ``shown``: labelled rows of cards; ``notes``: lines of
words), so that this game's panel needs no code of its own in the page.

>>> describe_event({"event": "commit", "player": "bob", "card": "A2"})
'bob commits a card, face down'
>>> describe_event({"event": "reveal", "cards": {"ann": "4Mb", "bob": "A2"}})
'Revealed: ann 4Mb, bob A2'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.contract.errors import UnknownCardError
from companion.games.love_money_power_death.cards import ALL_CARDS, SUIT_NAMES, Card
from companion.games.love_money_power_death.progress import progress
from companion.games.love_money_power_death.scoring import RoundResult
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["COLUMNS", "TableView", "Replay", "board", "card_label", "describe_event", "page_words", "round_reasons"]

#: The columns of a table's board on the page, one row per player in their seat.
COLUMNS = ("player", "this round", "pile", "hand", "court", "crowns", "nobles")

#: The page's colour of each suit (L2), an agent's apart: the dashboard's colours.
_SUIT_CLASSES = {"L": "lmpd-love", "M": "lmpd-money", "P": "lmpd-power", "D": "lmpd-death"}


def card_label(card_id: Any) -> str:
    """A card as spectators read it: its identifier (``N3P``); an unseen one in words."""
    if card_id is None:
        return "an unseen card"
    try:
        return Card.from_id(str(card_id)).id
    except UnknownCardError:
        return str(card_id)


def page_words() -> dict[str, Any]:
    """Every card as the page draws it, by identifier: its short form, its suit (the page's
    colour, as the dashboard colours it, L2; ``lmpd-agent`` for an agent) and its name."""
    cards: dict[str, dict[str, Any]] = {}
    for c in ALL_CARDS:
        cards[c.id] = {
            "label": c.id,
            "short": c.id,
            "value": c.rank,
            "suit": _SUIT_CLASSES[c.suit] if c.suit else "lmpd-agent",
            "name": c.long_label,
            "marks": "",
        }
    return {"cards": cards, "points": {"crowns": "crowns won"}}


def describe_event(event: Mapping[str, Any]) -> str:
    """One record event (the ``game`` header included) as a sentence. A commit never names its
    card, nor a draw the cards drawn: a spectator sees a card when it is revealed (L6, L7)."""
    kind = event.get("event")
    if kind == "game":
        nobles = event.get("nobles") or []
        return f"New game of Love, Money, Power, Death: {', '.join(map(str, event.get('players', [])))}; {len(nobles)} nobles"
    if kind == "deal":
        return "The nobles are laid face down and the cards dealt face down (L5)"
    if kind == "commit":
        return f"{event.get('player', '?')} commits a card, face down"
    if kind == "noble":
        card = card_label(event.get("card"))
        try:
            noble = Card.from_id(card)
            return f"Noble turned up: {noble.id}, {SUIT_NAMES[noble.suit or '']}, {noble.rank} crowns"
        except UnknownCardError:
            return f"Noble turned up: {card}"
    if kind == "reveal":
        cards = event.get("cards") or {}
        return "Revealed: " + ", ".join(f"{p} {card_label(c)}" for p, c in cards.items())
    if kind == "draw":
        return "Every player draws a card from their own pile (L11)"
    return str(kind)


def round_reasons(result: RoundResult) -> list[str]:
    """A decided round in words: every card, and who won the noble and why (L8-L10)."""
    plays = ", ".join(f"{p} {c.id}" for p, c in result.plays)
    taken = f"{result.noble.id} to {result.winner}" if result.winner else f"{result.noble.id} discarded"
    return [f"Revealed: {plays}", f"{taken}: {result.reason}"]


def board(state: LmpdState) -> dict[str, Any]:
    """The players in their seats: whether each has committed this round (never the card),
    their pile and hand, their court, crowns and nobles."""
    committing = state.phase in (Phase.COMMIT, Phase.NOBLE, Phase.REVEAL)
    committed = set(state.committed)
    dealt = state.phase is not Phase.DEAL
    totals, counts = state.totals, state.counts
    rows = []
    for p in state.players:
        this = ("committed, face down" if p in committed else "to commit") if committing else "-"
        rows.append(
            {
                "key": p,
                "cells": [
                    p,
                    this,
                    state.pile_size(p) if dealt else "-",
                    state.hand_size(p) if dealt else "-",
                    [c.id for c in state.court(p)],
                    totals[p],
                    counts[p],
                ],
            }
        )
    return {"headings": list(COLUMNS), "rows": rows}


def _shown(state: LmpdState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if state.phase is Phase.DEAL:
        return out
    total = state.setup.rounds
    noble = state.noble
    if state.phase is not Phase.OVER:
        label = f"Round {state.round_number} of {total}: the noble" + ("" if noble is not None else ", face down until all have committed (L7)")
        out.append({"label": label, "role": "noble", "cards": [noble.id] if noble is not None else ["▮"]})
    down = [c.id for c in state.nobles_left if c is not noble]
    out.append({"label": f"Nobles face down ({len(down)}, order unknown)", "role": "nobles", "cards": down})
    if state.discarded:
        out.append({"label": "Discarded (L10)", "role": "discarded", "cards": [c.id for c in state.discarded]})
    last = state.last_round
    if last is not None:
        out.append({"label": f"Round {last.number}: {last.noble.id}, revealed", "role": "revealed", "cards": [f"{p} {c.id}" for p, c in last.plays]})
    return out


def _notes(state: LmpdState) -> list[str]:
    notes = []
    phase = state.phase
    # Who is still to commit is the table's progress (:mod:`..progress`), said once, above.
    if phase is Phase.NOBLE:
        notes.append("Everyone has committed: the noble is turned next (L7)")
    elif phase is Phase.REVEAL:
        notes.append("The noble is up: every card is revealed next (L7)")
    last = state.last_round
    if last is not None:
        notes.append(round_reasons(last)[1])
    outcome = state.outcome()
    if outcome is not None:
        text = outcome.explain()
        notes.append(text[0].upper() + text[1:])
    return notes


class TableView:
    """What the live page shows of one table (see the module's words), worked out after every
    move; the last round decided once."""

    def __init__(self) -> None:
        self._last: tuple[int, dict[str, Any]] | None = None

    def state(self, game: LmpdState, header: Mapping[str, Any]) -> dict[str, Any]:
        setup = game.setup
        outcome = game.outcome()
        state: dict[str, Any] = {
            "players": list(setup.players),
            "sides": list(setup.players),
            "round": game.round_number if game.phase is not Phase.DEAL else 0,
            "phase": game.phase.value,
            "progress": progress(game)._asdict(),
            "turn": None,  # every player commits at once (L6): nobody's turn
            "totals": game.totals,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "termination": outcome.tiebreak.value if outcome else None,
            "board": board(game),
            "shown": _shown(game),
            "notes": _notes(game),
        }
        if game.rounds:
            if self._last is None or self._last[0] != len(game.rounds):
                last = game.rounds[-1]
                points = {p: {"crowns": last.noble.rank if p == last.winner else 0} for p in setup.players}
                self._last = (len(game.rounds), {"number": last.number, "points": points, "reasons": round_reasons(last)})
            state["last_round"] = self._last[1]
        return state


class Replay:
    """A stored game step by step for the page: after each event the board, the nobles and the
    cards of the last round, the totals, and at the end of each round its settlement."""

    def __init__(self) -> None:
        self._rounds = 0

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"totals": {}}

    def after(self, game: LmpdState) -> dict[str, Any]:
        step: dict[str, Any] = {
            "totals": game.totals, "progress": progress(game)._asdict(), "board": board(game), "shown": _shown(game), "notes": _notes(game),
        }
        if len(game.rounds) > self._rounds:
            self._rounds = len(game.rounds)
            result = game.rounds[-1]
            step["settlement"] = {
                "round": result.number,
                "points": {p: {"crowns": result.noble.rank if p == result.winner else 0} for p in game.players},
                "reasons": round_reasons(result),
            }
        return step
