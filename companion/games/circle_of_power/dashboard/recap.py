"""One action as the table looks at it: the cities and trump suits of its emperors, the cards
played in order, who holds the initiative and why (C9), what the winner may do and why
(C10-C14, C18, C19) and, once it is done, what the winner did.

:func:`action_recap` reads the action under way from the state itself; once an action is over
(its cities changed by the act) it is worked out again by replaying the game to just before
the act, which takes well under a millisecond.

>>> from companion.games.circle_of_power import GAME
>>> from companion.games.circle_of_power.moves import Conquer, Play, Reveal, Season
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> for move in (Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"),
...              Reveal.from_id("JD"), Play.from_ids("bob", "7H"), Play.from_ids("cy", "10S")):
...     state.push(move)
>>> recap = action_recap(state)
>>> recap.action, recap.holder, recap.done
(1, 'cy', False)
>>> for move in (Play.from_ids("@1", "2S"), Play.from_ids("ann", "5H"), Conquer("ann", "bob")):
...     state.push(move)
>>> recap = action_recap(state)
>>> recap.done, recap.holder, [c.id for _, c in recap.plays], recap.act
(True, 'ann', ['7H', '10S', '2S', '5H'], Conquer(player='ann', victim='bob', keep=False))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import ACTS, Move, Season
from companion.games.circle_of_power.rules import Choice, strength
from companion.games.circle_of_power.dashboard.words import act_words

__all__ = ["ActionRecap", "action_recap", "short_reason"]


@dataclass(frozen=True)
class ActionRecap:
    """An action under way or just done."""

    season: int
    action: int
    seats: tuple[str, ...]
    """The four emperors clockwise."""
    leader: str
    cities: dict[str, Card | None]
    """Each emperor's city while the cards were played."""
    next_city: Card | None
    trumps: dict[str, str | None]
    plays: tuple[tuple[str, Card], ...]
    """The cards played, in order, with who played them."""
    holder: str | None
    """Who holds the initiative so far (C9); ``None`` before the first card."""
    reason: str | None
    trump: bool = False
    """Whether the holder's card is trump for them."""
    choices: tuple[Choice, ...] = ()
    """What the winner may do, each with why (when the four cards are down)."""
    act: Move | None = None
    """What the winner did, once the action is done."""
    words: str | None = None
    """That act in words."""
    knocked_out: tuple[str, ...] = ()
    threat: str | None = None
    """Whether the winner's city is under threat, in words (C3, C14)."""
    order: tuple[str, ...] = field(default=())
    """The emperors in the order they play this action, from the leader."""

    @property
    def done(self) -> bool:
        return self.act is not None

    @property
    def winner_acts(self) -> bool:
        """All four cards are down: the winner acts (or acted)."""
        return len(self.plays) == len(self.seats) and self.holder is not None


def _of_state(state: CircleState) -> ActionRecap:
    """The action under way in ``state`` (its plays so far, its choices when they are due)."""
    seats = state.seats
    leader = state.leader or seats[0]
    k = seats.index(leader)
    order = seats[k:] + seats[:k]
    init = state.initiative
    choices = tuple(state.choices()) if state.phase is Phase.ACT else ()
    threat = state.threat(init.player) if init is not None and state.phase is Phase.ACT else None
    return ActionRecap(
        season=state.season_number,
        action=state.action_number,
        seats=seats,
        leader=leader,
        cities=state.cities,
        next_city=state.next_city,
        trumps=state.trump_suits,
        plays=state.played,
        holder=init.player if init is not None else None,
        reason=init.reason if init is not None else None,
        trump=init.trump if init is not None else False,
        choices=choices,
        threat=threat,
        order=order,
    )


_CACHE: dict[tuple[object, tuple[Move, ...]], ActionRecap | None] = {}
"""The last recaps worked out, by game: its set-up and every move (an undo or a correction
makes another game)."""


def _last_done(state: CircleState) -> ActionRecap | None:
    """The last action done this season: the game replayed to just before its act."""
    stack = state.move_stack
    key = (state.setup, tuple(stack))
    if key in _CACHE:
        return _CACHE[key]
    found = None
    for i in range(len(stack) - 1, -1, -1):
        move = stack[i]
        if type(move) is Season:
            break
        if isinstance(move, ACTS):
            replay = state.game.new_state(state.setup, keep_history=False)
            for earlier in stack[:i]:
                replay.push(earlier, check=False)
            before = _of_state(replay)
            fx = replay.apply(move)
            found = ActionRecap(
                **{**before.__dict__, "act": move, "words": act_words(replay, move, fx), "knocked_out": fx.knocked_out}
            )
            break
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = found
    return found


def action_recap(state: CircleState) -> ActionRecap | None:
    """The action to show: the one under way once its first card is down (or its winner is to
    act), else the last one done this season; ``None`` at a season's start and between
    seasons."""
    phase = state.phase
    if phase is Phase.ACT or (phase is Phase.PLAY and state.played):
        return _of_state(state)
    if not state.move_stack:
        return None
    return _last_done(state)


def short_reason(recap: ActionRecap) -> str:
    """Why the initiative is where it is, in few words for a narrow panel (C9): ``"ann's 5S:
    the highest, no trump"``, ``"cy's 3D: trump for cy"``, ``"@1's 8S: equal to cy's 8H and
    played last"``."""
    if recap.holder is None:
        return "no card played yet"
    plays = [(name, card, strength(card, recap.trumps.get(name))) for name, card in recap.plays]
    k = max(range(len(plays)), key=lambda i: (plays[i][2], i))
    name, card, key = plays[k]
    head = f"{name}'s {card.id}"
    others = [p for i, p in enumerate(plays) if i != k]
    if not others:
        return f"{head}: the only card so far" + (", trump" if recap.trump else "")
    o_name, o_card, o_key = max(others, key=lambda p: p[2])
    if o_key == key:
        return f"{head}: equal to {o_name}'s {o_card.id}, played last"
    if recap.trump:
        if o_key > o_card.number:
            return f"{head}: trump for {name}, higher than {o_name}'s trump {o_card.id}"
        return f"{head}: trump for {name}"
    return f"{head}: the highest, no trump played"
