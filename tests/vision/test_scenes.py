"""The virtual table lays cards the way players spread them: however crowded the centre, every
seal stays in view, and the camera path reads every card."""

from __future__ import annotations

from companion.games.rule_of_power.engine.cards import Card
from companion.observations.scene import Scene, TableCard
from vision.layout import demo_layout
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.scenes import (
    CARD_H,
    SEAL_TOP_BELOW_CENTRE_MM,
    SceneLayout,
    render_scene_frames,
)

PLAYERS = ["ann", "bob"]


def crowded_scenes(n: int) -> list[Scene]:
    """A centre filling up one card at a time, with a Fate card in play on each side."""
    fate = (TableCard(Card.from_id("F001"), "ann", "fate:ann"), TableCard(Card.from_id("F002"), "bob", "fate:bob"))
    cards: list[TableCard] = []
    scenes = []
    for k in range(1, n + 1):
        cards.append(TableCard(Card.from_id(f"W{k:03d}"), None, "centre"))
        scenes.append(Scene(tuple(cards) + fate, None, f"{k} in the centre"))
    return scenes


def test_a_raised_card_clears_the_seal_of_the_card_below() -> None:
    layout = SceneLayout(demo_layout().seated(PLAYERS))
    slots = layout._slots("centre")
    lower = [(x, y) for x, y, layer, _ in slots if layer == 0]
    raised = [(x, y) for x, y, layer, _ in slots if layer == 1]
    assert len(lower) == 9 and len(raised) == 9
    for (_, y_low), (_, y_high) in zip(lower, raised):
        assert y_high + CARD_H / 2 < y_low + SEAL_TOP_BELOW_CENTRE_MM - 4


def test_every_card_of_a_crowded_centre_is_read() -> None:
    mat = demo_layout()
    reader = TableReader(layout=mat, owners=OwnerRegistry(PLAYERS + [None] * 6), players=PLAYERS)
    scenes = crowded_scenes(16)
    for scene, _, image in render_scene_frames(scenes, mat.seated(PLAYERS), PLAYERS, frames_per_scene=1, seed=3):
        seen = {(c.card, c.zone) for c in reader.read(image).cards}
        assert seen == {(t.card, t.zone) for t in scene.cards}, scene.caption
