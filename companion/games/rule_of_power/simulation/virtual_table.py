"""Random legal games, played on a virtual table: for demos, tests and benchmarks.

The :class:`VirtualTable` holds what a real table holds and the engine does not: the order
of the shuffled World deck and of each Fate deck. It deals by the rules (R15), answers
Renewal draws from the top of the deck, and picks, for each player, a legal decision (which
card, which capture, which target): at random by default, or at a chosen level (``policy``:
``"greedy"``, the best immediate points; ``"coach"`` or ``"coach:fast"``/``"coach:deep"``, the
coach, which sees only that player's view). The outcomes of chance and of other players'
choices (a Mirror Swap's blind picks, Dark Decay discards) are random.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card, world_deck
from companion.games.rule_of_power.engine.game import FATE_DECK_SIZE, GameSetup, GameState, Phase, deal_from
from companion.games.rule_of_power.engine.moves import Deal, Move, NewRound, Play

__all__ = ["VirtualTable", "simulate_game", "default_names", "make_setup", "POLICIES"]

#: The levels a virtual player can play at.
POLICIES = ("random", "greedy", "coach", "coach:fast", "coach:deep")

_NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def default_names(players: int) -> tuple[str, ...]:
    return _NAMES[:players]


def make_setup(players: int, teams: int = 0, *, target: int = 11, expansion: bool = False) -> GameSetup:
    """Seat ``players`` players, in ``teams`` teams whose members sit alternately (R16)."""
    names = default_names(players)
    team_list = None
    if teams:
        if players % teams:
            raise ValueError(f"{players} players cannot form {teams} teams of equal size")
        team_list = tuple(tuple(names[i::teams]) for i in range(teams))
    return GameSetup(names, team_list, target, expansion)


class VirtualTable:
    """A table that plays a game of its own, move by move, through :meth:`next_move`."""

    def __init__(
        self, setup: GameSetup, *, seed: int | None = None, fate: bool = False, fate_rate: float = 0.25, policy: str = "random"
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
        self.setup = setup
        self.policy = policy
        self.rng = random.Random(seed)
        self.fate = fate
        self.fate_rate = fate_rate
        self.deck: list[Card] = []
        # Each player's collection choice, fixed for the game (R18).
        self.fate_sets = {p: self.rng.sample(FATE_CARDS, FATE_DECK_SIZE) if fate else [] for p in setup.players}

    def first_dealer(self) -> str:
        """Each player draws a World card; the lowest deals (ties drawn again)."""
        while True:
            cards = self.rng.sample(world_deck(self.setup.expansion), len(self.setup.players))
            low = min(c.value or 0 for c in cards)
            lowest = [p for p, c in zip(self.setup.players, cards) if c.value == low]
            if len(lowest) == 1:
                return lowest[0]

    def next_move(self, game: GameState) -> Move | None:
        """The table's next move in ``game``, ``None`` when the game is over."""
        phase = game.phase
        if phase is Phase.OVER:
            return None
        if phase is Phase.ROUND:
            players = self.setup.players
            if game.round_number == 0:
                dealer = self.first_dealer()
            else:
                prev = players.index(game.dealer or players[0])
                dealer = players[(prev + 1) % len(players)]
            self.deck = list(world_deck(self.setup.expansion))
            self.rng.shuffle(self.deck)
            decks = {}
            for p in players:
                cards = list(self.fate_sets[p])
                self.rng.shuffle(cards)
                decks[p] = tuple(cards)
            return NewRound.make(dealer, decks)
        if phase is Phase.DEAL:
            return self._deal(game)
        return self._turn(game)

    def _deal(self, game: GameState) -> Deal:
        return deal_from(self.deck, game)

    def _turn(self, game: GameState) -> Move:
        me = game.turn
        assert me is not None
        if self.policy != "random":
            return self._chosen(game)
        decisions: dict[tuple[object, ...], list[Move]] = {}
        for move in game.legal_moves:
            if isinstance(move, Play):
                key: tuple[object, ...] = ("play", move.card, move.target)
            else:
                key = (type(move).__name__,)
            decisions.setdefault(key, []).append(move)
        keys = list(decisions)
        world = [k for k in keys if k[0] == "play" and getattr(k[1], "is_world", False)]
        other = [k for k in keys if k not in world]
        # Mostly play World cards, as players do; Fate cards now and then.
        if world and (not other or self.rng.random() > self.fate_rate):
            key = self.rng.choice(world)
        else:
            key = self.rng.choice(other or world)
        options = decisions[key]
        move = self.rng.choice(options)
        if isinstance(move, Play) and move.drawn is not None:
            # The Renewal card comes from the top of the shuffled deck, not at random.
            drawn = self.deck.pop() if self.deck else None
            move = Play(me, move.card, drawn=drawn)
        return move

    def _chosen(self, game: GameState) -> Move:
        # Imported here: the coach is only needed by tables that play at a level.
        from companion.coach import Coach
        from companion.games.rule_of_power.coach.policies import greedy_move, realize

        me = game.turn
        assert me is not None
        if self.policy == "greedy":
            # The greedy player sees its own view; the table draws what chance decides.
            return realize(game, greedy_move(game.view(me), self.rng), self.deck, self.rng)
        _, _, level = self.policy.partition(":")
        # A fixed number of samples, not a time budget: a seeded game repeats on any machine.
        return Coach(level or "default").choose(game, me, self.deck, self.rng, repeatable=True)

    def moves(self, game: GameState, *, max_moves: int = 100_000) -> Iterator[Move]:
        """Play ``game`` to its end, yielding each move after pushing it."""
        for _ in range(max_moves):
            move = self.next_move(game)
            if move is None:
                return
            game.push(move)
            yield move
        raise RuntimeError("the simulated game did not end")


def simulate_game(setup: GameSetup, *, seed: int | None = None, fate: bool = False) -> tuple[GameState, list[Move]]:
    """Play a whole random legal game; returns the final state and its moves."""
    game = GameState(setup, keep_history=False)
    table = VirtualTable(setup, seed=seed, fate=fate)
    moves = list(table.moves(game))
    return game, moves

