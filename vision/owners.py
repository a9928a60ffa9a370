"""The owner registry: which player name each of the eight owner slots of the markers stands for.

A marker can only carry a slot number (0-7), so the names live in a small JSON file,
``owners.json`` in the calibration directory (see :mod:`vision.paths`)::

    {"owners": ["ann", "bob", null, null, null, null, null, null]}

``rop markers --owner NAME`` gives a new name the first free slot and saves the file; the
same file must be used when detecting, or the camera reports the slot as ``"#3"`` instead of
a name. Names compare without regard to case.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from companion.observations.textio import read_json
from vision.markers import OWNER_SLOTS

__all__ = ["OwnerRegistry", "OwnerError", "REGISTRY_FILE"]

REGISTRY_FILE = "owners.json"
_NAME_RE = re.compile(r"^[^\s:/\\#][^:/\\]{0,31}$")


class OwnerError(ValueError):
    """A bad owner name, a full registry or an unreadable registry file."""


@dataclass
class OwnerRegistry:
    """Eight slots, each empty (``None``) or holding a player name."""

    slots: list[str | None] = field(default_factory=lambda: [None] * OWNER_SLOTS)
    path: Path | None = None

    @classmethod
    def load(cls, path: str | Path) -> "OwnerRegistry":
        """Read the registry; a missing file is an empty registry (written on first save)."""
        path = Path(path)
        if not path.exists():
            return cls(path=path)
        try:
            data = read_json(path, max_bytes=1024 * 1024)
            owners = data["owners"]
            if not isinstance(owners, list) or len(owners) > OWNER_SLOTS:
                raise ValueError(f"'owners' must be a list of at most {OWNER_SLOTS} names or nulls")
            slots = [None if o is None else _check_name(str(o)) for o in owners]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise OwnerError(f"{path}: not a valid owner registry: {exc}") from exc
        lower = [s.casefold() for s in slots if s]
        if len(lower) != len(set(lower)):
            raise OwnerError(f"{path}: a name appears in two slots")
        return cls(slots + [None] * (OWNER_SLOTS - len(slots)), path)

    def slot_of(self, name: str) -> int | None:
        """The slot holding ``name`` (any case), or ``None``."""
        key = name.strip().casefold()
        for i, owner in enumerate(self.slots):
            if owner is not None and owner.casefold() == key:
                return i
        return None

    def name_of(self, slot: int | None) -> str | None:
        """The player name of a slot; ``"#n"`` for a slot no name is registered for."""
        if slot is None:
            return None
        return self.slots[slot] if self.slots[slot] is not None else f"#{slot}"

    def assign(self, name: str) -> int:
        """The slot of ``name``, giving it the first free slot when it has none yet."""
        name = _check_name(name)
        slot = self.slot_of(name)
        if slot is not None:
            return slot
        try:
            slot = self.slots.index(None)
        except ValueError:
            raise OwnerError(
                f"all {OWNER_SLOTS} owner slots are taken ({', '.join(s for s in self.slots if s)}); "
                f"free one in {self.path or REGISTRY_FILE}"
            ) from None
        self.slots[slot] = name
        return slot

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path or self.path or REGISTRY_FILE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"owners": self.slots}, indent=2) + "\n", encoding="utf-8")
        self.path = target
        return target


def _check_name(name: str) -> str:
    """An owner's name names a directory of marker sheets: no path characters, no control
    characters (newlines, tabs), not ``.`` or ``..``."""
    name = name.strip()
    if not _NAME_RE.fullmatch(name) or not name.isprintable() or name.startswith("."):
        raise OwnerError(
            f"owner name {name!r} is not usable: 1-32 printable characters, not starting with '#', '.' or a space, "
            "without ':', '/' or '\\'"
        )
    return name
