"""Each player's own clean sweeps (R7) on their row of a game, beside the side's sum.

In a game without teams a player's sweeps are their side's. In a team game they are the
sweeps made with the cards that player laid, which only a replay tells: the stored events of
each team game that has sweeps are replayed by the rules (a one-off when an archive is
upgraded; a game whose events cannot be replayed keeps 0 and is named in the log).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    op.add_column("game_players", sa.Column("sweeps", sa.Integer, nullable=False, server_default="0"))
    conn = op.get_bind()
    players = sa.table("game_players", sa.column("game_id"), sa.column("player"), sa.column("side"), sa.column("sweeps"))
    sides = sa.table("game_sides", sa.column("game_id"), sa.column("side"), sa.column("is_team"), sa.column("sweeps"))
    events = sa.table("game_events", sa.column("game_id"), sa.column("number"), sa.column("body"))
    own = (
        sa.select(sides.c.sweeps)
        .where((sides.c.game_id == players.c.game_id) & (sides.c.side == players.c.side))
        .scalar_subquery()
    )
    conn.execute(sa.update(players).where(players.c.side == players.c.player).values(sweeps=own))
    team_games = conn.execute(
        sa.select(sides.c.game_id).where(sides.c.is_team.is_(True) & (sides.c.sweeps > 0)).distinct()
    ).scalars().all()
    if not team_games:
        return
    from companion.club.archive import parse_record
    from companion.records.format import RecordError

    for game_id in team_games:
        lines = conn.execute(sa.select(events.c.body).where(events.c.game_id == game_id).order_by(events.c.number)).scalars().all()
        try:
            # The archive held Rule of Power's games only: its club part counts each
            # player's own sweeps.
            figures = parse_record(lines).result.figures.players
            counts = {player: named.get("sweeps", 0) for player, named in figures.items()}
        except RecordError as exc:
            log.warning("game %s: its events do not replay (%s); its players' own sweeps are left at 0", game_id, exc)
            continue
        for player, n in counts.items():
            if n:
                conn.execute(
                    sa.update(players).where((players.c.game_id == game_id) & (players.c.player == player)).values(sweeps=n)
                )


def downgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("sweeps")
