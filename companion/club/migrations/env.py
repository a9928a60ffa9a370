"""Alembic's environment for the club archive: runs on the connection that
:func:`companion.club.database.open_archive` hands over (``config.attributes["connection"]``),
or on ``sqlalchemy.url`` when run from the ``alembic`` command."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from companion.club.schema import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(config.get_section(config.config_ini_section) or {}, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
