"""Ratings kept between runs: each season's ratings as of its last rated game.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_marks",
        sa.Column("season", sa.String(32), primary_key=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("season", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("rating_marks")
