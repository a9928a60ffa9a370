"""Cards tapped on the emulated reader boards (:mod:`hardware.emulator`) of one table, seen as
the host sees them: through the serial links, the tag registry and the resolver. For tests
and benchmarks that play whole games on the reader firmware.

Which reader serves what is the game's (its table spec's reader roles, placed on the boards by
its ``simulation.taps``). A table has one board or several, named as the companion names them
(``board``, ``board2``, ...: :func:`hardware.sensors.board_name`); a reader is
``<board>:<slot>``, the slot being the chip-select line it is wired to (``board:0``,
``board2:1``). Every tag's UID is made from its card's place in its game and the game's tag
byte (:class:`companion.contract.allocation.TagIds`), so that two games' decks never share one.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from companion.contract import Card, table_of
from companion.contract.registry import game
from companion.observations import CardLifted, CardTapped, Observation, SensorState, SensorStatus
from hardware.board_link import BoardLink
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.sensors import board_name

__all__ = ["CLUB", "TappedBoard", "board_chips", "club_deck", "tapped_boards"]

CLUB = "club"
"""The owner of the shared deck: the club's, on the table for everyone."""


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
    """The emulated boards of a table with every card of the club's deck and each player's own
    cards (``decks``) enrolled with a tag of its own (the registry lives in ``registry_dir``).
    The club's deck is ``deck``, as ``club``'s cards; without it, the default game's shared
    decks that carry no owner (their expansions left out). Use it as a context manager: the
    serial links run, and are connected, inside it.

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
        shared = deck if deck is not None else club_deck()
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
        """The UID of the tag on ``owner``'s ``card`` (7 bytes, as an NTAG's): the card's place
        in its game, the owner's place at the table, and the byte its game claims, so that two
        games' decks never share one."""
        low, kind = table_of(game(card.game)).tags.tag_byte(card)
        return f"04{low:02X}{self._owners[owner]:02X}{kind:02X}B2C3D4"

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


def club_deck() -> list[Card]:
    """The default game's cards a club keeps for the table: those of its shared decks that have
    a copy without owner, their expansions left out."""
    spec = table_of(game())
    return [c for d in spec.decks if d.unowned for c in d.base()]


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
