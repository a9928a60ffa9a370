"""The table tracker: follows the physical table from what the sensors observe.

Observations (:mod:`companion.observations`) come in one at a time, from the camera's
stabiliser and from NFC readers. The :class:`Tracker` keeps what every game's table shares: the
cards the sensors report face up and where (:class:`~companion.tracker.view.TableView`), the
order observations came in, the clock, the question open to the table and its answer, and the
link to the :class:`~companion.session.GameSession` it follows. What the table means is the
game's: its :class:`TableReasoner` (``game.tracking().reasoner(tracker)``) compares the table
with the game and finds the moves that explain a change:

- exactly one explanation: it is applied (:class:`MoveApplied`);
- several: the table is asked to choose, with one key (:class:`Question`);
- none yet: a move may be under way (a card shown before the capture is picked up), so the
  tracker waits; if the table stays so for ``unexplained_after`` seconds the reasoner says
  what the rules allow instead (:class:`RuleHint`) or that the table and the game disagree
  (:class:`OutOfSync`). Nothing is applied from a reading that more than one move could
  explain.

Hidden cards are not guessed: with a camera alone the hands stay face down, and each card is
known when played. A card lying face down whose back carries a seal is seen as its back (the
view's ``backs``): where it lies, and whose deck, never which card. A card laid whose seal the
camera cannot read yet is known to lie there before it is known which (the view's ``laid``):
the game's reasoning keeps its place in the order the table showed things in, and the card
the camera names later takes that place.

The tracker proposes the moves it finds to the session, like any move source. Corrections
made elsewhere (a move typed at the keyboard, an undo, a corrected event) reach it as session
events: it then compares the table with the game again, and after an undo it waits for the
table to change before explaining it anew.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.contract import Move
from companion.observations import (
    BackGone,
    BackSeen,
    CardGone,
    CardLaid,
    CardLifted,
    CardSeen,
    CardTapped,
    DrawAnnounced,
    LaidGone,
    Observation,
    SensorStatus,
    UnknownTag,
)
from companion.observations.facts import TableFacts
from companion.observations.log import ObservationLog
from companion.session import Applied, Corrected, GameSession, Refused, SessionEvent, Started, Undone
from companion.tracker.events import MoveApplied, Notice, Question, TrackerEvent, TrackerState
from companion.tracker.view import TableView

__all__ = ["TrackerConfig", "Tracker", "TableReasoner", "TableRules", "SOURCE"]

SOURCE = "tracker"
"""The session source of every move the tracker proposes: ``"tracker (camera)"``, ..."""


@dataclass(frozen=True)
class TrackerConfig:
    """How the table is equipped.

    - ``readers``: NFC reader name -> zone, in the game's zone names (Rule of Power:
      ``"centre"``, ``"fate:<player>"``, ``"hand:<player>"``; docs/tracker.md).
    - ``hands_unseen``: hands are dealt face down and never read (a camera alone); otherwise
      each deal is tapped in (or entered on the dashboard).
    - ``unexplained_after``: seconds the table may look unexplained before the tracker says
      so; longer than the camera's stabiliser takes to call a card gone (about 2 s), since
      cards taken together may be reported gone a moment apart when a hand lingers over one
      of them.
    - ``remind_after``: seconds a card may lie shown before the tracker reminds the table
      what the rules want of it (players show a card for a moment before finishing a move).
    - ``first_dealer``: who deals first (else the table is asked).
    - ``facts``: the game's own facts about the table, by name
      (:mod:`companion.observations.facts`; Rule of Power: ``fate_decks``, each player's seven
      Fate cards, whose order is never seen; ``draws_visible``, Fate draws tapped on the
      players' Fate readers rather than announced).
    """

    readers: Mapping[str, str] = field(default_factory=dict)
    hands_unseen: bool = True
    unexplained_after: float = 3.0
    remind_after: float = 6.0
    first_dealer: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_log(cls, log: ObservationLog) -> TrackerConfig:
        """The tracker set up for the table an observation log was recorded at."""
        return cls(readers=log.readers, hands_unseen=log.hands_unseen, first_dealer=log.first_dealer, facts=log.facts)


class TableReasoner(Protocol):
    """A game's reasoning about its table, for one :class:`Tracker`: what the cards seen mean
    as moves of the game. Every method returns what happened, as tracker events."""

    def compared(self, zone: str | None) -> bool:
        """Whether cards face up in ``zone`` can be compared with the game."""

    def seen(self, obs: CardSeen | CardGone, was: str | None) -> None:
        """A card was seen laid or gone, changing the compared part of the table (``was``: its
        zone before; the view has taken the change in): for what the order of the table
        tells. A :class:`CardSeen` with a ``mark`` names a card seen laid before it could be
        read (:meth:`unread`): its place in the order is when it was laid."""

    def unread(self, obs: CardLaid | LaidGone) -> None:
        """A card laid that the camera cannot name yet came, or went unnamed, in a compared
        zone (the view has taken it in): it binds the order of the table from the moment it
        was laid, so that no card laid after it is credited in its place."""

    def reconcile(self, *, waited: bool) -> list[TrackerEvent]:
        """Compare the table with the game and act: apply, ask, wait or say what differs.
        ``waited``: the table has looked so for :attr:`TrackerConfig.unexplained_after`
        seconds."""

    def tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        """A card tapped on an NFC reader."""

    def announced(self, player: str) -> list[TrackerEvent]:
        """A player announced a move no sensor can see (Rule of Power: a Fate card drawn)."""

    def catch_up(self, *, hold: bool) -> list[TrackerEvent]:
        """After a change made elsewhere: what the rules force now, and the table compared
        (``hold``: the table still shows a move just taken back; wait for it to change)."""

    def answered(self, moves: tuple[Move, ...]) -> list[TrackerEvent]:
        """The table answered a question with ``moves``: apply them and compare again."""

    def forget(self, event: SessionEvent) -> None:
        """A change made elsewhere: drop what was half seen or half tapped."""

    def differences(self) -> tuple[str, ...]:
        """What differs between the table and the game, in words."""


class TableRules(TableFacts, Protocol):
    """What a game provides for tracking a table (``game.tracking()``): its table facts, and
    the reasoning about what the table shows."""

    def reasoner(self, tracker: Tracker) -> TableReasoner:
        """The reasoning for one tracker, kept as long as the tracker is."""


class Tracker:
    """Follows the table for ``session``: takes observations, proposes the moves that explain
    them. Call its methods with ``session.lock`` held when other threads use the session."""

    def __init__(self, session: GameSession, config: TrackerConfig | None = None) -> None:
        self.session = session
        self.config = config or TrackerConfig()
        self.state = TrackerState.SYNCED
        self.question: Question | None = None
        self.camera = False
        """A camera reports the table (else only taps and keys do)."""
        self.seq = 0
        """Table changes seen so far, counted: the order the table showed things in."""
        self.changed_at = 0.0
        """When the table last changed, on the sensors' clock."""
        self.now = 0.0
        """The latest time :meth:`tick` was given."""
        self._foreign = False
        self._hold = False
        self._looked_at = -1.0
        """The table change last compared once it had stayed (``changed_at``)."""
        rules = session.setup.game.tracking()
        if rules is None:
            raise ValueError(f"the companion cannot follow a table of {session.setup.game.title} yet")
        self.reasoner: TableReasoner = rules.reasoner(self)
        self.view = TableView(self.reasoner.compared)
        self._unsubscribe = session.subscribe(self._session_changed)

    @property
    def game(self) -> Any:
        """The game followed: the session's."""
        return self.session.game

    def close(self) -> None:
        """Stop following the session."""
        self._unsubscribe()

    # ------------------------------------------------------------------ input

    def begin(self) -> list[TrackerEvent]:
        """Apply what the rules force before anything is seen (the first round, when its
        dealer is known) and compare the table with the game."""
        return self.reasoner.reconcile(waited=False)

    def observe(self, obs: Observation) -> list[TrackerEvent]:
        """Take in one observation; returns what happened as a result."""
        return self._catch_up() + self._observe(obs)

    def tick(self, now: float) -> list[TrackerEvent]:
        """Let time pass: a table left unexplained for ``unexplained_after`` seconds gets a hint;
        one out of sync that changed and stayed so has its differences said again."""
        self.now = now
        events = self._catch_up()
        if now - self.changed_at >= self.config.unexplained_after and (
            self.state is TrackerState.WAITING
            # Out of sync: the differences are said again once a change of the table has stayed.
            or (self.state is TrackerState.OUT_OF_SYNC and not self._hold and self._looked_at != self.changed_at)
        ):
            self._looked_at = self.changed_at
            events.extend(self.reasoner.reconcile(waited=True))
        return events

    def answer(self, index: int) -> list[TrackerEvent]:
        """The table chose choice ``index`` of the open question."""
        if self.question is None:
            return [Notice("there is no question to answer")]
        if not 0 <= index < len(self.question.choices):
            return [Notice(f"choose 1 to {len(self.question.choices)}")]
        choice = self.question.choices[index]
        self.question = None
        return self.reasoner.answered(choice.moves)

    def differences(self) -> tuple[str, ...]:
        """What differs between the table and the game, in words."""
        return self.reasoner.differences()

    # ------------------------------------------------------------------ for the reasoner

    def push(self, move: Move, how: str) -> MoveApplied:
        """Propose ``move`` to the session (``how``: what decided it); raises the session's
        :class:`~companion.contract.errors.IllegalMoveError` when it is refused."""
        result = self.session.propose(move, source=f"{SOURCE} ({how})")
        if isinstance(result, Refused):
            raise result.error
        return MoveApplied(move, how)

    @property
    def holding(self) -> bool:
        """A move was taken back elsewhere and the table still shows it: nothing is explained
        until the table changes."""
        return self._hold

    # ------------------------------------------------------------------ inside

    def _observe(self, obs: Observation) -> list[TrackerEvent]:
        if isinstance(obs, (CardSeen, CardGone)):
            self.camera = True
            self.seq += 1
            was = self.view.zone_of((obs.card, obs.owner))
            if not self.view.update(obs):
                return []
            self.reasoner.seen(obs, was)
            self._hold = False
            self.changed_at = obs.at
            return self.reasoner.reconcile(waited=False)
        if isinstance(obs, (BackSeen, BackGone, CardLaid, LaidGone)):
            # A card lying face down: the view keeps its back, for the game to read there
            # what a back tells (a card committed), never which card it is. A card laid
            # unread: the view keeps its place until the camera names it.
            self.camera = True
            self.seq += 1
            if not self.view.update(obs):
                return []
            if isinstance(obs, (CardLaid, LaidGone)):
                self.reasoner.unread(obs)
            self._hold = False
            self.changed_at = obs.at
            return self.reasoner.reconcile(waited=False)
        if isinstance(obs, CardTapped):
            return self.reasoner.tapped(obs)
        if isinstance(obs, CardLifted):
            return []
        if isinstance(obs, DrawAnnounced):
            return self.reasoner.announced(obs.player)
        if isinstance(obs, UnknownTag):
            return [Notice(f"{obs.reader}: {obs.reason} (tag {obs.uid})")]
        if isinstance(obs, SensorStatus):
            detail = f": {obs.detail}" if obs.detail else ""
            return [Notice(f"{obs.source} {obs.state.value}{detail}")]
        return []

    def _session_changed(self, event: SessionEvent) -> None:
        """A change the tracker did not make: a move typed at the table, an undo, a
        correction. The table is compared again at the next observation or tick."""
        if event.source.startswith(SOURCE):
            return
        if isinstance(event, (Undone, Corrected)):
            # The table still shows the move just taken back: wait for it to change, or for the
            # correction, before explaining it again.
            self._hold = True
        elif isinstance(event, (Applied, Started)):
            self._hold = False
        else:
            return
        self.question = None
        self.reasoner.forget(event)
        self._foreign = True

    def _catch_up(self) -> list[TrackerEvent]:
        """After a change made elsewhere: what the rules force now, and the table compared."""
        if not self._foreign:
            return []
        self._foreign = False
        return self.reasoner.catch_up(hold=self._hold)

