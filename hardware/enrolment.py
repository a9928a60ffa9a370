"""Walking a person through tapping each card once: write the card's NDEF message where the
tag allows it and record the tag's UID in the registry.

Runs against any tag source (the USB reader, which can also write, or the reader board,
which reads UIDs only). Nothing is lost on a bad tap or an interruption: each card is
saved to the registry as soon as its tag is read.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from companion.contract import Card
from companion.observations import SensorState, SensorStatus

from .ndef_records import card_records
from .registry import Registry, RegistryError
from .tag_events import TagPresent, TagRemoved

__all__ = ["Enrolment", "EnrolmentResult"]


@dataclass
class EnrolmentResult:
    enrolled: list[Card] = field(default_factory=list)
    skipped: list[Card] = field(default_factory=list)
    ndef_written: int = 0
    quit_early: bool = False


class Enrolment:
    """Enrol ``cards`` for ``owner``; feed tag events to :meth:`event` from any thread and
    typed lines to :meth:`typed`; :meth:`run` drives the prompts."""

    def __init__(self, registry: Registry, owner: str, cards: Sequence[Card], *, write: bool, out: TextIO = sys.stdout) -> None:
        self.registry = registry
        self.owner = owner
        self.cards = list(cards)
        self.write = write
        self.out = out
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._current: Card | None = None
        self._lock = threading.Lock()

    # -- inputs, from other threads ----------------------------------------------------------

    def event(self, event: TagPresent | TagRemoved | SensorStatus) -> None:
        self._queue.put(("event", event))

    def typed(self, line: str | None) -> None:
        self._queue.put(("typed", line))

    def write_plan(self, uid: str) -> list[Any] | None:
        """For the USB reader: the records to write on the tag now tapped, or None.
        Refuses (raises) a tag that belongs to another card, so it is never overwritten."""
        with self._lock:
            card = self._current
        if card is None or not self.write:
            return None
        entry = self.registry.lookup(uid)
        if entry is not None and (entry.owner != self.owner or entry.card is not card):
            raise RegistryError(f"tag {uid} is {entry.owner}'s {entry.card.id} {entry.card.title}")
        return card_records(card, self.owner)

    # -- the walk ----------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> EnrolmentResult:
        result = EnrolmentResult()
        on_reader: str | None = None  # a tag still lying on the reader from the previous card
        total = len(self.cards)
        self._say(f"Enrolling {total} card(s) for {self.owner}. Tap each card's tag when asked; "
                  f"lift it before the next. Enter skips a card, q then Enter stops (what is done is kept).")
        for number, card in enumerate(self.cards, start=1):
            with self._lock:
                self._current = card
            previous = self.registry.entries_for(self.owner, card)
            note = f" (replaces tag {previous[0].uid})" if previous else ""
            self._say(f"[{number}/{total}] tap the {card.title}, {card.id}{note}")
            while True:
                kind, item = self._queue.get()
                if kind == "typed":
                    if item is None or item.strip().lower() in ("q", "quit"):
                        result.quit_early = True
                        self._say(f"stopped; {len(result.enrolled)} card(s) enrolled and saved")
                        return result
                    result.skipped.append(card)
                    self._say(f"  skipped {card.id}")
                    break
                if isinstance(item, SensorStatus):
                    if item.state is not SensorState.CONNECTED:
                        self._say(f"  reader: {item.state.value}: {item.detail}")
                    continue
                if isinstance(item, TagRemoved):
                    if item.uid == on_reader:
                        on_reader = None
                    continue
                if item.uid == on_reader:
                    continue  # the previous card is still on the reader: wait for a new tag
                if self._enrol_one(card, item, result):
                    on_reader = item.uid
                    break
        with self._lock:
            self._current = None
        self._say(f"done: {len(result.enrolled)} enrolled ({result.ndef_written} with the card written on the tag), "
                  f"{len(result.skipped)} skipped; registry: {self.registry.path_for(self.owner)}")
        return result

    def _enrol_one(self, card: Card, tap: TagPresent, result: EnrolmentResult) -> bool:
        if tap.write_error and "enrolment refused" in tap.write_error:
            self._say(f"  ✗ {tap.write_error.removeprefix('enrolment refused the tag: ')}: not this card's tag? "
                      f"tap the {card.id}, or free that tag with: rop tags forget {tap.uid} --owner <owner>")
            return False
        try:
            self.registry.enrol(tap.uid, card, self.owner, ndef=bool(tap.written))
        except RegistryError as exc:
            self._say(f"  ✗ {exc}")
            return False
        result.enrolled.append(card)
        if tap.written:
            result.ndef_written += 1
            how = "card written on the tag"
        elif tap.write_error:
            how = f"UID only: {tap.write_error}"
        else:
            how = "UID recorded"
        self._say(f"  ✓ {card.id} {card.title}: tag {tap.uid} ({how})")
        return True


def read_lines_into(target: Callable[[str | None], None], stream: TextIO) -> threading.Thread:
    """Forward typed lines from ``stream`` to ``target`` in a daemon thread (None at the end)."""

    def pump() -> None:
        for line in stream:
            target(line)
        target(None)

    thread = threading.Thread(target=pump, name="enrolment input", daemon=True)
    thread.start()
    return thread
