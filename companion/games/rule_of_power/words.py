"""Rule of Power's moves in a few words, for messages: what a player tried or did."""

from __future__ import annotations

from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Pass, Play

__all__ = ["attempt_text"]


def attempt_text(move: Move) -> str:
    """What a player tried, in words: ``"ann plays Fire Dragon (7) taking 3P+4M"``."""
    if isinstance(move, Play):
        card = move.card
        text = f"{move.player} plays {card.title}"
        if card.to_centre:
            text += f" taking {'+'.join(c.short for c in move.capture)}" if move.capture else " to the centre"
        elif move.target:
            text += f" on {move.target}"
        return text
    if isinstance(move, DrawFate):
        return f"{move.player} draws a Fate card"
    if isinstance(move, Pass):
        return f"{move.player} passes"
    if isinstance(move, Deal):
        return "the deal"
    if isinstance(move, NewRound):
        return f"a new round dealt by {move.dealer}"
    return str(move)
