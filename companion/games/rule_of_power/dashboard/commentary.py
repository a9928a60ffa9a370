"""Words for the table: what a move did, what a capture would change, and why a move is
illegal, in terms a new player understands (citing the rulings R1-R25)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.effects import Effects
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Pass, Play
from companion.games.rule_of_power.engine.scoring import POINT_KEYS, RoundScore

__all__ = [
    "MoveEffect",
    "describe_move",
    "describe_play_choice",
    "explain_illegal",
    "move_effect",
    "option_text",
    "rule_hint",
]

#: A plain-words reminder of each ruling, shown under an illegal move.
RULE_HINTS: dict[str, str] = {
    "R1": "The World deck has four suits of ten cards, W001-W040.",
    "R2": "Cards W041-W052 belong to the Higher Powers expansion, used only when agreed.",
    "R3": "Fate cards are F001-F008.",
    "R4": "A card that can capture must capture: a centre card of the same value if there is one "
    "(choose one), otherwise two or more centre cards adding up to its value.",
    "R5": "While a Mystic Crystal is in play, a Wizard (a 1) takes the whole centre, and nothing else.",
    "R6": "At the end of the round the last side to capture takes what is left in the centre.",
    "R7": "Clearing the centre with a natural World card scores a clean sweep, except in the first and last deal.",
    "R14": "The game ends after a round when a side has reached the target and leads every other side.",
    "R15": "The dealer deals three cards each, four to the centre on the first deal; the deal moves left each round.",
    "R16": "2 to 6 players; teams are of equal size and team-mates sit alternately.",
    "R17": "Players play in turn, clockwise from the dealer's left: one World card, one Fate card, or "
    "(once per deal) draw a Fate card. Only a player without World cards may pass.",
    "R18": "Each player has seven different Fate cards, the same for the whole game.",
    "R19": "A second Mystic Crystal discards both Crystals.",
    "R20": "The Warlock plays as a Wizard (1), the Vampire as a Ruler (10).",
    "R21": "Dark Decay makes every opponent discard one card of their choice.",
    "R22": "Mirror Swap exchanges as many World cards as the smaller hand holds.",
    "R23": "The Thief takes the top card of an opponent's capture stack.",
    "R24": "No Creature may be played while an Exorcist is in play; the Exorcist cannot come out over a 4.",
    "R25": "Renewal draws the top card of the World deck into the hand.",
}


def rule_hint(rule: str | None) -> str:
    return RULE_HINTS.get(rule or "", "")


def explain_illegal(error: Exception) -> tuple[str | None, str]:
    """The rule broken (or ``None``) and a message with a plain-words reminder."""
    rule = getattr(error, "rule", None)
    text = str(error)
    hint = rule_hint(rule)
    if hint:
        text += f" (In short: {hint})"
    return rule, text


def _ids(cards: Iterable[Card]) -> str:
    return "+".join(c.short for c in cards)


def option_text(option: Sequence[Card]) -> str:
    return _ids(option) if option else "no capture (the card stays in the centre)"


def describe_move(game: GameState, move: Move, effects: Effects) -> str:
    """One line of commentary for ``move``, which has just been pushed on ``game`` with
    ``effects`` (:meth:`GameState.apply <companion.games.rule_of_power.engine.game.GameState.apply>`)."""
    if isinstance(move, NewRound):
        fate = " with Fate decks" if any(cards for _, cards in move.fate_decks) else ""
        return f"Round {game.round_number}: {move.dealer} deals{fate}"
    if isinstance(move, Deal):
        last = ' - "last hand"' if game.is_last_deal else ""
        centre = f"; centre {' '.join(c.short for c in move.centre)}" if move.centre else ""
        return f"Deal {game.deal_number} of {game.deals_in_round}{last}{centre}"
    if isinstance(move, DrawFate):
        return f"{move.player} draws a Fate card instead of playing (R17)"
    if isinstance(move, Pass):
        return f"{move.player} passes (no World card in hand, R17)"
    if isinstance(move, Play):
        return _describe_play(game, move, effects)
    return str(move)


def _describe_play(game: GameState, move: Play, effects: Effects) -> str:
    card = move.card
    who = move.player
    text = f"{who} plays {card.title}"
    if not card.to_centre:
        return text + fate_rule(card).describe(move, effects)
    if move.capture:
        text += f", takes {_ids(move.capture)}"
        sweeps = game.sweeps(who)
        if sweeps and sweeps[-1] is card and not game.centre and game.phase is Phase.TURN:
            text += " - clean sweep! (R7)"
        elif not game.centre and card.is_wizard and game.crystal_in_play:
            text += " - empowered by the Mystic Crystal (R5)"
        elif not game.centre and card.is_world and game.deal_number == 1:
            text += " - the centre is clear, but that is no sweep in the first deal (R7)"
        elif not game.centre and card.is_world and game.is_last_deal:
            text += " - the centre is clear, but that is no sweep in the last deal (R7)"
    else:
        text += " to the centre"
    return text


def describe_play_choice(options: Sequence[Sequence[Card]], chosen: Sequence[Card]) -> str:
    """The legal captures a card had and the one taken."""
    if not options:
        return "it could capture nothing"
    opts = ", ".join(_ids(o) for o in options)
    return f"options: {opts}; took {_ids(chosen) if chosen else 'nothing'}"


# ---------------------------------------------------------------------- teaching


@dataclass(frozen=True, slots=True)
class MoveEffect:
    """What a move would change in the round's provisional score."""

    move: Move
    gains: tuple[str, ...]
    """Point changes in words, for the mover's side and the others."""
    delta: int
    """The change of the mover's side's round total."""
    others: int
    """The change of the best other side's round total."""


_KEY_WORDS = {
    "world_cards": "most World cards",
    "power_cards": "most Power cards",
    "fire_dragon": "Fire Dragon",
    "pride_of_dragons": "Pride of Dragons",
    "power_master": "Power Master",
    "power_points": "Power chain",
    "sweeps": "sweep",
}


def _diff(before: RoundScore, after: RoundScore, side: str) -> list[str]:
    out = []
    for key in POINT_KEYS:
        for s in before.sides:
            a = getattr(after.sides[s], key)
            b = getattr(before.sides[s], key)
            if a != b:
                who = "" if s == side else f" for {s}"
                out.append(f"{'+' if a > b else ''}{a - b} {_KEY_WORDS[key]}{who}")
    return out


def move_effect(game: GameState, move: Move) -> MoveEffect:
    """Push ``move`` on ``game``, compare the provisional scores, and pop it again. ``game``
    must keep its history."""
    player = getattr(move, "player", None)
    side = game.setup.side_of(player) if player else ""
    before = game.provisional_score()
    rounds = len(game.results)
    game.push(move, check=False)
    try:
        # The last card of a round ends it: the result includes what is left in the centre (R6).
        after = game.results[-1].score if len(game.results) > rounds else game.provisional_score()
    finally:
        game.pop()
    gains = _diff(before, after, side)
    if isinstance(move, Play):
        for c in move.capture:
            if c.is_ring:
                gains.append(f"Ring card {c.short}")
    delta = after.sides[side].total - before.sides[side].total if side else 0
    others = max(
        (after.sides[s].total - before.sides[s].total for s in before.sides if s != side),
        default=0,
    )
    return MoveEffect(move, tuple(gains), delta, others)
