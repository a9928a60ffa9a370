"""Move sources: where the dashboard's moves come from.

A source produces moves (and notes) and posts them to the app as messages
(:class:`~companion.dashboard.messages.MoveProposed`, ...); the app checks each move against
the rules, applies it and records it. The same interface serves

- :class:`DemoSource`, a virtual table (:class:`companion.simulation.virtual_table.VirtualTable`) playing a
  game of its own at a watchable pace, with a slip now and then to show how the companion
  flags an illegal move;
- :class:`ReplaySource`, a game record played back at the same pace;
- :class:`ManualSource`, the scorekeeper typing what happens at the table;
- and, later, the table tracker that turns camera and NFC observations into moves.

Clocked sources (demo, replay) run in an async worker of the app and obey its controls:
pause, step, faster, slower, restart.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from companion.engine.cards import Card, world_deck
from companion.dashboard.messages import (
    GameReset,
    MoveProposed,
    SourceFinished,
    SourceNote,
)
from companion.engine.game import GameSetup, GameState, Phase, deal_sizes
from companion.engine.moves import Deal, Move, NewRound, Pass, Play
from companion.records.format import RecordError, RecordVisitor, open_record, read_record, record_lines
from companion.simulation.virtual_table import VirtualTable

if TYPE_CHECKING:
    from textual.app import App
    from textual.worker import Worker

__all__ = ["SPEEDS", "ClockedSource", "DemoSource", "ManualSource", "MoveSource", "ReplaySource"]

#: Seconds between moves, slowest first.
SPEEDS: tuple[float, ...] = (3.0, 2.0, 1.4, 1.0, 0.7, 0.45, 0.25, 0.1, 0.03)


class MoveSource:
    """Produces the moves of a game and posts them to the app."""

    name = "source"
    clocked = False
    """Obeys pause, step, faster and slower."""
    can_restart = False
    editable = False
    """The table may undo and correct moves (manual entry)."""

    def __init__(self) -> None:
        self.app: App | None = None

    def attach(self, app: App) -> None:
        self.app = app

    def post(self, message: Message) -> None:
        assert self.app is not None
        self.app.post_message(message)

    def start(self) -> None:
        """Begin producing (called once the app is running)."""

    def stop(self) -> None:
        """Stop producing (the app is closing)."""

    def hold(self) -> None:
        """Stop producing until :meth:`release` (the table reads a settlement)."""

    def release(self) -> None:
        pass

    def rewound(self, game: GameState) -> None:
        """The table undid events: ``game`` is the state it went back to."""

    def reapplied(self, move: Move) -> None:
        """The table re-applied ``move`` (redo) to the dashboard's game."""

    @property
    def status(self) -> str:
        return self.name


class ClockedSource(MoveSource):
    """A source that gives one item per tick of a clock the table controls."""

    clocked = True

    def __init__(self, *, delay: float = 0.7, paused: bool = False) -> None:
        super().__init__()
        self.speed = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - delay))
        self.paused = paused
        self.finished = False
        self._holds = 0
        self._steps = 0
        self._wake: asyncio.Event | None = None
        self._worker: Worker[None] | None = None

    # -- what to produce
    def reset(self) -> list[Message]:
        """Messages that (re)start the game."""
        raise NotImplementedError

    def produce(self) -> list[Message] | None:
        """The messages of the next tick, ``None`` at the end."""
        raise NotImplementedError

    # -- the clock
    @property
    def delay(self) -> float:
        return SPEEDS[self.speed]

    def start(self) -> None:
        assert self.app is not None
        self._worker = self.app.run_worker(self._run(), name=f"{self.name} clock", group="source", exclusive=True)

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._poke()

    def step(self) -> None:
        """One move now (pauses the clock)."""
        self.paused = True
        self._steps += 1
        self._poke()

    def faster(self) -> None:
        self.speed = min(self.speed + 1, len(SPEEDS) - 1)
        self._poke()

    def slower(self) -> None:
        self.speed = max(self.speed - 1, 0)
        self._poke()

    def hold(self) -> None:
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)
        self._poke()

    def restart(self) -> None:
        if not self.can_restart:
            return
        self.finished = False
        self._steps = 0
        self.start()

    @property
    def status(self) -> str:
        if self.finished:
            state = "finished"
        elif self.paused:
            state = "paused"
        else:
            state = "playing"
        return f"{self.name} {state} {self.delay:g}s"

    async def _tick(self) -> None:
        """Wait for the next tick: the delay, or a step when paused; never while held."""
        while True:
            self._wake = asyncio.Event()
            if self._steps and not self._holds:
                self._steps -= 1
                return
            if self.paused or self._holds:
                await self._wake.wait()
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.delay)
            except TimeoutError:
                if not self.paused and not self._holds:
                    return

    async def _run(self) -> None:
        for message in self.reset():
            self.post(message)
        while True:
            await self._tick()
            items = self.produce()
            if items is None:
                self.finished = True
                self.post(SourceFinished(self.name))
                return
            for message in items:
                self.post(message)


