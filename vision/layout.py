"""Table layouts: the mat's size, where its corner markers lie and the zones of the table, all in
table millimetres (origin at the mat's top-left corner as the camera sees it, x to the right,
y down).

A layout belongs to a game (``"game"`` in its file; Rule of Power's when absent), which names
its zones. Rule of Power's are polygons named ``"centre"``, ``"deck"``, ``"capture:<seat>"`` and
``"fate:<seat>"``. Seats are numbered clockwise as seen from above, starting with seat 0 at the
bottom edge of the mat (the edge nearest the bottom of the camera image). :meth:`Layout.seated`
renames seats to player names in seating order, so with players ``["ann", "bob"]`` the zone
``"capture:0"`` becomes ``"capture:ann"``.

Circle of Power's table always has four seats (the emperors, dummies included), whoever sits
in them this season: ``"city:<seat>"`` (the emperor's city), ``"battle:<seat>"`` (the battle
card played, between the city and the middle), ``"line:<seat>"`` (the line of victories) for
each, and ``"city-deck"`` in the middle (the next available city, face up on the city deck;
at a season's set-up the joker laid face up at its bottom). Its zones keep their seat numbers
(the emperor in a seat changes from season to season, C4).

The standard layouts for 2-6 players are ``calibration/layouts/<n>-players.json``; copies ship
in the package (``vision/data/layout-<n>-players.json``). :func:`standard_layout` is the code
that made them. Circle of Power's, for 2-4 players, is ``calibration/layouts/circle-of-power.json``
(:func:`circle_of_power_layout`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

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
    "circle_of_power_layout",
    "demo_layout",
    "SEAT_ZONES",
    "RULE_OF_POWER",
    "CIRCLE_OF_POWER",
]

RULE_OF_POWER = "rule-of-power"
CIRCLE_OF_POWER = "circle-of-power"
SEAT_ZONES: dict[str, tuple[str, ...]] = {RULE_OF_POWER: ("capture", "fate"), CIRCLE_OF_POWER: ("city", "battle", "line")}
"""The zones each seat has, by game."""
_TABLE_ZONES: dict[str, tuple[str, ...]] = {RULE_OF_POWER: (), CIRCLE_OF_POWER: ("city-deck",)}
"""The zones a game's table needs beside the seats'."""

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
    game: str = RULE_OF_POWER
    """The game whose table it is: Rule of Power's (``players`` seats) or Circle of Power's
    (four seats, ``players`` 4, whatever the number of players)."""

    @property
    def seats_are_players(self) -> bool:
        """A seat is one player's for the whole game, so its zones may carry the player's name
        (:meth:`seated`). At a Circle of Power table the emperors change seats every season
        (C6) and the zones keep their seat numbers."""
        return self.game != CIRCLE_OF_POWER

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
        game = {} if self.game == RULE_OF_POWER else {"game": self.game}
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
            game = str(data.get("game", RULE_OF_POWER))
            if game not in SEAT_ZONES:
                raise ValueError(f"unknown game {game!r}: layouts are made for {', '.join(SEAT_ZONES)}")
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
        for kind in SEAT_ZONES[self.game]:
            for seat in range(self.players):
                if f"{kind}:{seat}" not in names:
                    raise LayoutError(f"{self.source}: no zone {kind}:{seat} for a {self.players}-player table")
        for zone in _TABLE_ZONES[self.game]:
            if zone not in names:
                raise LayoutError(f"{self.source}: no zone {zone}")
        if self.game == CIRCLE_OF_POWER and self.players != 4:
            raise LayoutError(f"{self.source}: a Circle of Power table has four seats (C4), not {self.players}")


def load_layout(spec: str | int | Path, *, calibration: str | Path | None = None, game: str = RULE_OF_POWER) -> Layout:
    """A layout by file path, or by player count: for Rule of Power (2-6)
    ``<calibration>/layouts/<n>-players.json`` (the user's own), else the shipped default in the
    checkout's ``calibration/``, else the copy shipped in the package; for Circle of Power (2-4,
    ``game``) ``circle-of-power.json`` in the same places. A file given by path must be a layout
    of ``game``'s table."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        n = int(spec)
        if game == CIRCLE_OF_POWER:
            if not 2 <= n <= 4:
                raise LayoutError(f"Circle of Power is played by 2-4 players, not {n}")
            name = f"{CIRCLE_OF_POWER}.json"
        else:
            name = f"{n}-players.json"
        candidates = [calibration_dir(calibration) / "layouts" / name, shipped_calibration_dir() / "layouts" / name, PACKAGE_DATA / f"layout-{name}"]
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            raise LayoutError(f"no layout for {n} players: looked for {', '.join(str(p) for p in candidates)}")
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


