"""How a Love, Money, Power, Death table is read: the tracker's reasoning for this game.

What nobody sees is made as soon as it is due, since the rules leave no choice about it: the
deal (L5: every card face down), and each round's draw (L11: the top card of each pile, into a
hand unseen). The rest follows the table:

**NFC** (docs/tracker.md, "Love, Money, Power, Death with NFC readers"): each player taps the
card they commit, face down, on their own commit reader (``commit:<player>``), and the noble is
tapped on the centre reader (``centre``) as it is turned. A commit tap commits that card (L6):
the companion knows it, the screen says only that the player has committed. The noble tapped
once everyone has committed is turned (L7); tapped sooner, it waits for the last commit. Once
the noble is turned and every committed card is known, the reveal is made at once (L7): the
cards turned face up are the ones tapped, and the round is decided (L8-L10).

**Camera**: a card lying face down in a player's commit place, its back seen there (the deck's
backs carry seals), is that player's commit (L6): made at once, its card unseen, and the screen
says only that the player has committed. The noble seen turned face up in the middle (or laid
in a court before anyone saw it there) while the players commit is turned (L7), and since it is
turned only once everyone has committed, the commits whose backs were not seen are made too,
their cards unseen. The cards then
turned face up in the commit places are the reveal (L7), made once every player's card is seen;
the record names each commit from it when the round is over. A card lying face up in a commit
place before the noble is turned gets a hint (L6: a card is committed face down).

Both together: taps make the commits and turn the noble; the camera's reveal then shows what
the game already knows. A commit or a noble the taps missed, the camera makes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.state import LmpdState, Phase
from companion.games.love_money_power_death.table import CENTRE, COMMIT
from companion.games.love_money_power_death.tracking.table import (
    compared,
    describe_difference,
    expected_zones,
    lingering,
    noble_in_transit,
    player_of_zone,
    zone_of,
)
from companion.observations import CardGone, CardSeen, CardTapped
from companion.session import SessionEvent
from companion.tracker.events import MoveApplied, Notice, OutOfSync, RuleHint, TrackerEvent, TrackerState
from companion.tracker.reasoning import TableReasoning
from companion.tracker.view import Zones, difference

if TYPE_CHECKING:
    from companion.tracker.tracker import Tracker

__all__ = ["LmpdTable", "LmpdTracking", "READER_KINDS"]

READER_KINDS = (COMMIT, CENTRE)
"""The readers of the tap protocol: each player's commit reader and the centre reader."""


