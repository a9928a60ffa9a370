"""The plug-in contract: what a card game provides to the companion, and what every game shares.

The companion is built on three floors, and the folders show them:

- **the contract** (this package), at the bottom: the protocol a game implements
  (:mod:`~companion.contract`), its table options (:mod:`~companion.contract.options`),
  the refusals every game raises (:mod:`~companion.contract.errors`), what every game's cards
  share (:mod:`~companion.contract.cards`), what its physical table needs
  (:mod:`~companion.contract.table`), the one allocator of seal ids and NFC records
  (:mod:`~companion.contract.allocation`) and the registry that finds a game by name or record
  format (:mod:`~companion.contract.registry`);
- **the hosts** in the middle (``companion.session``, ``records``, ``observations``,
  ``tracker``, ``coach``, ``club``, ``dashboard``, ``sensors``, ``commands``, and the sensor
  packages ``vision`` and ``hardware``), which work on any game through the contract;
- **the games** on top (:mod:`companion.games`, or a package of one's own registered under the
  entry-point group ``companion.games``), each implementing the contract and the parts the
  hosts ask of it.

Like OpenSpiel's ``Game`` and ``State``, a :class:`Game` holds the fixed facts of a game (its
name, cards, record format, options) and makes :class:`State` objects, each a game in progress
with python-chess's ``legal_moves``, ``push`` and ``pop``. Chance and hidden cards are explicit:
a state says whose decision comes next (:attr:`State.to_move`, ``None`` when the table acts: a
deal, a card turned up), gives each player's view apart (:meth:`State.view`) and fills what a
player cannot see with a random sample of it (:meth:`State.resample`).

Every protocol here is structural (:class:`typing.Protocol`): a game's classes need not inherit
from them, only have the members. Nothing here imports a host or a game (the import contracts
in ``pyproject.toml``).
"""

from companion.contract.cards import UNSEEN, Card, CardForm, OneOfAKind, Unseen
from companion.contract.catalogue import Catalogue, MarkerScheme, SealMarker
from companion.contract.errors import IllegalMoveError, InvalidMoveError, MalformedEventError, UnknownCardError
from companion.contract.game import Game, HandedGame, Sample, Setup
from companion.contract.options import Option, with_defaults
from companion.contract.progress import Progress
from companion.contract.record import RecordCodec, read_card
from companion.contract.state import Effects, Move, Outcome, State, View
from companion.contract.table import (
    Claim,
    Deck,
    Face,
    MatPlan,
    Mats,
    NoTableError,
    Part,
    ReaderRole,
    Stickers,
    TableSpec,
    Turns,
    Use,
    ZoneKind,
    ZoneShape,
    table_of,
    with_tables,
)

__all__ = [
    "Card",
    "CardForm",
    "OneOfAKind",
    "Unseen",
    "UNSEEN",
    "Catalogue",
    "MarkerScheme",
    "SealMarker",
    "IllegalMoveError",
    "InvalidMoveError",
    "MalformedEventError",
    "UnknownCardError",
    "Game",
    "HandedGame",
    "Sample",
    "Setup",
    "Option",
    "with_defaults",
    "Progress",
    "RecordCodec",
    "read_card",
    "Effects",
    "Move",
    "Outcome",
    "State",
    "View",
    "TableSpec",
    "Deck",
    "Part",
    "Use",
    "Face",
    "ZoneKind",
    "ZoneShape",
    "NoTableError",
    "table_of",
    "with_tables",
    "MatPlan",
    "Mats",
    "ReaderRole",
    "Stickers",
    "Turns",
    "Claim",
]
