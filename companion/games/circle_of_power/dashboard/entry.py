"""Typed entries of manual play: cards, the winner's acts and commands.

A scorekeeper types what happened at the table, the way they would say it::

    7h, QS, 10♥, joker   a card (any case, suit letter or symbol): the card the emperor to
                         play plays (a dummy's top card, turned over); when the next city is
                         turned up, that city card
    7h draws 3c          ... and the card the player drew, if it was shown (it may stay unseen)
    bob 7h               bob plays 7H (flagged when it is not bob's turn)
    1, 2, ...            the winner's choice by its number in the Action panel
    conquer bob          the winner conquers bob (C12; destroys in Lonely Tyrant, C18)
    conquer bob keep     ... keeping their black city (Coloured Cities, C19)
    retake bob QD        the winner retakes bob's city, discarding bob's trophy QD (C13)
    regroup QD           the winner regroups, losing the trophy QD to a rebellion (C14)
    season, undo, redo, help, hint, quit (or q)

Where a trophy must be chosen and none is typed (a retake, a rebellion), the trophies are
offered in a list. :func:`parse_entry` turns the text into a move, a choice between legal
moves, or a command; it raises :class:`EntryError` with a message for the table when the text
names nothing. Whether a move is legal is for the game to say: the dashboard proposes it, and
a refused move is flagged with its ruling.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.dashboard import kit
from companion.games.circle_of_power.cards import CARDS, CARD_FORMS, JOKERS, Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake, Reveal
from companion.contract.errors import UnknownCardError

__all__ = ["COMMANDS", "EntryChoice", "EntryCommand", "EntryError", "EntryMove", "parse_card", "parse_entry", "choice_moves"]

COMMANDS: dict[str, kit.CommandName] = {"undo": "undo", "redo": "redo", "season": "next", "next": "next", "help": "help", "?": "help", "hint": "hint", "quit": "quit", "q": "quit"}
"""The table's commands as typed, and the shell's command each one is."""

_ACTS = {"conquer": "conquer", "conquers": "conquer", "destroy": "conquer", "retake": "retake", "retakes": "retake", "regroup": "regroup", "regroups": "regroup"}


class EntryError(kit.EntryError):
    """Text that names no move; the message says what was expected."""


@dataclass(frozen=True)
class EntryMove:
    move: Move


@dataclass(frozen=True)
class EntryChoice:
    """The act typed has several legal forms (which trophy to discard): the table picks one."""

    title: str
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True)
class EntryCommand:
    name: kit.CommandName
    """The shell's command: ``undo``, ``redo``, ``next``, ``help``, ``hint``, ``quit``."""


Entry = EntryMove | EntryChoice | EntryCommand


def parse_card(text: str, state: CircleState | None = None) -> Card:
    """A card as typed (C1: ``7h``, ``QS``, ``10♥``, ``joker``). A bare ``joker`` turned up
    from the city deck is the joker still in it above the bottom one, the bottom one once it
    is the last card (C7)."""
    word = text.strip().lower()
    if word == "joker" and state is not None and state.phase is Phase.REVEAL and state.bottom is not None:
        above = [j for j in JOKERS if j is not state.bottom and j not in state.cities.values() and j not in state.city_discards]
        above = [j for j in above if not any(j in state.trophies(n) or j in state.destroyed_cities(n) for n in state.seats)]
        return above[0] if above and state.city_deck_count > 1 else state.bottom
    try:
        return CARDS.parse(text)
    except UnknownCardError as exc:
        raise EntryError(str(exc)) from None


def _emperor(word: str, state: CircleState) -> str | None:
    for name in state.seats:
        if name.lower() == word.lower():
            return name
    return None


def choice_moves(state: CircleState, number: int) -> list[Move]:
    """The legal moves of the winner's choice ``number`` (from 1, as the Action panel numbers
    :meth:`CircleState.choices`): one, or one per trophy that may be discarded."""
    choices = state.choices()
    if not 1 <= number <= len(choices):
        raise EntryError(f"choose 1 to {len(choices)}" if choices else "there is no choice to make now")
    chosen = choices[number - 1]
    victim = state.seats[chosen.victim] if chosen.victim is not None else None
    out: list[Move] = []
    for move in state.legal_moves:
        if chosen.act == "conquer" and type(move) is Conquer and move.victim == victim and move.keep == bool(chosen.keep):
            out.append(move)
        elif chosen.act == "retake" and type(move) is Retake and move.victim == victim:
            out.append(move)
        elif chosen.act == "regroup" and type(move) is Regroup:
            out.append(move)
    return out


