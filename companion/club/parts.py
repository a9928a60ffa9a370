"""What a game brings to the club: its figures, its words, and the columns its standings show.

The club (the archive, standings and ratings, the live page) is the same for every game; what
is a game's own comes through one object, its :class:`ClubPart`, which the game's plug-in
object makes with ``game.club()`` (see :func:`part_of`). A game whose part is not written yet
has none: the archive and the live page refuse its records, naming the game
(:class:`NoClubPart`).

What a part gives, per game played:

- its **result** (:meth:`ClubPart.result`, from the final state): who sat where and for which
  side (:class:`Seat`, automatic seats such as dummies included), each side's finishing place
  (:class:`Side`), the winner and how the game ended, and its **figures**
  (:class:`Figures`): whole numbers named by the game, per side and per player, for the whole
  game and for each scoring period (:class:`Period`: a round, a season) with the period told
  in the game's words. The archive stores figures as long rows (figure name, value), so a
  game adds figures without a change of the archive's schema;
- what it counts move by move where the final state no longer tells it (:meth:`ClubPart.tally`);
- its words for the spectators: a record event as a sentence (:meth:`ClubPart.describe`), a
  table's state as it plays (:meth:`ClubPart.table_view`), a stored game replayed step by step
  (:meth:`ClubPart.steps`), how a game can end (:attr:`ClubPart.endings`);
- which figures its standings show (:attr:`ClubPart.columns`, summed per player and per team
  over their games) and a player's history (:attr:`ClubPart.history`);
- what a play logger asks of a game (:mod:`companion.club.export`): the figure that is each
  player's score (:attr:`ClubPart.score`) and who began the game (:meth:`ClubPart.starter`).

What every game shares stays with the club: games and unfinished games, wins (a side's
:attr:`Side.won`), and ratings from the sides' places, where automatic seats are never rated.

Every protocol here is structural: a game's classes need not inherit from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from companion.contract import Game

__all__ = [
    "ClubPart",
    "Column",
    "Figures",
    "NoClubPart",
    "Period",
    "Result",
    "Seat",
    "Side",
    "Steps",
    "TableView",
    "Tally",
    "part_of",
    "places",
    "require_part",
]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game: who sat there and the side they played for."""

    player: str
    side: str
    automatic: bool = False
    """An automatic seat (a dummy, ``@1``): its figures are kept, but it is nobody, so it has
    no row in the standings and is never rated."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a game: a player alone, or a team."""

    name: str
    """The side's name as the game's totals name it (``"ann"``, ``"ann+cy"``)."""
    is_team: bool = False
    """A team of several players: teams have rows and ratings of their own."""
    won: bool = False
    """The side won the game."""
    place: int | None = None
    """Its finishing place, 1 first, equal places shared (a draw shares the first); ``None``
    while the game is unfinished. Ratings rank the sides by it."""


@dataclass(frozen=True, slots=True)
class Figures:
    """Whole numbers a game counts, each named by the game: per side (``{"ann+cy":
    {"points_for": 21}}``) and per player (``{"ann": {"sweeps": 1}}``). A figure a holder
    does not have is 0."""

    sides: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    players: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Period:
    """A finished scoring period of a game (a round, a season): its figures and what happened
    in it in the game's words (JSON: a dealer, the settlement's reasons)."""

    number: int
    figures: Figures = field(default_factory=Figures)
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Result:
    """What the archive keeps of a game besides its record."""

    seats: tuple[Seat, ...]
    """Every seat, in seating order: the players, then any automatic seats."""
    sides: tuple[Side, ...]
    finished: bool
    winner: str | None
    """The winning side, ``None`` while unfinished or for a draw."""
    termination: str | None
    """How the game ended, in the game's word (``"target"``, ``"rule_of_power"``)."""
    figures: Figures
    """The whole game's figures: what standings sum."""
    periods: tuple[Period, ...] = ()


@dataclass(frozen=True, slots=True)
class Column:
    """A figure standings show: summed per player over their games (the player's figures)
    and per team (the side's figures)."""

    figure: str
    """The figure's name, which is also its key in ``--json`` and its ``--csv`` column."""
    heading: str
    """Its heading in the text table (``"for"``)."""
    width: int
    """The width of its column in the text table."""
    label: str
    """Its heading on the live page (``"Rule of Power"``)."""
    meaning: str = ""
    """What the figure is, in a player's words, for the legend under the text table
    (``"points against"``); its ``label`` when not given."""

    @property
    def legend(self) -> str:
        """The column in the text table's legend: ``"agst = points against"``."""
        return f"{self.heading} = {self.meaning or self.label}"


class Tally(Protocol):
    """A game's count kept move by move, for figures the final state no longer tells (whose
    card made each sweep): :meth:`after` is called after every move."""

    def after(self, state: Any) -> None: ...


