"""Games of any game: every stored game names its game, and its figures are long rows.

Until now the archive kept Rule of Power's games only, with a column per Rule of Power
figure. From here every game names its game (``games.game``) and keeps its set-up as its
record's ``game`` event has it (``games.setup``), and a game's figures are rows of their own,
one a figure (its holder, a player, a team or another side, its name and its value):
``game_figures`` for the whole game, ``period_figures`` for each scoring period, with the period in the game's words in
``game_periods``. Each side's finishing place and its rated members are kept for the ratings
(``game_sides.place``, ``game_sides.members``), each seat says whether it is an automatic one
(``game_players.automatic``), and kept ratings are per game, with the standings' sums beside
them.

The games already stored are Rule of Power's (``rop-record/1``); their figures move, with
nothing lost:

- ``round_points`` (a column per point) -> ``period_figures``: a row per round, side and point
  (none for a point of 0: a figure a holder does not have is 0, as the archive stores them);
- ``game_rounds`` (dealer, rule_of_power, reasons) -> ``game_periods.details``;
- ``game_sides`` points_for, points_against, sweeps, rule_of_power_win -> ``game_figures`` of
  the side (``rule_of_power_wins``, 1 or 0); the same for each player, their side's figures
  but for their own ``sweeps`` (``game_players.sweeps``);
- ``games`` teams, target, expansion -> ``games.setup``; rounds -> ``games.periods``;
- ``game_sides.place``: the winner first, then by game totals, equal totals sharing a place
  (as ratings ranked them); ``game_sides.members``: its players in seating order;
- ``rating_marks`` and ``ratings`` -> the same rows for Rule of Power; the standings' sums
  kept beside the ratings from now on (``rating_marks.sums``) are counted afresh next time.

On SQLite a table is rebuilt to drop its columns (``batch_alter_table``);
:func:`companion.club.database.migrate` turns foreign keys off meanwhile, so that rebuilding
``games`` leaves its children alone.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: Every game stored before this revision: Rule of Power's, as its records name it.
GAME = "rule-of-power"
FORMAT = "rop-record/1"
#: Rule of Power's points of a side in a round (the columns of round_points).
ROUND_POINTS = ("world_cards", "power_cards", "fire_dragon", "pride_of_dragons", "power_master", "power_points", "sweeps", "total")
BATCH = 1000


def _game_fk() -> sa.Column:
    return sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


def _figures_table(name: str, *period: sa.Column) -> None:
    op.create_table(
        name,
        _game_fk(),
        *period,
        sa.Column("scope", sa.String(8), primary_key=True),
        sa.Column("holder", sa.String(200), primary_key=True),
        sa.Column("figure", sa.String(40), primary_key=True),
        sa.Column("value", sa.Integer, nullable=False),
        sqlite_with_rowid=False,
    )


def _table(name: str, *columns: str, **typed: sa.types.TypeEngine) -> sa.TableClause:
    return sa.table(name, *(sa.column(c) for c in columns), *(sa.column(c, t) for c, t in typed.items()))


def upgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "game_periods",
        _game_fk(),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("details", sa.JSON, nullable=False),
    )
    _figures_table("game_figures")
    _figures_table("period_figures", sa.Column("period", sa.Integer, primary_key=True))

    games = _table("games", "id", "finished", "target", "expansion", "game", players=sa.JSON(), teams=sa.JSON(), setup=sa.JSON())
    players = _table("game_players", "game_id", "player", "side", "sweeps")
    sides = _table(
        "game_sides", "game_id", "side", "is_team", "points_for", "points_against", "sweeps", "won", "rule_of_power_win", "place",
        members=sa.JSON(),
    )
    rounds = _table("game_rounds", "game_id", "number", "dealer", "rule_of_power", reasons=sa.JSON())
    points = _table("round_points", "game_id", "round", "side", *ROUND_POINTS)
    periods = _table("game_periods", "game_id", "number", details=sa.JSON())
    game_figures = _table("game_figures", "game_id", "scope", "holder", "figure", "value")
    period_figures = _table("period_figures", "game_id", "period", "scope", "holder", "figure", "value")
    columns = ["game_id", "scope", "holder", "figure", "value"]

    # A side's figures are held by a team or by a side that is none.
    scope = sa.case((sides.c.is_team.is_(True), "team"), else_="side")
    # Each round's points per side: a row a point (a point of 0 is not stored: a figure a
    # holder does not have is 0).
    for name in ROUND_POINTS:
        conn.execute(
            period_figures.insert().from_select(
                ["game_id", "period", "scope", "holder", "figure", "value"],
                sa.select(points.c.game_id, points.c["round"], scope, points.c.side, sa.literal(name), points.c[name])
                .select_from(points.join(sides, (sides.c.game_id == points.c.game_id) & (sides.c.side == points.c.side)))
                .where(points.c[name] != 0),
            )
        )
    # Each side's figures for the whole game, and each player's: their side's, but for the
    # sweeps they made themselves.
    won_by_rule = sa.case((sides.c.rule_of_power_win.is_(True), 1), else_=0)
    for name, value in (
        ("points_for", sides.c.points_for),
        ("points_against", sides.c.points_against),
        ("sweeps", sides.c.sweeps),
        ("rule_of_power_wins", won_by_rule),
    ):
        conn.execute(
            game_figures.insert().from_select(
                columns, sa.select(sides.c.game_id, scope, sides.c.side, sa.literal(name), value).where(value != 0)
            )
        )
        own = players.c.sweeps if name == "sweeps" else value
        conn.execute(
            game_figures.insert().from_select(
                columns,
                sa.select(players.c.game_id, sa.literal("player"), players.c.player, sa.literal(name), own)
                .select_from(players.join(sides, (sides.c.game_id == players.c.game_id) & (sides.c.side == players.c.side)))
                .where(own != 0),
            )
        )
    # Each round in words.
    ids = conn.execute(sa.select(rounds.c.game_id).distinct().order_by(rounds.c.game_id)).scalars().all()
    for k in range(0, len(ids), BATCH):
        chunk = conn.execute(sa.select(rounds).where(rounds.c.game_id.in_(ids[k : k + BATCH]))).all()
        conn.execute(
            periods.insert(),
            [
                {
                    "game_id": r.game_id,
                    "number": r.number,
                    "details": {"dealer": r.dealer, "rule_of_power": r.rule_of_power, "reasons": r.reasons},
                }
                for r in chunk
            ],
        )
    # Places: the winner first, then by game totals, equal totals sharing a place.
    op.add_column("game_sides", sa.Column("place", sa.Integer, nullable=True))
    ahead = sides.alias("ahead")
    better = (
        sa.select(sa.func.count())
        .where((ahead.c.game_id == sides.c.game_id) & ahead.c.won.is_(False) & (ahead.c.points_for > sides.c.points_for))
        .scalar_subquery()
    )
    conn.execute(
        sa.update(sides)
        .where(sides.c.game_id.in_(sa.select(games.c.id).where(games.c.finished.is_(True))))
        .values(place=sa.case((sides.c.won.is_(True), 1), else_=2 + better))
    )
    # Each side's members, in seating order (no seat was an automatic one).
    op.add_column("game_sides", sa.Column("members", sa.JSON, nullable=True))
    seats = _table("game_players", "game_id", "seat", "player", "side")
    members = sa.update(sides).where((sides.c.game_id == sa.bindparam("gid")) & (sides.c.side == sa.bindparam("of"))).values(
        members=sa.bindparam("names", type_=sa.JSON())
    )
    ids = conn.execute(sa.select(games.c.id).order_by(games.c.id)).scalars().all()
    for k in range(0, len(ids), BATCH):
        held: dict[tuple[str, str], list[str]] = {}
        query = sa.select(seats.c.game_id, seats.c.side, seats.c.player).where(seats.c.game_id.in_(ids[k : k + BATCH]))
        for gid, side, player in conn.execute(query.order_by(seats.c.game_id, seats.c.seat)):
            held.setdefault((gid, side), []).append(player)
        if held:
            conn.execute(members, [{"gid": gid, "of": side, "names": names} for (gid, side), names in held.items()])
    # Each game names its game and keeps its set-up as its record's game event has it.
    op.add_column("games", sa.Column("game", sa.String(40), nullable=True))
    op.add_column("games", sa.Column("setup", sa.JSON, nullable=True))
    conn.execute(sa.update(games).values(game=GAME))
    fill = sa.update(games).where(games.c.id == sa.bindparam("gid")).values(setup=sa.bindparam("new_setup", type_=sa.JSON()))
    for k in range(0, len(ids), BATCH):
        chunk = conn.execute(
            sa.select(games.c.id, games.c.players, games.c.teams, games.c.target, games.c.expansion).where(
                games.c.id.in_(ids[k : k + BATCH])
            )
        ).all()
        conn.execute(
            fill,
            [
                {
                    "gid": r.id,
                    "new_setup": {
                        "format": FORMAT,
                        "players": r.players,
                        "teams": r.teams,
                        "target": r.target,
                        "expansion": bool(r.expansion),
                    },
                }
                for r in chunk
            ],
        )
    with op.batch_alter_table("games") as batch:
        batch.alter_column("game", existing_type=sa.String(40), nullable=False)
        batch.alter_column("setup", existing_type=sa.JSON, nullable=False)
        batch.alter_column("rounds", new_column_name="periods", existing_type=sa.Integer, existing_nullable=False)
        batch.drop_column("teams")
        batch.drop_column("target")
        batch.drop_column("expansion")
        batch.create_index("ix_games_game", ["game"])
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("automatic", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.drop_column("sweeps")
    with op.batch_alter_table("game_sides") as batch:
        batch.alter_column("members", existing_type=sa.JSON, nullable=False)
        for name in ("points_for", "points_against", "sweeps", "rule_of_power_win"):
            batch.drop_column(name)
    op.drop_table("round_points")
    op.drop_table("game_rounds")

    # Kept ratings, per game.
    marks = _table("rating_marks", "game", "season", "game_id", "games", played_at=sa.DateTime(timezone=True))
    kept = _table("ratings", "game", "season", "pool", "name", "mu", "sigma", "games")
    mark_rows = [dict(r) for r in conn.execute(sa.select(marks.c.season, marks.c.played_at, marks.c.game_id, marks.c.games)).mappings()]
    kept_rows = [
        dict(r)
        for r in conn.execute(sa.select(kept.c.season, kept.c.pool, kept.c.name, kept.c.mu, kept.c.sigma, kept.c.games)).mappings()
    ]
    op.drop_table("ratings")
    op.drop_table("rating_marks")
    op.create_table(
        "rating_marks",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("season", sa.String(32), primary_key=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("sums", sa.JSON, nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("season", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    if mark_rows:
        conn.execute(marks.insert(), [{"game": GAME, **r} for r in mark_rows])
    if kept_rows:
        conn.execute(kept.insert(), [{"game": GAME, **r} for r in kept_rows])


def downgrade() -> None:
    raise NotImplementedError("an archive of any game cannot go back to one that keeps Rule of Power's alone")
