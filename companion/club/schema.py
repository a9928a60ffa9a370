"""The archive's tables (SQLAlchemy Core). The migrations in ``migrations/versions`` create
exactly these; a change here needs a new migration.

A game is stored whole: its set-up and players, its record (every event, so that it can be
replayed and sent back; one row a game, since a stored record is read and written whole),
each round's points per side with the settlement's reasons, and one row per side with what
standings need (points for and against, sweeps, the win); each player's own sweeps are on
their row of ``game_players``. ``live_events`` holds the events of games still being played
at a table, one row an event, as they arrive.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    # sha256 of the canonical event lines: the same id with another digest is a correction.
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

game_players = Table(
    "game_players",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(100), nullable=False, index=True),
    Column("side", String(200), nullable=False),
    # The clean sweeps this player made (R7); the side's row in game_sides has the team's sum.
    Column("sweeps", Integer, nullable=False, server_default="0"),
)

game_records = Table(
    "game_records",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # Every event of the game as a canonical line, header first: the record, one row a game.
    Column("body", Text, nullable=False),
)

game_rounds = Table(
    "game_rounds",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", String(100), nullable=False),
    Column("rule_of_power", String(200), nullable=True),
    Column("reasons", JSON, nullable=False),  # the settlement in words, one line per point
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

live_events = Table(
    "live_events",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_name", String(100), nullable=False, index=True),
    Column("body", Text, nullable=False),
    Column("received_at", DateTime(timezone=True), nullable=False),
)

#: Child tables of ``games``, deleted explicitly when a game is replaced (SQLite enforces
#: foreign keys only when asked, so cascades are not relied on).
GAME_CHILDREN = (game_players, game_records, game_rounds, round_points, game_sides)

# Ratings as of a season's last rated game ("" = every season), so that standings rate only
# the games added since. A game added before that point, or a correction, clears them.
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
    Column("pool", String(8), primary_key=True),  # "player" or "team"
    Column("name", String(200), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)
