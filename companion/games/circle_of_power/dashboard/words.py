"""Words for the table: what a move did, why a move is refused, where the battle deck stands,
in terms a new player understands (citing the rulings C1-C20).

Everything here reads the state and a move's :class:`~companion.games.circle_of_power.effects.
Effects`, never a screen: the event log (:mod:`.log`), the panels and the settlement share it.

>>> from companion.games.circle_of_power import GAME
>>> from companion.games.circle_of_power.moves import Conquer, Play, Reveal, Season
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> for move in (Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"),
...              Reveal.from_id("JD"), Play.from_ids("bob", "7H"), Play.from_ids("cy", "10S"),
...              Play.from_ids("@1", "2S"), Play.from_ids("ann", "5H")):
...     _ = state.apply(move)
>>> act = Conquer("ann", "bob")
>>> act_words(state, act, state.apply(act))
"ann's KH conquers bob's QS (K attacks Q): QS becomes ann's trophy, bob takes JD (C12)"
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.dashboard.flag import Flag
from companion.games.circle_of_power.cards import Card, attack_range, attack_reason
from companion.games.circle_of_power.effects import CITY, CITY_DECK, DESTROYED, DISCARD, TROPHIES, Effects, Transfer
from companion.games.circle_of_power.game import ACTIONS, RESHUFFLE_AFTER, CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Regroup, Retake
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy

__all__ = [
    "RULE_HINTS",
    "act_words",
    "battle_cycle",
    "explain_refusal",
    "line_name",
    "refusal",
    "rule_hint",
    "trump_source",
]

#: A plain-words reminder of each ruling, shown under a refused move.
RULE_HINTS: dict[str, str] = {
    "C1": "Cards are written rank then suit (7H, QS, 10D, AC); the jokers are X1 and X2.",
    "C2": "The battle deck is the 2-10 of each suit; the city deck the J, Q, K, A of each suit and the two jokers.",
    "C3": "Q attacks J, K attacks Q, A attacks K, J attacks A; a joker attacks any red city and any black "
    "city attacks a joker; nothing else.",
    "C4": "Four emperors sit clockwise; dummies fill the empty seats, two of them opposite, a single one "
    "moving one seat counter-clockwise each season.",
    "C5": "The deal passes clockwise to the next player still in the game; the dealer's left leads the "
    "first action, the winner of each action the next.",
    "C6": "Each emperor gets a city face up and one joker lies face up at the bottom of the city deck; "
    "players get 3 battle cards, dummies 9.",
    "C7": "The top card of the city deck lies face up, the next available city; the bottom joker comes out last.",
    "C8": "From the leader, clockwise, each emperor plays one battle card: a player from the hand, a "
    "dummy the top card of its pile.",
    "C9": "A card of its player's own trump suit (their city's suit; a joker borrows the next city's) beats "
    "every other; then the higher number; of equal cards the one played last.",
    "C10": "The winner must take over a city their city may attack; only with none to attack do they regroup.",
    "C11": "A dummy conquers the first city counter-clockwise it may attack (its right-hand neighbour "
    "first), or regroups, giving up the trophy it won last.",
    "C12": "Conquering: the loser's city becomes the winner's trophy and the loser takes the next available city.",
    "C13": "Retaking: the winner discards one of the loser's trophies and their own city, takes the "
    "loser's city, and the loser takes the next available city.",
    "C14": "Regrouping: the winner swaps their city for the next available one; a city under threat from "
    "nobody rebels and costs a trophy.",
    "C15": "The battle deck runs out in action 6 and is reshuffled once from the 24 cards played; each "
    "dummy puts 6 on its pile.",
    "C16": "After action 15 each trophy is a point, added to the totals.",
    "C17": "After a season in which a player's total reaches the target, the highest total wins; a shared one is a draw.",
    "C18": "Lonely Tyrant: a city taken over is destroyed into the loser's line; five destroyed cities "
    "knock a player out; no retaking, no points.",
    "C19": "Coloured Cities: a black city taken over is destroyed, a red one becomes a trophy; a red "
    "attacker gives their city to the loser, a black one may keep it; a retake swaps the two cities.",
    "C20": "A knocked-out player can neither end nor win the game.",
}


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


def line_name(variant: str) -> str:
    """What the line behind a city is called in ``variant`` (C12, C18, C19)."""
    if variant == COLOURED_CITIES:
        return "line of history"
    if variant == LONELY_TYRANT:
        return "line of destruction"
    return "line of victories"


def trump_source(state: CircleState, name: str) -> str:
    """Where ``name``'s trump suit comes from (C9): ``"city KH"``, ``"X1 borrows it from JD"``,
    ``"X1 and the next city is a joker"``."""
    city = state.city(name)
    if city is None:
        return "no city"
    if not city.is_joker:
        return f"city {city.id}"
    nxt = state.next_city
    if nxt is None:
        return f"{city.id}, and no next available city"
    if nxt.is_joker:
        return f"{city.id}, and the next city {nxt.id} is a joker"
    return f"{city.id} borrows it from the next city {nxt.id}"


def battle_cycle(state: CircleState, *, short: bool = False) -> str:
    """Where the battle deck stands (C8, C15): which of its two cycles, and when the reshuffle
    comes or the deck runs out."""
    action = state.action_number
    count = state.battle_deck_count
    if state.phase is Phase.RESHUFFLE:
        return "ran out: reshuffle now" if short else "ran out with action 6: it is reshuffled now (C15)"
    if not state.reshuffled:
        left = RESHUFFLE_AFTER - action + 1
        if short:
            return f"{count}, reshuffle after action 6"
        when = "after this action" if left == 1 else f"after action 6, {left} actions from now"
        return f"{count} cards, first cycle (actions 1-6); reshuffled {when} (C15)"
    if count:
        if short:
            return f"{count}, runs out in action 12"
        return f"{count} cards, second cycle (actions 7-12); runs out with the draws of action 12, never reshuffled again (C15)"
    if short:
        return "empty: hands play out"
    last = ACTIONS - action + 1
    return f"empty: the hands play out, {last} action{'s' if last != 1 else ''} left, no more draws (C15)"


# ---------------------------------------------------------------------- acts


def _card(fx: Effects, source: str, source_owner: str | None, destination: str, destination_owner: str | None = None) -> Card | None:
    """The card a transfer of the act moved from ``source`` to ``destination`` (and owners)."""
    for t in fx.transfers:
        if _matches(t, source, source_owner, destination, destination_owner):
            return t.card if isinstance(t.card, Card) else None
    return None


def _matches(t: Transfer, source: str, source_owner: str | None, destination: str, destination_owner: str | None) -> bool:
    if t.source != source or t.destination != destination:
        return False
    if source_owner is not None and t.source_owner != source_owner:
        return False
    return destination_owner is None or t.destination_owner == destination_owner


def _new_city(fx: Effects, name: str) -> Card | None:
    return _card(fx, CITY_DECK, None, CITY, name)


def _takes(name: str, card: Card | None) -> str:
    return f"{name} takes {card.id}" if card is not None else f"{name} takes no city (the season's last action)"


def act_words(state: CircleState, move: Move, fx: Effects) -> str:
    """The winner's act just applied to ``state``, with every card it moved and the ruling
    (C10-C14, C18, C19; a dummy's reason, C11)."""
    w = move.player if isinstance(move, (Conquer, Retake, Regroup)) else ""
    dummy = ", the first city counter-clockwise it may take, as a dummy must (C11)" if is_dummy(w) and type(move) is Conquer else ""
    if type(move) is Conquer:
        return _conquer_words(state, move, fx, dummy)
    if type(move) is Retake:
        return _retake_words(state, move, fx)
    assert type(move) is Regroup
    text = _regroup_words(state, move, fx)
    return f"{text}; a dummy regroups only with no city to take (C11)" if is_dummy(w) else text


def _conquer_words(state: CircleState, move: Conquer, fx: Effects, dummy: str) -> str:
    w, v = move.player, move.victim
    variant = state.variant
    gained = _card(fx, CITY, v, TROPHIES)
    destroyed = _card(fx, CITY, v, DESTROYED)
    theirs = gained or destroyed
    gave = _card(fx, CITY, w, CITY, v)
    mine = gave or state.city(w)
    if mine is None or theirs is None:  # pragma: no cover - every conquest moves the loser's city
        return f"{w} conquers {v}"
    verb = "destroys" if destroyed is not None and variant == LONELY_TYRANT else "conquers"
    head = f"{w}'s {mine.id} {verb} {v}'s {theirs.id} ({attack_reason(mine, theirs)}){dummy}"
    if destroyed is not None:
        fate = f"{theirs.id} is destroyed into {v}'s {line_name(variant)}"
    else:
        fate = f"{theirs.id} becomes {w}'s trophy"
    if variant == COLOURED_CITIES:
        colour = "black" if destroyed is not None else "red"
        if gave is not None:
            cities = f"{w} gives {mine.id} to {v}, {_takes(w, _new_city(fx, w))}"
        else:
            cities = f"{w} keeps {mine.id} (black), {_takes(v, _new_city(fx, v))}"
        return f"{head}: {theirs.id} is {colour}, so {fate}; {cities} (C19)"
    rule = "C18" if variant == LONELY_TYRANT else "C12"
    return f"{head}: {fate}, {_takes(v, _new_city(fx, v))} ({rule})"


def _retake_words(state: CircleState, move: Retake, fx: Effects) -> str:
    w, v = move.player, move.victim
    theirs = _card(fx, CITY, v, CITY, w)
    coloured = state.variant == COLOURED_CITIES
    mine = _card(fx, CITY, w, CITY, v) if coloured else _card(fx, CITY, w, DISCARD)
    if mine is None or theirs is None:  # pragma: no cover - every retake swaps cities
        return f"{w} retakes {v}'s city"
    head = f"{w}'s {mine.id} retakes {v}'s {theirs.id} ({attack_reason(mine, theirs)})"
    cost = f"{v}'s trophy {move.discard.id} is discarded" if move.discard is not None else f"{v} has no trophy to lose"
    if coloured:
        return f"{head}: {cost}; {w} takes {theirs.id} and gives {mine.id} to {v} (C19)"
    return f"{head}: {cost}; {w} discards {mine.id} and takes {theirs.id}, {_takes(v, _new_city(fx, v))} (C13)"


def _regroup_words(state: CircleState, move: Regroup, fx: Effects) -> str:
    w = move.player
    mine = _card(fx, CITY, w, DISCARD)
    if mine is None:  # pragma: no cover - a regroup always discards the city
        return f"{w} regroups"
    head = f"{w}'s {mine.id} may take no city ({attack_range(mine)}): {w} regroups, discarding {mine.id}, {_takes(w, _new_city(fx, w))} (C10)"
    if fx.threatened:
        return f"{head}; {mine.id} was under threat, so it does not rebel (C14)"
    if fx.rebellion and fx.lost is not None:
        return f"{head}; {mine.id} was under threat from nobody: it rebels and {w} loses the trophy {fx.lost.id} (C14)"
    costs = "costs nothing in Lonely Tyrant (C18)" if state.variant == LONELY_TYRANT else f"{w} has no trophy to lose (C14)"
    return f"{head}; {mine.id} was under threat from nobody: it rebels, but {costs}"


def names_list(names: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
