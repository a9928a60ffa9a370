"""The tables the coach of Rule of Power is measured at (``./run bench coach``): each a maker
of a round's opening from a seed, the dealer drawn, the Fate decks chosen (R18) and the first
deal made from a shuffled World deck (R15)."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games.rule_of_power.engine.cards import FATE_CARDS, world_deck
from companion.games.rule_of_power.engine.game import FATE_DECK_SIZE, GameSetup, GameState, deal_from
from companion.games.rule_of_power.engine.moves import NewRound

__all__ = ["TABLES", "opening"]

_NAMES = ("ann", "bob", "cy", "dee")


def opening(players: int, teams: int = 0, *, fate: bool = False, expansion: bool = False) -> Callable[[random.Random], GameState]:
    """A maker of the opening of a round at a table of ``players`` in ``teams`` teams (their
    members sitting alternately, R16), each with a Fate deck of seven drawn from the starter
    cards when ``fate`` (R3, R18), with the Higher Powers expansion when ``expansion`` (R2)."""
    names = _NAMES[:players]
    team_list = tuple(names[i::teams] for i in range(teams)) if teams else None
    setup = GameSetup(names, team_list, 11, expansion)

    def make(rng: random.Random) -> GameState:
        state = GameState(setup, keep_history=False)
        dealer = rng.choice(names)
        decks = {p: rng.sample(FATE_CARDS, FATE_DECK_SIZE) for p in names} if fate else {}
        state.push(NewRound.make(dealer, decks))
        deck = list(world_deck(expansion))
        rng.shuffle(deck)
        state.push(deal_from(deck, state))
        return state

    return make


TABLES: dict[str, Callable[[random.Random], GameState]] = {
    "2 players": opening(2),
    "2 players, Fate decks": opening(2, fate=True),
    "4 players in 2 teams": opening(4, 2),
    "4 players in 2 teams, Fate decks": opening(4, 2, fate=True),
    "2 players, Higher Powers": opening(2, expansion=True),
    "4 players in 2 teams, Higher Powers": opening(4, 2, expansion=True),
    "2 players, Fate decks, Higher Powers": opening(2, fate=True, expansion=True),
    "4 players in 2 teams, Fate decks, Higher Powers": opening(4, 2, fate=True, expansion=True),
}
"""The tables by name, as :meth:`~.model.RuleOfPowerCoach.tables` gives them."""
