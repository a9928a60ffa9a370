"""Every reader of outside input, fed what hypothesis makes of it: damaged copies of good
files, random JSON of every shape where a field belongs, and raw bytes. Each may only ever
succeed or raise the project's documented error for that input, naming the file (and the
line, where there is one); nothing already recorded is lost.

Example counts are kept moderate (the suite runs on two cores in CI); the totals are in
:data:`EXAMPLES`."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.observations.log import ObservationLogError, read_observation_log
from companion.records.format import RecordError, iter_record_lines, load_game
from companion.records.store import load_for_resume
from companion.sensors.table import TableConfig, TableConfigError
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable
from hardware.board import BoardProtocol, ProtocolError
from hardware.board_state import BoardState
from hardware.line_codec import encode_line
from hardware.registry import Registry
from vision.detect import MarkerDetector
from vision.images import ImageError, read_image

EXAMPLES = {
    "records": 300,
    "records resumed": 150,
    "observation logs": 250,
    "score files": 250,
    "tag registries": 200,
    "table configs": 250,
    "serial lines": 200,
    "images": 120,
}
"""How many inputs each property tries (a record property and its resume counterpart are
counted apart)."""


def _fuzz(kind: str):  # type: ignore[no-untyped-def]
    return settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


_SCRATCH = tempfile.TemporaryDirectory(prefix="rop-fuzz-")


def _scratch() -> Path:
    """An empty directory for one example (the same one, emptied, every time)."""
    root = Path(_SCRATCH.name) / "example"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    return root


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
hostile_text = st.sampled_from(
    ["[" * 5000, "1" * 5000, "{", '{"a": NaN}', "1e999999", "\ufeff{}", "", "   ", "null", '"\\ud800"', "{}" * 50]
)


def _mutated(lines: list[bytes], data: st.DataObject) -> bytes:
    """A copy of ``lines`` with a few lines replaced, cut, doubled or filled with noise."""
    lines = list(lines)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["json", "bytes", "cut", "double", "hostile", "field"]))
        if how == "json":
            lines[i] = json.dumps(data.draw(json_values)).encode() + b"\n"
        elif how == "bytes":
            lines[i] = data.draw(st.binary(max_size=40)) + b"\n"
        elif how == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif how == "double":
            lines.insert(i, lines[i])
        elif how == "hostile":
            lines[i] = data.draw(hostile_text).encode("utf-8", "surrogatepass") + b"\n"
        else:  # one field of a JSON line given a value of any type
            try:
                obj = json.loads(lines[i])
            except (ValueError, RecursionError):  # an earlier mutation made it unreadable
                continue
            if isinstance(obj, dict) and obj:
                key = data.draw(st.sampled_from(sorted(obj)))
                obj[key] = data.draw(json_values)
                lines[i] = json.dumps(obj).encode() + b"\n"
    return b"".join(lines)


# ------------------------------------------------------------------------------ records


def _record_lines() -> list[bytes]:
    setup = GameSetup(("ann", "bob"))
    table = VirtualTable(setup, seed=3, fate=True)
    game = GameState(setup, keep_history=True)
    for _ in range(14):
        game.push(table.next_move(game))
    return [(line + "\n").encode() for line in iter_record_lines(game.setup, game.move_stack)]


RECORD = _record_lines()


@_fuzz("records")
@given(data=st.data())
def test_records_raise_only_record_errors_naming_file_and_line(data: st.DataObject) -> None:
    raw = data.draw(st.one_of(st.builds(lambda: None), st.binary(max_size=200)))
    blob = _mutated(RECORD, data) if raw is None else raw
    path = _scratch() / "game.jsonl"
    path.write_bytes(blob)
    try:
        load_game(path)
    except RecordError as exc:
        # A line is named, but for an empty file: the whole file (line 0) has no game in it.
        assert exc.path == str(path) and str(exc).startswith(f"{path}:{exc.line}: " if exc.line else f"{path}: ")
        assert exc.line >= 1 or (blob == b"" and exc.reason == "the file is empty: there is no game in it")


FATE7 = ["F001", "F002", "F003", "F004", "F005", "F006", "F007"]
EVENT_TEMPLATES: list[dict] = [
    {"event": "round", "dealer": "bob", "fate_decks": {"ann": FATE7, "bob": FATE7}, "fate_order_known": True},
    {"event": "deal", "hands": {"ann": ["W001", "W002", "W003"], "bob": ["W004", "W005", None]}, "center": ["W006", "W007", "W008", "W009"]},
    {"event": "play", "player": "ann", "card": "W011", "capture": ["W001"]},
    {"event": "play", "player": "ann", "card": "F004", "discards": {"bob": "W003"}},
    {"event": "play", "player": "ann", "card": "F005", "target": "bob", "given": ["W001"], "received": [None]},
    {"event": "play", "player": "ann", "card": "F006", "target": "bob", "stolen": "W002"},
    {"event": "play", "player": "ann", "card": "F008", "drawn": None, "unseen": True},
    {"event": "draw_fate", "player": "ann"},
    {"event": "pass", "player": "ann"},
]


def _field_paths(event: dict) -> list[tuple[str, ...]]:
    """Every field of an event, and every entry of its maps (``hands.ann``)."""
    out: list[tuple[str, ...]] = []
    for key, value in event.items():
        out.append((key,))
        if isinstance(value, dict):
            out.extend((key, inner) for inner in value)
    return out


def test_every_field_of_every_record_event_given_every_wrong_shape() -> None:
    """Not random: each field of each kind of event given each wrong shape in turn (or left
    out) is read or refused as a RecordError naming the file and the line."""
    path = _scratch() / "game.jsonl"
    header = '{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}\n'
    tried = 0
    for template in EVENT_TEMPLATES:
        for field in _field_paths(template):
            for value in [*WRONG_SHAPES, KeyError]:
                event = json.loads(json.dumps(template))
                holder = event if len(field) == 1 else event[field[0]]
                if value is KeyError:
                    del holder[field[-1]]
                else:
                    holder[field[-1]] = value
                path.write_text(header + json.dumps(event) + "\n", encoding="utf-8")
                try:
                    load_game(path)
                except RecordError as exc:
                    assert exc.line == 2 and str(exc).startswith(f"{path}:2: "), exc
                tried += 1
    assert tried > 500


@_fuzz("records resumed")
@given(data=st.data())
def test_resuming_a_damaged_record_loses_nothing(data: st.DataObject) -> None:
    blob = _mutated(RECORD, data)
    path = _scratch() / "game.jsonl"
    path.write_bytes(blob)
    try:
        game, report = load_for_resume(path)
    except RecordError as exc:
        assert exc.path == str(path) and exc.line >= 1
        assert path.read_bytes() == blob  # refused untouched
        return
    kept = path.read_bytes()
    side = report.side_file.read_bytes() if report.side_file else b""
    if side:
        assert kept + side == blob
    else:
        assert kept in (blob, blob + b"\n")
    assert list(load_game(path, keep_history=True).move_stack) == list(game.move_stack)


# ------------------------------------------------------------------------------ observation logs


LOG = (Path(__file__).parents[2] / "bench" / "data" / "camera-sim-2p.jsonl").read_bytes().splitlines(keepends=True)[:40]


GOOD_ROW = {
    "t": 1.5,
    "source": "camera",
    "card": "W007",
    "owner": "ann",
    "zone": "centre",
    "table_mm": [100.0, 200.0],
    "reader": "board:0",
    "uid": "DEADBEEF",
    "reason": "not enrolled",
    "player": "ann",
    "state": "lost",
    "detail": "unplugged",
    "readers": ["board:0"],
}
WRONG_SHAPES: list[object] = [None, True, 0, -1, 1.5, 1e308, "", "x", "zed", "W099", [], [1], [1, 2, 3], ["a", "b"], [None, None], {}, {"a": 1}]
"""A value of every shape JSON has, and the near misses of the shapes the readers expect."""

near_misses = st.one_of(st.sampled_from(WRONG_SHAPES), json_values)
KIND_FIELDS = {
    "seen": ["t", "source", "card", "owner", "zone", "table_mm"],
    "gone": ["t", "source", "card", "owner", "zone"],
    "tapped": ["t", "source", "card", "owner", "reader", "uid"],
    "lifted": ["t", "source", "card", "owner", "reader", "uid"],
    "unknown-tag": ["t", "source", "reader", "uid", "reason"],
    "draw": ["t", "source", "player"],
    "status": ["t", "source", "state", "detail", "readers"],
}


@st.composite
def log_rows(draw: st.DrawFn) -> bytes:
    """A well-formed observation of any kind with one field (or none) given a value of any
    shape: wrong types live in single fields."""
    row = dict(GOOD_ROW, kind=draw(st.sampled_from(["seen", "gone", "tapped", "lifted", "unknown-tag", "draw", "status"])))
    for key in draw(st.lists(st.sampled_from(sorted(row)), max_size=2, unique=True)):
        if draw(st.booleans()):
            row[key] = draw(near_misses)
        else:
            del row[key]
    return json.dumps(row).encode() + b"\n"


@st.composite
def log_headers(draw: st.DrawFn) -> bytes:
    header = json.loads(LOG[0])
    for key in draw(st.lists(st.sampled_from(sorted(header) + ["teams", "target", "first_dealer", "fate_decks"]), max_size=2, unique=True)):
        header[key] = draw(near_misses)
    return json.dumps(header).encode() + b"\n"


def test_every_field_of_every_observation_given_every_wrong_shape() -> None:
    """Not random: each field of each kind of observation, and each field of the header,
    given each wrong shape in turn (or left out) is read or refused with file and line."""
    path = _scratch() / "table.jsonl"
    tried = 0
    header = json.loads(LOG[0])
    cases: list[tuple[dict, dict | None]] = []
    for kind, fields in KIND_FIELDS.items():
        good = {k: GOOD_ROW[k] for k in fields} | {"kind": kind}
        for field in fields:
            for value in [*WRONG_SHAPES, KeyError]:
                row = dict(good)
                if value is KeyError:
                    del row[field]
                else:
                    row[field] = value
                cases.append((header, row))
    for key in [*header, "teams", "target", "first_dealer", "fate_decks"]:
        for value in WRONG_SHAPES:
            cases.append((header | {key: value}, None))
    for head, row in cases:
        path.write_text(json.dumps(head) + "\n" + (json.dumps(row) + "\n" if row else ""), encoding="utf-8")
        try:
            read_observation_log(path)
        except ObservationLogError as exc:
            assert exc.line in (1, 2) and str(exc).startswith(f"{path}:{exc.line}: "), exc
        tried += 1
    assert tried == len(cases) > 600


@_fuzz("observation logs")
@given(data=st.data())
def test_observation_logs_raise_only_log_errors_naming_file_and_line(data: st.DataObject) -> None:
    how = data.draw(st.sampled_from(["mutated", "fields", "bytes"]))
    if how == "mutated":
        blob = _mutated(LOG, data)
    elif how == "fields":
        blob = data.draw(st.one_of(st.just(LOG[0]), log_headers())) + b"".join(data.draw(st.lists(log_rows(), max_size=4)))
    else:
        blob = data.draw(st.binary(max_size=200))
    path = _scratch() / "table.jsonl"
    path.write_bytes(blob)
    try:
        read_observation_log(path)
    except ObservationLogError as exc:
        assert exc.path == str(path) and exc.line >= 1 and str(exc).startswith(f"{path}:{exc.line}: ")


# ------------------------------------------------------------------------------ score files


@_fuzz("score files")
@given(
    data=st.one_of(
        json_values.map(lambda v: json.dumps(v).encode()),
        st.builds(
            lambda sides, expansion: json.dumps({"sides": sides, "expansion": expansion}).encode(),
            st.dictionaries(
                st.text(max_size=5),
                st.one_of(
                    json_values,
                    st.fixed_dictionaries(
                        {"captured": st.one_of(json_values, st.lists(st.sampled_from(["W001", "W007", "F002", "F005", "W041", "X"]), max_size=6))},
                        optional={"sweeps": json_values},
                    ),
                ),
                max_size=3,
            ),
            json_values,
        ),
        hostile_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=100),
    )
)
def test_score_files_give_a_score_or_a_clear_error(data: bytes) -> None:
    from companion.cli import main

    path = _scratch() / "round.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["score", str(path)])
    assert status in (0, 2)
    if status == 2:
        assert str(path) in err.getvalue()


# ------------------------------------------------------------------------------ tag registries


registry_lines = st.one_of(
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"uid": st.one_of(st.sampled_from(["04A1B2C3D4E5F6", "DEADBEEF", "zz"]), json_values), "card": st.one_of(st.sampled_from(["W007", "F001", "W099"]), json_values)},
        optional={"owner": st.one_of(st.just("ann"), json_values), "ndef": json_values, "enrolled": json_values},
    ).map(json.dumps),
    hostile_text,
    st.text(max_size=30),
)


@_fuzz("tag registries")
@given(lines=st.lists(registry_lines, max_size=6), raw=st.one_of(st.none(), st.binary(max_size=80)))
def test_tag_registries_load_with_problems_named_never_an_exception(lines: list[str], raw: bytes | None) -> None:
    directory = _scratch() / "tags"
    directory.mkdir()
    path = directory / "ann.jsonl"
    path.write_bytes(raw if raw is not None else "\n".join(lines).encode("utf-8", "surrogatepass"))
    registry = Registry.load(directory)
    for problem in registry.problems:
        assert problem.path == path and problem.line >= 0 and problem.message
    for entry in registry.entries:
        assert entry.owner == "ann" and entry.path == path


# ------------------------------------------------------------------------------ table configs


config_keys = ["players", "teams", "target", "expansion", "first_dealer", "fate_decks", "camera", "video", "layout", "calibration", "nfc", "serial", "readers"]


@_fuzz("table configs")
@given(
    data=st.one_of(
        st.dictionaries(st.sampled_from(config_keys), json_values, max_size=6).map(lambda d: json.dumps(d).encode()),
        json_values.map(lambda v: json.dumps(v).encode()),
        hostile_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=100),
    )
)
def test_table_configs_load_or_raise_a_config_error_naming_the_file(data: bytes) -> None:
    path = _scratch() / "table.json"
    path.write_bytes(data)
    try:
        config = TableConfig.load(path)
    except TableConfigError as exc:
        assert str(path) in str(exc)
        return
    assert all(isinstance(p, str) for p in config.players)
    config.setup  # noqa: B018 - a loaded config always makes a valid setup


def test_every_key_of_configs_and_score_files_given_every_wrong_shape() -> None:
    """Not random: each key of a table configuration and of a score file given each wrong
    shape in turn is loaded or refused with a clear error naming the file."""
    from companion.cli import main

    scratch = _scratch()
    config = scratch / "table.json"
    good_config = {"players": ["ann", "bob"], "first_dealer": "bob", "fate_decks": {"ann": FATE7}, "camera": 0, "layout": 2, "nfc": ["usb"], "serial": ["socket://127.0.0.1:4000"], "readers": {"board:0": "centre"}}
    for key in config_keys:
        for value in WRONG_SHAPES:
            config.write_text(json.dumps(good_config | {key: value}), encoding="utf-8")
            try:
                TableConfig.load(config)
            except TableConfigError as exc:
                assert str(config) in str(exc)
    score = scratch / "round.json"
    good_side = {"captured": ["W001", "W007"], "sweeps": 1}
    variants = [{"sides": {"ann": good_side, "bob": good_side | {key: value}}, "expansion": False} for key in good_side for value in WRONG_SHAPES]
    variants += [{"sides": {"ann": good_side}, "expansion": value} for value in WRONG_SHAPES]
    variants += [{"sides": value} for value in WRONG_SHAPES] + [{"sides": {"ann": value}} for value in WRONG_SHAPES]
    for data in variants:
        score.write_text(json.dumps(data), encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["score", str(score)])
        assert status in (0, 2) and (status == 0 or str(score) in err.getvalue()), (data, err.getvalue())


# ------------------------------------------------------------------------------ the serial line


VALID_LINES = [encode_line(b) for b in ("HELLO ROP-NFC 1 1.0.0 2 POWER", "TAG 1 DEADBEEF", "TAG 7 DEADBEEF", "GONE 0 DEADBEEF", "RDR 3 UP PN532 1.6", "READY")]


@_fuzz("serial lines")
@given(
    pieces=st.lists(st.one_of(st.binary(max_size=400), st.sampled_from(VALID_LINES)), max_size=10),
    cuts=st.lists(st.integers(1, 600), min_size=1, max_size=5),
)
def test_the_serial_line_never_raises_and_never_taps_a_reader_the_board_lacks(pieces: list[bytes], cuts: list[int]) -> None:
    events: list[object] = []
    state = BoardState("serial:fuzz", events.append)
    bad: list[str] = []

    def message(m: object) -> None:
        try:
            state.check(m)  # type: ignore[arg-type]
        except ProtocolError as exc:
            bad.append(str(exc))
            return
        state.handle(m)  # type: ignore[arg-type]

    proto = BoardProtocol(message, lambda raw, why: bad.append(why))
    stream = b"".join(pieces)
    i = k = 0
    while i < len(stream):
        proto.data_received(stream[i : i + cuts[k % len(cuts)]])
        i += cuts[k % len(cuts)]
        k += 1
        assert len(proto.buffer) <= BoardProtocol.MAX_LINE
    slots = state.hello.slots if state.hello else 0
    assert all(int(e.reader.split(":")[1]) < slots for e in events if hasattr(e, "reader"))


# ------------------------------------------------------------------------------ images


def _png(width: int, height: int) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(bytes((width + 1) * min(height, 64)))) + chunk(b"IEND", b"")


DETECTOR = MarkerDetector(backend="apriltag")


@_fuzz("images")
@given(
    data=st.one_of(
        st.binary(max_size=200),
        st.builds(_png, st.integers(1, 300), st.integers(1, 300)),
        st.builds(_png, st.integers(8_001, 40_000), st.integers(8_001, 40_000)),
        st.builds(lambda w, h, cut: _png(w, h)[:cut], st.integers(1, 300), st.integers(1, 300), st.integers(0, 80)),
    ),
    shape=st.tuples(st.integers(1, 40), st.integers(1, 40)),
)
def test_images_read_or_raise_an_image_error_and_the_detector_never_crashes(data: bytes, shape: tuple[int, int]) -> None:
    path = _scratch() / "frame.png"
    path.write_bytes(data)
    try:
        image = read_image(path)
    except ImageError as exc:
        assert str(exc).startswith(f"{path}: ")
    else:
        assert DETECTOR.detect(image) is not None
    assert DETECTOR.detect(np.zeros(shape, np.uint8)) == [] or min(shape) >= 16
