"""Words for spectators: a card's label, a record event as a sentence, a table's state (the
centre, each side's running score with the Pride of Dragons and Power Ring reasons, R11-R12)."""

from __future__ import annotations

from typing import Any

from companion.engine.cards import Card, UnknownCardError
from companion.engine.game import GameState, Phase

__all__ = ["card_label", "describe_event", "table_state"]


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


def _cards(ids: Any) -> str:
    return ", ".join(card_label(i) for i in ids) if ids else "nothing"


def describe_event(event: dict[str, Any]) -> str:
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


def table_state(game: GameState, header: dict[str, Any]) -> dict[str, Any]:
    """What the live page shows of a table: the centre, totals, the round's running score with
    its reasons (as if the round ended now), the last settled round."""
    setup = game.setup
    outcome = game.outcome()
    state: dict[str, Any] = {
        "players": list(setup.players),
        "sides": list(setup.sides),
        "target": setup.target,
        "round": game.round_number,
        "phase": game.phase.value,
        "turn": game.turn if game.phase is Phase.TURN else None,
        "dealer": game.dealer,
        "centre": [card_label(c.id) for c in game.centre],
        "totals": game.totals,
        "finished": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "termination": outcome.termination.value if outcome else None,
    }
    if game.phase in (Phase.DEAL, Phase.TURN):
        score = game.provisional_score()
        state["running"] = {side: pts.total for side, pts in score.sides.items()}
        state["pride"] = score.pride.explain()
        state["ring"] = score.power_ring.explain()
        state["reasons"] = score.reasons()
    if game.results:
        last = game.results[-1]
        state["last_round"] = {
            "number": last.number,
            "points": {side: pts.total for side, pts in last.score.sides.items()},
            "reasons": last.score.reasons(),
        }
    return state
