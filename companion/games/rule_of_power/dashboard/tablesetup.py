"""A table's setup for manual play: players and teams (R16), target (R14), expansion (R2),
each player's seven Fate cards (R18), the first dealer, and who shuffles."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from companion.dashboard import kit
from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card
from companion.games.rule_of_power.dashboard.entry import EntryError, resolve_card
from companion.games.rule_of_power.engine.game import FATE_DECK_SIZE, GameSetup, IllegalMoveError
from companion.games.rule_of_power.engine.moves import InvalidMoveError

__all__ = ["FATE_MODES", "SetupError", "TableSetup", "build_table_setup"]

FATE_MODES = ("none", "random", "custom")


class SetupError(kit.SetupError):
    """A table the rules do not allow (R14, R16, R18), or a field that is not understood."""


@dataclass(frozen=True)
class TableSetup:
    setup: GameSetup
    fate_sets: dict[str, list[Card]] = field(default_factory=dict)
    first_dealer: str | None = None
    companion_deals: bool = False

    @property
    def options(self) -> dict[str, Any]:
        """What manual play needs besides the set-up (:meth:`RuleOfPowerDashboard.manual
        <companion.games.rule_of_power.dashboard.kit.RuleOfPowerDashboard.manual>`)."""
        return {"fate_sets": self.fate_sets, "first_dealer": self.first_dealer, "companion_deals": self.companion_deals}

    @property
    def facts(self) -> dict[str, Any]:
        """The table's facts for the tracker (:mod:`companion.observations.facts`): each
        player's Fate deck."""
        return {"fate_decks": {p: tuple(cards) for p, cards in self.fate_sets.items()}}


def _players(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,]+", text.strip()) if p]


def parse_fate_sets(text: str, players: list[str]) -> dict[str, list[Card]]:
    """``ann=F001 F002 ...; bob=...``: each player's seven distinct Fate cards (R18)."""
    out: dict[str, list[Card]] = {}
    for part in [p for p in text.split(";") if p.strip()]:
        name, sep, cards = part.partition("=")
        name = name.strip()
        if not sep or name not in players:
            raise SetupError(f"Fate decks: write player=seven cards; separate players with ';' ({part.strip()!r})")
        try:
            deck = [resolve_card(w) for w in re.split(r"[\s,]+", cards.strip()) if w]
        except EntryError as exc:
            raise SetupError(f"{name}'s Fate deck: {exc}") from None
        if any(not c.is_fate for c in deck) or len(set(deck)) != FATE_DECK_SIZE or len(deck) != FATE_DECK_SIZE:
            raise SetupError(f"R18: {name}'s Fate deck is seven different Fate cards (F001-F008)")
        out[name] = deck
    return out


def build_table_setup(
    players: str,
    teams: int = 0,
    target: int = 11,
    expansion: bool = False,
    fate: str = "none",
    fate_decks: str = "",
    dealer: str = "",
    companion_deals: bool = False,
    seed: int | None = None,
) -> TableSetup:
    names = _players(players)
    team_list = None
    if teams:
        if len(names) % teams or len(names) // teams < 2:
            raise SetupError(f"R16: {len(names)} players cannot form {teams} teams of equal size, two or more each")
        team_list = tuple(tuple(names[i::teams]) for i in range(teams))
    try:
        setup = GameSetup(tuple(names), team_list, target, expansion)
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise SetupError(str(exc)) from None
    fate_sets: dict[str, list[Card]] = {}
    if fate == "random":
        rng = random.Random(seed)
        fate_sets = {p: rng.sample(FATE_CARDS, FATE_DECK_SIZE) for p in names}
    elif fate == "custom":
        fate_sets = parse_fate_sets(fate_decks, names)
    elif fate != "none":
        raise SetupError(f"Fate decks: none, random or custom, not {fate!r}")
    first = dealer.strip() or None
    if first is not None and first not in names:
        raise SetupError(f"the first dealer must be one of the players ({', '.join(names)}), not {first!r}")
    return TableSetup(setup, fate_sets, first, companion_deals)
