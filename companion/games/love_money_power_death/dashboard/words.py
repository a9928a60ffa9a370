"""Love, Money, Power, Death's words at the dashboard: what the table waits for, a refused move
with a plain-words reminder of the ruling it breaks (L1-L14), and names lists.

>>> from companion.games.love_money_power_death import GAME
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> waiting_for(state)
'the cards to be dealt, face down (L5)'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.dashboard.flag import Flag
from companion.games.love_money_power_death.moves import Move
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["RULE_HINTS", "explain_refusal", "names_list", "refusal", "rule_hint", "waiting_for", "plural"]

RULE_HINTS: dict[str, str] = {
    "L1": "One deck: 10 nobles, 6 agents, 36 resources, each card once.",
    "L2": "The suits are Love, Money, Power and Death.",
    "L3": "Cards are written N3P, 4Mb, 5D, A2.",
    "L4": "Nobles x players is at most 42.",
    "L5": "Everything is dealt face down; a hand is a pile's top three.",
    "L6": "Each player commits one card a round, face down.",
    "L7": "The noble is turned once all have committed, then every card is revealed.",
    "L8": "The noble's suit first, then rank; a tie discards the noble.",
    "L9": "A lone agent wins; two or more agents drop out.",
    "L10": "A noble won goes to its winner's court.",
    "L11": "After each round but the last, everyone draws from their own pile.",
    "L12": "The last noble's round ends the game.",
    "L13": "Most crowns wins, then the fewest nobles.",
    "L14": "A card comes out once.",
}
"""A plain-words reminder of each ruling, after a refused move."""


def rule_hint(rule: str | None) -> str:
    """The plain-words reminder of ``rule`` (``""`` for none)."""
    return RULE_HINTS.get(rule or "", "")


def explain_refusal(error: Exception) -> tuple[str | None, str]:
    """The ruling a refused move breaks (``None`` for a malformed one) and the message with a
    plain-words reminder of the rule."""
    rule = getattr(error, "rule", None)
    text = str(error)
    hint = rule_hint(rule)
    return rule, f"{text}. {hint}" if hint and hint not in text else text


def refusal(move: Move, error: ValueError) -> Flag:
    """A refused move in its player's words (the shell puts the move's words in front)."""
    rule, text = explain_refusal(error)
    return Flag(getattr(move, "player", None), text, rule)


def names_list(names: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def plural(n: int, word: str) -> str:
    """``1 noble``, ``2 nobles``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def waiting_for(state: LmpdState) -> str:
    """What the table does next, in words for the status line and the Round panel."""
    phase = state.phase
    if phase is Phase.DEAL:
        return "the cards to be dealt, face down (L5)"
    if phase is Phase.COMMIT:
        return f"{names_list(state.deciding)} to commit a card face down (L6)"
    if phase is Phase.NOBLE:
        return "the noble to be turned up (L7)"
    if phase is Phase.REVEAL:
        return "every committed card to be revealed (L7)"
    if phase is Phase.DRAW:
        return "every player to draw a card (L11)"
    outcome = state.outcome()
    return f"nothing: the game is over; {outcome.explain()}" if outcome is not None else "nothing"
