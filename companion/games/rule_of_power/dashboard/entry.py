"""Typed entries of manual play: card ids, captures, Fate details and commands.

A scorekeeper types what happened at the table, the way they would say it::

    6e            the player to move plays the 6 of Elves (the capture is asked if several)
    W016 x 2p 4m  ... taking the 2 of Powers and the 4 of Men
    7p            short forms: value and suit letter (P Powers, M Men, E Elves, D Darkness)
    fate          draw a Fate card instead of playing (R17)
    pass          pass (only without World cards, R17)
    thief bob     Thief on bob's capture stack (R23)
    swap bob give 1p receive 7m   Mirror Swap (R22)
    decay bob:10m dee:crystal     Dark Decay, each opponent's discard (R21)
    renewal 10d   Renewal and the card drawn (R25; leave it out if it was drawn face down)
    undo, redo, deal, help, hint, quit (or q)

:func:`parse_entry` turns the text into a move, a choice between legal moves, or a command;
it raises :class:`EntryError` with a message for the table when the text names nothing.
Whether the move is legal is for the game to say (the dashboard checks it and names the rule).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.dashboard import kit
from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card, UnknownCardError
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import UNSEEN, DrawFate, Move, Pass, Play

__all__ = ["EntryChoice", "EntryCommand", "EntryError", "EntryMove", "card_candidates", "parse_entry", "resolve_card"]

COMMANDS: dict[str, kit.CommandName] = {"undo": "undo", "redo": "redo", "deal": "next", "next": "next", "help": "help", "?": "help", "hint": "hint", "quit": "quit", "q": "quit"}
"""The table's commands as typed, and the shell's command each one is."""


class EntryError(kit.EntryError):
    """Text that does not name a move; the message says what was expected."""


@dataclass(frozen=True)
class EntryMove:
    move: Move


@dataclass(frozen=True)
class EntryChoice:
    """The card has several legal outcomes (captures, targets): the player picks one."""

    card: Card
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True)
class EntryCommand:
    name: kit.CommandName


def resolve_card(text: str) -> Card:
    """A card in any notation of the companion (:meth:`Card.parse`): an id (``W007``,
    ``w7``), a short form (``7P``, ``10m``) or a name (``thief``, ``crystal``)."""
    try:
        return Card.parse(text)
    except UnknownCardError as exc:
        raise EntryError(str(exc)) from None


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,+]+", text.strip()) if t]


def card_candidates(game: GameState) -> list[Card]:
    """Cards the player to move may play: their known hand and Fate cards first, then, when
    some of their cards are face down, every card that could be among them."""
    player = game.turn
    if player is None:
        return []
    known = list(game.hand(player)) + list(game.fate_hand(player))
    extra: list[Card] = []
    if game.unseen_in_hand(player):
        extra.extend(sorted(game.unlocated))
    if game.fate_deck(player) and game.fate_deck_count(player) < len(game.fate_deck(player)):
        extra.extend(c for c in game.fate_deck(player) if c not in extra)
    return known + [c for c in extra if c not in known]


def parse_entry(text: str, game: GameState) -> EntryMove | EntryChoice | EntryCommand:
    words = _tokens(text)
    if not words:
        raise EntryError("type a card (e.g. W016 or 6M), fate, pass, undo or help")
    head = words[0].lower()
    if head in COMMANDS:
        return EntryCommand(COMMANDS[head])
    if game.phase is Phase.DEAL:
        raise EntryError("the next deal is due: press F5 (or type deal) to enter it (R15)")
    if game.phase is Phase.ROUND:
        raise EntryError("a new round starts next: press F5 (or type deal) to begin it (R15)")
    if game.phase is Phase.OVER:
        raise EntryError("the game is over (R14); undo (Ctrl+Z) to correct it")
    player = game.turn
    assert player is not None
    if head in ("fate", "draw"):
        return EntryMove(DrawFate(player))
    if head == "pass":
        return EntryMove(Pass(player))
    card = resolve_card(words[0])
    rest = [w for w in words[1:] if w.lower() not in ("x", "takes", "take", "capture")]
    if card.to_centre:
        return _centre_play(game, player, card, rest)
    return _fate_play(game, player, card, rest)


def _fate_play(game: GameState, player: str, card: Card, rest: list[str]) -> EntryMove | EntryChoice:
    """A Fate card's play, with the details its rule names (R19-R25): a target, the cards
    swapped, the card drawn, each opponent's discard. What the table can tell (the card a Thief
    steals, a swap's cards) is taken from the legal moves when not typed."""
    rule = fate_rule(card)
    details = rule.details
    if not details:
        if rest:
            raise EntryError(f"{card.title} needs nothing more: just type {rule.example}")
        return EntryMove(Play(player, card))
    if "discards" in details:
        if not rest:
            return _choice_or_error(game, player, card, rule.example)
        pairs = []
        for token in rest:
            name, sep, cid = token.partition(":")
            if not sep:
                raise EntryError(f"{card.title}: write each discard as player:card, e.g. bob:10m, not {token!r}")
            pairs.append((_player(game, name), resolve_card(cid)))
        return EntryMove(Play(player, card, discards=tuple(pairs)))
    if "drawn" in details:
        if rest:
            return EntryMove(Play(player, card, drawn=resolve_card(rest[0])))
        return EntryMove(Play(player, card, drawn=UNSEEN if game.deck_count else None))
    target = _target(game, rest, card)
    if target is None:
        return _choice_or_error(game, player, card, rule.example)
    given, received = _swap_cards(rest[1:])
    if given or received:
        return EntryMove(Play(player, card, target=target, given=given, received=received))
    # The card's plays on that target, as the rule gives them (the game then checks the rest).
    choice: list[Move] = [m for m in rule.plays(game, player) if m.target == target]
    if choice:
        return _choose(game, card, choice)
    # No play on that target: the game says why (R22, R23).
    return EntryMove(Play(player, card, target=target))