# --- the standard layouts ---------------------------------------------------------------------

_MATS = {2: (900.0, 600.0), 3: (1100.0, 700.0), 4: (1000.0, 800.0), 5: (1200.0, 800.0), 6: (1200.0, 900.0)}
# Each seat's stretch of the mat edge: (side, start, end) as fractions along the side, walking
# clockwise (bottom edge right to left, left edge bottom to top, top edge left to right, ...).
_SEATS: dict[int, list[tuple[str, float, float]]] = {
    2: [("bottom", 0, 1), ("top", 0, 1)],
    3: [("bottom", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1)],
    4: [("bottom", 0, 1), ("left", 0, 1), ("top", 0, 1), ("right", 0, 1)],
    5: [("bottom", 0, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1), ("right", 0, 1)],
    6: [("bottom", 0, 0.5), ("bottom", 0.5, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1), ("right", 0, 1)],
}
_EDGE = 20.0  # gap between the mat edge and a seat's zones
_DEPTH = 130.0  # a seat's zones, measured from _EDGE inwards: room for a card lying either way
_INNER = 180.0  # the centre and deck keep this far from every edge
_CAPTURE, _FATE, _GAP = 200.0, 140.0, 20.0
_MARKER_INSET = 45.0  # a corner marker's centre, from both mat edges


def standard_layout(players: int) -> Layout:
    """The layout shipped for ``players`` (2-6) players."""
    if players not in _MATS:
        raise LayoutError(f"standard layouts exist for 2-6 players, not {players}")
    w, h = _MATS[players]
    i = _MARKER_INSET
    markers = tuple(
        MatMarkerPlace(c, p, MAT_MARKER_MM)
        for c, p in zip(MatCorner, [(i, i), (w - i, i), (w - i, h - i), (i, h - i)])
    )
    zones: list[Zone] = []
    for seat, (side, f0, f1) in enumerate(_SEATS[players]):
        capture, fate = _seat_zones(side, f0, f1, w, h)
        zones += [Zone(f"capture:{seat}", capture), Zone(f"fate:{seat}", fate)]
    deck_w = 110.0
    x0, x1, y0, y1 = _INNER, w - _INNER, _INNER, h - _INNER
    zones.insert(0, Zone("deck", _rect(x1 - deck_w, (y0 + y1) / 2 - 75, x1, (y0 + y1) / 2 + 75)))
    zones.insert(0, Zone("centre", _rect(x0, y0, x1 - deck_w - 15, y1)))
    return Layout(f"{players} players", players, (w, h), markers, tuple(zones))


def _seat_zones(side: str, f0: float, f1: float, w: float, h: float) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    # Lay the two rectangles out along the seat's stretch of edge, capture area first (on the
    # player's left as they face the table), centred in the stretch; then turn into place.
    length = w if side in ("bottom", "top") else h
    span0, span1 = f0 * length, f1 * length
    mid = (span0 + span1) / 2
    total = _CAPTURE + _GAP + _FATE
    a0 = mid - total / 2
    runs = [(a0, a0 + _CAPTURE), (a0 + _CAPTURE + _GAP, a0 + total)]
    d0, d1 = _EDGE, _EDGE + _DEPTH
    out = []
    for s0, s1 in runs:
        if side == "bottom":  # walking right to left along the bottom edge
            out.append(_rect(w - s1, h - d1, w - s0, h - d0))
        elif side == "left":  # bottom to top
            out.append(_rect(d0, h - s1, d1, h - s0))
        elif side == "top":  # left to right
            out.append(_rect(s0, d0, s1, d1))
        else:  # right edge, top to bottom
            out.append(_rect(w - d1, s0, w - d0, s1))
    return out[0], out[1]


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# --- Circle of Power's table ---------------------------------------------------------------------

