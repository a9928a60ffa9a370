"""Observation logs, table configurations and tag registries: bytes that are not UTF-8, a
byte-order mark, hostile JSON and fields of the wrong type are clear errors naming the file
and the line, never a traceback and never a value changed in silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.observations.log import ObservationLogError, read_observation_log
from companion.sensors.table import TableConfig, TableConfigError
from hardware.registry import Registry

HEADER = {"format": "rop-observations/1", "players": ["ann", "bob"], "first_dealer": "bob"}
SEEN = {"t": 1.0, "source": "camera", "kind": "seen", "card": "W007", "owner": None, "zone": "centre", "table_mm": [10.0, 20.0]}


def _log(tmp_path: Path, header: dict, *rows: object, raw: bytes | None = None) -> Path:
    path = tmp_path / "t.jsonl"
    text = "\n".join(json.dumps(x) if not isinstance(x, str) else x for x in (header, *rows)) + "\n"
    path.write_bytes(raw if raw is not None else text.encode())
    return path


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({**HEADER, "players": "zed"}, 't.jsonl:1: header: "players" must be a list of names, not "zed"'),
        ({**HEADER, "expansion": "false"}, 't.jsonl:1: header: "expansion" must be true or false'),
        ({**HEADER, "target": "11"}, 't.jsonl:1: header: "target" must be a whole number'),
        ({**HEADER, "fate_decks": ["F001"]}, 't.jsonl:1: header: "fate_decks" must map each player'),
        ({**HEADER, "first_dealer": "cy"}, "t.jsonl:1: header: \"first_dealer\" 'cy' is not one of the players"),
        ({**HEADER, "players": ["ann"]}, "t.jsonl:1: header: "),
    ],
    ids=["players-text", "expansion-text", "target-text", "decks-list", "dealer", "one-player"],
)
def test_log_headers_are_checked_field_by_field(tmp_path: Path, header: dict, message: str) -> None:
    with pytest.raises(ObservationLogError) as info:
        read_observation_log(_log(tmp_path, header))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({**SEEN, "table_mm": [1]}, 't.jsonl:2: "table_mm" must be [x, y] or null'),
        ({**SEEN, "card": 7}, 't.jsonl:2: "card" must be a card id, not 7'),
        ({**SEEN, "owner": ["ann"]}, 't.jsonl:2: "owner" must be a text or null'),
        ({**SEEN, "t": "soon"}, 't.jsonl:2: "t" must be a number'),
        ({**SEEN, "source": None}, 't.jsonl:2: "source" must be a text'),
        ({"t": 1, "source": "nfc", "kind": "status", "state": "lost", "readers": "board:0"}, 't.jsonl:2: "readers" must be a list of names'),
        ("[" * 5000, "t.jsonl:2: not valid JSON here: nested 5000 deep"),
        ('{"t": ' + "9" * 5000 + "}", "t.jsonl:2: not valid JSON (a number longer than 100 digits)"),
    ],
    ids=["table-mm", "card-number", "owner-list", "t-text", "source-null", "readers-text", "deep", "long-number"],
)
def test_log_rows_of_the_wrong_type_are_named_by_line(tmp_path: Path, row: object, message: str) -> None:
    with pytest.raises(ObservationLogError) as info:
        read_observation_log(_log(tmp_path, HEADER, row, SEEN))
    assert message in str(info.value)


def test_logs_in_utf16_are_named_and_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    text = json.dumps(HEADER) + "\n" + json.dumps(SEEN) + "\n"
    with pytest.raises(ObservationLogError, match=r"t\.jsonl:1: .*UTF-16"):
        read_observation_log(_log(tmp_path, HEADER, raw=text.encode("utf-16")))
    with pytest.raises(ObservationLogError, match=r"t\.jsonl:3: .*not UTF-8"):
        read_observation_log(_log(tmp_path, HEADER, raw=text.encode() + b'{"t": 1, "source": "\xff"}\n'))
    log = read_observation_log(_log(tmp_path, HEADER, raw=b"\xef\xbb\xbf" + text.encode()))
    assert log.players == ("ann", "bob") and len(log.observations) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": "zed"}, 'players: expected a list of names, not "zed"'),
        ({"expansion": "false"}, "expansion: expected true or false"),
        ({"serial": ["socket://nohostport"]}, "serial: socket://nohostport: a socket:// port is written socket://HOST:PORT"),
        ({"serial": "/dev/ttyACM0"}, "serial: expected a list of names"),
        ({"camera": [0]}, "camera: expected a camera index or stream URL"),
        ({"readers": {"board:0": 5}}, "readers: expected a map of reader to zone"),
        ({"players": ["ann", "bob"], "first_dealer": "cy"}, "first_dealer: 'cy' is not one of the players"),
    ],
    ids=["players-text", "expansion-text", "bad-port", "serial-text", "camera-list", "reader-zone", "dealer"],
)
def test_table_configs_are_checked_key_by_key(tmp_path: Path, data: dict, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    with pytest.raises(TableConfigError) as info:
        TableConfig.load(path)
    assert str(path) in str(info.value) and message in str(info.value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [(b"[" * 100_000, "nested 100000 deep"), ('{"players": ["ann"]}'.encode("utf-16"), "UTF-16"), (b"\xef\xbb\xbf[1,", "not valid JSON")],
    ids=["deep", "utf16", "bom-then-bad-json"],
)
def test_table_configs_that_are_not_json_are_named(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_bytes(raw)
    with pytest.raises(TableConfigError, match=message) as info:
        TableConfig.load(path)
    assert str(path) in str(info.value)


def test_table_config_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"players": ["ann", "bob"], "serial": ["socket://127.0.0.1:4000"]}).encode())
    assert TableConfig.load(path).serial == ["socket://127.0.0.1:4000"]


def test_tag_registries_name_bad_bytes_and_types_and_accept_a_byte_order_mark(tmp_path: Path) -> None:
    tags = tmp_path / "tags"
    tags.mkdir()
    (tags / "ann.jsonl").write_bytes(b"\xef\xbb\xbf" + json.dumps({"uid": "DEADBEEF", "card": "W007", "owner": "ann"}).encode() + b"\n")
    (tags / "bob.jsonl").write_bytes(json.dumps({"uid": "04A1B2C3D4E5F6", "card": "W008"}).encode("utf-16"))
    (tags / "cy.jsonl").write_bytes(b'{"uid": 12345678, "card": "W009"}\n{"uid": "CAFEBABE", "card": "W009", "ndef": "false"}\n' + b"[" * 5000 + b"\n")
    registry = Registry.load(tags)
    assert [(e.uid, e.card.id) for e in registry.entries] == [("DEADBEEF", "W007")]
    problems = {(p.path.name, p.line): p.message for p in registry.problems}
    assert "UTF-16" in problems[("bob.jsonl", 1)]
    assert problems[("cy.jsonl", 1)].startswith('"uid" must be a text')
    assert problems[("cy.jsonl", 2)].startswith('"ndef" must be true or false')
    assert "nested 5000 deep" in problems[("cy.jsonl", 3)]
