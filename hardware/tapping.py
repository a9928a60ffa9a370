"""Cards tapped on the emulated reader board (:mod:`hardware.emulator`), seen as the host
sees them: through the serial link, the tag registry and the resolver. For tests and
benchmarks that play whole games on the reader firmware.

At a Rule of Power table the board's reader 0 lies by the centre and reader ``1 + i`` is the
Fate reader of the ``i``-th player, when the players have Fate readers; a Circle of Power table
uses readers 0-2 for plays, cities and lines (its ``simulation.taps``), its standard deck
enrolled as the ``deck`` of one owner.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from companion.games.protocol import Card
from companion.games.rule_of_power.engine.cards import Card as WorldCard
from companion.observations import CardLifted, CardTapped, Observation, SensorState, SensorStatus
from hardware.board_link import BoardLink
from hardware.emulator import BoardEmulator
from hardware.registry import Registry
from hardware.resolver import Resolver

__all__ = ["CLUB", "TappedBoard", "board_chips"]

CLUB = "club"
"""The owner of the World cards: the club's deck, shared by the table."""


def board_chips(fate_readers: int) -> str:
    """The reader chips the emulated board needs: the centre's and ``fate_readers`` more."""
    return "".join(str(i) for i in range(1 + fate_readers))


class TappedBoard:
    """The emulated board with every World card of the club's deck and each player's Fate
    cards (``decks``) enrolled with a tag of its own (the registry lives in ``registry_dir``);
    or, given ``deck``, those cards of another game instead of the World deck, as ``club``'s
    deck. Use it as a context manager: the serial link runs, and is connected, inside it.

    ``timeout`` bounds every wait for the host's observation; it ends only a run that is
    already failing."""

    def __init__(
        self,
        emulator: BoardEmulator,
        decks: Mapping[str, Sequence[Card]],
        registry_dir: Path,
        *,
        timeout: float = 10.0,
        deck: Sequence[Card] | None = None,
        club: str = CLUB,
    ) -> None:
        self.emulator = emulator
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
        self.link = BoardLink(emulator.port, Resolver(self.registry, self.seen.put))

    def uid(self, card: Card, owner: str) -> str:
        """The UID of the tag on ``owner``'s ``card`` (7 bytes, as an NTAG's; a byte tells the
        card's game, so that two games' decks never share one)."""
        kind = "A1" if card.game == "rule-of-power" else "C0"
        return f"04{getattr(card, 'index'):02X}{self._owners[owner]:02X}{kind}B2C3D4"[:14]

    def __enter__(self) -> TappedBoard:
        self.link.start()
        self.next(lambda o: isinstance(o, SensorStatus) and o.state is SensorState.CONNECTED)
        return self

    def __exit__(self, *exc: object) -> None:
        self.link.stop()

    def next(self, wanted: Callable[[Observation], bool]) -> Observation:
        """The next observation that is ``wanted``; those before it are passed over."""
        while True:
            obs = self.seen.get(timeout=self.timeout)
            if wanted(obs):
                return obs

    def hold(self, slot: int, card: Card, owner: str) -> CardTapped:
        """Hold ``owner``'s ``card`` to reader ``slot``: the tap the host observes."""
        self.emulator.tag(slot, self.uid(card, owner))
        obs = self.next(lambda o: isinstance(o, CardTapped))
        assert isinstance(obs, CardTapped)
        return obs

    def lift(self, slot: int) -> None:
        """Lift the card held to reader ``slot``, and wait until the host has seen it go, so
        that the same card can be tapped there again."""
        self.emulator.lift(slot)
        self.next(lambda o: isinstance(o, CardLifted) and o.reader == f"board:{slot}")

    def tap(self, slot: int, card: Card, owner: str) -> CardTapped:
        """Hold the card to the reader and lift it again: the tap observed."""
        obs = self.hold(slot, card, owner)
        self.lift(slot)
        return obs
