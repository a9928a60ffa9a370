"""The values table a table entered once (B4), kept with the table's settings in the user's
data directory (the calibration directory of :mod:`companion.observations.paths`, beside the
owner slots and tag registries), so that every game of the table carries it without anyone
typing it again, and a fresh clone or a reinstall keeps it::

    ~/.local/share/rop/calibration/ruse-and-bruise/values.json
    {"game": "ruse-and-bruise", "values": {"ASSN": 6, "MUSK": 9, ...}}

``rop cards values --game ruse-and-bruise`` writes it (card by card on a terminal, or from
``--values ASSN=6,...``) and shows it (``--show``). A table without one is told how to enter
it; the companion never makes one up.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.games.ruse_and_bruise.values import ValuesTable, ValuesTableError
from companion.observations.outfiles import OutputError, atomic_output
from companion.observations.paths import calibration_dir
from companion.observations.textio import InputError, read_json

__all__ = ["VALUES_FILE", "values_path", "load_values", "save_values", "require_values", "NoValuesTable", "HOW_TO_ENTER"]

VALUES_FILE = Path("ruse-and-bruise") / "values.json"
"""The table's values table, in the calibration directory."""

HOW_TO_ENTER = "enter it once from your own cards: rop cards values --game ruse-and-bruise (or give it: --values ASSN=6,MUSK=9,...)"


class NoValuesTable(ValueError):
    """The table has no values table yet (B4): the message says how to enter it."""

    rule = "B4"

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"this table has no values table yet ({path} does not exist): {HOW_TO_ENTER} (B4)")


def values_path(calibration: str | os.PathLike[str] | None = None) -> Path:
    """Where the table's values table is kept."""
    return calibration_dir(calibration) / VALUES_FILE


def load_values(calibration: str | os.PathLike[str] | None = None) -> ValuesTable | None:
    """The table's values table, ``None`` when it has none yet; :class:`ValuesTableError`
    naming the file when the file holds no valid table."""
    path = values_path(calibration)
    if not path.exists():
        return None
    try:
        data = read_json(path, max_bytes=64 * 1024)
    except (InputError, OSError) as exc:
        raise ValuesTableError(f"{path}: not a values table ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("values"), dict):
        raise ValuesTableError(f'{path}: not a values table (it should hold {{"game": "ruse-and-bruise", "values": {{...}}}})')
    try:
        return ValuesTable.from_mapping(data["values"])
    except ValuesTableError as exc:
        raise ValuesTableError(f"{path}: {exc.reason}; enter the table again: rop cards values --game ruse-and-bruise", card=exc.card, rule=exc.rule) from None


def require_values(calibration: str | os.PathLike[str] | None = None) -> ValuesTable:
    """The table's values table; :class:`NoValuesTable` saying how to enter it when there is
    none."""
    table = load_values(calibration)
    if table is None:
        raise NoValuesTable(values_path(calibration))
    return table


def save_values(table: ValuesTable, calibration: str | os.PathLike[str] | None = None) -> Path:
    """Keep ``table`` as the table's values table; the path written. The file is replaced
    whole or not at all (:class:`~companion.observations.outfiles.OutputError` naming it)."""
    path = values_path(calibration)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path.parent, exc.strerror or str(exc)) from None
    with atomic_output(path) as out:
        out.write(json.dumps({"game": "ruse-and-bruise", "values": table.to_json()}, indent=1) + "\n")
    return path
