"""The archive: games with their players, events, rounds, points and sides; live events.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _game_fk() -> sa.Column:
    return sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("season", sa.String(32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("teams", sa.JSON, nullable=True),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("expansion", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("winner", sa.String(200), nullable=True),
        sa.Column("termination", sa.String(32), nullable=True),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("events", sa.Integer, nullable=False),
        sa.Column("source", sa.Text, nullable=True),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_season", "games", ["season"])
    op.create_index("ix_games_played_at", "games", ["played_at"])
    op.create_table(
        "game_players",
        _game_fk(),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("side", sa.String(200), nullable=False),
    )
    op.create_index("ix_game_players_player", "game_players", ["player"])
    op.create_table(
        "game_events",
        _game_fk(),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_table(
        "game_rounds",
        _game_fk(),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("dealer", sa.String(100), nullable=False),
        sa.Column("rule_of_power", sa.String(200), nullable=True),
        sa.Column("reasons", sa.JSON, nullable=False),
    )
    op.create_table(
        "round_points",
        _game_fk(),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("side", sa.String(200), primary_key=True),
        *(
            sa.Column(name, sa.Integer, nullable=False)
            for name in (
                "world_cards",
                "power_cards",
                "fire_dragon",
                "pride_of_dragons",
                "power_master",
                "power_points",
                "sweeps",
                "total",
            )
        ),
    )
    op.create_table(
        "game_sides",
        _game_fk(),
        sa.Column("side", sa.String(200), primary_key=True),
        sa.Column("is_team", sa.Boolean, nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("sweeps", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rule_of_power_win", sa.Boolean, nullable=False),
    )
    op.create_table(
        "live_events",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_name", sa.String(100), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_live_events_table_name", "live_events", ["table_name"])


def downgrade() -> None:
    for name in ("live_events", "game_sides", "round_points", "game_rounds", "game_events", "game_players", "games"):
        op.drop_table(name)
