"""The archive's tables (SQLAlchemy Core). The migrations in ``migrations/versions`` create
exactly these; a change here needs a new migration.

The tables are the same for every game. A game is stored whole: which game it is and its
set-up as its record's ``game`` event has it, its seats and sides, its record (every event,
so that it can be replayed and sent back; one row a game, since a stored record is read and
written whole), and its figures (:mod:`companion.club.parts`): whole numbers the game names,
one row each, for the whole game (``game_figures``: what standings sum) and for each scoring
period (``period_figures``, with the period in the game's words in ``game_periods``), each
held by a side or by a player (``scope``). A game with other figures needs no other columns.
``live_events`` holds the events of games still being played at a table, one row an event,
as they arrive.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, ForeignKey, Integer, MetaData, String, Table, Text, false

metadata = MetaData()

#: ``scope``: who holds a figure. A side that is a team is told apart from other sides (a
#: player alone, an automatic seat), so that standings sum a team's figures without reading
#: which sides are teams.
SIDE = "side"
TEAM = "team"
PLAYER = "player"

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    # sha256 of the canonical event lines: the same id with another digest is a correction.
    Column("digest", String(64), nullable=False),
    Column("game", String(40), nullable=False, index=True),  # the game's name: "rule-of-power"
    Column("season", String(32), nullable=False, index=True),
    Column("played_at", DateTime(timezone=True), nullable=False, index=True),
    # The set-up as the record's game event has it (its format, players and options).
    Column("setup", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("winner", String(200), nullable=True),
    Column("termination", String(32), nullable=True),
    Column("periods", Integer, nullable=False),  # finished scoring periods: rounds, seasons
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
    # A seat nobody holds (a dummy): kept with its figures, never rated nor standing.
    Column("automatic", Boolean, nullable=False, server_default=false()),
)

game_records = Table(
    "game_records",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # Every event of the game as a canonical line, header first: the record, one row a game.
    Column("body", Text, nullable=False),
)

game_sides = Table(
    "game_sides",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side", String(200), primary_key=True),
    Column("is_team", Boolean, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("place", Integer, nullable=True),  # 1 first, equal places shared; null: unfinished
    # The side's players who are rated, in seating order (its automatic seats left out).
    Column("members", JSON, nullable=False),
)

game_periods = Table(
    "game_periods",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("details", JSON, nullable=False),  # the period in the game's words: dealer, reasons
)

game_figures = Table(
    "game_figures",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("scope", String(8), primary_key=True),  # SIDE, TEAM or PLAYER
    Column("holder", String(200), primary_key=True),  # the side's or the player's name
    Column("figure", String(40), primary_key=True),
    Column("value", Integer, nullable=False),
    sqlite_with_rowid=False,
)

period_figures = Table(
    "period_figures",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("period", Integer, primary_key=True),
    Column("scope", String(8), primary_key=True),
    Column("holder", String(200), primary_key=True),
    Column("figure", String(40), primary_key=True),
    Column("value", Integer, nullable=False),
    sqlite_with_rowid=False,
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
GAME_CHILDREN = (game_players, game_records, game_sides, game_periods, game_figures, period_figures)

# Ratings per game as of a season's last rated (or counted) game (season "" = every season),
# so that standings rate only the games added since. A game added before that point, or a
# correction, clears them.
rating_marks = Table(
    "rating_marks",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("season", String(32), primary_key=True),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("game_id", String(64), nullable=False),
    Column("games", Integer, nullable=False),
    # What standings counted up to that game, per player and team (games, unfinished games,
    # wins and the game's figures), so that they count only the games added since; null when
    # only the ratings were kept.
    Column("sums", JSON, nullable=True),
)

ratings = Table(
    "ratings",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("season", String(32), primary_key=True),
    Column("pool", String(8), primary_key=True),  # "player" or "team"
    Column("name", String(200), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)
