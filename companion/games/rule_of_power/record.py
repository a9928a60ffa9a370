"""Rule of Power's record codec, ``rop-record/1``: its events read into moves and written
back (the format's page: the record format of the rulings' directory).

The lines, the ``game`` header's dispatch by ``format``, the checking and the errors with line
numbers are :mod:`companion.records.format`'s; this module knows the game's events:
``round``, ``deal``, ``play``, ``draw_fate`` and ``pass``.

Games followed by a camera hold cards nobody saw. The format's ``null`` card stands for such a
card in a deal's hands and in a Mirror Swap's ``given``/``received``; a Renewal whose card was
drawn unseen is written ``"drawn": null, "unseen": true``. Records of fully seen games never
use either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.contract.errors import InvalidMoveError, MalformedEventError
from companion.games.rule_of_power.completion import complete_deals
from companion.games.rule_of_power.engine.cards import Card, UnknownCardError
from companion.games.rule_of_power.engine.fate import check_details, fate_rule
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, Move, NewRound, Pass, Play, _Unseen

__all__ = ["FORMAT", "CODEC", "RuleOfPowerRecord", "MalformedEvent", "ReplaySummary"]

FORMAT = "rop-record/1"


class MalformedEvent(MalformedEventError):
    """An event whose fields are not what ``rop-record/1`` says (a card where a list belongs)."""


_card = Card.from_id
_by_id = Card._by_id


def _cards(value: Any, key: str) -> tuple[Card, ...]:
    if not value:
        if value is None or value == []:
            return ()
        raise MalformedEvent(f'"{key}" must be a list of card ids')
    if type(value) is not list:
        raise MalformedEvent(f'"{key}" must be a list of card ids')
    try:
        # The exact ids of a well-formed record take the fast dictionary path.
        return tuple(map(_by_id.__getitem__, value))
    except (KeyError, TypeError):
        pass
    try:
        return tuple(_card(x) for x in value)
    except (UnknownCardError, TypeError):
        bad = next(x for x in value if not _is_card_id(x))
        raise UnknownCardError(str(bad), f'"{key}": unknown card id {bad!r}') from None


def _hand_cards(value: Any, key: str) -> tuple[Card | _Unseen, ...]:
    """Cards from a hand, where ``null`` is a card the companion did not see."""
    if type(value) is list:
        try:
            # A hand of exact ids, nothing unseen: the common case, on the fast path.
            return tuple(map(_by_id.__getitem__, value))
        except (KeyError, TypeError):
            pass
    if isinstance(value, list) and None in value:
        if not all(x is None or isinstance(x, str) for x in value):
            raise MalformedEvent(f'"{key}" must be a list of card ids (null for a card nobody saw)')
        return tuple(UNSEEN if x is None else _card(x) for x in value)
    return _cards(value, key)


def _is_card_id(x: Any) -> bool:
    try:
        _card(x)
        return True
    except (UnknownCardError, TypeError):
        return False


def _name(obj: Mapping[str, Any], key: str = "player") -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise MalformedEvent(f'"{key}" must name a player')
    return value


def _card_or_none(obj: Mapping[str, Any], key: str) -> Card | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise MalformedEvent(f'"{key}" must be a card id or null')
    return _card(value)


def _drawn(obj: Mapping[str, Any], key: str) -> Card | _Unseen | None:
    """R25: the card a Renewal drew; ``null`` with ``"unseen": true`` when nobody saw it."""
    if obj.get(key) is None and obj.get("unseen") is True:
        return UNSEEN
    return _card_or_none(obj, key)


def _discards(obj: Mapping[str, Any], key: str) -> tuple[tuple[str, Card], ...]:
    """R21: each opponent's discarded card."""
    value = obj.get(key) or {}
    if not isinstance(value, dict) or not all(isinstance(c, str) for c in value.values()):
        raise MalformedEvent(f'"{key}" must map each opponent to the card id they discard')
    return tuple((str(p), _card(c)) for p, c in value.items())


_READ_DETAIL: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "target": _name,
    "given": lambda obj, key: _hand_cards(obj.get(key), key),
    "received": lambda obj, key: _hand_cards(obj.get(key), key),
    "stolen": _card_or_none,
    "drawn": _drawn,
    "discards": _discards,
}
"""How each detail of a Fate card's play is read from its event (the card's rule says which)."""


def _ids(cards: Iterable[Any]) -> list[Any]:
    return [None if c is UNSEEN else c.id for c in cards]


_WRITE_DETAIL: dict[str, Callable[[Any], dict[str, Any]]] = {
    "target": lambda v: {"target": v},
    "given": lambda v: {"given": _ids(v)},
    "received": lambda v: {"received": _ids(v)},
    "stolen": lambda v: {"stolen": v.id if v else None},
    "drawn": lambda v: {"drawn": None, "unseen": True} if v is UNSEEN else {"drawn": v.id if v else None},
    "discards": lambda v: {"discards": {p: c.id for p, c in v}},
}
"""How each detail of a Fate card's play is written into its event."""


