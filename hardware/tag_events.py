"""What a reader reports before any registry is consulted: a tag (by UID, with the NDEF
card it names if the reader could read it) came or went. The resolver turns these into
the observations of :mod:`companion.observations`; enrolment consumes them directly."""

from __future__ import annotations

from dataclasses import dataclass

from .ndef_records import NdefCard

__all__ = ["TagPresent", "TagRemoved", "TagEvent"]


@dataclass(frozen=True, slots=True)
class TagPresent:
    """A tag entered the field of ``reader`` (``"usb"``, ``"board:0"`` ...).

    ``ndef_card`` is the card its NDEF message names; ``ndef_error`` says why the content
    could not be used (None: fine or not read, as the board reads UIDs only). ``written``
    is set when an NDEF message was written during this tap (enrolment)."""

    source: str
    at: float
    reader: str
    uid: str
    ndef_card: NdefCard | None = None
    ndef_error: str | None = None
    written: bool | None = None
    write_error: str | None = None


@dataclass(frozen=True, slots=True)
class TagRemoved:
    """The tag left the field of ``reader`` (or the reader can no longer vouch for it)."""

    source: str
    at: float
    reader: str
    uid: str


TagEvent = TagPresent | TagRemoved
