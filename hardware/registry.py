"""The tag registry: which NFC tag (by UID) sits on which card, and whose card it is.

One file per owner, ``<calibration>/tags/<owner>.jsonl``, one tag a line::

    {"uid": "04A1B2C3D4E5F6", "card": "W007", "owner": "ann", "ndef": true, "enrolled": "2026-11-22T02:30:00Z"}
    {"uid": "04C2D3E4F5A6B7", "card": "10H", "owner": "ann", "ndef": true, "enrolled": "2026-11-23T19:02:11Z", "game": "<another game>"}

A line names its card's game (``"game"``), the default game's when it has none, as every line
written before other games came had: so a tag names its game, and one owner's decks of two
games share a file.

One line per tag keeps the files easy to read, to diff and to merge, and lets every problem
name its file and line. A file is rewritten whole through a temporary file and an atomic
rename, so an interrupted enrolment never loses what was recorded before; lines that
cannot be read are kept verbatim at the end of the file until someone fixes them.

Loading never raises for bad content: each problem (broken line, unknown card, a tag
enrolled twice, a card with two tags) is kept in :attr:`Registry.problems` with the fix in
words, and the affected tags resolve to nothing rather than to a possibly wrong card.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from companion.observations.paths import calibration_dir
from companion.contract.errors import UnknownCardError
from companion.contract import Card
from companion.contract.registry import DEFAULT, UnknownGameError, game, games
from companion.observations.textio import InputError, loads_json, read_text

MAX_REGISTRY_BYTES = 16 * 1024 * 1024
"""A registry line is under a hundred bytes; a whole collection's file is a few kilobytes."""

__all__ = [
    "TagEntry",
    "RegistryProblem",
    "Registry",
    "RegistryError",
    "calibration_dir",
    "normalise_uid",
    "normalise_owner",
    "card_of_any_game",
]

_OWNER_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_UID_RE = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class RegistryError(ValueError):
    """A request the registry cannot honour (bad owner name, bad UID, unwritable file)."""


def normalise_uid(text: str) -> str:
    """``04:a1:b2 ...`` or ``04a1b2...`` to ``04A1B2...``; raises RegistryError unless it is a
    4, 7 or 10 byte ISO 14443-A UID."""
    uid = re.sub(r"[\s:-]", "", text).upper()
    if not _UID_RE.match(uid):
        raise RegistryError(f"not a tag UID: {text!r} (expected 4, 7 or 10 bytes in hex, e.g. 04A1B2C3D4E5F6)")
    return uid


def normalise_owner(text: str) -> str:
    """Owner names are file names too: lower case letters, digits, ``-`` and ``_``."""
    owner = text.strip().lower()
    if not _OWNER_RE.match(owner):
        raise RegistryError(
            f"owner name {text!r} is not usable: use 1-32 letters, digits, '-' or '_', starting with a letter or digit"
        )
    return owner


def card_of_any_game(text: str) -> Card | None:
    """The card an id names in any game's deck (the default game's first): ``W007``, ``10H``;
    ``None`` for a text that is none (a tag UID). Card ids of different games never coincide."""
    for played in [game(), *(g for g in games() if g.name != game().name)]:
        try:
            card: Card = played.cards.from_id(text)
        except UnknownCardError:
            continue
        return card
    return None


@dataclass(frozen=True, slots=True)
class TagEntry:
    """One enrolled tag. ``path``/``line`` say where it was read from (line 0: not saved yet)."""

    uid: str
    card: Card
    owner: str
    ndef: bool = False
    enrolled: str = ""
    path: Path | None = None
    line: int = 0

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.path else "(not saved)"

    def to_json(self) -> str:
        # The default game's lines name no game, as they always did.
        named = {} if self.card.game == game().name else {"game": self.card.game}
        return json.dumps(
            {"uid": self.uid, "card": self.card.id, "owner": self.owner, "ndef": self.ndef, "enrolled": self.enrolled, **named},
            separators=(", ", ": "),
        )


@dataclass(frozen=True, slots=True)
class RegistryProblem:
    """Something wrong in the registry files: where, what, and how to fix it."""

    path: Path
    line: int
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}" + (f" (fix: {self.fix})" if self.fix else "")