class RuleOfPowerRecord:
    """The ``rop-record/1`` codec (:class:`~companion.contract.RecordCodec`)."""

    format = FORMAT
    events = ("round", "deal", "play", "draw_fate", "pass")

    def read_setup(self, header: Mapping[str, Any]) -> GameSetup:
        """The ``game`` event: ``players`` in seating order, ``teams`` (``null`` or absent
        for individual play), ``target`` (default 11), ``expansion`` (default false)."""
        players = header.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedEvent.field("players", "a list of names")
        teams = header.get("teams")
        if teams is not None and (not isinstance(teams, list) or not all(isinstance(t, list) for t in teams)):
            raise MalformedEvent.field("teams", "null or a list of lists of names")
        target = header.get("target", 11)
        expansion = header.get("expansion", False)
        if not isinstance(target, int) or isinstance(target, bool):
            raise MalformedEvent.field("target", "a whole number")
        if not isinstance(expansion, bool):
            raise MalformedEvent.field("expansion", "true or false")
        return GameSetup(tuple(players), tuple(tuple(t) for t in teams) if teams else None, target, expansion)

    def read_move(self, obj: Mapping[str, Any], setup: GameSetup) -> Move:
        kind = obj.get("event")
        if kind == "play":
            player = obj.get("player")
            if type(player) is not str:
                player = _name(obj)
            card_id = obj.get("card")
            card = _by_id.get(card_id) if type(card_id) is str else None
            if card is None:
                if not isinstance(card_id, str):
                    raise MalformedEvent('"card" must be a card id')
                card = _card(card_id)
            if card.to_centre:
                return Play(player, card, _cards(obj.get("capture"), "capture"))
            # A Fate card's event carries the details its rule names (R19-R25), nothing else.
            details = fate_rule(card).details
            if not details:
                return Play(player, card)
            return Play(player, card, **{name: _READ_DETAIL[name](obj, name) for name in details})
        if kind == "draw_fate" or kind == "pass":
            player = obj.get("player")
            if type(player) is not str:
                player = _name(obj)
            return DrawFate(player) if kind == "draw_fate" else Pass(player)
        if kind == "deal":
            hands = obj.get("hands")
            if not isinstance(hands, dict):
                raise MalformedEvent('"hands" must map each player to their cards')
            parsed = []
            for p, cards in hands.items():
                if not isinstance(cards, list):
                    raise MalformedEvent(f'"hands": {p}\'s cards must be a list')
                parsed.append((str(p), _hand_cards(cards, f"hands.{p}")))
            return Deal(tuple(parsed), _cards(obj.get("center"), "center"))
        if kind == "round":
            dealer = _name(obj, "dealer")
            decks = obj.get("fate_decks") or {}
            if not isinstance(decks, dict):
                raise MalformedEvent('"fate_decks" must map each player to their Fate deck')
            return NewRound(
                dealer,
                tuple((str(p), _cards(cards, f"fate_decks.{p}")) for p, cards in decks.items()),
                bool(obj.get("fate_order_known", True)),
            )
        if kind == "game":
            raise MalformedEvent('a second "game" event: one record holds one game')
        raise MalformedEvent(f"unknown event {kind!r} (expected round, deal, play, draw_fate or pass)")

    def setup_event(self, setup: GameSetup) -> dict[str, Any]:
        return {
            "event": "game",
            "format": FORMAT,
            "players": list(setup.players),
            "teams": [list(t) for t in setup.teams] if setup.teams else None,
            "target": setup.target,
            "expansion": setup.expansion,
        }

    def move_event(self, move: Move, setup: GameSetup | None = None) -> dict[str, Any]:
        """The record event of a move. With ``setup``, hands and Fate decks follow the seating."""
        if isinstance(move, Play):
            out: dict[str, Any] = {"event": "play", "player": move.player, "card": move.card.id}
            card = move.card
            check_details(move)  # a detail the card does not carry is refused, not dropped
            if card.to_centre:
                out["capture"] = _ids(move.capture)
            else:
                for name in fate_rule(card).details:
                    out.update(_WRITE_DETAIL[name](getattr(move, name)))
            return out
        if isinstance(move, DrawFate):
            return {"event": "draw_fate", "player": move.player}
        if isinstance(move, Pass):
            return {"event": "pass", "player": move.player}
        if isinstance(move, Deal):
            order = setup.players if setup else [p for p, _ in move.hands]
            out = {"event": "deal", "hands": {p: _ids(move.hand_of(p)) for p in order}}
            if move.centre:
                out["center"] = _ids(move.centre)
            return out
        if isinstance(move, NewRound):
            out = {"event": "round", "dealer": move.dealer, "fate_decks": {p: _ids(c) for p, c in move.fate_decks if c}}
            if not move.fate_order_known:
                out["fate_order_known"] = False
            return out
        raise InvalidMoveError(f"not a move: {move!r}")

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        """Hands dealt face down filled in once their cards have been played
        (:mod:`~companion.games.rule_of_power.completion`)."""
        return complete_deals(moves)

    def is_period_start(self, move: Move) -> bool:
        return type(move) is NewRound


CODEC = RuleOfPowerRecord()


@dataclass(frozen=True)
class ReplaySummary:
    """What ``rop replay`` reports for one record."""

    rounds: list[dict[str, Any]]
    totals: dict[str, int]
    winner: str | None
    finished: bool

    @classmethod
    def of(cls, game: GameState) -> ReplaySummary:
        outcome = game.outcome()
        return cls(
            rounds=[
                {
                    "scores": {s: p.to_json() for s, p in r.score.sides.items()},
                    "rule_of_power": r.score.rule_of_power,
                }
                for r in game.results
            ],
            totals=game.totals,
            winner=outcome.winner if outcome else None,
            finished=outcome is not None,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rounds": self.rounds, "totals": self.totals, "winner": self.winner}
        if not self.finished:
            out["finished"] = False
        return out