class TableView(Protocol):
    """A table's state for the live page, kept from one move to the next so that it can
    reuse what has not changed."""

    def state(self, game: Any, header: Mapping[str, Any]) -> dict[str, Any]:
        """What the page shows of the table now (JSON): at least ``players``, ``sides``,
        ``totals``, ``finished``, ``winner`` and ``termination``; the page also shows, when
        given, ``target``, ``round``, ``phase``, ``turn``, ``centre``, ``running`` (this
        period's points so far), ``pride``, ``ring`` and ``reasons`` (why), and
        ``last_round`` (``{"number", "reasons"}``)."""


class Steps(Protocol):
    """A stored game replayed for the page, one step an event."""

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        """The step of the record's ``game`` event (``{"centre": [], "totals": {}}``)."""

    def after(self, state: Any) -> dict[str, Any]:
        """The step after a move: ``totals`` and the game's own (``centre``, ``running``,
        ``settlement`` with the period's reasons when the move ended one)."""


@runtime_checkable
class ClubPart(Protocol):
    """What a game provides to the club (``game.club()``)."""

    @property
    def period(self) -> str:
        """What the game calls its scoring period: ``"round"``, ``"season"``."""

    @property
    def periods(self) -> str:
        """The same in the plural, the key of their count in a stored game: ``"rounds"``."""

    @property
    def columns(self) -> tuple[Column, ...]:
        """The figures standings show, in order, after games, unfinished games and wins."""

    @property
    def order(self) -> tuple[str, ...]:
        """The figures that order standings rows of equal rating and wins, most first."""

    @property
    def history(self) -> tuple[str, ...]:
        """The figures a player's history shows for each game (the player's own)."""

    @property
    def history_text(self) -> str:
        """How ``rop club history`` prints them: ``"{points_for:>3}-{points_against:<3}"``."""

    @property
    def history_heading(self) -> str:
        """Their heading in ``rop club history``'s header row (``"score"``), centred over them."""

    @property
    def endings(self) -> Mapping[str, str]:
        """Words the page adds after the winner for a way of ending (``termination``):
        ``{"rule_of_power": " by the Rule of Power (R13)"}``."""

    @property
    def score(self) -> str:
        """The figure that is a player's score where one number is asked for (a play sent to BG
        Stats): ``"points_for"``, ``"trophies"``."""

    def tally(self, setup: Any) -> Tally:
        """A new count for a game of ``setup``."""

    def result(self, state: Any, tally: Any) -> Result:
        """The result of the game played on ``state`` (finished or not), ``tally`` having
        seen every move."""

    def describe(self, event: Mapping[str, Any]) -> str:
        """One record event (its JSON object, the ``game`` header included) as a sentence."""

    def table_view(self) -> TableView: ...

    def steps(self) -> Steps: ...

    def fills_in(self, old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
        """Whether event ``new`` is ``old`` with cards that were unseen when it was recorded
        now named, and nothing else changed (a deal whose face-down hands were filled in once
        played): a table sends it again, and the club takes it as the same event."""

    def starter(self, events: list[Mapping[str, Any]]) -> str | None:
        """Who began the game (a seat's name), from its record's events, header first;
        ``None`` when nobody has played yet."""


class NoClubPart(ValueError):
    """A game whose club part is not written yet: the club cannot keep its games."""

    def __init__(self, game: Any) -> None:
        self.game = game
        super().__init__(f"the club does not keep {game.title} games yet ({game.name} has no club part)")


def part_of(game: Game) -> ClubPart | None:
    """The club part of ``game`` (``game.club()``), ``None`` when it has none yet."""
    return game.club()


def require_part(game: Game) -> ClubPart:
    """The club part of ``game``; :class:`NoClubPart` naming the game when it has none."""
    part = part_of(game)
    if part is None:
        raise NoClubPart(game)
    return part


def places(totals: Mapping[str, int], winner: str | None, sides: Sequence[str] | None = None) -> dict[str, int]:
    """Finishing places: the winner first, then the others by their totals, equal totals
    sharing a place; without a winner (a draw) the highest totals share the first.

    >>> places({"a": 5, "b": 12, "c": 7, "d": 7}, "a")
    {'a': 1, 'b': 2, 'c': 3, 'd': 3}
    >>> places({"a": 6, "b": 6, "c": 2}, None)
    {'a': 1, 'b': 1, 'c': 3}
    """
    names = list(sides) if sides is not None else list(totals)
    others = sorted((s for s in names if s != winner), key=lambda s: -totals[s])
    out = {winner: 1} if winner is not None else {}
    first = 1 + len(out)
    for i, side in enumerate(others):
        if i and totals[side] == totals[others[i - 1]]:
            out[side] = out[others[i - 1]]
        else:
            out[side] = first + i
    return out
