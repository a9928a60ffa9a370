"""From tag events to card observations, through the registry and the tags' own content.

Rules, in order, so that a misread never becomes a wrong card:

1. UID enrolled exactly once: that card, unless the tag's NDEF names another card
   (then nothing: the tag or the registry is wrong, and the message says how to fix it).
2. UID enrolled more than once: nothing, with the conflicting places named.
3. UID not enrolled, NDEF names a card whose owner has a *different* tag enrolled for it:
   nothing: the card's tag was replaced, re-enrol it.
4. UID not enrolled, NDEF names a card: that card (tags enrolled at another table work).
5. Otherwise: an unknown tag, with the command that enrols it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.observations import CardLifted, CardTapped, Observation, SensorStatus, UnknownTag

from .registry import Registry
from .tag_events import TagEvent, TagPresent, TagRemoved

__all__ = ["Resolver"]


class Resolver:
    """Turns :class:`TagEvent` into observations and passes them (and sensor statuses) on.

    Lifts carry the card resolved at the tap, so a tag re-enrolled meanwhile still lifts
    the card that was tapped. Thread-safe: several readers may feed one resolver."""

    def __init__(self, registry: Registry, emit: Callable[[Observation], None]) -> None:
        self.registry = registry
        self._emit = emit
        self._lock = threading.Lock()
        self._tapped: dict[tuple[str, str], CardTapped] = {}

    def __call__(self, event: TagEvent | SensorStatus) -> None:
        if isinstance(event, SensorStatus):
            self._emit(event)
        elif isinstance(event, TagPresent):
            self._emit(self.resolve(event))
        elif isinstance(event, TagRemoved):
            with self._lock:
                tapped = self._tapped.pop((event.reader, event.uid), None)
            if tapped is not None:
                self._emit(CardLifted(event.source, event.at, tapped.card, tapped.owner, event.reader, event.uid))

    def resolve(self, event: TagPresent) -> CardTapped | UnknownTag:
        reg = self.registry

        def unknown(reason: str) -> UnknownTag:
            return UnknownTag(event.source, event.at, event.reader, event.uid, reason)

        entry = reg.lookup(event.uid)
        named = event.ndef_card
        if entry is not None:
            if named is not None and (named.card is not entry.card or named.owner != entry.owner):
                return unknown(
                    f"tag {event.uid} is enrolled as {entry.owner}'s {entry.card.id} ({entry.where}) but its content "
                    f"says {named.owner}'s {named.card.id}; tap it during: rop tags enrol --owner {named.owner} "
                    f"--card {named.card.id} (or --card {entry.card.id} if the registry is right)"
                )
            result = CardTapped(event.source, event.at, entry.card, entry.owner, event.reader, event.uid)
        else:
            conflicts = reg.conflicts(event.uid)
            if conflicts:
                places = ", ".join(f"{e.owner}'s {e.card.id} ({e.where})" for e in conflicts)
                return unknown(f"tag {event.uid} is enrolled more than once: {places}; run: rop tags check")
            if named is None:
                detail = f" (its content could not be used: {event.ndef_error})" if event.ndef_error else ""
                return unknown(
                    f"tag {event.uid} is not enrolled{detail}; enrol it with: rop tags enrol --owner NAME --card CARD"
                )
            others = [e for e in reg.entries_for(named.owner, named.card) if e.uid != event.uid]
            if others:
                return unknown(
                    f"tag {event.uid} says {named.owner}'s {named.card.id} {named.card.title}, but that card is "
                    f"enrolled with tag {others[0].uid} ({others[0].where}); if the card's tag was replaced run: "
                    f"rop tags enrol --owner {named.owner} --card {named.card.id}"
                )
            result = CardTapped(event.source, event.at, named.card, named.owner, event.reader, event.uid)
        with self._lock:
            self._tapped[(event.reader, event.uid)] = result
        return result
