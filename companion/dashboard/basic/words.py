"""What the basic parts say of any game, from the contract alone."""

from __future__ import annotations

from typing import Any

from companion.contract import Game

__all__ = ["names_list", "waiting_words"]


def names_list(names: tuple[str, ...] | list[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def waiting_words(game: Game[Any, Any], state: Any) -> str:
    """What the table waits for, in words: who decides (all at once, or in turn), the table's
    own move, or the result."""
    if state.is_game_over():
        outcome = state.outcome()
        winner = getattr(outcome, "winner", None)
        return f"game over: {winner} wins" if winner else "game over: a draw"
    deciding = tuple(state.deciding)
    if not deciding:
        return "the table's move"
    if state.simultaneous:
        done = [p for p in state.players if p not in deciding]
        decided = f" ({names_list(done)} done)" if done else ""
        return f"{names_list(deciding)} to decide at once, face down{decided}"
    return f"{deciding[0]} to move"
