"""Every registered game's table spec agrees with the rest of the game: its decks hold every card
of its catalogue, its catalogue's seal ids are the spec's, its standard mats have the zones it
names, and the readers it lists are those its tracker accepts."""

from __future__ import annotations

from typing import Any

import pytest

from companion.contract import TableSpec, Turns, with_tables
from companion.contract.registry import games
from vision.layout import standard_layout

GAMES = [g.name for g in with_tables(games())]


@pytest.fixture(params=GAMES)
def played(request: pytest.FixtureRequest) -> Any:
    return next(g for g in games() if g.name == request.param)


def test_the_decks_hold_every_card_and_the_catalogue_reads_the_specs_seals(played: Any) -> None:
    spec: TableSpec = played.table
    assert spec.game == played.name and isinstance(spec.turns, Turns)
    held = [c for d in spec.decks for c in d.cards]
    assert set(held) == set(played.cards) and len(held) == len(set(held))
    assert all(spec.deck_of(c).name in {d.name for d in spec.decks} for c in played.cards)
    assert played.cards.markers is spec.seals
    assert spec.claim.nfc_record_type == played.cards.nfc_record_type


def test_the_standard_mats_have_the_zones_the_spec_names(played: Any) -> None:
    spec: TableSpec = played.table
    for players, _ in spec.mats.files:
        layout = standard_layout(players, game=played.name)
        names = {z.name for z in layout.zones}
        assert {f"{k.name}:{s}" for k in spec.seat_zones for s in range(layout.players)} <= names
        assert {n for k in spec.table_zones for n in k.names(layout.players)} <= names
        assert layout.players == (spec.seats or players)


def test_the_readers_it_lists_are_those_its_tracker_accepts(played: Any) -> None:
    players = list(played.default_players(played.min_players))
    facts = played.tracking()
    for zone in played.table.reader_zones(players):
        assert facts.reader_problem(zone, players) is None, zone
    assert facts.reader_problem("nowhere:nobody", players) is not None


def test_a_numbered_table_zone_and_its_readers_count_one_for_each_player() -> None:
    import dataclasses

    from companion.contract import ReaderRole, ZoneKind

    column = ZoneKind("column", "a column", numbered=True)
    assert column.names(3) == ("column-1", "column-2", "column-3")
    assert ZoneKind("centre", "the centre").names(3) == ("centre",)
    spec = next(g for g in games() if g.name == "rule-of-power").table
    readers = (ReaderRole("column", "a column's cards", numbered=True), ReaderRole("fate", "a player's Fate cards", per_seat=True))
    numbered = dataclasses.replace(spec, readers=readers)
    assert numbered.reader_zones(["ann", "bob"]) == ["column-1", "column-2", "fate:ann", "fate:bob"]