class DemoSource(ClockedSource):
    """A virtual table playing a random legal game, with an occasional slip (an illegal
    attempt, flagged by the dashboard and followed by the right move)."""

    name = "demo"
    can_restart = True

    def __init__(self, setup: GameSetup, *, seed: int = 7, fate: bool = True, slips: float = 0.08, **kw: float | bool) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.setup = setup
        self.seed = seed
        self.fate = fate
        self.slips = slips
        self.table: VirtualTable | None = None
        self.shadow: GameState | None = None
        self.rng = random.Random(seed)
        self._turns = 0
        self._pending: Move | None = None

    def reset(self) -> list[Message]:
        self.table = VirtualTable(self.setup, seed=self.seed, fate=self.fate)
        self.shadow = GameState(self.setup, keep_history=False)
        self.rng = random.Random(self.seed + 1)
        self._turns = 0
        self._pending = None
        sides = " vs ".join(self.setup.sides)
        fate = "with" if self.fate else "without"
        welcome = (
            f"Demo table: {sides}, {fate} Fate decks. Space pauses, N steps, +/- change the pace, "
            "F2 teaching mode, F1 every key. Now and then a player slips: watch the rule it breaks."
        )
        return [GameReset(self.setup, self.name), SourceNote(welcome, self.name)]

    def produce(self) -> list[Message] | None:
        assert self.table is not None and self.shadow is not None
        game = self.shadow
        move: Move | None
        if self._pending is not None:
            move, self._pending = self._pending, None
        else:
            move = self.table.next_move(game)
            if move is None:
                return None
            if game.phase is Phase.TURN:
                self._turns += 1
                # The first slip comes early, so a newcomer sees one in the first minute.
                if self._turns == 3 or (self._turns > 3 and self.rng.random() < self.slips):
                    slip = make_slip(game, move, self.rng)
                    if slip is not None:
                        self._pending = move
                        return [MoveProposed(slip, self.name, attempt=True)]
        game.push(move)
        return [MoveProposed(move, self.name)]


def make_slip(game: GameState, intended: Move, rng: random.Random) -> Move | None:
    """An illegal move a real table makes now and then: leaving a capture on the table
    (R4), taking a sum while a matching card lies there (R4), playing out of turn or passing
    with cards in hand (R17). ``None`` when none applies here."""
    me = game.turn
    if me is None:
        return None
    slips: list[Move] = []
    for card in game.hand(me):
        options = game.capture_options(card)
        if options and not game.is_empowered(card):
            slips.append(Play(me, card))
            if len(options[0]) == 1:
                # A sum of other centre cards equal to the value, taken instead of the match.
                rest = [c for c in game.centre if c.value != card.value]
                for a in rest:
                    for b in rest:
                        if a is not b and (a.value or 0) + (b.value or 0) == card.value and a < b:
                            slips.append(Play(me, card, (a, b)))
    others = [p for p in game.players if p != me and game.hand(p)]
    if others:
        p = rng.choice(others)
        card = game.hand(p)[0]
        options = game.capture_options(card)
        slips.append(Play(p, card, options[0] if options else ()))
    if game.hand(me):
        slips.append(Pass(me))
    slips = [s for s in slips if not game.is_legal(s)]
    return rng.choice(slips) if slips else None


class _Collector(RecordVisitor):
    def __init__(self) -> None:
        self.setup: GameSetup | None = None
        self.moves: list[Move] = []

    def begin_game(self, setup: GameSetup, line: int) -> None:
        self.setup = setup

    def visit_move(self, move: Move, line: int) -> None:
        self.moves.append(move)


def read_moves(path: str | Path) -> tuple[GameSetup, list[Move], RecordError | None]:
    """The setup and moves of a record as written (rules are checked when they are played);
    a malformed line ends the list and is returned as the error."""
    collector = _Collector()
    error = None
    with open_record(path) as fp:
        try:
            read_record(record_lines(fp, str(path)), collector, path=str(path))
        except RecordError as exc:
            error = exc
    if collector.setup is None:
        raise error or RecordError("the record is empty", line=1, path=str(path))
    return collector.setup, collector.moves, error


