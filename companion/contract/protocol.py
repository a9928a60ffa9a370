"""What a card game provides to the companion: one protocol, every game behind it.

The companion's pipeline (sensors, observations, tracker, session, records, coach, club,
dashboard, commands) works on any game that provides these. Like OpenSpiel's ``Game`` and
``State``, a :class:`Game` holds the fixed facts of a game (its name, cards, record format,
options) and makes :class:`State` objects, each a game in progress with python-chess's
``legal_moves``, ``push`` and ``pop``. Chance and hidden cards are explicit: a state says
whose decision comes next (:attr:`State.to_move`, ``None`` when the table acts: a deal, a card
turned up), gives each player's view apart (:meth:`State.view`) and fills what a player
cannot see with a random sample of it (:meth:`State.resample`).

A game lives in its own package under :mod:`companion.games` (``rule_of_power``,
``circle_of_power``) and is found through :mod:`companion.contract.registry`, by name or by the
``format`` of a record's first line. Nothing outside a game's package imports it: an import
contract in ``pyproject.toml`` keeps it so (docs/architecture.md, "How to add a game").

Every protocol here is structural (:class:`typing.Protocol`): a game's classes need not
inherit from them, only have the members.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from companion.contract.options import Option

__all__ = [
    "Card",
    "Catalogue",
    "CardForm",
    "MarkerScheme",
    "Setup",
    "Move",
    "Effects",
    "Outcome",
    "State",
    "RecordCodec",
    "Sample",
    "Game",
]

Move = Any
"""A move of some game: a small immutable, hashable value of the game's own (python-chess's
``Move``). The core never looks inside one; it passes moves between the game's state, its
record codec and its words. (Typed ``Any``, since each game takes only its own moves.)"""


@runtime_checkable
class Card(Protocol):
    """One card of a game's catalogue: an immutable value, one object per card, so that cards
    compare and hash by identity."""

    @property
    def game(self) -> str:
        """The name of the game the card belongs to (``"rule-of-power"``): a card seen by a
        sensor is never taken for another game's."""

    @property
    def id(self) -> str:
        """The identifier records use: ``"W007"``, ``"10H"``, ``"X1"``."""

    @property
    def short(self) -> str:
        """The compact form a player types and reads: ``"7P"``, ``"10H"``, ``"Thief"``."""

    @property
    def label(self) -> str:
        """How every message names the card: ``"7P W007"``, ``"10H"``."""

    @property
    def long_label(self) -> str:
        """The label and the name, where there is room: ``"7P W007 Fire Dragon"``."""

    @property
    def title(self) -> str:
        """A name a player recognises: ``"Fire Dragon (7)"``, ``"ten of hearts"``."""

    def __hash__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class CardForm:
    """One way of writing a card that every command and dialog accepts, for help texts."""

    form: str
    """What the form is, in words: ``"value and suit letter"``."""
    examples: str
    """Examples of it: ``"6m, 10D, 7P"``."""
    explanation: str = ""
    """What the letters mean, where it needs saying: ``"P Powers, M Men, E Elves, D Darkness"``."""


@dataclass(frozen=True, slots=True)
class SealMarker:
    """What one seal marker (an AprilTag on a card's sticker) says: a card and, where the
    game's cards carry their owner, the owner's slot."""

    card: Card
    slot: int | None = None


class MarkerScheme(Protocol):
    """Which seal marker id stands for which card (and owner slot) in one game, and back.

    The markers of every game share one family (:mod:`vision.markers`); a game's scheme says
    which of its ids are the game's cards. Ids that are not the game's decode to ``None``."""

    owner_slots: int
    """How many owner slots the scheme names (0 when the cards carry no owner)."""

    def encode(self, card: Card, slot: int | None) -> int:
        """The marker id of ``card`` with owner ``slot``; :class:`ValueError` when the scheme
        has none (an owner the card cannot carry, a slot out of range)."""

    def decode(self, marker_id: int) -> SealMarker | None:
        """The card a marker id stands for, ``None`` when the id is not one of the game's."""

    def ids(self) -> Iterable[int]:
        """Every marker id the scheme uses, for tests and for telling schemes apart."""


