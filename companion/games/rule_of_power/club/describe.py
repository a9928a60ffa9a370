"""Words for spectators: a card's label, a record event as a sentence, a table's state (the
centre, each side's running score with the Pride of Dragons and Power Ring reasons, R11-R12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card, UnknownCardError, world_deck
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.scoring import score_round
from companion.games.rule_of_power.progress import progress

__all__ = ["TableView", "card_label", "describe_event", "page_words", "table_state"]

#: The settlement's points as the dashboard's scores panel names them (R7-R12).
POINT_WORDS = {
    "world_cards": "World cards R9",
    "power_cards": "Power cards R9",
    "fire_dragon": "Fire Dragon R10",
    "pride_of_dragons": "Pride R11",
    "power_master": "Power Master R12",
    "power_points": "Power Ring chain R12",
    "sweeps": "Sweeps R7",
    "total": "Round",
}


def card_label(card_id: Any) -> str:
    if card_id is None:
        return "an unseen card"
    try:
        c = Card.from_id(str(card_id))
    except UnknownCardError:
        return str(card_id)
    if c.name:
        return f"{c.id} {c.name}"
    if c.suit is not None:
        return f"{c.id} {c.rank_name or c.value} of {c.suit.value}"
    return c.id


def page_words() -> dict[str, Any]:
    """Every card as the page draws it, by id: the label the page's data names it with
    (:func:`card_label`), its short form, value, suit (or Fate category) and name; the words
    that name it in a sentence (``"7P W007 Fire Dragon"`` as the README writes it, ``"4P
    W004"``, the label, the id), each drawn as the one card; and the settlement's points in the
    dashboard's words."""
    # The dashboard's marks (rings, dragons, Wizards), so that the page reads as the screen.
    from companion.games.rule_of_power.dashboard.cards import card_marks

    cards: dict[str, dict[str, Any]] = {}
    for c in (*world_deck(expansion=True), *FATE_CARDS):
        suit = c.suit.value.lower() if c.suit is not None else "fate"
        cards[c.id] = {
            "label": card_label(c.id),
            "short": c.short if c.is_world else (c.name or c.id),
            "value": c.value,
            "suit": suit,
            "name": c.long_label,
            "marks": card_marks(c),
            "forms": list(dict.fromkeys((c.long_label, f"{c.short} {c.id}" if c.is_world else c.id, card_label(c.id), c.id))),
        }
    return {"cards": cards, "points": POINT_WORDS}


def _cards(ids: Any) -> str:
    return ", ".join(card_label(i) for i in ids) if ids else "nothing"


def describe_event(event: Mapping[str, Any]) -> str:
    """One record event as a sentence."""
    kind = event.get("event")
    who = event.get("player", "?")
    if kind == "game":
        return f"New game: {', '.join(event.get('players', []))}"
    if kind == "round":
        return f"New round, {event.get('dealer')} deals"
    if kind == "deal":
        centre = event.get("center")
        return "Deal" + (f"; centre {_cards(centre)}" if centre else "")
    if kind == "draw_fate":
        return f"{who} draws a Fate card"
    if kind == "pass":
        return f"{who} passes"
    if kind == "play":
        text = f"{who} plays {card_label(event.get('card'))}"
        if event.get("capture"):
            text += f", captures {_cards(event['capture'])}"
        if event.get("target"):
            text += f" on {event['target']}"
        return text
    return str(kind)


class TableView:
    """What the live page shows of one table: the centre, totals, the round's running score
    with its reasons (as if the round ended now), the last settled round. A table's state is
    worked out after every move; the running score only when the captures or sweeps it
    counts have changed since (a card laid, a Fate card drawn or a pass leave it as it was),
    and the last settled round once."""

    def __init__(self) -> None:
        self._score_key: tuple[Any, ...] | None = None
        self._score: dict[str, Any] = {}
        self._last: tuple[int, dict[str, Any]] | None = None

    def state(self, game: GameState, header: Mapping[str, Any]) -> dict[str, Any]:
        setup = game.setup
        outcome = game.outcome()
        state: dict[str, Any] = {
            "players": list(setup.players),
            "sides": list(setup.sides),
            "target": setup.target,
            "round": game.round_number,
            "phase": game.phase.value,
            "turn": game.turn if game.phase is Phase.TURN else None,
            "progress": progress(game)._asdict(),
            "dealer": game.dealer,
            "centre": [card_label(c.id) for c in game.centre],
            "totals": game.totals,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "termination": outcome.termination.value if outcome else None,
        }
        if game.phase in (Phase.DEAL, Phase.TURN):
            captured, sweeps = game.captured_by_side(), game.sweeps_by_side()
            key = (game.round_number, tuple(captured.values()), tuple(sweeps.values()), game.discards)
            if key != self._score_key:
                score = score_round(captured, sweeps, expansion=setup.expansion, discarded=game.discards)
                self._score = {
                    "running": {side: pts.total for side, pts in score.sides.items()},
                    "pride": score.pride.explain(),
                    "ring": score.power_ring.explain(),
                    "reasons": score.reasons(),
                }
                self._score_key = key
            state.update(self._score)
        if game.results:
            if self._last is None or self._last[0] != len(game.results):
                last = game.results[-1]
                settled = {
                    "number": last.number,
                    "points": {side: pts.total for side, pts in last.score.sides.items()},
                    "reasons": last.score.reasons(),
                }
                self._last = (len(game.results), settled)
            state["last_round"] = self._last[1]
        return state


def table_state(game: GameState, header: Mapping[str, Any]) -> dict[str, Any]:
    """What the live page shows of a table now (see :class:`TableView`)."""
    return TableView().state(game, header)
