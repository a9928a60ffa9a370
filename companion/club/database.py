"""Opening the archive: where it lives, and bringing its schema up to date.

The default is SQLite in the user's data directory (``$XDG_DATA_HOME/rop/club.sqlite``, else
``~/.local/share/rop/club.sqlite``); ``$ROP_CLUB_DB`` or an explicit URL overrides it. A
league server gives a PostgreSQL URL (``postgresql://user@host/db``). Either way the schema
is the one the migrations build, applied on every open, so an older archive is upgraded in
place and a new one is created.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["DB_ENV", "ArchiveUnavailable", "default_url", "normalise_url", "open_archive"]

DB_ENV = "ROP_CLUB_DB"
_MIGRATIONS = Path(__file__).with_name("migrations")


class ArchiveUnavailable(RuntimeError):
    """The archive cannot be opened (a bad URL, an unreachable server, a locked file)."""


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "rop"


def default_url() -> str:
    """``$ROP_CLUB_DB``, else the SQLite file in the user's data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    return f"sqlite:///{data_dir() / 'club.sqlite'}"


def normalise_url(url: str) -> str:
    """A plain path is a SQLite file; ``postgresql://`` uses psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().absolute()}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets the live page read while a table's post is written; the busy timeout makes
    # two commands on one laptop wait for each other instead of failing.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def open_archive(url: str | None = None, *, upgrade: bool = True) -> Engine:
    """An engine on the archive at ``url`` (default :func:`default_url`), its schema
    brought up to date by the migrations."""
    raw = normalise_url(url or default_url())
    try:
        parsed = make_url(raw)
    except ArgumentError as exc:
        raise ArchiveUnavailable(f"not a database URL: {url!r} ({exc})") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise ArchiveUnavailable(f"the club archive is SQLite (a file, sqlite:///...) or PostgreSQL (postgresql://...), not {backend}://")
    if backend == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ArchiveUnavailable(f"cannot create the club archive's folder for {parsed.database}: {exc.strerror}") from None
        engine = create_engine(parsed, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        try:
            engine = create_engine(parsed, pool_pre_ping=True)
        except (ArgumentError, ImportError) as exc:
            raise ArchiveUnavailable(f"cannot use {parsed.render_as_string(hide_password=True)}: {exc}") from None
    if upgrade:
        try:
            migrate(engine)
        except Exception as exc:
            engine.dispose()
            raise ArchiveUnavailable(f"cannot open the club archive at {parsed.render_as_string(hide_password=True)}: {exc}") from exc
    return engine


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` on ``engine``.

    On SQLite, foreign keys are off while they run: dropping a column rebuilds its table, and
    rebuilding ``games`` must not cascade to the tables that refer to it. They are checked
    before the migrations commit."""
    config = alembic_config()
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # Outside a transaction, where SQLite takes it.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                config.attributes["connection"] = conn
                command.upgrade(config, revision)
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migrated archive has rows without their game: {broken[:5]}")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