class ReplaySource(ClockedSource):
    """A game record played back move by move."""

    name = "replay"
    can_restart = True

    def __init__(self, path: str | Path, **kw: float | bool) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.path = Path(path)
        self.setup, self.moves, self.error = read_moves(self.path)
        self.index = 0
        # A move that breaks a rule ends the replay: it is shown, flagged, and nothing after it.
        check = GameState(self.setup, keep_history=False)
        for i, move in enumerate(self.moves):
            if not check.is_legal(move):
                self.moves = self.moves[: i + 1]
                self.error = RecordError(f"event {i + 1} breaks a rule, so the replay stops there", line=i + 2, path=str(self.path))
                break
            check.push(move, check=False)

    def reset(self) -> list[Message]:
        self.index = 0
        return [GameReset(self.setup, self.name), SourceNote(f"Replaying {self.path.name}", self.name)]

    def produce(self) -> list[Message] | None:
        if self.index >= len(self.moves):
            if self.error is not None and self.index == len(self.moves):
                self.index += 1
                return [SourceNote(f"The record stops here: {self.error}", self.name, severity="error")]
            return None
        move = self.moves[self.index]
        self.index += 1
        return [MoveProposed(move, self.name)]

    def to_end(self) -> None:
        """Play every remaining move at once."""
        while self.index < len(self.moves):
            self.post(MoveProposed(self.moves[self.index], self.name, quiet=True))
            self.index += 1
        self.paused = True
        self._poke()


class TableDealer:
    """For manual play where the companion shuffles and deals (a table without cards, a
    lesson, a hot-seat game): a shuffled World deck, dealt by R15."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.order: list[Card] = []

    def new_round(self, game: GameState, dealer: str, fate_sets: dict[str, list[Card]]) -> NewRound:
        self.order = list(world_deck(game.setup.expansion))
        self.rng.shuffle(self.order)
        decks = {}
        for p in game.players:
            cards = list(fate_sets.get(p, ()))
            if cards:
                self.rng.shuffle(cards)
                decks[p] = cards
        return NewRound.make(dealer, decks)

    def _deck(self, game: GameState) -> list[Card]:
        pool = game.unlocated
        if not self.order or any(c not in self.order for c in pool):
            self.order = sorted(pool)
            self.rng.shuffle(self.order)
        return [c for c in self.order if c in pool]

    def deal(self, game: GameState) -> Deal:
        deck = self._deck(game)
        players = game.players
        n = len(players)
        first = game.deal_number == 0
        sizes = deal_sizes(n, game.deck_count, first)
        start = players.index(game.dealer or players[0]) + 1
        order = [players[(start + k) % n] for k in range(n)]
        hands: dict[str, list[Card]] = {p: [] for p in players}
        for r in range(3):
            for k, p in enumerate(order):
                if sizes[k] > r:
                    hands[p].append(deck.pop())
        centre = [deck.pop() for _ in range(4)] if first else []
        return Deal.make(hands, centre)

    def top(self, game: GameState) -> Card | None:
        deck = self._deck(game)
        return deck[-1] if deck else None


class ManualSource(MoveSource):
    """The scorekeeper's keyboard and mouse: moves typed or picked in the dashboard."""

    name = "manual"
    editable = True
    deals_by_hand = True
    """The table enters each deal (or lets the companion deal); a tracker that sees the deals
    itself says no."""

    def __init__(self, *, companion_deals: bool = False, fate_sets: dict[str, list[Card]] | None = None, first_dealer: str | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.companion_deals = companion_deals
        self.fate_sets = fate_sets or {}
        self.first_dealer = first_dealer
        self.dealer = TableDealer(seed)

    def submit(self, move: Move, *, attempt: bool = False) -> None:
        self.post(MoveProposed(move, self.name, attempt=attempt))

    def next_round(self, game: GameState) -> NewRound:
        """The next round's NewRound: the dealer by R15, each player's Fate deck (R18)."""
        players = game.players
        if game.round_number == 0:
            dealer = self.first_dealer or players[-1]
        else:
            dealer = players[(players.index(game.dealer or players[0]) + 1) % len(players)]
        if self.companion_deals:
            return self.dealer.new_round(game, dealer, self.fate_sets)
        decks = {p: list(self.fate_sets[p]) for p in players if self.fate_sets.get(p)}
        return NewRound.make(dealer, decks, fate_order_known=False)

    @property
    def status(self) -> str:
        return "manual play" + (", the companion deals" if self.companion_deals else "")
