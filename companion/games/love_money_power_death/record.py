"""The record format ``lmpd-record/1`` (record-format.md): the ``game`` header and each event
read as a move and written back, for the companion's generic record reader; and
:func:`complete_moves`, the cards a record did not see filled in where later events tell them.

Unknown keys are ignored; a card ``null`` or absent was not seen. Cards are read in any form L3
allows and written as identifiers (``N3L``, ``4Mb``).

>>> setup = CODEC.read_setup({"event": "game", "format": "lmpd-record/1", "players": ["ann", "bob"], "nobles": ["N3P", "N2L"]})
>>> [c.id for c in setup.nobles], setup.pile_size
(['N2L', 'N3P'], 21)
>>> move = CODEC.read_move({"event": "commit", "player": "bob", "card": "3 money b"}, setup)
>>> move, CODEC.move_event(move, setup)
(Commit(player='bob', card=Card.from_id('3Mb')), {'event': 'commit', 'player': 'bob', 'card': '3Mb'})
>>> CODEC.read_move({"event": "reveal", "cards": {"ann": "4Mb"}}, setup)
Traceback (most recent call last):
...
companion.contract.errors.InvalidMoveError: reveal: every player's card is face up, and bob's is not named (L7)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.contract.errors import InvalidMoveError, MalformedEventError
from companion.contract.record import read_card
from companion.games.love_money_power_death.cards import DEALT, DEALT_COUNT, Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move, Reveal, Seen, TurnUp
from companion.games.love_money_power_death.setup import HAND_SIZE, LmpdSetup, read_nobles

__all__ = ["FORMAT", "EVENTS", "LmpdCodec", "CODEC", "complete_moves"]

FORMAT = "lmpd-record/1"
EVENTS: tuple[str, ...] = ("deal", "commit", "noble", "reveal", "draw")

_by_id = Card._by_id


def _card(value: Any, key: str) -> Card:
    return read_card(value, key, _by_id, Card.from_id)


def _seen(value: Any, key: str) -> Seen:
    return UNSEEN if value is None else _card(value, key)


def _name(value: Any, key: str, setup: LmpdSetup) -> str:
    if type(value) is not str or not value:
        raise MalformedEventError.field(key, "a player's name")
    if value not in setup.players:
        raise InvalidMoveError(f'"{key}": {value!r} does not play (the players are {", ".join(setup.players)})')
    return value


def _list(value: Any, key: str) -> tuple[Seen, ...] | None:
    """A list of card ids, ``null`` for a card nobody saw; ``None`` for the list ``null``."""
    if value is None:
        return None
    if type(value) is not list:
        raise MalformedEventError.field(key, "a list of card ids (null for a card nobody saw), or null")
    return tuple(_seen(x, key) for x in value)


def _lists_by_name(event: Mapping[str, Any], key: str, setup: LmpdSetup) -> dict[str, tuple[Seen, ...] | None]:
    value = event.get(key)
    if value is None:
        return {}
    if type(value) is not dict:
        raise MalformedEventError.field(key, "an object of each player's cards, or null")
    out: dict[str, tuple[Seen, ...] | None] = {}
    for name, cards in value.items():
        _name(name, f"{key}", setup)
        out[name] = _list(cards, f"{key}.{name}")
    return out


def _ids(cards: Sequence[Seen]) -> list[str | None]:
    return [None if c is UNSEEN else cast(Card, c).id for c in cards]


class LmpdCodec:
    """The ``lmpd-record/1`` codec (the contract's :class:`~companion.contract.RecordCodec`).
    Reading refuses a malformed field (:class:`~companion.contract.errors.MalformedEventError`,
    :class:`~companion.contract.errors.UnknownCardError` for a card) and an event that names no
    possible player (:class:`~companion.contract.errors.InvalidMoveError`); the rules are the
    state's (:class:`~companion.contract.errors.IllegalMoveError`, naming the ruling)."""

    format = FORMAT
    events = EVENTS

    # ------------------------------------------------------------------ reading

    def read_setup(self, header: Mapping[str, Any]) -> LmpdSetup:
        """The set-up of a ``game`` event: ``players`` (two or more names, seating order) and
        ``nobles`` (required: the nobles in use, L4)."""
        if not isinstance(header, Mapping):
            raise MalformedEventError("the game event must be a JSON object")
        fmt = header.get("format", FORMAT)
        if fmt != FORMAT:
            raise InvalidMoveError(f"unknown record format {fmt!r}: this codec reads {FORMAT!r}")
        players = header.get("players")
        if type(players) is not list or not all(type(p) is str for p in players):
            raise MalformedEventError.field("players", "a list of names, in seating order")
        nobles = header.get("nobles")
        if type(nobles) is not list or not all(type(c) is str for c in nobles):
            raise MalformedEventError.field("nobles", "the list of the nobles in use (L4: N2L, N3M, N5D, ...)")
        return LmpdSetup(tuple(players), read_nobles(nobles))

    def read_move(self, event: Mapping[str, Any], setup: LmpdSetup) -> Move:
        """The move of one event (any but the ``game`` header)."""
        if type(event) is not dict and not isinstance(event, Mapping):
            raise MalformedEventError(f"an event is a JSON object, not {event!r}")
        kind = event.get("event")
        if kind == "commit":
            # The common event, on the fast path: a player of the table, an exact id or null.
            player = event.get("player")
            card = event.get("card")
            if type(player) is str and player in setup.players:
                if card is None:
                    return Commit(player, UNSEEN)
                found = _by_id.get(card) if type(card) is str else None
                if found is not None:
                    return Commit(player, found)
            return Commit(_name(player, "player", setup), _seen(card, "card"))
        if kind == "noble":
            return TurnUp(_card(event.get("card"), "card"))
        if kind == "reveal":
            cards = event.get("cards")
            if type(cards) is not dict:
                raise MalformedEventError.field("cards", "an object naming every player's card")
            players = setup.players
            if len(cards) == len(players):
                shown = [_by_id.get(c) if type(c := cards.get(p)) is str else None for p in players]
                if None not in shown:
                    return Reveal(tuple(zip(players, cast("list[Card]", shown))))
            for name in cards:
                _name(name, "cards", setup)
            return Reveal.of(players, {p: _card(c, f"cards.{p}") for p, c in cards.items()})
        if kind == "draw":
            cards = event.get("cards")
            if cards is None:
                return Draw(tuple((p, UNSEEN) for p in setup.players))
            if type(cards) is not dict:
                raise MalformedEventError.field("cards", "an object of the card each player drew, or null")
            players = setup.players
            drawn: list[tuple[str, Seen]] = []
            for p in players:
                value = cards.get(p)
                exact: Seen | None = UNSEEN if value is None else _by_id.get(value) if type(value) is str else None
                drawn.append((p, _seen(value, f"cards.{p}") if exact is None else exact))
            if len(cards) > len(players) or any(name not in players for name in cards):
                for name in cards:
                    _name(name, "cards", setup)
            return Draw(tuple(drawn))
        if kind == "deal":
            return self._read_deal(event, setup)
        if kind == "game":
            raise InvalidMoveError('a second "game" event: one record holds one game')
        raise InvalidMoveError(f"unknown event {kind!r} (expected {', '.join(EVENTS)})")

    def _read_deal(self, event: Mapping[str, Any], setup: LmpdSetup) -> Deal:
        return Deal.make(
            _list(event.get("order"), "order"),
            _lists_by_name(event, "piles", setup),
            _list(event.get("aside"), "aside"),
            _lists_by_name(event, "hands", setup),
            players=setup.players,
        )

    # ------------------------------------------------------------------ writing

    def setup_event(self, setup: LmpdSetup) -> dict[str, Any]:
        return {"event": "game", "format": FORMAT, "players": list(setup.players), "nobles": [c.id for c in setup.nobles]}

    def move_event(self, move: Move, setup: LmpdSetup | None = None) -> dict[str, Any]:
        kind = type(move)
        if kind is Commit:
            card = cast(Commit, move).card
            return {"event": "commit", "player": move.player, "card": None if card is UNSEEN else cast(Card, card).id}
        if kind is Reveal:
            return {"event": "reveal", "cards": {p: c.id for p, c in cast(Reveal, move).cards}}
        if kind is TurnUp:
            return {"event": "noble", "card": cast(TurnUp, move).card.id}
        if kind is Draw:
            return {"event": "draw", "cards": {p: None if c is UNSEEN else cast(Card, c).id for p, c in cast(Draw, move).cards}}
        if kind is Deal:
            deal = cast(Deal, move)
            return {
                "event": "deal",
                "order": None if deal.order is None else _ids(deal.order),
                "piles": {p: _ids(cards) for p, cards in deal.piles} or None,
                "aside": None if deal.aside is None else _ids(deal.aside),
                "hands": {p: _ids(cards) for p, cards in deal.hands} or None,
            }
        raise InvalidMoveError(f"{move!r} is no move of Love, Money, Power, Death")

    # ------------------------------------------------------------------ completing

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        """The moves with the cards that were unseen when recorded filled in where other moves
        tell them (:func:`complete_moves`)."""
        return complete_moves(moves)

    def is_period_start(self, move: Move) -> bool:
        """A round begins with the deal (the first) or the draw that ends the one before
        (L11: the players draw "to commence the next round")."""
        return type(move) is Deal or type(move) is Draw


CODEC = LmpdCodec()
"""The codec, as the plug-in's ``codec``."""


# ---------------------------------------------------------------------- completing a record


def complete_moves(moves: Sequence[Move]) -> list[Move]:
    """The moves with the cards unseen when recorded filled in where other moves tell them for
    certain, so that the completed moves replay as the record did:

    - a commit recorded unseen is the card its player revealed in that round (L7);
    - a draw recorded unseen from a pile seen at the deal is that pile's next card (L11, L14);
    - the cards set aside, unseen, are the ones no pile holds when every pile was seen (L5);
    - a card revealed by a player the companion could not follow fills the hand dealt (or the
      draw) it came from when it can have come from nowhere else: a card revealed in the first
      round was in the hand dealt, and so on while the cards unseen in a hand all came from one
      deal or one draw (L5, L11).
    """
    out = list(moves)
    _commits_from_reveals(out)
    deal_at = next((i for i, m in enumerate(out) if type(m) is Deal), None)
    players = next((tuple(p for p, _ in m.cards) for m in out if type(m) is Reveal or type(m) is Draw), None)
    if deal_at is None or players is None:
        return out
    _Follower(out, deal_at, players).run()
    return out


def _commits_from_reveals(out: list[Move]) -> None:
    pending: dict[str, int] = {}
    for i, move in enumerate(out):
        kind = type(move)
        if kind is Commit:
            if cast(Commit, move).card is UNSEEN:
                pending[cast(str, move.player)] = i
        elif kind is Reveal:
            for player, j in pending.items():
                card = cast(Reveal, move).card_of(player)
                if card is not None:
                    out[j] = Commit(player, card)
            pending = {}
        elif kind is Deal:
            pending = {}


class _Follower:
    """Follows each player's hand through the record to say where an unseen card came from.

    A hand's unseen cards are kept as the moves they came from (``"deal"`` or the index of a
    draw); once a card revealed could have come from two of them, the rest of that hand is
    ``None``: not to be told."""

    def __init__(self, out: list[Move], deal_at: int, players: tuple[str, ...]) -> None:
        self.out = out
        self.deal_at = deal_at
        self.players = players
        deal = cast(Deal, out[deal_at])
        self.pile_size = DEALT_COUNT // len(players)
        self.hand_size = min(HAND_SIZE, self.pile_size)
        self.piles = {p: deal.pile_of(p) for p in players}
        self.drawn = dict.fromkeys(players, 0)
        self.known: dict[str, list[Card]] = {}
        self.origins: dict[str, list[str | int] | None] = {}
        self.deal_hands: dict[str, list[Seen]] = {}
        for p in players:
            pile = self.piles[p]
            hand = deal.hand_of(p)
            seen: list[Seen] = list(pile[: self.hand_size]) if pile is not None else list(hand) if hand is not None else [UNSEEN] * self.hand_size
            self.deal_hands[p] = seen
            self.known[p] = [c for c in seen if type(c) is Card]
            self.origins[p] = ["deal"] * (self.hand_size - len(self.known[p]))
        self.dealt_changed = False

    def run(self) -> None:
        out = self.out
        for i in range(self.deal_at + 1, len(out)):
            move = out[i]
            kind = type(move)
            if kind is Draw:
                self._draw(i, cast(Draw, move))
            elif kind is Reveal:
                self._reveal(cast(Reveal, move))
        self._aside()
        if self.dealt_changed:
            deal = cast(Deal, out[self.deal_at])
            hands = {p: cards for p, cards in deal.hands}
            for p in self.players:
                if self.piles[p] is None and any(c is not UNSEEN for c in self.deal_hands[p]):
                    hands[p] = tuple(self.deal_hands[p])
            out[self.deal_at] = Deal(deal.order, deal.piles, deal.aside, tuple((p, hands[p]) for p in self.players if p in hands))

    def _draw(self, i: int, move: Draw) -> None:
        cards = dict(move.cards)
        changed = False
        for p in self.players:
            pile = self.piles[p]
            k = self.hand_size + self.drawn[p]
            if k >= self.pile_size:
                continue  # an empty pile: nothing drawn (L11)
            self.drawn[p] += 1
            card = cards.get(p, UNSEEN)
            if card is UNSEEN and pile is not None and pile[k] is not UNSEEN:
                card = pile[k]
                cards[p] = card
                changed = True
            if type(card) is Card:
                self.known[p].append(card)
            elif self.origins[p] is not None:
                cast("list[str | int]", self.origins[p]).append(i)
        if changed:
            self.out[i] = Draw(tuple((p, cards[p]) for p in self.players))

    def _reveal(self, move: Reveal) -> None:
        for p, card in move.cards:
            known = self.known[p]
            if card in known:
                known.remove(card)
                continue
            origins = self.origins[p]
            if not origins:
                self.origins[p] = None  # the hand is no longer followed
                continue
            source = origins[0]
            if any(o != source for o in origins):
                self.origins[p] = None
                continue
            origins.pop()
            if source == "deal":
                hand = self.deal_hands[p]
                hand[hand.index(UNSEEN)] = card
                self.dealt_changed = True
            else:
                j = cast(int, source)
                draw = cast(Draw, self.out[j])
                self.out[j] = Draw(tuple((q, card if q == p else c) for q, c in draw.cards))

    def _aside(self) -> None:
        """L5: when every pile was seen, the cards set aside are the ones left."""
        deal = cast(Deal, self.out[self.deal_at])
        if deal.aside is not None and UNSEEN not in deal.aside:
            return
        if any(pile is None or UNSEEN in pile for pile in self.piles.values()):
            return
        placed = {c for pile in self.piles.values() for c in cast("tuple[Seen, ...]", pile)}
        left = tuple(c for c in DEALT if c not in placed)
        if len(left) == DEALT_COUNT % len(self.players):
            self.out[self.deal_at] = Deal(deal.order, deal.piles, left, deal.hands)
