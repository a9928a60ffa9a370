"""Table layouts: the mat's size, where its corner markers lie and the zones of the table, all in
table millimetres (origin at the mat's top-left corner as the camera sees it, x to the right,
y down).

A layout belongs to a game (``"game"`` in its file; the default game's when absent), whose table
spec (:class:`companion.contract.TableSpec`) names its zones: each seat's (``"<kind>:<seat>"``,
one of every seat zone for every seat) and the table's (``"centre"``). Seats are numbered
clockwise as seen from above, starting with seat 0 at the bottom edge of the mat (the edge
nearest the bottom of the camera image). Where a seat is one player's for the whole game,
:meth:`Layout.seated` renames seats to player names in seating order, so with players
``["ann", "bob"]`` the zone ``"capture:0"`` becomes ``"capture:ann"``; where players change
seats, a table has a fixed number of seats and its zones keep their seat numbers.

The standard layouts are the game's standard mats (:class:`companion.contract.Mats`), each in
the file the spec names under ``calibration/layouts/``, with copies in the package
(``vision/data/layout-<file>``); ``python -m vision.layout`` writes both from the mats' code.
A layout a player keeps in their calibration directory's ``layouts/`` wins over both.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from companion.contract import MatPlan, TableSpec
from companion.contract.registry import DEFAULT, UnknownGameError, game, games, names
from companion.observations.textio import InputError, read_json
from vision.markers import MAT_MARKER_MM, MatCorner
from vision.paths import PACKAGE_DATA, calibration_dir, shipped_calibration_dir

__all__ = [
    "Zone",
    "MatMarkerPlace",
    "Layout",
    "LayoutError",
    "load_layout",
    "standard_layout",
    "demo_layout",
]

Point = tuple[float, float]


class LayoutError(ValueError):
    """A layout file that cannot be read or makes no sense; the message names the file."""


@dataclass(frozen=True, slots=True)
class Zone:
    name: str
    polygon_mm: tuple[Point, ...]

    def signed_distance(self, point: Point) -> float:
        """Distance in mm from ``point`` to the zone's edge: positive inside, negative outside."""
        x, y = point
        inside = False
        best = math.inf
        pts = self.polygon_mm
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
            dx, dy = x2 - x1, y2 - y1
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
            best = min(best, math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)))
        return best if inside else -best


@dataclass(frozen=True, slots=True)
class MatMarkerPlace:
    """One corner marker of the mat: its centre and black-square side in table mm."""

    corner: MatCorner
    centre_mm: Point
    size_mm: float

    def corners_mm(self) -> list[Point]:
        """The black square's corners in table mm, in detection order: TL, TR, BR, BL."""
        cx, cy = self.centre_mm
        h = self.size_mm / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