@dataclass
class Registry:
    """All owners' tags, loaded from ``directory`` (``<calibration>/tags``)."""

    directory: Path
    entries: list[TagEntry] = field(default_factory=list)
    problems: list[RegistryProblem] = field(default_factory=list)
    _by_uid: dict[str, TagEntry] = field(default_factory=dict)
    _conflicts: dict[str, list[TagEntry]] = field(default_factory=dict)
    #: Lines that could not be read, per file, kept verbatim so that saving never drops them.
    _unreadable: dict[Path, list[str]] = field(default_factory=dict)

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> Registry:
        """Read every ``*.jsonl`` of ``directory`` (missing directory: empty registry)."""
        reg = cls(Path(directory))
        if reg.directory.is_dir():
            for path in sorted(reg.directory.glob("*.jsonl")):
                reg._load_file(path)
        reg._index()
        return reg

    def _load_file(self, path: Path) -> None:
        try:
            owner = normalise_owner(path.stem)
        except RegistryError as exc:
            self.problems.append(RegistryProblem(path, 0, str(exc), "rename the file to <owner>.jsonl"))
            return
        try:
            text = read_text(path, max_bytes=MAX_REGISTRY_BYTES)
        except InputError as exc:
            self.problems.append(RegistryProblem(path, exc.line, f"cannot read: {exc.reason}", "save the file as UTF-8 text, then run: rop tags check"))
            return
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            entry = self._parse_line(path, number, raw, owner)
            if entry is not None:
                self.entries.append(entry)
            else:
                self._unreadable.setdefault(path, []).append(raw)

    def _parse_line(self, path: Path, number: int, raw: str, owner: str) -> TagEntry | None:
        def problem(message: str, fix: str = "correct or delete the line, then run: rop tags check") -> None:
            self.problems.append(RegistryProblem(path, number, message, fix))

        try:
            data = loads_json(raw, path=path, line=number)
        except InputError as exc:
            problem(exc.reason)
            return None
        if not isinstance(data, dict):
            problem("expected an object like {\"uid\": ..., \"card\": ..., \"owner\": ...}")
            return None
        for key in ("uid", "card", "owner", "enrolled", "game"):
            if key in data and not isinstance(data[key], str):
                problem(f'"{key}" must be a text, not {json.dumps(data[key])[:40]}')
                return None
        if not isinstance(data.get("ndef", False), bool):
            problem(f'"ndef" must be true or false, not {json.dumps(data["ndef"])[:40]}')
            return None
        try:
            uid = normalise_uid(str(data.get("uid", "")))
        except RegistryError as exc:
            problem(str(exc))
            return None
        try:
            played = game(str(data.get("game", DEFAULT)))
        except UnknownGameError as exc:
            problem(f"tag {uid}: {exc}")
            return None
        try:
            card = played.cards.from_id(str(data.get("card", "")))
        except UnknownCardError as exc:
            problem(f"tag {uid}: {exc}")
            return None
        line_owner = str(data.get("owner", owner)).strip().lower()
        if line_owner != owner:
            problem(f"tag {uid} says owner {line_owner!r} but sits in {owner}'s file", f"move the line to {line_owner}.jsonl")
            return None
        return TagEntry(uid, card, owner, bool(data.get("ndef", False)), str(data.get("enrolled", "")), path, number)

    def _index(self) -> None:
        by_uid: dict[str, list[TagEntry]] = {}
        by_card: dict[tuple[str, Card], list[TagEntry]] = {}
        for entry in self.entries:
            by_uid.setdefault(entry.uid, []).append(entry)
            by_card.setdefault((entry.owner, entry.card), []).append(entry)
        self._by_uid = {uid: group[0] for uid, group in by_uid.items() if len(group) == 1}
        self._conflicts = {uid: group for uid, group in by_uid.items() if len(group) > 1}
        for uid, group in self._conflicts.items():
            places = ", ".join(f"{e.where} ({e.card.id}, {e.owner})" for e in group)
            self.problems.append(
                RegistryProblem(
                    group[1].path or self.directory,
                    group[1].line,
                    f"tag {uid} is enrolled more than once: {places}; it reads as no card until fixed",
                    f"rop tags forget {uid} --owner <the wrong owner>, then enrol the card again",
                )
            )
        for (owner, card), group in by_card.items():
            if len(group) > 1:
                uids = ", ".join(f"{e.uid} ({e.where})" for e in group)
                self.problems.append(
                    RegistryProblem(
                        group[1].path or self.directory,
                        group[1].line,
                        f"{owner}'s {card.id} {card.title} has {len(group)} tags: {uids}",
                        f"keep the one on the card: rop tags forget <other uid> --owner {owner}",
                    )
                )

    # -- queries ---------------------------------------------------------------------------

    def lookup(self, uid: str) -> TagEntry | None:
        """The entry of a tag, or None if it is not enrolled or enrolled ambiguously."""
        return self._by_uid.get(uid)

    def conflicts(self, uid: str) -> list[TagEntry]:
        """The entries of a tag enrolled more than once (empty when it is not)."""
        return list(self._conflicts.get(uid, ()))

    def entries_for(self, owner: str, card: Card) -> list[TagEntry]:
        return [e for e in self.entries if e.owner == owner and e.card is card]

    def owners(self) -> list[str]:
        return sorted({e.owner for e in self.entries})

    def path_for(self, owner: str) -> Path:
        return self.directory / f"{normalise_owner(owner)}.jsonl"

    # -- changes ---------------------------------------------------------------------------

    def enrol(self, uid: str, card: Card, owner: str, *, ndef: bool, replace_card: bool = True) -> TagEntry:
        """Record ``uid`` as ``owner``'s ``card`` and save the owner's file.

        A tag already enrolled as another card (or for another owner) is refused with a
        RegistryError that says how to free it; the card's previous tag, if any, is replaced
        (``replace_card``) since a card carries one tag.
        """
        uid = normalise_uid(uid)
        owner = normalise_owner(owner)
        for other in [self._by_uid.get(uid), *self._conflicts.get(uid, ())]:
            if other is not None and (other.owner != owner or other.card is not card):
                raise RegistryError(
                    f"tag {uid} is already enrolled as {other.owner}'s {other.card.id} {other.card.title} "
                    f"({other.where}); to move it to this card first run: rop tags forget {uid} --owner {other.owner}"
                )
        previous = self.entries_for(owner, card)
        if previous and not replace_card and any(e.uid != uid for e in previous):
            raise RegistryError(f"{owner}'s {card.id} already has tag {previous[0].uid}")
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        kept = [e for e in self.entries if not (e.owner == owner and (e.card is card or e.uid == uid))]
        entry = TagEntry(uid, card, owner, ndef, stamp)
        self._save(owner, [e for e in kept if e.owner == owner] + [entry])
        self._reload()
        found = self.lookup(uid)
        assert found is not None  # just written and unique by the checks above
        return found

    def forget(self, owner: str, what: str) -> list[TagEntry]:
        """Remove ``owner``'s tag by UID or by card id; returns what was removed."""
        owner = normalise_owner(owner)
        mine = [e for e in self.entries if e.owner == owner]
        card = card_of_any_game(what)
        if card is not None:
            gone = [e for e in mine if e.card is card]
        else:
            uid = normalise_uid(what)
            gone = [e for e in mine if e.uid == uid]
        if gone:
            self._save(owner, [e for e in mine if e not in gone])
            self._reload()
        return gone

    def _save(self, owner: str, entries: list[TagEntry]) -> None:
        """Rewrite one owner's file atomically, sorted by card."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path_for(owner)
        entries = sorted(entries, key=lambda e: (e.card.id, e.uid))
        text = "".join(e.to_json() + "\n" for e in entries)
        # Lines we could not read stay, at the end, for a person to fix (rop tags check).
        text += "".join(raw + "\n" for raw in self._unreadable.get(path, ()))
        fd, tmp = tempfile.mkstemp(prefix=f".{owner}.", suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise RegistryError(f"cannot write {path}: {exc}") from exc

    def _reload(self) -> None:
        fresh = Registry.load(self.directory)
        self.entries, self.problems = fresh.entries, fresh.problems
        self._by_uid, self._conflicts = fresh._by_uid, fresh._conflicts
        self._unreadable = fresh._unreadable