class Catalogue(Protocol):
    """A game's cards: every card, the ways a player writes one, and how a card is written
    on a sticker (the label under its seal marker), a seal marker and an NFC tag."""

    game: str
    """The name of the game whose cards these are (``"rule-of-power"``)."""

    forms: tuple[CardForm, ...]
    """The ways of writing a card, for help texts and for the errors of :meth:`parse`."""

    nfc_record_type: str
    """The NFC Forum external type of the record a card's tag carries
    (``"urn:nfc:ext:ruleofpower.org:card"``): a deck names its game, so a tag of another
    game's deck is never taken for one of this game's cards."""

    @property
    def markers(self) -> MarkerScheme | None:
        """The seal marker ids of the cards, ``None`` when the game's cards have none yet."""

    def __iter__(self) -> Iterator[Card]:
        """Every card of the game, in catalogue order."""

    def from_id(self, card_id: str) -> Card:
        """The card with identifier ``card_id`` (as records write it);
        :class:`~companion.contract.errors.UnknownCardError` otherwise."""

    def parse(self, text: str) -> Card:
        """The card ``text`` names in any form a player may type (:attr:`forms`);
        :class:`~companion.contract.errors.UnknownCardError` saying which forms are accepted."""

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        """Cards separated by commas (or a list of texts), each read by :meth:`parse`."""

    def sticker_label(self, card: Card) -> str:
        """The first line printed under the card's seal marker and on its NFC sticker (the
        owner's name follows it): ``"7P W007"``, ``"10H"``."""

    def sticker_name(self, card: Card) -> str:
        """The second line: the card's name, ``"Fire Dragon"``, ``"ten of hearts"``."""

    def nfc_text(self, card: Card, owner: str) -> str:
        """The text record a phone shows for ``owner``'s ``card``'s tag."""


class Setup(Protocol):
    """The fixed facts of one game: who plays, in seating order, and the table's options.
    Immutable and comparable; it knows its game, so that whoever holds a set-up can make the
    game's states and records (``setup.game.new_state(setup)``)."""

    @property
    def game(self) -> Any:
        """The :class:`Game` this is a set-up of."""

    @property
    def players(self) -> tuple[str, ...]: ...


class Effects(Protocol):
    """What one move did, as :meth:`State.apply` tells it (each game has its own fields)."""

    @property
    def player(self) -> str | None:
        """Who made the move, ``None`` for the table's (a deal, a card turned up)."""

    @property
    def result(self) -> Any:
        """The scoring period (a round, a season) the move ended, ``None`` if it ended none."""


class Outcome(Protocol):
    """How a finished game ended."""

    @property
    def winner(self) -> str | None:
        """The winner (a player or a side), ``None`` for a draw."""


class View(Protocol):
    """What one player may know of a game: equal views for two states mean the player cannot
    tell them apart (:meth:`State.resample` relies on it, and the generic game test checks
    it)."""

    @property
    def player(self) -> str: ...


class State(Protocol):
    """A game in progress.

    Read it through its properties, change it with :meth:`push` (checked, raising
    :class:`~companion.contract.errors.IllegalMoveError` naming the ruling) and take moves back
    with :meth:`pop`. A state may follow a game it cannot fully see (hands dealt face down);
    every rule that needs no hidden card is still checked.
    """

    setup: Any
    """The game's :class:`Setup`."""
    move_stack: list[Move]
    """Every move pushed, oldest first (empty for a copy made without its history)."""

    @property
    def game(self) -> Any:
        """The :class:`Game` this is a state of."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def to_move(self) -> str | None:
        """Whose decision comes next: a player's (or an automatic seat's) name, or ``None``
        when the table acts (a deal, a card turned up, a new round) or the game is over."""

    @property
    def legal_moves(self) -> Iterable[Move]:
        """The legal moves of :attr:`to_move`, a lazy view: ``move in state.legal_moves``,
        ``bool(...)``, iteration. Cards still face down are not listed: check such a move with
        :meth:`is_legal`. When the table acts there may be none listed (a deal has too many
        outcomes): :meth:`Game.chance_move` draws one."""

    def decision(self, move: Move) -> Hashable:
        """What the player chose in ``move``, without the parts chance settles (a card drawn
        after a play): moves with equal decisions are one choice, played out as chance
        falls."""

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``, checked first (``check=False`` is the fast path for moves known to
        be legal, from :attr:`legal_moves`)."""

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly."""

    def apply(self, move: Move) -> Any:
        """Check and push ``move``, and tell what it did."""

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (with the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""

    def is_legal(self, move: Move) -> bool: ...

    def copy(self, *, keep_history: bool = True) -> Any:
        """An independent copy of the position; its move stack starts empty."""

    def is_game_over(self) -> bool: ...

    def outcome(self) -> Any:
        """How the game ended (an :class:`Outcome`), ``None`` while it goes on."""

    @property
    def totals(self) -> Mapping[str, int]:
        """The running game totals of every side (players, teams, automatic seats)."""

    def view(self, player: str) -> Any:
        """What ``player`` may know, and nothing more."""

    def resample(self, player: str, rng: random.Random) -> Any:
        """A copy of this position (its move stack empty) in which every card ``player``
        cannot see is drawn at random, consistently with their view: their view of the copy
        is their view of this state. For searches that must not peek."""


class RecordCodec(Protocol):
    """A game's record format: the first line (the ``game`` event) and the events after it,
    read and written. :mod:`companion.records.format` does the lines, the checking and the
    errors; the codec knows the game's events."""

    format: str
    """The ``format`` of the record's ``game`` event: ``"rop-record/1"``."""

    events: tuple[str, ...]
    """The event names after the ``game`` event, for the reader's error messages."""

    def read_setup(self, header: Mapping[str, Any]) -> Any:
        """The :class:`Setup` of a record's ``game`` event; :class:`ValueError` (an
        :class:`~companion.contract.errors.IllegalMoveError` naming the ruling, or a plain
        message for a malformed field) when it is not one."""

    def read_move(self, event: Mapping[str, Any], setup: Any) -> Move:
        """The move of one event; :class:`ValueError` (:class:`~companion.contract.errors.
        UnknownCardError`, :class:`~companion.contract.errors.InvalidMoveError`, ...) when it is
        malformed, :class:`TypeError`, :class:`KeyError` or :class:`AttributeError` for a field
        of the wrong shape."""

    def setup_event(self, setup: Any) -> dict[str, Any]:
        """The ``game`` event of ``setup``: ``event`` and ``format`` first."""

    def move_event(self, move: Move, setup: Any) -> dict[str, Any]:
        """The event of ``move``."""

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        """The same moves with cards that were unseen when recorded filled in, where later
        moves tell them (hands dealt face down, once played)."""

    def is_period_start(self, move: Move) -> bool:
        """Whether ``move`` begins a scoring period (a round, a season)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A sample record shipped with a game, for the demo and the docs."""

    name: str
    description: str
    """What it shows: ``"4 players in 2 teams, Fate decks"``."""
    path: Path