@dataclass(frozen=True, slots=True)
class Layout:
    name: str
    players: int
    mat_mm: tuple[float, float]
    mat_markers: tuple[MatMarkerPlace, ...]
    zones: tuple[Zone, ...]
    source: str = "<built-in>"
    game: str = DEFAULT
    """The game whose table it is; ``players`` is its number of seats (a fixed number, whatever
    the players, where the game's table spec says so)."""

    @classmethod
    def from_plan(cls, plan: MatPlan, *, game: str = DEFAULT) -> Layout:
        """The layout of a game's mat (its spec's :class:`~companion.contract.MatPlan`)."""
        markers = tuple(MatMarkerPlace(c, p, MAT_MARKER_MM) for c, p in zip(MatCorner, plan.corners_mm, strict=True))
        zones = tuple(Zone(z.name, z.polygon_mm) for z in plan.zones)
        return cls(plan.name, plan.seats, plan.size_mm, markers, zones, game=game)

    @property
    def seats_are_players(self) -> bool:
        """A seat is one player's for the whole game, so its zones may carry the player's name
        (:meth:`seated`); not where the players change seats (the game's table spec says)."""
        return _spec(self.game).seats_are_players

    def zone_at(self, point: Point) -> str | None:
        """The name of the zone containing ``point`` (table mm), or ``None``."""
        inside = [(z.signed_distance(point), z.name) for z in self.zones]
        inside = [d for d in inside if d[0] >= 0]
        return max(inside)[1] if inside else None

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"layout {self.name!r} has no zone {name!r}")

    def seated(self, players: Sequence[str]) -> "Layout":
        """This layout with seat numbers in zone names replaced by player names (seat order)."""
        if len(players) != self.players:
            raise LayoutError(
                f"{self.source}: layout is for {self.players} players but {len(players)} names were given "
                f"({', '.join(players)})"
            )
        if len({p.casefold() for p in players}) != len(players):
            raise LayoutError(f"player names must differ: {', '.join(players)}")

        def rename(name: str) -> str:
            kind, _, seat = name.partition(":")
            return f"{kind}:{players[int(seat)]}" if seat.isdigit() else name

        return replace(self, zones=tuple(Zone(rename(z.name), z.polygon_mm) for z in self.zones))

    def to_json(self) -> dict:
        game = {} if self.game == DEFAULT else {"game": self.game}
        return {
            **game,
            "name": self.name,
            "players": self.players,
            "mat_mm": list(self.mat_mm),
            "seats": "numbered clockwise from seat 0 at the bottom edge, as the camera sees the mat",
            "mat_markers": [
                {"corner": m.corner.label, "id": m.corner.tag_id, "centre_mm": list(m.centre_mm), "size_mm": round(m.size_mm, 3)}
                for m in self.mat_markers
            ],
            "zones": [{"name": z.name, "polygon_mm": [list(p) for p in z.polygon_mm]} for z in self.zones],
        }

    @classmethod
    def from_json(cls, data: dict, *, source: str) -> "Layout":
        try:
            mat = tuple(float(v) for v in data["mat_mm"])
            corners = {c.label: c for c in MatCorner}
            markers = []
            for m in data["mat_markers"]:
                corner = corners.get(m["corner"])
                if corner is None:
                    raise ValueError(f"unknown mat corner {m['corner']!r}: expected one of {', '.join(corners)}")
                if "id" in m and int(m["id"]) != corner.tag_id:
                    raise ValueError(f"mat corner {corner.label} must have id {corner.tag_id}, not {m['id']}")
                markers.append(MatMarkerPlace(corner, (float(m["centre_mm"][0]), float(m["centre_mm"][1])), float(m["size_mm"])))
            zones = []
            for z in data["zones"]:
                poly = tuple((float(x), float(y)) for x, y in z["polygon_mm"])
                if len(poly) < 3:
                    raise ValueError(f"zone {z['name']!r} needs at least 3 points")
                zones.append(Zone(str(z["name"]), poly))
            game = str(data.get("game", DEFAULT))
            if game not in names():
                raise ValueError(f"unknown game {game!r}: layouts are made for {', '.join(names())}")
            layout = cls(str(data.get("name", source)), int(data["players"]), (mat[0], mat[1]), tuple(markers), tuple(zones), source, game)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LayoutError(f"{source}: not a valid layout: {exc!s}") from exc
        layout._check()
        return layout

    def _check(self) -> None:
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise LayoutError(f"{self.source}: a zone name appears twice")
        if len(self.mat_markers) < 2 or len({m.corner for m in self.mat_markers}) != len(self.mat_markers):
            raise LayoutError(f"{self.source}: the mat needs at least 2 distinct corner markers")
        spec = _spec(self.game)
        for kind in spec.seat_zones:
            for seat in range(self.players):
                if kind.required and f"{kind.name}:{seat}" not in names:
                    raise LayoutError(f"{self.source}: no zone {kind.name}:{seat} for a {self.players}-player table")
        for kind in spec.table_zones:
            for name in kind.names(self.players) if kind.required else ():
                if name not in names:
                    raise LayoutError(f"{self.source}: no zone {name}" + (f" for a {self.players}-player table" if kind.numbered else ""))
        if spec.seats is not None and self.players != spec.seats:
            rule = f" ({spec.seats_rule})" if spec.seats_rule else ""
            raise LayoutError(f"{self.source}: a {game(self.game).title} table has {spec.seats} seats{rule}, not {self.players}")


