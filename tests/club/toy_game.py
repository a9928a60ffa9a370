"""A toy game for the club's tests: just enough of a game (companion.contract) to be
played, recorded and kept by the club, shaped like Circle of Power where the club must not
care: four emperors around the table, the seats no player holds taken by automatic ones
(``@1``, ``@2``) that score but never win, seasons, trophies, and draws.

A record: ``{"event": "game", "format": "toy-record/1", "players": [...], "target": 6}``, then
one ``{"event": "season", "trophies": {"ann": 2, "@1": 1, ...}}`` a season. After a season in
which a player's total reaches the target the game ends: the player with the highest total
wins, a shared highest total is a draw (T1); automatic seats never win (T2).

:data:`GAME` has a club part (:class:`ToyClub`); :data:`BARE` is the same game without one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.club.parts import Column, Figures, Period, Result, Seat, Side, places
from companion.contract.errors import IllegalMoveError, MalformedEventError
from companion.contract.options import Option
from companion.contract import Game, Sample

SEATS = 4


@dataclass(frozen=True)
class ToySetup:
    players: tuple[str, ...]
    target: int = 6
    bare: bool = False

    @property
    def game(self) -> Any:
        return BARE if self.bare else GAME

    @property
    def emperors(self) -> tuple[str, ...]:
        """The players, then the automatic seats that make four."""
        return self.players + tuple(f"@{i}" for i in range(1, SEATS - len(self.players) + 1))


@dataclass(frozen=True)
class SeasonMove:
    trophies: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    termination: str = "target"


@dataclass
class ToyState:
    setup: ToySetup
    move_stack: list[SeasonMove] = field(default_factory=list)

    @property
    def game(self) -> Any:
        return self.setup.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def seasons(self) -> list[dict[str, int]]:
        return [dict(m.trophies) for m in self.move_stack]

    @property
    def totals(self) -> dict[str, int]:
        out = dict.fromkeys(self.setup.emperors, 0)
        for season in self.seasons:
            for name, n in season.items():
                out[name] += n
        return out

    def outcome(self) -> Outcome | None:
        totals = self.totals
        if not any(totals[p] >= self.setup.target for p in self.players):
            return None
        best = max(totals[p] for p in self.players)
        leaders = [p for p in self.players if totals[p] == best]
        return Outcome(leaders[0] if len(leaders) == 1 else None)  # T1, T2

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def push(self, move: SeasonMove, *, check: bool = True) -> None:
        if self.is_game_over():
            raise IllegalMoveError("T1", "the game is over")
        if {name for name, _ in move.trophies} - set(self.setup.emperors):
            raise IllegalMoveError("T3", "trophies for someone not at the table")
        self.move_stack.append(move)

    def pop(self) -> SeasonMove:
        return self.move_stack.pop()


class ToyCodec:
    format = "toy-record/1"
    events = ("season",)

    def read_setup(self, header: Mapping[str, Any], *, bare: bool = False) -> ToySetup:
        players = header.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= SEATS:
            raise MalformedEventError.field("players", "a list of 2 to 4 names")
        return ToySetup(tuple(players), int(header.get("target", 6)), bare)

    def read_move(self, event: Mapping[str, Any], setup: ToySetup) -> SeasonMove:
        if event.get("event") != "season" or not isinstance(event.get("trophies"), dict):
            raise MalformedEventError.field("trophies", "each emperor's trophies")
        return SeasonMove(tuple(sorted((str(k), int(v)) for k, v in event["trophies"].items())))

    def setup_event(self, setup: ToySetup) -> dict[str, Any]:
        return {"event": "game", "format": self.format, "players": list(setup.players), "target": setup.target}

    def move_event(self, move: SeasonMove, setup: ToySetup) -> dict[str, Any]:
        return {"event": "season", "trophies": dict(move.trophies)}

    def complete(self, moves: Sequence[SeasonMove]) -> list[SeasonMove]:
        return list(moves)

    def is_period_start(self, move: SeasonMove) -> bool:
        return True


class _BareCodec(ToyCodec):
    format = "toy-bare/1"

    def read_setup(self, header: Mapping[str, Any], *, bare: bool = True) -> ToySetup:
        return super().read_setup(header, bare=True)


class _Tally:
    def after(self, state: ToyState) -> None:
        pass


class _View:
    def state(self, game: ToyState, header: Mapping[str, Any]) -> dict[str, Any]:
        outcome = game.outcome()
        return {
            "players": list(game.players), "sides": list(game.setup.emperors), "totals": game.totals,
            "round": len(game.move_stack), "finished": outcome is not None,
            "winner": outcome.winner if outcome else None, "termination": outcome.termination if outcome else None,
        }


class _Steps:
    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"totals": {}}

    def after(self, state: ToyState) -> dict[str, Any]:
        return {"totals": state.totals}


class ToyClub:
    """The toy game's club part: seasons, trophies and draws."""

    period = "season"
    periods = "seasons"
    columns = (Column("trophies", "trph", 5, "trophies"), Column("draws", "drw", 4, "draws"))
    order = ("trophies",)
    history = ("trophies",)
    history_text = "{trophies:>3}"
    history_heading = "trph"
    endings: dict[str, str] = {}
    score = "trophies"

    def tally(self, setup: ToySetup) -> _Tally:
        return _Tally()

    def result(self, state: ToyState, tally: _Tally) -> Result:
        setup = state.setup
        outcome = state.outcome()
        totals = state.totals
        winner = outcome.winner if outcome else None
        place = places(totals, winner) if outcome else {}
        drawn = outcome is not None and winner is None
        players = {
            p: {"trophies": totals[p], "draws": int(drawn and place[p] == 1)} for p in setup.players
        }
        return Result(
            seats=tuple(Seat(e, e, automatic=e.startswith("@")) for e in setup.emperors),
            sides=tuple(Side(e, won=e == winner, place=place.get(e)) for e in setup.emperors),
            finished=outcome is not None,
            winner=winner,
            termination=outcome.termination if outcome else None,
            figures=Figures(sides={e: {"trophies": totals[e]} for e in setup.emperors}, players=players),
            periods=tuple(
                Period(n, Figures(sides={e: {"trophies": t} for e, t in season.items()}), {"leader": max(season, key=season.__getitem__)})
                for n, season in enumerate(state.seasons, 1)
            ),
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        if event.get("event") == "game":
            return f"New game: {', '.join(event.get('players', []))}"
        return "Season: " + ", ".join(f"{k} {v}" for k, v in event.get("trophies", {}).items())

    def table_view(self) -> _View:
        return _View()

    def steps(self) -> _Steps:
        return _Steps()

    def fills_in(self, old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
        return False

    def starter(self, events: list[Mapping[str, Any]]) -> str | None:
        players = events[0].get("players") if events else None
        return str(players[0]) if players and len(events) > 1 else None


class ToyGame(Game["ToyState", Any]):
    name = "toy-circle"
    options = ()  # its target is taken as given
    title = "Toy Circle"
    codec = ToyCodec()
    options: tuple[Option, ...] = ()  # the commands offer no option of their own for it

    def new_state(self, setup: ToySetup, *, keep_history: bool = True) -> ToyState:
        return ToyState(setup)

    def make_setup(self, players: Sequence[str], **options: Any) -> ToySetup:
        return ToySetup(tuple(players), int(options.get("target", 6)))

    def club(self) -> ToyClub:
        return ToyClub()

    def samples(self) -> tuple[Sample, ...]:
        """No sample records: ``rop demo`` and ``rop replay`` list every game's, none of these."""
        return ()


class BareGame(ToyGame):
    """The toy game, its club part not written yet."""

    name = "toy-bare"
    title = "Toy Bare"
    codec = _BareCodec()

    def make_setup(self, players: Sequence[str], **options: Any) -> ToySetup:
        return ToySetup(tuple(players), int(options.get("target", 6)), bare=True)

    def club(self) -> None:  # type: ignore[override]
        return None


GAME = ToyGame()
BARE = BareGame()
