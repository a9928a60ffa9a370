"""A stored game's events in one row, its record, instead of one row an event.

A stored record is only ever read and written whole; one row a game makes adding games
several times faster and the archive smaller. The events of the games already stored are
joined into their records in order, a batch of games at a time.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BATCH = 1000


def upgrade() -> None:
    op.create_table(
        "game_records",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
    )
    conn = op.get_bind()
    events = sa.table("game_events", sa.column("game_id"), sa.column("number"), sa.column("body"))
    records = sa.table("game_records", sa.column("game_id"), sa.column("body"))
    ids = conn.execute(sa.select(events.c.game_id).distinct().order_by(events.c.game_id)).scalars().all()
    for k in range(0, len(ids), BATCH):
        chunk = ids[k : k + BATCH]
        lines: dict[str, list[str]] = {gid: [] for gid in chunk}
        query = sa.select(events.c.game_id, events.c.body).where(events.c.game_id.in_(chunk)).order_by(events.c.game_id, events.c.number)
        for gid, body in conn.execute(query):
            lines[gid].append(body)
        conn.execute(records.insert(), [{"game_id": gid, "body": "\n".join(text)} for gid, text in lines.items()])
    op.drop_table("game_events")


def downgrade() -> None:
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
    )
    conn = op.get_bind()
    events = sa.table("game_events", sa.column("game_id"), sa.column("number"), sa.column("body"))
    records = sa.table("game_records", sa.column("game_id"), sa.column("body"))
    for gid, body in conn.execute(sa.select(records.c.game_id, records.c.body)).all():
        rows = [{"game_id": gid, "number": n, "body": line} for n, line in enumerate(body.split("\n"), 1)]
        conn.execute(events.insert(), rows)
    op.drop_table("game_records")
