"""The archive as revision 0004 wrote Rule of Power's games (before the archive kept any
game's figures as long rows): its tables, and the rows it stored for a game, as the code of
that revision made them. Tests build an archive of that revision with these, migrate it, and
check that nothing is lost.

Once migrated, a game's players and their own sweeps are read back through Rule of Power's
view of them (:data:`game_players`, from :mod:`companion.games.rule_of_power.club.tables`),
which is also the key of the players' rows in :func:`_rows`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, ForeignKey, Integer, MetaData, String, Table, Text

from companion.club import identity
from companion.club.archive import game_date
from companion.games.rule_of_power.club.tables import game_players
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Move
from companion.games.rule_of_power.engine.scoring import FireDragon, PowerRing, RoundScore
from companion.records.format import Replayer, read_record

__all__ = ["ParsedGame", "SweepCount", "game_players", "game_records", "parse_record", "_rows", "TABLES"]

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("digest", String(64), nullable=False),
    Column("season", String(32), nullable=False, index=True),
    Column("played_at", DateTime(timezone=True), nullable=False, index=True),
    Column("players", JSON, nullable=False),
    Column("teams", JSON, nullable=True),
    Column("target", Integer, nullable=False),
    Column("expansion", Boolean, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("winner", String(200), nullable=True),
    Column("termination", String(32), nullable=True),
    Column("rounds", Integer, nullable=False),
    Column("events", Integer, nullable=False),
    Column("source", Text, nullable=True),
    Column("stored_at", DateTime(timezone=True), nullable=False),
)

players_0004 = Table(
    "game_players",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(100), nullable=False, index=True),
    Column("side", String(200), nullable=False),
    Column("sweeps", Integer, nullable=False, server_default="0"),
)

game_records = Table(
    "game_records",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("body", Text, nullable=False),
)

game_rounds = Table(
    "game_rounds",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", String(100), nullable=False),
    Column("rule_of_power", String(200), nullable=True),
    Column("reasons", JSON, nullable=False),
)

round_points = Table(
    "round_points",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("side", String(200), primary_key=True),
    Column("world_cards", Integer, nullable=False),
    Column("power_cards", Integer, nullable=False),
    Column("fire_dragon", Integer, nullable=False),
    Column("pride_of_dragons", Integer, nullable=False),
    Column("power_master", Integer, nullable=False),
    Column("power_points", Integer, nullable=False),
    Column("sweeps", Integer, nullable=False),
    Column("total", Integer, nullable=False),
)

game_sides = Table(
    "game_sides",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side", String(200), primary_key=True),
    Column("is_team", Boolean, nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
    Column("sweeps", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("rule_of_power_win", Boolean, nullable=False),
)

rating_marks = Table(
    "rating_marks",
    metadata,
    Column("season", String(32), primary_key=True),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("game_id", String(64), nullable=False),
    Column("games", Integer, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("season", String(32), primary_key=True),
    Column("pool", String(8), primary_key=True),
    Column("name", String(200), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

#: The tables of revision 0004 by name (players under their own table).
TABLES = {t.name: t for t in (games, players_0004, game_records, game_rounds, round_points, game_sides, rating_marks, ratings)}


@dataclass(frozen=True)
class ParsedGame:
    """A record replayed by the engine, ready to store (revision 0004)."""

    id: str
    digest: str
    events: list[Any]
    lines: list[str]
    game: GameState
    played_at: datetime
    source: str | None
    sweeps: dict[str, int] = field(default_factory=dict)


class SweepCount:
    """Each player's own clean sweeps in the rounds that ended (R7)."""

    def __init__(self, players: Iterable[str]) -> None:
        self.sweeps: dict[str, int] = dict.fromkeys(players, 0)
        self._rounds = 0

    def after(self, game: GameState) -> None:
        if len(game.results) != self._rounds:
            self._rounds = len(game.results)
            for player in self.sweeps:
                self.sweeps[player] += len(game.sweeps(player))


class _Replay(Replayer):
    def __init__(self) -> None:
        super().__init__()
        self.count = SweepCount(())
        self.events: list[dict[str, Any]] = []

    def visit_event(self, event: dict[str, Any], line: int) -> None:
        self.events.append(event)

    def begin_game(self, setup: GameSetup, line: int) -> None:  # type: ignore[override]
        super().begin_game(setup, line)
        self.count = SweepCount(setup.players)

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        self.count.after(self.game)