def _entry_of(moves: Sequence[Move], title: str, fallback: Move) -> Entry:
    """One move, the list to pick from, or (none legal) the move as typed, for the game to
    refuse with its ruling."""
    if len(moves) == 1:
        return EntryMove(moves[0])
    if moves:
        return EntryChoice(title, list(moves))
    return EntryMove(fallback)


def _act(words: list[str], state: CircleState) -> Entry:
    act = _ACTS[words[0]]
    winner = state.to_move if state.phase is Phase.ACT else None
    if winner is None:
        raise EntryError(f"nobody acts now: {_waiting(state)}")
    rest = words[1:]
    if act == "regroup":
        discard = parse_card(rest[0]) if rest else None
        if discard is not None:
            return EntryMove(Regroup(winner, discard))
        regroups = [m for m in state.legal_moves if type(m) is Regroup]
        return _entry_of(regroups, f"Which of {winner}'s trophies does the rebellion cost? (C14)", Regroup(winner))
    if not rest:
        raise EntryError(f"{act} whom? Type {act} and a name: {', '.join(n for n in state.seats if n != winner)}")
    victim = _emperor(rest[0], state)
    if victim is None:
        raise EntryError(f"{rest[0]!r} is no emperor at this table: {', '.join(state.seats)}")
    if act == "conquer":
        keep = len(rest) > 1 and rest[1] in ("keep", "keeps", "kept")
        if len(rest) > 1 and not keep:
            raise EntryError(f"after 'conquer {victim}' only 'keep' may follow (Coloured Cities, C19), not {rest[1]!r}")
        return EntryMove(Conquer(winner, victim, keep))
    if len(rest) > 1:
        return EntryMove(Retake(winner, victim, parse_card(rest[1])))
    retakes = [m for m in state.legal_moves if type(m) is Retake and m.victim == victim]
    return _entry_of(retakes, f"Which of {victim}'s trophies does {winner} discard? (C13)", Retake(winner, victim))


def _waiting(state: CircleState) -> str:
    phase = state.phase
    if phase is Phase.SEASON:
        return "the next season is set up first (F5)"
    if phase is Phase.OVER:
        return "the game is over"
    if phase is Phase.REVEAL:
        return "the next city card is turned up first: type it"
    if phase is Phase.RESHUFFLE:
        return "the battle deck is reshuffled first (F5)"
    return f"{state.to_move} is to play a card"


def _card_move(player: str | None, card: Card, drew: Card | None, state: CircleState) -> Move:
    phase = state.phase
    if player is None and phase is Phase.REVEAL:
        if drew is not None:
            raise EntryError("a city card turned up draws nothing")
        return Reveal(card)
    who = player or state.to_move
    if who is None:
        raise EntryError(f"no card is played now: {_waiting(state)}")
    return Play(who, card, drew)


def parse_entry(text: str, state: CircleState) -> Entry:
    """What ``text`` means in ``state``: a move, a choice between legal moves, or a command;
    :class:`EntryError` when it names nothing."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words:
        raise EntryError(f"type a card ({CARD_FORMS}), an act (1, conquer bob, retake bob, regroup) or a command")
    head = words[0].lower()
    if head in COMMANDS and len(words) == 1:
        return EntryCommand(COMMANDS[head])
    if head.isdigit() and len(words) == 1:
        if state.phase is not Phase.ACT:
            raise EntryError(f"a number picks the winner's choice, and nobody acts now: {_waiting(state)}")
        moves = choice_moves(state, int(head))
        if len(moves) == 1:
            return EntryMove(moves[0])
        return EntryChoice(f"Which trophy does {state.to_move} discard?", moves)
    lowered = [w.lower() for w in words]
    if head in _ACTS:
        return _act(lowered, state)
    player = _emperor(words[0], state) if state.seats else None
    if player is not None:
        words = words[1:]
        if words and words[0].lower() in _ACTS:
            raise EntryError(f"type the act alone ({words[0].lower()} ...): only the winner of the initiative acts (C9)")
        if not words:
            raise EntryError(f"{player} plays which card? Type {player} and the card (bob 7h)")
    # A card, maybe with the card drawn: "7h", "10 ♥", "7h draws 3c", "queen of spades".
    parts = re.split(r"\s+(?:draws|drew|draw)\s+", " ".join(words), maxsplit=1)
    card = parse_card(parts[0], state)
    drew = parse_card(parts[1]) if len(parts) > 1 else None
    return EntryMove(_card_move(player, card, drew, state))
