"""Cards tapped on the emulated reader boards (:mod:`hardware.emulator`) of one table, seen as
the host sees them: through the serial links, the tag registry and the resolver. For tests
and benchmarks that play whole games on the reader firmware.

At a Rule of Power table a board's reader 0 lies by the centre and the others are the players'
Fate readers, when the players have Fate readers; a Circle of Power table uses readers 0-2 for
plays, cities and lines (its ``simulation.taps``), its standard deck enrolled as the ``deck`` of
one owner. A table has one board or several, named as the companion names them (``board``,
``board2``, ...: :func:`hardware.sensors.board_name`); a reader is ``<board>:<slot>``, the slot
being the chip-select line it is wired to (``board:0``, ``board2:1``).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from companion.contract import Card
from companion.games.rule_of_power.engine.cards import Card as WorldCard
from companion.observations import CardLifted, CardTapped, Observation, SensorState, SensorStatus
from hardware.board_link import BoardLink
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.sensors import board_name

__all__ = ["CLUB", "TappedBoard", "board_chips", "tapped_boards"]

CLUB = "club"
"""The owner of the World cards: the club's deck, shared by the table."""


def board_chips(readers: Iterable[str]) -> list[str]:
    """The reader chips each board needs, in board order (``board``, ``board2``, ...), for the
    board readers named in ``readers`` (``board:0``, ``board2:1``): ``["0123", "01"]``."""
    fitted: dict[int, set[int]] = {}
    for reader in readers:
        board, slot = _place(reader)
        fitted.setdefault(board, set()).add(slot)
    return ["".join(str(s) for s in sorted(fitted.get(k, ()))) for k in range(max(fitted, default=-1) + 1)]


def _place(reader: str) -> tuple[int, int]:
    """The board (from 0) and slot of a board reader's name."""
    name, _, slot = reader.partition(":")
    board = 0 if name == "board" else int(name.removeprefix("board")) - 1
    if board_name(board) != name or not slot.isdigit():
        raise ValueError(f"{reader!r} is not a board reader (board:0, board2:1, ...)")
    return board, int(slot)


class TappedBoard:
    """The emulated boards of a table with every World card of the club's deck and each
    player's Fate cards (``decks``) enrolled with a tag of its own (the registry lives in
    ``registry_dir``); or, given ``deck``, those cards of another game instead of the World
    deck, as ``club``'s deck. Use it as a context manager: the serial links run, and are
    connected, inside it.

    ``timeout`` bounds every wait for the host's observation; it ends only a run that is
    already failing."""

    def __init__(
        self,
        emulators: BoardEmulator | Sequence[BoardEmulator],
        decks: Mapping[str, Sequence[Card]],
        registry_dir: Path,
        *,
        timeout: float = 10.0,
        deck: Sequence[Card] | None = None,
        club: str = CLUB,
    ) -> None:
        self.emulators = [emulators] if isinstance(emulators, BoardEmulator) else list(emulators)
        self.timeout = timeout
        self._owners = {club: 0, **{p: 1 + i for i, p in enumerate(decks)}}
        self.registry = Registry.load(registry_dir)
        shared = deck if deck is not None else [c for c in WorldCard._by_id.values() if c.is_world and not c.is_expansion]
        for card in shared:
            self.registry.enrol(self.uid(card, club), card, club, ndef=False)
        for player, deck in decks.items():
            for card in deck:
                self.registry.enrol(self.uid(card, player), card, player, ndef=False)
        self.seen: queue.Queue[Observation] = queue.Queue()
        resolver = Resolver(self.registry, self.seen.put)
        self.links = [BoardLink(emu.port, resolver, name=board_name(k)) for k, emu in enumerate(self.emulators)]

    @property
    def emulator(self) -> BoardEmulator:
        """The table's first board."""
        return self.emulators[0]

    def uid(self, card: Card, owner: str) -> str:
        """The UID of the tag on ``owner``'s ``card`` (7 bytes, as an NTAG's; a byte tells the
        card's game, so that two games' decks never share one)."""
        kind = "A1" if card.game == "rule-of-power" else "C0"
        return f"04{getattr(card, 'index'):02X}{self._owners[owner]:02X}{kind}B2C3D4"[:14]

    def __enter__(self) -> TappedBoard:
        waiting = set()
        for link in self.links:
            link.start()
            waiting.add(link.source)
        while waiting:
            status = self.next(lambda o: isinstance(o, SensorStatus) and o.state is SensorState.CONNECTED)
            waiting.discard(status.source)
        return self

    def __exit__(self, *exc: object) -> None:
        for link in self.links:
            link.stop()

    def next(self, wanted: Callable[[Observation], bool]) -> Observation:
        """The next observation that is ``wanted``; those before it are passed over."""
        while True:
            obs = self.seen.get(timeout=self.timeout)
            if wanted(obs):
                return obs

    def hold(self, reader: str, card: Card, owner: str) -> CardTapped:
        """Hold ``owner``'s ``card`` to ``reader`` (``board:0``, ``board2:1``): the tap the
        host observes."""
        board, slot = _place(reader)
        self.emulators[board].tag(slot, self.uid(card, owner))
        obs = self.next(lambda o: isinstance(o, CardTapped))
        assert isinstance(obs, CardTapped)
        return obs

    def lift(self, reader: str) -> None:
        """Lift the card held to ``reader``, and wait until the host has seen it go, so that
        the same card can be tapped there again."""
        board, slot = _place(reader)
        self.emulators[board].lift(slot)
        self.next(lambda o: isinstance(o, CardLifted) and o.reader == reader)

    def tap(self, reader: str, card: Card, owner: str) -> CardTapped:
        """Hold the card to the reader and lift it again: the tap observed."""
        obs = self.hold(reader, card, owner)
        self.lift(reader)
        return obs


@contextmanager
def tapped_boards(
    firmware: FirmwareBuild,
    readers: Iterable[str],
    decks: Mapping[str, Sequence[Card]],
    workdir: Path,
    *,
    timeout: float = 10.0,
    speed: float = 1.0,
) -> Iterator[TappedBoard]:
    """The emulated boards a table's ``readers`` (``board:0``, ``board2:1``, ...) are wired
    to, each with those readers' chips fitted, running and connected (see :class:`TappedBoard`).
    ``speed``: how much faster than the wall clock the boards' time runs (at most; 1 to time
    what a player would see)."""
    with ExitStack() as stack:
        emulators = [
            stack.enter_context(BoardEmulator(firmware, chips=chips, link=workdir / board_name(k), speed=speed))
            for k, chips in enumerate(board_chips(readers))
        ]
        yield stack.enter_context(TappedBoard(emulators, decks, workdir / "tags", timeout=timeout))
