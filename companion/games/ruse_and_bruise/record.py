"""The record format ``rab-record/1`` (record-format.md): the ``game`` header and each event
read as a move and written back, for the companion's generic record reader.

Reading refuses what the format calls an error: a malformed field as
:class:`~companion.contract.errors.InvalidMoveError` (or :class:`~companion.contract.errors.
UnknownCardError` for a card), a table the rulings refuse (B1, B4-B6) as
:class:`~companion.contract.errors.IllegalMoveError`; every rule of play is the state's.

>>> setup = CODEC.read_setup({"event": "game", "format": "rab-record/1", "players": ["ann", "bob"],
...     "colours": {"ann": "blue", "bob": "white"}, "values": EXAMPLE.to_json()})
>>> setup.colours, setup.values == EXAMPLE
(('blue', 'white'), True)
>>> move = CODEC.read_move({"event": "place", "player": "ann", "column": 2, "card": "expl", "drew": None}, setup)
>>> move, CODEC.move_event(move, setup)
(Place(player='ann', column=2, card=Influence.from_id('EXPL'), drew=None), {'event': 'place', 'player': 'ann', 'column': 2, 'card': 'EXPL', 'drew': None})
>>> CODEC.read_setup({"event": "game", "format": "rab-record/1", "players": ["ann", "bob"], "values": {**EXAMPLE.to_json(), "WIZ": 12}})
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: B4: "values": WIZ is on the Witch's list: 9 or less, not 12
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.cards import UNSEEN, Unseen
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.record import read_card
from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.moves import (
    Assassinate,
    Cloak,
    Distribute,
    Explore,
    Move,
    Pass,
    Place,
    Reveal,
    Round,
    Seen,
    Storm,
    Swap,
    TurnOver,
)
from companion.games.ruse_and_bruise.setup import RabSetup, default_colours
from companion.games.ruse_and_bruise.values import EXAMPLE, ValuesTable, ValuesTableError

__all__ = ["FORMAT", "EVENTS", "RabCodec", "CODEC", "complete_moves"]

FORMAT = "rab-record/1"
EVENTS: tuple[str, ...] = ("round", "place", "pass", "turn", "explorer", "assassin", "storm", "cloak", "traitor", "reveal", "distribution")

_by_id = Influence._by_id
_EXAMPLE = EXAMPLE  # for the module's examples


def _name(event: Mapping[str, Any], key: str) -> str:
    value = event.get(key)
    if type(value) is not str or not value:
        raise InvalidMoveError(f'"{key}" must name a player, not {value!r}')
    return value


def _int(event: Mapping[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int:
        raise InvalidMoveError(f'"{key}" must be a column number, not {value!r}')
    return value


def _optional_int(event: Mapping[str, Any], key: str) -> int | None:
    value = event.get(key)
    if value is not None and type(value) is not int:
        raise InvalidMoveError(f'"{key}" must be a column number or null, not {value!r}')
    return value


def _card(value: Any, key: str) -> Influence:
    return read_card(value, key, _by_id, Influence.from_id, "a card identifier (B1)")


def _seen(value: Any, key: str) -> Seen:
    return UNSEEN if value is None else _card(value, key)


def _drawn(value: Any, key: str) -> Influence | None:
    return None if value is None else _card(value, key)


def _goal(value: Any, key: str) -> Goal:
    return read_card(value, key, Goal._by_id, Goal.from_id, "a goal card (music-3a, B5)")


def _list(value: Any, key: str) -> list[Any]:
    if type(value) is not list:
        raise InvalidMoveError(f'"{key}" must be a list, not {value!r}')
    return value


def _ids(cards: Sequence[Seen]) -> list[str | None]:
    return [None if isinstance(c, Unseen) else c.id for c in cards]


class RabCodec:
    """The ``rab-record/1`` codec (the protocol's :class:`~companion.contract.RecordCodec`)."""

    format = FORMAT
    events = EVENTS

    # ------------------------------------------------------------------ reading

    def read_setup(self, header: Mapping[str, Any]) -> RabSetup:
        """The set-up of a ``game`` event: ``players`` (2-6 names in turn order, B6),
        ``colours`` (each player's, all different, B1; the box's order when left out),
        ``values`` (the values table, exactly its 13 cards, B4; a record without one cannot
        begin), and the deal as far as it was seen, ``goals`` and ``hands``."""
        if not isinstance(header, Mapping):
            raise InvalidMoveError("the game event must be a JSON object")
        fmt = header.get("format", FORMAT)
        if fmt != FORMAT:
            raise InvalidMoveError(f"unknown record format {fmt!r}: this codec reads {FORMAT!r}")
        players = header.get("players")
        if type(players) is not list or not all(type(p) is str for p in players):
            raise InvalidMoveError('"players" must be a list of names in turn order')
        colours_given = header.get("colours")
        if colours_given is None:
            colours = default_colours(len(players))
        elif type(colours_given) is not dict:
            raise InvalidMoveError('"colours" must map each player to their colour')
        else:
            unknown = [n for n in colours_given if n not in players]
            if unknown:
                raise InvalidMoveError(f'"colours": {unknown[0]!r} is not a player')
            missing = [p for p in players if p not in colours_given]
            if missing:
                raise IllegalMoveError("B6", f'"colours": {missing[0]} has no colour')
            colours = tuple(str(colours_given[p]).lower() if isinstance(colours_given[p], str) else colours_given[p] for p in players)
        values_given = header.get("values")
        values: ValuesTable | None = None
        if values_given is not None:
            try:
                values = ValuesTable.from_mapping(values_given)
            except ValuesTableError as exc:
                raise IllegalMoveError(exc.rule, f'"values": {exc.reason}') from None
        goals = self._read_goals(header.get("goals"), len(players))
        hands = self._read_hands(header.get("hands"), players)
        return RabSetup(tuple(players), tuple(colours), values, goals, hands)

    @staticmethod
    def _read_goals(value: Any, n: int) -> tuple[tuple[Goal | Unseen, ...], ...] | None:
        if value is None:
            return None
        stacks = _list(value, "goals")
        out: list[tuple[Goal | Unseen, ...]] = []
        for k, stack in enumerate(stacks, 1):
            if stack is None:
                out.append((UNSEEN,) * 6)
                continue
            out.append(tuple(UNSEEN if g is None else _goal(g, f"goals[{k}]") for g in _list(stack, f"goals[{k}]")))
        return tuple(out)

    @staticmethod
    def _read_hands(value: Any, players: list[str]) -> tuple[tuple[Seen, ...] | None, ...] | None:
        if value is None:
            return None
        if type(value) is not dict:
            raise InvalidMoveError('"hands" must map each player to their 3 starting cards, or be null')
        unknown = [n for n in value if n not in players]
        if unknown:
            raise InvalidMoveError(f'"hands": {unknown[0]!r} is not a player')
        out: list[tuple[Seen, ...] | None] = []
        for p in players:
            cards = value.get(p)
            out.append(None if cards is None else tuple(_seen(c, f"hands.{p}") for c in _list(cards, f"hands.{p}")))
        return tuple(out)

    def read_move(self, event: Mapping[str, Any], setup: RabSetup) -> Move:
        """The move of one event (any but the ``game`` header)."""
        if type(event) is not dict and not isinstance(event, Mapping):
            raise InvalidMoveError(f"an event is a JSON object, not {event!r}")
        kind = event.get("event")
        if kind == "place":
            # The common event, on the fast path: exact ids, a plain name.
            player = event.get("player")
            column = event.get("column")
            card_id = event.get("card")
            drew = event.get("drew")
            card = _by_id.get(card_id) if type(card_id) is str else (UNSEEN if card_id is None else None)
            found = _by_id.get(drew) if type(drew) is str else None
            if card is not None and type(player) is str and player and type(column) is int and (drew is None or found is not None):
                return Place(player, column, card, found)
            return Place(_name(event, "player"), _int(event, "column"), _seen(card_id, "card"), _drawn(drew, "drew"))
        if kind == "turn":
            card_id = event.get("card")
            card = _by_id.get(card_id) if type(card_id) is str else None
            column = event.get("column")
            if card is not None and type(column) is int:
                return TurnOver(column, card)
            if card_id is None:
                raise InvalidMoveError('"card": a card turned over is face up for everyone and always named (B10)')
            return TurnOver(_int(event, "column"), _card(card_id, "card"))
        if kind == "pass":
            return Pass(_name(event, "player"))
        if kind == "explorer":
            return Explore(_optional_int(event, "to"))
        if kind == "assassin":
            return Assassinate(_seen(event.get("discard"), "discard"))
        if kind == "storm":
            return Storm(_int(event, "column"))
        if kind == "cloak":
            placed = event.get("placed")
            if type(placed) is not bool:
                raise InvalidMoveError(f'"placed" must be true or false, not {placed!r}')
            player = _name(event, "player")
            if not placed:
                if event.get("card") is not None or event.get("drew") is not None:
                    raise InvalidMoveError('a Cloak declined ("placed": false) names no "card" and no "drew" (B14)')
                return Cloak(player, False)
            return Cloak(player, True, _seen(event.get("card"), "card"), _drawn(event.get("drew"), "drew"))
        if kind == "traitor":
            return Swap(_name(event, "player"), _optional_int(event, "swap"))
        if kind == "round":
            goals = tuple(_goal(g, "goals") for g in _list(event.get("goals"), "goals"))
            drew_given = event.get("drew")
            short: tuple[tuple[str, tuple[Seen, ...]], ...] = ()
            if drew_given is not None:
                if type(drew_given) is not dict:
                    raise InvalidMoveError('"drew" must map each player whose hand was short to the cards drawn')
                short = tuple(
                    (name, tuple(_seen(c, f"drew.{name}") for c in _list(cards, f"drew.{name}"))) for name, cards in drew_given.items() if cards is not None
                )
            return Round(goals, short)
        if kind == "reveal":
            cols = _list(event.get("columns"), "columns")
            return Reveal(tuple(tuple(_card(c, f"columns[{k}]") for c in _list(col, f"columns[{k}]")) for k, col in enumerate(cols, 1)))
        if kind == "distribution":
            winners = _list(event.get("winners"), "winners")
            for w in winners:
                if w is not None and (type(w) is not str or not w):
                    raise InvalidMoveError(f'"winners" lists a player or null for each column, not {w!r}')
            return Distribute(tuple(winners))
        if kind == "game":
            raise InvalidMoveError('a second "game" event: one record holds one game')
        raise InvalidMoveError(f"unknown event {kind!r} (expected {', '.join(EVENTS)})")

    # ------------------------------------------------------------------ writing

    def setup_event(self, setup: RabSetup) -> dict[str, Any]:
        hands = None
        if setup.hands is not None:
            hands = {p: None if h is None else _ids(h) for p, h in zip(setup.players, setup.hands)}
        goals = None
        if setup.goals is not None:
            goals = [[None if isinstance(g, Unseen) else g.id for g in stack] for stack in setup.goals]
        return {
            "event": "game",
            "format": FORMAT,
            "players": list(setup.players),
            "colours": dict(zip(setup.players, setup.colours)),
            "values": setup.values.to_json() if setup.values is not None else None,
            "goals": goals,
            "hands": hands,
        }

    def move_event(self, move: Move, setup: RabSetup | None = None) -> dict[str, Any]:
        """The event that records ``move`` (record-format.md)."""
        kind = type(move)
        if kind is Place:
            assert isinstance(move, Place)
            card = move.card
            return {
                "event": "place",
                "player": move.player,
                "column": move.column,
                "card": None if isinstance(card, Unseen) else card.id,
                "drew": move.drew.id if move.drew is not None else None,
            }
        if kind is TurnOver:
            assert isinstance(move, TurnOver)
            return {"event": "turn", "column": move.column, "card": move.card.id}
        if kind is Pass:
            assert isinstance(move, Pass)
            return {"event": "pass", "player": move.player}
        if kind is Explore:
            assert isinstance(move, Explore)
            return {"event": "explorer", "to": move.to}
        if kind is Assassinate:
            assert isinstance(move, Assassinate)
            return {"event": "assassin", "discard": None if isinstance(move.discard, Unseen) else move.discard.id}
        if kind is Storm:
            assert isinstance(move, Storm)
            return {"event": "storm", "column": move.column}
        if kind is Cloak:
            assert isinstance(move, Cloak)
            if not move.placed:
                return {"event": "cloak", "player": move.player, "placed": False}
            under = move.card
            return {
                "event": "cloak",
                "player": move.player,
                "placed": True,
                "card": None if under is None or isinstance(under, Unseen) else under.id,
                "drew": move.drew.id if move.drew is not None else None,
            }
        if kind is Swap:
            assert isinstance(move, Swap)
            return {"event": "traitor", "player": move.player, "swap": move.swap}
        if kind is Round:
            assert isinstance(move, Round)
            out: dict[str, Any] = {"event": "round", "goals": [g.id for g in move.goals]}
            if move.drew:
                out["drew"] = {name: _ids(cards) for name, cards in move.drew}
            return out
        if kind is Reveal:
            assert isinstance(move, Reveal)
            return {"event": "reveal", "columns": [[c.id for c in col] for col in move.columns]}
        if kind is Distribute:
            assert isinstance(move, Distribute)
            return {"event": "distribution", "winners": list(move.winners)}
        raise InvalidMoveError(f"not a move of Ruse and Bruise: {move!r}")

    # ------------------------------------------------------------------ the rest

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        return complete_moves(moves)

    def is_period_start(self, move: Move) -> bool:
        """A round begins a scoring period (B7)."""
        return type(move) is Round


CODEC = RabCodec()


# ---------------------------------------------------------------------- completion


class _Laid:
    """A card lying in a column while completing a record: the index of the move that placed
    it unseen (``-1`` when it was named), and the card once a later move names it."""

    __slots__ = ("origin", "card", "up")

    def __init__(self, origin: int, card: Influence | None, up: bool = False) -> None:
        self.origin = origin
        self.card = card
        self.up = up


def complete_moves(moves: Sequence[Move]) -> list[Move]:
    """The same moves with the cards placed unseen filled in where a later move names them:
    a card placed face down (B8) or under a Cloak (B14) once it is turned over (B10), revealed
    at the round's end (B16) or named as the Assassin's victim (B12); and the Assassin's victim
    where the card was named when placed. Where each card lies follows from the moves alone."""
    out = list(moves)
    cols: list[list[_Laid]] = []
    arrival: tuple[int, int] = (0, 0)
    at: tuple[int, int] = (0, 0)

    def fill(laid: _Laid, card: Influence) -> None:
        laid.card = card
        if laid.origin >= 0:
            m = out[laid.origin]
            if type(m) is Place and isinstance(m.card, Unseen):
                out[laid.origin] = Place(m.player, m.column, card, m.drew)
            elif type(m) is Cloak and isinstance(m.card, Unseen):
                out[laid.origin] = Cloak(m.player, True, card, m.drew)

    try:
        for i, m in enumerate(moves):
            kind = type(m)
            if isinstance(m, Round):
                cols = [[] for _ in m.goals]
            elif kind is Place:
                assert isinstance(m, Place)
                k = m.column - 1
                named = m.card if isinstance(m.card, Influence) else None
                cols[k].append(_Laid(-1 if named else i, named))
                arrival = (k, len(cols[k]) - 1)
            elif kind is TurnOver:
                assert isinstance(m, TurnOver)
                k, pos = arrival[0], arrival[1] - 1
                laid = cols[k][pos]
                fill(laid, m.card)
                laid.up = True
                at = (k, pos)
            elif kind is Explore:
                assert isinstance(m, Explore)
                if m.to is not None:
                    k, pos = at
                    explorer = cols[k].pop(pos)
                    explorer.up = False
                    cols[m.to - 1].append(explorer)
                    arrival = (m.to - 1, len(cols[m.to - 1]) - 1)
            elif kind is Assassinate:
                assert isinstance(m, Assassinate)
                k, pos = at
                victim = cols[k].pop(pos + 1)
                if isinstance(m.discard, Influence):
                    fill(victim, m.discard)
                elif victim.card is not None:
                    out[i] = Assassinate(victim.card)
            elif kind is Cloak:
                assert isinstance(m, Cloak)
                if m.placed:
                    k, pos = at
                    named = m.card if isinstance(m.card, Influence) else None
                    cols[k].insert(pos + 1, _Laid(-1 if named else i, named))
            elif kind is Reveal:
                assert isinstance(m, Reveal)
                for col, given in zip(cols, m.columns):
                    for laid, card in zip([x for x in col if not x.up], given):
                        fill(laid, card)
                        laid.up = True
    except (IndexError, AttributeError, TypeError):
        pass  # a record that breaks the rules: what was filled before stays, the rest as it is
    return out