class LmpdTable(TableReasoning):
    """The tracker's reasoning about a Love, Money, Power, Death table (a
    :class:`~companion.tracker.tracker.TableReasoner`)."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(tracker)
        self.held: Card | None = None
        """A noble tapped before every player had committed: turned once they have (L7)."""
        self.turned: set[int] = set()
        """The backs (by the camera's mark) still seen in the commit places when the last
        reveal was made: those cards were turned face up (L7), whatever the camera says of
        their backs a moment longer; none of them is a new commit."""

    # ------------------------------------------------------------------ reading the tracker

    @property
    def game(self) -> LmpdState:
        game: LmpdState = self.tracker.game
        return game

    def compared(self, zone: str | None) -> bool:
        return compared(zone)

    def differences(self) -> tuple[str, ...]:
        extra, missing = self._difference(self.tracker.view.zones())
        return describe_difference(self.game, extra, missing)

    def _difference(self, observed: Zones) -> tuple[Zones, Zones]:
        """(extra, missing) between the table and the game, less the cards the game is done
        with that may still lie where they were (:func:`~.table.lingering`)."""
        game = self.game
        extra, missing = difference(expected_zones(game), observed)
        return _less(extra, lingering(game)), _less(missing, noble_in_transit(game, observed))

    # ------------------------------------------------------------------ the tracker's calls

    def seen(self, obs: CardSeen | CardGone, was: str | None) -> None:
        """The order of the table tells nothing here: the players commit at once (L6)."""

    def forget(self, event: SessionEvent) -> None:
        self._asked = None
        self.held = None

    def catch_up(self, *, hold: bool) -> list[TrackerEvent]:
        events = self._forced() if not hold else []
        events.extend(self.reconcile(waited=False, apply_forced=not hold))
        return events

    def answered(self, moves: tuple[Move, ...]) -> list[TrackerEvent]:
        events = self._answer(moves, lambda move: "answer")
        events.extend(self.reconcile(waited=False))
        return events

    def announced(self, player: str) -> list[TrackerEvent]:
        return [Notice(f"{player}: Love, Money, Power, Death has nothing to announce; commits are tapped or seen, draws need nothing")]

    # ------------------------------------------------------------------ what nobody sees

    def _forced(self) -> list[TrackerEvent]:
        """What the rules leave no choice about: the deal (L5), unseen; a noble tapped before
        the last commit, once it is in (L7); the reveal once the noble is turned and every
        committed card is known (L7); the draw after every round but the last (L11), unseen."""
        events: list[TrackerEvent] = []
        while True:
            game = self.game
            phase = game.phase
            move: Move | None = None
            how = "forced"
            if phase is Phase.DEAL:
                move = Deal()
            elif phase is Phase.NOBLE and self.held is not None:
                move, how, self.held = TurnUp(self.held), "nfc", None
            elif phase is Phase.REVEAL:
                cards = {p: game.commit_of(p) for p in game.players}
                if all(isinstance(c, Card) for c in cards.values()):
                    move = Reveal.of(game.players, {p: c for p, c in cards.items() if isinstance(c, Card)})
            elif phase is Phase.DRAW:
                move = Draw.of(game.players)
            if move is None:
                return events
            try:
                events.append(self._push(move, how))
            except (IllegalMoveError, InvalidMoveError) as exc:
                events.append(RuleHint(str(exc), getattr(exc, "rule", None)))
                return events

    def _push(self, move: Move, how: str) -> MoveApplied:
        applied = self.tracker.push(move, how)
        if type(move) is Reveal:
            view = self.tracker.view
            self.turned = {mark for p in self.game.players for mark in view.backs_in(zone_of(COMMIT, p))}
        if type(move) is TurnUp:
            self.held = None  # however the noble was turned, a tap waiting for it is done with
        self.tracker.question = None
        self._asked = None
        return applied

    # ------------------------------------------------------------------ comparing the table

    def _step(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """One comparison of the table with the game; ``True`` when a move was applied."""
        tracker = self.tracker
        if not tracker.camera:
            self._synced(events)
            return False
        if not tracker.holding:
            commits = self._backs_committed()
            for move in commits:
                try:
                    events.append(self._push(move, "camera"))
                except (IllegalMoveError, InvalidMoveError) as exc:
                    events.append(RuleHint(str(exc), getattr(exc, "rule", None)))
                    return False
            if commits:
                return True
        observed = tracker.view.zones()
        extra, missing = self._difference(observed)
        if not extra and not missing:
            self._synced(events)
            return False
        if tracker.holding:
            tracker.state = TrackerState.OUT_OF_SYNC
            events.append(OutOfSync(tracker.differences()))
            return False
        moves = self._seen_moves(extra)
        if moves:
            for move in moves:
                try:
                    events.append(self._push(move, "camera"))
                except (IllegalMoveError, InvalidMoveError) as exc:
                    if self._first_sight(observed):
                        events.append(RuleHint(str(exc), getattr(exc, "rule", None)))
                    tracker.state = TrackerState.WAITING
                    return False
            return True
        if not waited:
            if tracker.state is not TrackerState.OUT_OF_SYNC:
                tracker.state = TrackerState.WAITING
            return False
        events.extend(self._explain_mismatch(observed, extra, missing))
        return False

    def _backs_committed(self) -> list[Move]:
        """L6: each player still to commit whose commit place shows a back has committed, the
        card unseen until the reveal (L7); a back of the last round's, turned face up since
        (:attr:`turned`), is no commit."""
        game = self.game
        if game.phase is not Phase.COMMIT:
            return []
        view = self.tracker.view
        self.turned &= set(view.backs)  # a back gone is done with (a mark may come again)
        return [Commit(p, UNSEEN) for p in game.deciding if set(view.backs_in(zone_of(COMMIT, p))) - self.turned]

    def _seen_moves(self, extra: Zones) -> list[Move]:
        """The moves the table shows: the noble turned (with the commits it implies), or the
        reveal."""
        game = self.game
        phase = game.phase
        if phase in (Phase.COMMIT, Phase.NOBLE):
            nobles = [c for cards in extra.values() for c in cards if c.is_noble and c in game.nobles_left]
            if len(nobles) != 1:
                return []
            # L7: the noble is turned once every player has committed; those not seen did.
            moves: list[Move] = [Commit(p, UNSEEN) for p in game.deciding]
            return [*moves, TurnUp(nobles[0])]
        if phase is Phase.REVEAL:
            shown = self._revealed(extra)
            if shown is None:
                return []
            return [Reveal.of(game.players, shown)]
        return []

    def _revealed(self, extra: Zones) -> dict[str, Card] | None:
        """Every player's card face up in their commit place, when each shows exactly one."""
        shown: dict[str, Card] = {}
        for player in self.game.players:
            cards = extra.get(zone_of(COMMIT, player), Counter())
            if sum(cards.values()) != 1:
                return None
            (shown[player],) = cards
        return shown

    def _explain_mismatch(self, observed: Zones, extra: Zones, missing: Zones) -> list[TrackerEvent]:
        """Said once per table, after it has stayed so a while: a reveal under way, a card
        committed face up, or what differs."""
        if not self._first_sight(observed):
            return []
        tracker = self.tracker
        game = self.game
        face_up = {z: c for z, c in extra.items() if player_of_zone(z, COMMIT) is not None}
        if face_up and len(face_up) == len(extra) and not missing:
            shown = sorted(p for z in face_up if (p := player_of_zone(z, COMMIT)) is not None)
            if game.phase is Phase.REVEAL:
                tracker.state = TrackerState.WAITING
                waiting = [p for p in game.players if p not in shown]
                return [Notice(f"the reveal: {', '.join(waiting) or 'nobody'} still to turn their card face up (L7)")]
            if game.phase in (Phase.COMMIT, Phase.NOBLE):
                tracker.state = TrackerState.WAITING
                who = " and ".join(shown)
                return [RuleHint(f"{who}'s card lies face up in the commit place before the noble is turned: a card is committed face down (L6) and turned up at the reveal (L7)", "L6")]
        tracker.state = TrackerState.OUT_OF_SYNC
        return [OutOfSync(describe_difference(game, extra, missing))]

    # ------------------------------------------------------------------ NFC

    def tapped(self, obs: CardTapped) -> list[TrackerEvent]:
        card = obs.card
        if not isinstance(card, Card):
            return [Notice(f"a card of another game tapped on {obs.reader}: this table plays Love, Money, Power, Death")]
        zone = self.tracker.config.readers.get(obs.reader, obs.reader)
        events = self._forced()
        player = player_of_zone(zone, COMMIT)
        if zone == CENTRE:
            events += self._noble_tap(card)
        elif player is not None and player in self.game.players:
            events += self._commit_tap(player, card)
        else:
            # The card is not named: it may be one of a hand.
            return [*events, Notice(f"a card tapped on {obs.reader}, a reader with no zone (centre, or commit:<player>)")]
        events.extend(self._forced())
        if self.tracker.camera:
            events.extend(self.reconcile(waited=False))
        else:
            self.tracker.state = TrackerState.SYNCED
        return events

    def _commit_tap(self, player: str, card: Card) -> list[TrackerEvent]:
        """L6: the card ``player`` commits, tapped face down on their own reader. The screen
        never names it; a refusal names only a card that is no secret (a noble, a card out of
        play)."""
        game = self.game
        if game.phase is Phase.OVER:
            return [Notice(f"{player} tapped a card, but the game is over (L12)")]
        if player in game.deciding:
            try:
                return [self._push(Commit(player, card), "nfc")]
            except (IllegalMoveError, InvalidMoveError) as exc:
                return [RuleHint(str(exc), getattr(exc, "rule", None))]
        committed = game.commit_of(player)
        if committed is card:
            return []  # the same card tapped again
        if committed is UNSEEN and game.phase is Phase.REVEAL:
            return [Notice(f"{player}'s tap came after the noble was turned: the card {player} committed is known at the reveal")]
        if committed is UNSEEN:
            return [Notice(f"{player}'s card was seen committed face down before the tap: the card {player} committed is known at the reveal")]
        return [RuleHint(f"{player} has committed a card this round already: a committed card cannot be taken back or changed, and the first one tapped stands (L6)", "L6")]

    def _noble_tap(self, card: Card) -> list[TrackerEvent]:
        """L7: the noble tapped as it is turned; before the last commit, it waits for it."""
        game = self.game
        phase = game.phase
        if not card.is_noble:
            return [RuleHint("a card that is no noble was tapped on the centre reader: tap the noble there as it is turned, and the card you commit on your own reader (L7)", "L7")]
        if phase is Phase.OVER:
            return [Notice(f"{card.id} tapped, but the game is over (L12)")]
        if phase is Phase.REVEAL and card is game.noble:
            return []  # the noble turned, tapped again
        if card not in game.nobles_left:
            return [RuleHint(f"{card.id} is not in the noble pile ({game.where(card) or 'not in use, L4'}): tap the noble turned this round (L7)", "L7")]
        if phase is Phase.COMMIT:
            self.held = card
            return [Notice(f"{card.id} noted: the noble is turned once {', '.join(game.deciding)} {'has' if len(game.deciding) == 1 else 'have'} committed (L7)")]
        try:
            return [self._push(TurnUp(card), "nfc")]
        except (IllegalMoveError, InvalidMoveError) as exc:
            return [RuleHint(str(exc), getattr(exc, "rule", None))]


class LmpdTracking:
    """What Love, Money, Power, Death provides for tracking a table (a
    :class:`~companion.tracker.tracker.TableRules`): no table facts (the players' seats are
    their order, the nobles the set-up's), the readers of the tap protocol, and the reasoning."""

    facts: tuple[str, ...] = ()

    def read_facts(self, data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        return {}

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def equip(self, facts: Mapping[str, Any], *, nfc: bool) -> dict[str, Any]:
        return dict(facts)

    def reader_problem(self, zone: str, players: Sequence[str]) -> str | None:
        """The centre reader, and a commit reader per player (``commit:<player>``)."""
        if zone == CENTRE:
            return None
        player = player_of_zone(zone, COMMIT)
        if player is not None:
            return None if player in players else f"{zone!r}: {player} does not play (the players are {', '.join(players)})"
        return f"{zone!r} is not a Love, Money, Power, Death reader: centre (the noble), or commit:<player> ({', '.join(f'commit:{p}' for p in players)})"

    def reasoner(self, tracker: Tracker) -> LmpdTable:
        return LmpdTable(tracker)


def _less(zones: Zones, allowed: Zones) -> Zones:
    """``zones`` without the cards ``allowed`` there."""
    out: Zones = {}
    for zone, cards in zones.items():
        left = cards - allowed.get(zone, Counter())
        if left:
            out[zone] = left
    return out