class Game(Protocol):
    """A card game the companion plays: the fixed facts, and the states it makes.

    Besides what is listed here, a game provides the parts each layer of the companion asks
    of it, each typed by the protocol of the layer that uses it, so that this module knows no
    layer above it:

    - ``commands()``: the commands it brings to ``rop``
      (:class:`companion.commands.game_command.GameCommand`);
    - ``tracking()``: its table facts and the tracker's reasoning
      (:class:`companion.tracker.tracker.TableRules`);
    - ``coach()``: what the coach knows of it (:class:`companion.coach.model.CoachModel`);
    - ``club()``: its figures in the club's archive (:class:`companion.club.parts.ClubPart`);
    - ``dashboard()``: its panels, dialogs and words (:class:`companion.dashboard.kit.DashboardKit`).

    A part a game does not have yet is ``None`` (or the method is absent), and the command
    that needs it says so, naming the game: "... has no coach yet".
    """

    name: str
    """How commands name the game: ``"rule-of-power"`` (``--game rule-of-power``)."""
    title: str
    """The game's name in words: ``"Rule of Power"``."""
    rulings: str
    """The rulings the companion follows where the rulebook is loose: ``"R1-R25"``."""
    min_players: int
    max_players: int

    @property
    def cards(self) -> Any:
        """The game's :class:`Catalogue`."""

    @property
    def codec(self) -> Any:
        """The game's :class:`RecordCodec`."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The table's options (teams, target, variant, ...), for commands and dialogs."""

    def make_setup(self, players: Sequence[str], **options: Any) -> Any:
        """The :class:`Setup` of a table of ``players`` with ``options`` (by
        :attr:`Option.name`, the others at their defaults); :class:`ValueError` naming the
        ruling for a table the rules do not allow."""

    def new_state(self, setup: Any, *, keep_history: bool = True) -> Any:
        """A game about to begin; ``keep_history=False`` drops the undo stack for fast
        one-way replays."""

    def chance_move(self, state: Any, rng: random.Random) -> Move:
        """A random legal move of the table, when :attr:`State.to_move` is ``None`` and the
        game is not over: the next deal from the cards nobody holds, a card turned up, a new
        round. For simulated tables and the generic game test."""

    def summary(self, state: Any) -> dict[str, Any]:
        """The game's scores as ``rop replay --json`` prints them (the record format's
        shape)."""

    def score_lines(self, state: Any) -> list[str]:
        """The scores of every finished period, the totals and the result, in words, as
        ``rop replay`` prints them."""

    def describe(self, move: Move) -> str:
        """A move in a few words for messages: ``"ann plays 7P W007"``."""

    def narrate(self, state: Any, move: Move, effects: Any) -> str:
        """What ``move``, just applied to ``state`` with ``effects``, did, in one line for
        the event log (``"ann plays Fire Dragon (7), takes 3P+4M: a clean sweep (R7)"``)."""

    def period_json(self, state: Any, result: Any) -> dict[str, Any]:
        """A finished scoring period (``effects.result``) as JSON for ``rop track``:
        ``{"kind": "round", "round": 1, "scores": ..., "reasons": [...], "totals": ...,
        "winner": ...}`` for Rule of Power, a season for Circle of Power."""

    def samples(self) -> tuple[Sample, ...]:
        """The sample records shipped with the game."""