def _spec(name: str) -> TableSpec:
    """The table spec of the game ``name``; :class:`LayoutError` when it has none."""
    try:
        played = game(name)
    except UnknownGameError as exc:
        raise LayoutError(str(exc)) from None
    spec: TableSpec | None = getattr(played, "table", None)
    if spec is None:
        raise LayoutError(f"{played.title} has no table spec yet: the camera cannot follow its table")
    return spec


def load_layout(spec: str | int | Path, *, calibration: str | Path | None = None, game: str = DEFAULT) -> Layout:
    """A layout by file path, or by number of players: the file ``game``'s table spec names for
    that many (:class:`~companion.contract.Mats`; ``4-players.json``) in
    ``<calibration>/layouts/`` (the user's own), else the shipped one in the checkout's
    ``calibration/``, else the copy shipped in the package, else the standard mat itself. A file
    given by path must be a layout of ``game``'s table."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        n = int(spec)
        table = _spec(game)
        name = table.mats.file_for(n)
        if name is None:
            counts = sorted(p for p, _ in table.mats.files)
            raise LayoutError(f"no layout for {n} players: {_title(game)}'s standard mats are for {counts[0]}-{counts[-1]} players")
        candidates = [calibration_dir(calibration) / "layouts" / name, shipped_calibration_dir() / "layouts" / name, PACKAGE_DATA / f"layout-{name}"]
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            return standard_layout(n, game=game)
    else:
        path = Path(spec)
    try:
        data = read_json(path, max_bytes=4 * 1024 * 1024)
    except InputError as exc:
        if "JSON" in exc.reason:
            raise LayoutError(f"{path}:{exc.line}: not JSON: {exc.reason}") from None
        raise LayoutError(f"{exc} (cannot read the layout)") from None
    layout = Layout.from_json(data, source=str(path))
    if layout.game != game:
        raise LayoutError(f"{path}: a layout of a {layout.game} table, not of {game}'s")
    return layout


def standard_layout(players: int, *, game: str = DEFAULT) -> Layout:
    """``game``'s standard mat for ``players`` players, as its table spec draws it."""
    table = _spec(game)
    if table.mats.file_for(players) is None:
        counts = sorted(p for p, _ in table.mats.files)
        raise LayoutError(f"standard layouts exist for {counts[0]}-{counts[-1]} players, not {players}")
    return Layout.from_plan(table.mats.plan(players), game=game)


def demo_layout(*, game: str = DEFAULT) -> Layout:
    """``game``'s demo mat (:attr:`companion.contract.Mats.demo`): small enough that a 1080p
    camera, real or virtual, reads every seal at about four pixels per module (the camera demo
    and the tests use it; a real table uses the standard layouts)."""
    demo = _spec(game).mats.demo
    if demo is None:
        raise LayoutError(f"{_title(game)} has no demo mat")
    return Layout.from_plan(demo, game=game)


def _title(name: str) -> str:
    title: str = game(name).title
    return title


def shipped_layouts() -> dict[str, Layout]:
    """Every registered game's standard layouts, by the file each is shipped in."""
    out: dict[str, Layout] = {}
    for played in games():
        table: TableSpec | None = getattr(played, "table", None)
        for players, name in table.mats.files if table is not None else ():
            out.setdefault(name, standard_layout(players, game=played.name))
    return out


if __name__ == "__main__":  # regenerate the shipped layouts: python -m vision.layout DIR
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "calibration/layouts")
    out.mkdir(parents=True, exist_ok=True)
    for name, layout in shipped_layouts().items():
        text = json.dumps(layout.to_json(), indent=2) + "\n"
        (out / name).write_text(text, encoding="utf-8")
        (PACKAGE_DATA / f"layout-{name}").write_text(text, encoding="utf-8")