_COP_MAT = (920.0, 620.0)
# Each seat: its city beside its line of victories along its edge, its battle card in front of
# the city (towards the middle), turned about the middle so the four seats interlock
# (a pinwheel) and every zone keeps clear of the corner markers. (x0, y0, x1, y1) in mm.
_COP_SEATS: tuple[dict[str, tuple[float, float, float, float]], ...] = (
    # seat 0, the bottom edge
    {"line": (350, 470, 650, 600), "city": (660, 470, 750, 600), "battle": (660, 350, 750, 460)},
    # seat 1, the left edge
    {"line": (20, 95, 150, 425), "city": (20, 435, 150, 535), "battle": (160, 435, 250, 530)},
    # seat 2, the top edge
    {"city": (170, 20, 260, 150), "line": (270, 20, 570, 150), "battle": (170, 160, 260, 270)},
    # seat 3, the right edge
    {"city": (770, 85, 900, 195), "line": (770, 205, 900, 535), "battle": (660, 90, 760, 190)},
)
_COP_DECK = (405.0, 235.0, 515.0, 385.0)


def circle_of_power_layout() -> Layout:
    """Circle of Power's table, for 2-4 players: four seats always (the missing players' are
    the dummies', C4), each with its city, battle card and line of victories, and the city
    deck in the middle. A 920 x 620 mm mat: at 1080p its seals are 2.6 pixels per module."""
    w, h = _COP_MAT
    i = _MARKER_INSET
    markers = tuple(MatMarkerPlace(c, p, MAT_MARKER_MM) for c, p in zip(MatCorner, [(i, i), (w - i, i), (w - i, h - i), (i, h - i)]))
    zones = [Zone("city-deck", _rect(*_COP_DECK))]
    for seat, places in enumerate(_COP_SEATS):
        zones += [Zone(f"{kind}:{seat}", _rect(*places[kind])) for kind in SEAT_ZONES[CIRCLE_OF_POWER]]
    return Layout("Circle of Power, 4 seats", 4, (w, h), markers, tuple(zones), game=CIRCLE_OF_POWER)


if __name__ == "__main__":  # regenerate the shipped layouts: python -m vision.layout DIR
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "calibration/layouts")
    out.mkdir(parents=True, exist_ok=True)
    shipped = {f"{n}-players.json": standard_layout(n) for n in _MATS}
    shipped[f"{CIRCLE_OF_POWER}.json"] = circle_of_power_layout()
    for name, layout in shipped.items():
        text = json.dumps(layout.to_json(), indent=2) + "\n"
        (out / name).write_text(text, encoding="utf-8")
        (PACKAGE_DATA / f"layout-{name}").write_text(text, encoding="utf-8")


def demo_layout() -> Layout:
    """The demo table's mat for two players: small enough that a 1080p camera, real or
    virtual, reads every seal at about four pixels per module (the camera demo and the tests
    use it; a real table uses the standard layouts)."""

    def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    w, h = 640.0, 360.0
    corners = [(40.0, 40.0), (w - 40, 40.0), (w - 40, h - 40), (40.0, h - 40)]
    markers = tuple(MatMarkerPlace(c, p, MAT_MARKER_MM) for c, p in zip(MatCorner, corners, strict=True))
    zones = (
        Zone("centre", rect(90, 110, 470, 250)),
        Zone("deck", rect(490, 110, 590, 250)),
        Zone("capture:0", rect(320, 260, 550, 355)),
        Zone("fate:0", rect(90, 260, 300, 355)),
        Zone("capture:1", rect(90, 5, 320, 100)),
        Zone("fate:1", rect(340, 5, 550, 100)),
    )
    return Layout("demo table, 2 players", 2, (w, h), markers, zones)
