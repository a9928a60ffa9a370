"""Typed entries of manual play: commits, the noble, the reveal and commands.

A scorekeeper types what the table does, the way they would say it::

    ann commits          ann puts a card face down (L6); also: ann, ann c, commit ann. The card
                         is never typed: it stays face down until the reveal, and this screen
                         is shared by the whole table
    N3P                  the noble turned up once everyone has committed (L7); also: noble N3P,
                         n3-power, N3 Power
    reveal 4Mb A2 2Pa    every committed card, face up, in seating order, in one line (L7);
                         also: 4Mb A2 2Pa, ann 4Mb bob A2 cy 2Pa, ann=4Mb, bob=A2, cy=2Pa,
                         and, with commas, any spelling of L3: 4 Money b, agent 2, 2 Power a
    deal, next           the deal or the draw, which the companion records by itself (F5)
    undo, redo, help, hint, quit (or q)

:func:`parse_entry` turns the text into a move or a command; it raises :class:`EntryError`
with a message for the table when the text names nothing. Whether a move is legal is for the
game to say: the dashboard proposes it, and a refused move is flagged with its ruling.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.contract.errors import InvalidMoveError, UnknownCardError
from companion.dashboard import kit
from companion.games.love_money_power_death.cards import CARDS, Card
from companion.games.love_money_power_death.moves import Commit, Deal, Move, Reveal, TurnUp
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["COMMANDS", "COMMIT_WORDS", "EntryCommand", "EntryError", "EntryMove", "parse_entry", "parse_reveal", "ENTRY_SYNTAX"]

CommandName = Literal["undo", "redo", "next", "help", "hint", "quit"]

COMMANDS: dict[str, CommandName] = {
    "undo": "undo", "redo": "redo", "next": "next", "deal": "next", "draw": "next",
    "help": "help", "?": "help", "hint": "hint", "quit": "quit", "q": "quit",
}
"""The table's commands as typed, and the shell's command each one is (the deal and the draw
are the table's next step, F5)."""

COMMIT_WORDS = frozenset({"commits", "commit", "committed", "c", "down", "plays", "played"})
"""Words that say a player put their card face down."""

_NOBLE_WORDS = ("noble", "turn", "turns", "turned", "up", "is")

ENTRY_SYNTAX = textwrap.dedent((__doc__ or "").split("::", 1)[-1].split(":func:")[0]).strip()
"""How moves are typed, for the help screen: this module's own summary."""


class EntryError(kit.EntryError):
    """Text that names no move; the message says what was expected."""


@dataclass(frozen=True)
class EntryMove:
    move: Move


@dataclass(frozen=True)
class EntryCommand:
    name: CommandName


Entry = EntryMove | EntryCommand


def _player(word: str, state: LmpdState) -> str | None:
    for name in state.players:
        if name.lower() == word.lower():
            return name
    return None


def _card(text: str) -> Card:
    try:
        return CARDS.parse(text)
    except UnknownCardError as exc:
        raise EntryError(str(exc)) from None


def _waiting(state: LmpdState) -> str:
    phase = state.phase
    if phase is Phase.COMMIT:
        return f"{', '.join(state.deciding)} still to commit"
    if phase is Phase.NOBLE:
        return "everyone has committed: type the noble turned up (N3P)"
    if phase is Phase.REVEAL:
        return "type the reveal: every card in seating order (reveal 4Mb A2 2Pa)"
    if phase is Phase.OVER:
        return "the game is over"
    return "the companion records the deal and the draws by itself (F5)"


def _no_card_in_a_commit(name: str) -> EntryError:
    return EntryError(
        f"a commit is typed without its card ({name} commits): the card stays face down until the reveal, "
        "and this screen is shared by the whole table (L6, L7)"
    )


def parse_reveal(text: str, state: LmpdState) -> Reveal:
    """Every player's card, face up (L7): in seating order (``4Mb A2 2Pa``), or by name
    (``ann 4Mb bob A2 cy 2Pa``, ``ann=4Mb, bob=A2``); with commas between the cards, any
    spelling of L3 (``4 Money b, agent 2``)."""
    players = state.players
    body = re.sub(r"^\s*reveal(s|ed)?\b[:\s]*", "", text, flags=re.IGNORECASE).strip()
    if not body:
        raise EntryError(f"reveal which cards? Every player's, in seating order ({', '.join(players)}): reveal 4Mb A2 2Pa")
    parts = [p.strip() for p in re.split(r"[,;]", body) if p.strip()] if re.search(r"[,;]", body) else body.split()
    named: dict[str, Card] = {}
    plain: list[Card] = []
    k = 0
    while k < len(parts):
        part = parts[k]
        pair = re.fullmatch(r"([^=:\s]+)\s*[=:]\s*(.*)", part)
        head, _, rest = part.partition(" ")
        if pair is not None:
            name, card_text = pair.group(1), pair.group(2)
        elif _player(head, state) is not None:
            name, card_text = head, rest
            if not rest:  # "ann 4Mb" split on blanks: the card is the next word
                k += 1
                if k >= len(parts):
                    raise EntryError(f"{head}'s card is missing: write it after the name (ann 4Mb)")
                card_text = parts[k]
        else:
            plain.append(_card(part))
            k += 1
            continue
        who = _player(name, state)
        if who is None:
            raise EntryError(f"{name!r} does not play at this table: {', '.join(players)}")
        if who in named:
            raise EntryError(f"{who}'s card is named twice")
        named[who] = _card(card_text)
        k += 1
    if named and plain:
        raise EntryError("name every card's player, or none (then the cards go in seating order)")
    if plain:
        if len(plain) != len(players):
            raise EntryError(f"one card for each player, in seating order ({', '.join(players)}): {len(plain)} given, not {len(players)}")
        named = dict(zip(players, plain))
    try:
        return Reveal.of(players, named)
    except InvalidMoveError as exc:
        raise EntryError(str(exc)) from None


def _commit(words: Sequence[str], name: str) -> Entry:
    rest = [w for w in words if w.lower() not in COMMIT_WORDS]
    if rest:
        raise _no_card_in_a_commit(name)
    return EntryMove(Commit(name))


def parse_entry(text: str, state: LmpdState) -> Entry:
    """What ``text`` means in ``state``: a move or a command; :class:`EntryError` when it names
    nothing."""
    words = text.split()
    if not words:
        raise EntryError("type a commit (ann commits), the noble (N3P), the reveal (reveal 4Mb A2 2Pa) or a command")
    head = words[0].lower()
    if head in COMMANDS and len(words) == 1:
        if head == "deal" and state.phase is Phase.DEAL:
            return EntryMove(Deal())
        return EntryCommand(COMMANDS[head])
    if re.match(r"reveal(s|ed)?\b", head):
        return EntryMove(parse_reveal(text, state))
    if head in ("commit", "commits") and len(words) > 1:
        name = _player(words[1], state)
        if name is None:
            raise EntryError(f"{words[1]!r} does not play at this table: {', '.join(state.players)}")
        return _commit(words[2:], name)
    name = _player(words[0], state)
    if name is not None:
        rest = words[1:]
        if not rest or rest[0].lower() in COMMIT_WORDS:
            return _commit(rest, name)
        return EntryMove(parse_reveal(text, state))
    if len(words) > 1 and words[1].lower() in COMMIT_WORDS:
        # "zed commits": a commit by somebody not at the table, not a card to look up.
        raise EntryError(f"{words[0]!r} does not play at this table: {', '.join(state.players)}")
    if "=" in text:
        return EntryMove(parse_reveal(text, state))
    body = " ".join(w for w in words if w.lower() not in _NOBLE_WORDS) or text
    try:
        card = CARDS.parse(body)
    except UnknownCardError as exc:
        if len(words) > 1:
            return EntryMove(parse_reveal(text, state))
        raise EntryError(f"{text.strip()!r} names no move ({exc}); now: {_waiting(state)}") from None
    if card.is_noble:
        return EntryMove(TurnUp(card))
    raise EntryError(
        f"{card.id} alone names no move: a commit is typed without its card (ann commits), the reveal with "
        f"every player's card in one line (reveal {card.id} ...); now: {_waiting(state)}"
    )