def _centre_play(game: GameState, player: str, card: Card, rest: list[str]) -> EntryMove | EntryChoice:
    if rest:
        return EntryMove(Play(player, card, tuple(resolve_card(t) for t in rest)))
    options = game.capture_options(card)
    if len(options) > 1:
        return _choose(game, card, [Play(player, card, o) for o in options])
    return EntryMove(Play(player, card, options[0] if options else ()))


def _player(game: GameState, name: str) -> str:
    for p in game.players:
        if p.lower() == name.lower():
            return p
    raise EntryError(f"no player named {name!r}; the players are {', '.join(game.players)}")


def _target(game: GameState, rest: list[str], card: Card) -> str | None:
    if not rest:
        return None
    return _player(game, rest[0])


def _swap_cards(words: Iterable[str]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    given: list[Card] = []
    received: list[Card] = []
    into = given
    for w in words:
        lw = w.lower()
        if lw in ("give", "gives", "given"):
            into = given
        elif lw in ("receive", "receives", "received", "get", "gets"):
            into = received
        else:
            into.append(resolve_card(w))
    return tuple(given), tuple(received)


def _choose(game: GameState, card: Card, moves: list[Move]) -> EntryMove | EntryChoice:
    """The player is asked only between outcomes the game accepts: when none is legal (the
    card is not in the player's hand, R17; a Fate card in play forbids it, R24) the first goes
    to the game at once, which names the rule, rather than after a choice that cannot help."""
    legal = [m for m in moves if game.is_legal(m)]
    if not legal:
        return EntryMove(moves[0])
    if len(legal) == 1:
        return EntryMove(legal[0])
    return EntryChoice(card, legal)


def _choice_or_error(game: GameState, player: str, card: Card, example: str) -> EntryMove | EntryChoice:
    moves: list[Move] = [m for m in game.legal_moves if isinstance(m, Play) and m.card is card]
    if moves:
        return _choose(game, card, moves[:60])
    raise EntryError(f"{card.name}: say how it is played, e.g. {example}")


def fate_names() -> list[str]:
    return [c.name.lower() for c in FATE_CARDS if c.name]