def parse_record(lines: Iterable[str], *, path: str | None = None, played_at: datetime | None = None) -> ParsedGame:
    """Replay ``lines`` and gather what revision 0004 stored."""
    replay = _Replay()
    read_record(lines, replay, path=path)
    events = replay.events
    canonical = [identity.canonical(e) for e in events]
    digest = identity.digest_lines(canonical)
    return ParsedGame(
        id=identity.game_id(events, known_digest=digest),
        digest=digest,
        events=events,
        lines=canonical,
        game=replay.game,
        played_at=game_date(events[0]) or played_at or datetime.now(UTC),
        source=path,
        sweeps=replay.count.sweeps,
    )


def power_ring_then(ring: PowerRing) -> str:
    """The Power Ring's reason in revision 0004's words (cards by id, ``nobody`` for a Ring
    card no side captured)."""
    if ring.master is None:
        held = ", ".join(f"{c.id} {side or 'nobody'}" for c, side in ring.ring.items())
        return f"Power Ring: no Power Master, the Ring cards are split ({held})"
    if ring.chain:
        chain = ", ".join(c.id for c in ring.chain)
        return f"Power Ring: {ring.master} is Power Master (3) with the chain {chain} (+{len(ring.chain)})"
    return f"Power Ring: {ring.master} is Power Master (3); no W004, so no chain"


def fire_dragon_then(dragon: FireDragon) -> str:
    """The Fire Dragon's reason in revision 0004's words (the card by id, its holder alone)."""
    return f"Fire Dragon (W007): {dragon.holder or 'nobody (it was not captured)'}"


def reasons_then(score: RoundScore) -> list[str]:
    """A round's reasons as revision 0004 stored them: today's, but for the Power Ring's and
    the Fire Dragon's."""
    then = {score.power_ring.explain(): power_ring_then(score.power_ring), score.dragon.explain(): fire_dragon_then(score.dragon)}
    return [then.get(line, line) for line in score.reasons()]


def _rows(parsed: ParsedGame, season: str) -> dict[Any, list[dict[str, Any]]]:
    """The rows revision 0004 stored of a game; the players' under :data:`game_players`."""
    game = parsed.game
    setup = game.setup
    gid = parsed.id
    outcome = game.outcome()
    totals = game.totals
    grand = sum(totals.values())
    sweeps: dict[str, int] = {s: 0 for s in setup.sides}
    rounds = []
    points = []
    for result in game.results:
        score = result.score
        rounds.append(
            {"game_id": gid, "number": result.number, "dealer": result.dealer, "rule_of_power": score.rule_of_power, "reasons": reasons_then(score)}
        )
        for side, pts in score.sides.items():
            points.append({"game_id": gid, "round": result.number, "side": side, **pts.to_json()})
        for side, n in score.sweeps.items():
            sweeps[side] = sweeps.get(side, 0) + n
    winner = outcome.winner if outcome else None
    rop = outcome.termination.value == "rule_of_power" if outcome else False
    return {
        games: [
            {
                "id": gid,
                "digest": parsed.digest,
                "season": season,
                "played_at": parsed.played_at.astimezone(UTC),
                "players": list(setup.players),
                "teams": [list(t) for t in setup.teams] if setup.teams else None,
                "target": setup.target,
                "expansion": setup.expansion,
                "finished": outcome is not None,
                "winner": winner,
                "termination": outcome.termination.value if outcome else None,
                "rounds": len(game.results),
                "events": len(parsed.events),
                "source": parsed.source,
                "stored_at": datetime.now(UTC),
            }
        ],
        game_players: [
            {"game_id": gid, "seat": i, "player": p, "side": setup.side_of(p), "sweeps": parsed.sweeps.get(p, 0)}
            for i, p in enumerate(setup.players)
        ],
        game_records: [{"game_id": gid, "body": "\n".join(parsed.lines)}],
        game_rounds: rounds,
        round_points: points,
        game_sides: [
            {
                "game_id": gid,
                "side": side,
                "is_team": setup.teams is not None,
                "points_for": totals[side],
                "points_against": grand - totals[side],
                "sweeps": sweeps.get(side, 0),
                "won": side == winner,
                "rule_of_power_win": rop and side == winner,
            }
            for side in setup.sides
        ],
    }


def store(conn: Any, parsed: ParsedGame, season: str) -> None:
    """Store ``parsed`` as revision 0004 did, on an archive of that revision."""
    for table, rows in _rows(parsed, season).items():
        if rows:
            conn.execute((players_0004 if table is game_players else table).insert(), rows)
