"""The tables' tokens: a table posts its events with a secret token; the server keeps only
the token's sha256, one ``TABLE HASH`` line per table in a tokens file.

A token is 32 random bytes (``secrets.token_hex``): with that much entropy a plain
sha256 is enough to keep a stolen tokens file from revealing a usable token.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from pathlib import Path

from companion.club.database import data_dir

__all__ = ["TokenError", "TokenFile", "default_tokens_path", "issue_token", "load_tokens"]

TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


class TokenError(ValueError):
    """A bad table name or a malformed tokens file (names the file and line)."""


def default_tokens_path() -> Path:
    env = os.environ.get("ROP_CLUB_TOKENS")
    return Path(env).expanduser() if env else data_dir() / "club-tokens.txt"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def load_tokens(path: Path) -> dict[str, str]:
    """Table name -> token hash. A missing file is no tokens (the server is read-only)."""
    out: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return out
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not TABLE_NAME.match(parts[0]) or not re.fullmatch(r"[0-9a-f]{64}", parts[1]):
            raise TokenError(f"{path}:{n}: expected 'TABLE SHA256' (a table name and a 64-digit hex hash)")
        out[parts[0]] = parts[1]
    return out


def issue_token(path: Path, table: str) -> str:
    """A new token for ``table``, its hash written to ``path`` (replacing the table's old
    one). Returns the token, which is shown once and stored nowhere in clear."""
    if not TABLE_NAME.match(table):
        raise TokenError(f"table names are letters, digits, '_', '.', '-' (up to 100): {table!r}")
    tokens = load_tokens(path)
    token = secrets.token_hex(32)  # hex: a token never starts with "-", which a command line would take for an option
    tokens[table] = _hash(token)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fp:
        fp.write("# rop club tokens: table and sha256 of its token\n")
        for name, digest in sorted(tokens.items()):
            fp.write(f"{name} {digest}\n")
    os.replace(tmp, path)
    return token


def _by_hash(tokens: dict[str, str]) -> dict[str, str]:
    return {digest: name for name, digest in tokens.items()}


class TokenFile:
    """The tokens file as a running server sees it: re-read when it changes, so a table
    given a token with ``rop club token`` during a club night can post at once."""

    def __init__(self, path: Path | None, tokens: dict[str, str] | None = None) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self.tokens: dict[str, str] = dict(tokens or {})
        self._tables = _by_hash(self.tokens)
        self._refresh()

    def _refresh(self) -> None:
        if self.path is None:
            return
        try:
            st = self.path.stat()
            stamp = (st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            stamp = None
        if stamp != self._stamp:
            self.tokens = load_tokens(self.path)
            self._tables = _by_hash(self.tokens)
            self._stamp = stamp

    def table_for(self, token: str | None) -> str | None:
        """The table whose token this is, or ``None``. Looked up by the token's sha256, one
        step however many tables there are: what the lookup's timing could reveal is about
        the hash, and a hash does not lead back to a token."""
        if not token:
            return None
        digest = _hash(token)
        found = self._tables.get(digest)
        if found is None:
            self._refresh()
            found = self._tables.get(digest)
        return found
