"""A card game as the companion plays it: the fixed facts, the set-up of one table, and the
states it makes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.contract.state import Move

if TYPE_CHECKING:
    from companion.contract.options import Option
    from companion.contract.table import TableSpec

__all__ = ['Setup', 'Sample', 'Game']


class Setup(Protocol):
    """The fixed facts of one game: who plays, in seating order, and the table's options.
    Immutable and comparable; it knows its game, so that whoever holds a set-up can make the
    game's states and records (``setup.game.new_state(setup)``)."""

    @property
    def game(self) -> Any:
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

    @property
    def table(self) -> TableSpec:
        """What the physical table needs: its decks and what their stickers and tags carry,
        its zones and standard mats, its NFC readers, how turns pass, and the seal ids and NFC
        records the game claims (:class:`~companion.contract.table.TableSpec`)."""

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
