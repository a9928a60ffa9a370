"""A card game as the companion plays it: the fixed facts, the set-up of one table, and the
states it makes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from companion.contract.catalogue import Catalogue
from companion.contract.record import RecordCodec
from companion.contract.state import MoveT, State

if TYPE_CHECKING:
    from companion.club.parts import ClubPart
    from companion.coach.model import CoachModel
    from companion.commands.game_command import GameCommand
    from companion.contract.options import Option
    from companion.dashboard.kit import DashboardKit
    from companion.tracker.tracker import TableRules
    from companion.contract.table import TableSpec

__all__ = ["Setup", "Sample", "Game", "HandedGame", "StateT"]


class Setup(Protocol):
    """The fixed facts of one game: who plays, in seating order, and the table's options.
    Immutable and comparable; it knows its game, so that whoever holds a set-up can make the
    game's states and records (``setup.game.new_state(setup)``)."""

    @property
    def game(self) -> Game[Any, Any]:
        """The :class:`Game` this is a set-up of."""

    @property
    def players(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Sample:
    """A sample record shipped with a game, for the demo and the docs."""

    name: str
    description: str
    """What it shows: ``"4 players in 2 teams, Fate decks"``."""
    path: Path


StateT = TypeVar("StateT", bound="State[Any]")
"""The states of one game."""

GameT = TypeVar("GameT")


class HandedGame(Generic[GameT]):
    """A game's plug-in object as its package hands it to the game's own rules, once it is
    made: a set-up made without going through :meth:`Game.make_setup` (a test's, a record
    reader's) and the states made from it read their game here, so that no rules module looks
    its game up by name (nor imports the plug-in object, which would load every part).

    >>> handed = HandedGame("Goofspiel")
    >>> handed()
    Traceback (most recent call last):
    ...
    RuntimeError: a Goofspiel set-up made before the game itself (while its package is loading)
    >>> handed.hand_over("the game"); handed()
    'the game'
    """

    __slots__ = ("title", "_game")

    def __init__(self, title: str) -> None:
        self.title = title
        self._game: GameT | None = None

    def hand_over(self, game: GameT) -> None:
        """The game's package gives its plug-in object, once it is made."""
        self._game = game

    def __call__(self) -> GameT:
        if self._game is None:
            raise RuntimeError(f"a {self.title} set-up made before the game itself (while its package is loading)")
        return self._game


_NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")


class Game(Protocol[StateT, MoveT]):
    """A card game the companion plays: the fixed facts, and the states it makes.

    A game's plug-in object derives from this class (``class CircleOfPower(Game[CircleState,
    CircleMove])``) and sets every member without a default. Besides the rules, a game
    provides the parts each host asks of it, each typed by the protocol of the host that uses
    it (imported here for types only, so that the contract imports no host):

    - :meth:`commands`: the commands it brings to ``rop`` (``rop legal``, ``rop simulate``);
    - :meth:`tracking`: its table facts and the tracker's reasoning, to follow a table by its
      sensors;
    - :meth:`coach`: what the coach knows of it;
    - :meth:`club`: its figures in the club's archive, and its words for the live page;
    - :meth:`dashboard`: its panels, dialogs and words.

    A part a game does not have yet is ``None`` (no commands: ``()``), the default here, and
    the host that needs it says so, naming the game: "... has no coach yet".
    """

    name: str
    """How commands name the game: ``"rule-of-power"`` (``--game rule-of-power``)."""
    title: str
    """The game's name in words: ``"Rule of Power"``."""
    rulings: str
    """The rulings the companion follows where the rulebook is loose: ``"R1-R25"``."""
    min_players: int
    max_players: int
    rules_modules: tuple[str, ...]
    """The modules of the game's rules (its cards, moves, state, scoring, views), which import
    nothing but themselves, the contract and the standard library: the import test makes a
    "rules are pure" contract of them for every registered game."""

    @property
    def cards(self) -> Catalogue[Any]:
        """The game's cards."""

    @property
    def codec(self) -> RecordCodec:
        """The game's record format."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The table's options (teams, target, variant, ...), for commands and dialogs."""

    @property
    def table(self) -> TableSpec | None:
        """What the physical table needs: its decks and what their stickers and tags carry,
        its zones and standard mats, its NFC readers, how turns pass, and the seal ids and NFC
        records the game claims (:class:`~companion.contract.table.TableSpec`). ``None`` for a
        game whose table no sensor follows yet: it has no stickers, tags or mats, and the
        commands that need them say so, naming the game."""
        return None

    def make_setup(self, players: Sequence[str], **options: Any) -> Any:
        """The :class:`Setup` of a table of ``players`` with ``options`` (by
        :attr:`Option.name`, the others at their defaults); :class:`ValueError` naming the
        ruling for a table the rules do not allow."""

    def default_players(self, count: int) -> tuple[str, ...]:
        """Names for a simulated or demo table of ``count`` players: ``ann``, ``bob``, ..."""
        if count <= len(_NAMES):
            return _NAMES[:count]
        return tuple(f"player{i + 1}" for i in range(count))

    def new_state(self, setup: Any, *, keep_history: bool = True) -> StateT:
        """A game about to begin; ``keep_history=False`` drops the undo stack for fast
        one-way replays."""

    def chance_move(self, state: StateT, rng: random.Random) -> MoveT:
        """A random legal move of the table, when nobody is deciding
        (:attr:`State.deciding <companion.contract.state.State.deciding>` is empty) and the
        game is not over: the next deal from the cards nobody holds, a card turned up, a new
        round. For simulated tables and the generic game test."""

    def summary(self, state: StateT) -> dict[str, Any]:
        """The game's scores as ``rop replay --json`` prints them (the record format's
        shape)."""

    def score_lines(self, state: StateT) -> list[str]:
        """The scores of every finished period, the totals and the result, in words, as
        ``rop replay`` prints them."""

    def describe(self, move: MoveT) -> str:
        """A move in a few words for messages: ``"ann plays 7P W007"``."""

    def narrate(self, state: StateT, move: MoveT, effects: Any) -> str:
        """What ``move``, just applied to ``state`` with ``effects``, did, in one line for
        the event log (``"ann plays Fire Dragon (7), takes 3P+4M: a clean sweep (R7)"``)."""

    def period_json(self, state: StateT, result: Any) -> dict[str, Any]:
        """A finished scoring period (``effects.result``) as JSON for ``rop track``:
        ``{"kind": "round", "round": 1, "scores": ..., "reasons": [...], "totals": ...,
        "winner": ...}`` for Rule of Power, a season for Circle of Power."""

    def samples(self) -> tuple[Sample, ...]:
        """The sample records shipped with the game (none by default); the first is the one
        ``rop demo --plain`` comments on."""
        return ()

    # -- the parts the hosts ask for

    def commands(self) -> tuple[GameCommand, ...]:
        """Its own ``rop`` commands (``rop legal``, ``rop score``, ``rop simulate``: ``rop NAME
        --game GAME``), typed by :class:`companion.commands.game_command.GameCommand`."""
        return ()

    def tracking(self) -> TableRules | None:
        """How a table of the game is followed by its sensors: its table facts and the
        reasoner that reads what the sensors see as moves
        (:class:`companion.tracker.tracker.TableRules`)."""
        return None

    def coach(self) -> CoachModel | None:
        """What the coach knows of the game (:class:`companion.coach.model.CoachModel`)."""
        return None

    def club(self) -> ClubPart | None:
        """What the club keeps of a game, its standings' columns and its words for the live
        page (:class:`companion.club.parts.ClubPart`)."""
        return None

    def dashboard(self) -> DashboardKit | None:
        """Its table screen, settlement, dialogs and words
        (:class:`companion.dashboard.kit.DashboardKit`)."""
        return None
