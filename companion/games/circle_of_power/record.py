"""The record format ``cop-record/1`` (record-format.md): the ``game`` header and each event
read as a move and written back, for the companion's generic record reader.

>>> setup = CODEC.read_setup({"event": "game", "format": "cop-record/1", "players": ["ann", "bob", "cy"]})
>>> setup.variant, setup.target
('basic', 6)
>>> move = CODEC.read_move({"event": "play", "player": "bob", "card": "7H", "drew": "4C"}, setup)
>>> move, CODEC.move_event(move, setup)
(Play(player='bob', card=Card.from_id('7H'), drew=Card.from_id('4C')), {'event': 'play', 'player': 'bob', 'card': '7H', 'drew': '4C'})
>>> CODEC.read_move({"event": "play", "player": "@1", "card": "7D", "drew": "4C"}, setup)
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: C8: @1 is a dummy and draws no card: "drew" must be null or absent
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.moves import (
    UNSEEN,
    Conquer,
    HandCard,
    Move,
    Play,
    Regroup,
    Reshuffle,
    Retake,
    Reveal,
    Season,
    _Unseen,
)
from companion.games.circle_of_power.setup import BASIC, COLOURED_CITIES, VARIANTS, CircleSetup
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.record import read_card

__all__ = ["FORMAT", "EVENTS", "CircleCodec", "CODEC", "complete_moves"]

FORMAT = "cop-record/1"
EVENTS: tuple[str, ...] = ("season", "reveal", "play", "conquer", "retake", "regroup", "reshuffle")

_by_id = Card._by_id
_HAND, _PILE, _NEW_PILE = 3, 9, 6


def _name(event: Mapping[str, Any], key: str) -> str:
    value = event.get(key)
    if type(value) is not str or not value:
        raise InvalidMoveError(f'"{key}" must name an emperor, not {value!r}')
    if value.startswith("@") and not value[1:].isdigit():
        raise InvalidMoveError(f'"{key}": a dummy is named @1, @2, ... (C4), not {value!r}')
    return value


def _card(value: Any, key: str) -> Card:
    return read_card(value, key, _by_id, Card.from_id)


def _card_or_none(event: Mapping[str, Any], key: str) -> Card | None:
    value = event.get(key)
    return None if value is None else _card(value, key)


def _card_list(value: Any, key: str, size: int) -> tuple[HandCard, ...] | None:
    """A hand or pile: a list of card ids, ``null`` for a card nobody saw; ``None`` when the
    whole list was unseen (``null``, or as many nulls as it holds cards)."""
    if value is None:
        return None
    if type(value) is not list:
        raise InvalidMoveError(f'"{key}" must be a list of card ids (null for a card nobody saw), not {value!r}')
    cards = tuple(UNSEEN if x is None else _card(x, key) for x in value)
    if len(cards) == size and all(x is UNSEEN for x in cards):
        return None
    return cards


def _by_name(event: Mapping[str, Any], key: str, size: int) -> dict[str, tuple[HandCard, ...] | None]:
    value = event.get(key)
    if value is None:
        return {}
    if type(value) is not dict:
        raise InvalidMoveError(f'"{key}" must map each emperor to their cards, or be null')
    out: dict[str, tuple[HandCard, ...] | None] = {}
    for name, cards in value.items():
        if not name:
            raise InvalidMoveError(f'"{key}": an emperor\'s name is empty')
        out[name] = _card_list(cards, f"{key}.{name}", size)
    return out


def _ids(cards: Sequence[HandCard] | None) -> list[str] | None:
    """A hand or pile as the format writes it: every card's id, or ``null`` unless every card
    was seen (record-format.md names no single unseen card in a hand or a pile; a reader that
    completes the record works out again what the plays tell of it)."""
    if not cards or any(isinstance(x, _Unseen) for x in cards):
        return None
    return [x.id for x in cards if not isinstance(x, _Unseen)]


def _season_event(season: Season) -> dict[str, Any]:
    """A ``season`` event: each hand and pile seen in full, ``null`` for the others (and
    ``null`` for all when none was)."""
    hands = {n: _ids(season.hand_of(n)) for n in season.seats if not n.startswith("@")}
    piles = {n: _ids(season.pile_of(n)) for n in season.seats if n.startswith("@")}
    cities = dict(season.cities)
    return {
        "event": "season",
        "dealer": season.dealer,
        "seats": list(season.seats),
        "cities": {n: cities[n].id for n in season.seats if n in cities}
        | {n: c.id for n, c in season.cities if n not in season.seats},
        "bottom": season.bottom.id,
        "hands": hands if any(v is not None for v in hands.values()) else None,
        "piles": piles if any(v is not None for v in piles.values()) else None,
    }


class CircleCodec:
    """The ``cop-record/1`` codec (the protocol's :class:`~companion.contract.
    RecordCodec`). Reading refuses what the format calls an error: a malformed field as
    :class:`~companion.contract.errors.InvalidMoveError` (or :class:`~companion.contract.errors.
    UnknownCardError` for a card), a rule the event itself breaks (a dummy's ``drew``,
    ``"keep": true`` outside Coloured Cities, a player named ``@...``) as
    :class:`~companion.contract.errors.IllegalMoveError`; every other rule is the state's."""

    format = FORMAT
    events = EVENTS

    # ------------------------------------------------------------------ reading

    def read_setup(self, header: Mapping[str, Any]) -> CircleSetup:
        """The set-up of a ``game`` event: ``players`` (2-4 names, none beginning with ``@``,
        C4), ``variant`` (default ``basic``) and ``target`` (default 6)."""
        if not isinstance(header, Mapping):
            raise InvalidMoveError("the game event must be a JSON object")
        fmt = header.get("format", FORMAT)
        if fmt != FORMAT:
            raise InvalidMoveError(f"unknown record format {fmt!r}: this codec reads {FORMAT!r}")
        players = header.get("players")
        if type(players) is not list or not all(type(p) is str for p in players):
            raise InvalidMoveError('"players" must be a list of names, clockwise')
        variant = header.get("variant", BASIC)
        if variant is None:
            variant = BASIC
        if variant not in VARIANTS:
            raise InvalidMoveError(f'"variant" must be one of {", ".join(VARIANTS)}, not {variant!r}')
        target = header.get("target", 6)
        if target is None:
            target = 6
        if type(target) is not int:
            raise InvalidMoveError(f'"target" must be a whole number, not {target!r}')
        return CircleSetup(tuple(players), variant, target)

    def read_move(self, event: Mapping[str, Any], setup: CircleSetup) -> Move:
        """The move of one event (any but the ``game`` header)."""
        if type(event) is not dict and not isinstance(event, Mapping):
            raise InvalidMoveError(f"an event is a JSON object, not {event!r}")
        kind = event.get("event")
        if kind == "play":
            # The common event of every record, on the fast path: exact ids, a plain name.
            player = event.get("player")
            card_id = event.get("card")
            card = _by_id.get(card_id) if type(card_id) is str else None
            drew = event.get("drew")
            if card is not None and type(player) is str and player:
                if player[0] != "@":
                    if drew is None:
                        return Play(player, card)
                    found = _by_id.get(drew) if type(drew) is str else None
                    if found is not None:
                        return Play(player, card, found)
                elif drew is None and player[1:].isdigit():
                    return Play(player, card)  # a dummy, which draws nothing (C8)
            return self._read_play(event)
        if kind == "conquer":
            keep = event.get("keep", False)
            if keep is None:
                keep = False
            if type(keep) is not bool:
                raise InvalidMoveError(f'"keep" must be true or false, not {keep!r}')
            if keep and setup.variant != COLOURED_CITIES:
                raise IllegalMoveError("C19", f'"keep": true is only for Coloured Cities, and this game is {setup.variant}')
            return Conquer(_name(event, "player"), _name(event, "victim"), keep)
        if kind == "reveal":
            return Reveal(_card(event.get("card"), "card"))
        if kind == "retake":
            return Retake(_name(event, "player"), _name(event, "victim"), _card_or_none(event, "discard"))
        if kind == "regroup":
            return Regroup(_name(event, "player"), _card_or_none(event, "discard"))
        if kind == "season":
            return self._read_season(event, setup)
        if kind == "reshuffle":
            piles = _by_name(event, "piles", _NEW_PILE)
            for name in piles:
                if not name.startswith("@"):
                    raise IllegalMoveError("C15", f'"piles": {name} is a player and draws from the new battle deck; only dummies take six cards')
            return Reshuffle.make(piles)
        if kind == "game":
            raise InvalidMoveError('a second "game" event: one record holds one game')
        raise InvalidMoveError(f"unknown event {kind!r} (expected {', '.join(EVENTS)})")

    def _read_play(self, event: Mapping[str, Any]) -> Play:
        player = _name(event, "player")
        card = _card(event.get("card"), "card")
        drew = _card_or_none(event, "drew")
        if drew is not None and player.startswith("@"):
            raise IllegalMoveError("C8", f'{player} is a dummy and draws no card: "drew" must be null or absent')
        return Play(player, card, drew)

    def _read_season(self, event: Mapping[str, Any], setup: CircleSetup) -> Season:
        dealer = _name(event, "dealer")
        seats = event.get("seats")
        if type(seats) is not list or len(seats) != 4 or not all(type(n) is str and n for n in seats):
            raise InvalidMoveError('"seats" must list the four emperors clockwise')
        cities = event.get("cities")
        if type(cities) is not dict:
            raise InvalidMoveError('"cities" must map each emperor to their city')
        for name in seats:
            if name.startswith("@") and not name[1:].isdigit():
                raise InvalidMoveError(f'"seats": a dummy is named @1, @2, ... (C4), not {name!r}')
        hands = _by_name(event, "hands", _HAND)
        piles = _by_name(event, "piles", _PILE)
        return Season(
            dealer,
            tuple(seats),
            tuple((name, _card(card, f"cities.{name}")) for name, card in cities.items()),
            _card(event.get("bottom"), "bottom"),
            tuple((name, cards) for name, cards in hands.items() if cards is not None),
            tuple((name, cards) for name, cards in piles.items() if cards is not None),
        )

    # ------------------------------------------------------------------ writing

    def setup_event(self, setup: CircleSetup) -> dict[str, Any]:
        return {
            "event": "game",
            "format": FORMAT,
            "players": list(setup.players),
            "variant": setup.variant,
            "target": setup.target,
        }

    def move_event(self, move: Move, setup: CircleSetup | None = None) -> dict[str, Any]:
        """The event that records ``move`` (record-format.md)."""
        if type(move) is Play:
            out: dict[str, Any] = {"event": "play", "player": move.player, "card": move.card.id}
            if move.drew is not None:
                out["drew"] = move.drew.id
            return out
        if type(move) is Reveal:
            return {"event": "reveal", "card": move.card.id}
        if type(move) is Conquer:
            out = {"event": "conquer", "player": move.player, "victim": move.victim}
            if move.keep:
                out["keep"] = True
            return out
        if type(move) is Retake:
            discard = move.discard
            return {"event": "retake", "player": move.player, "victim": move.victim, "discard": discard.id if discard else None}
        if type(move) is Regroup:
            discard = move.discard
            return {"event": "regroup", "player": move.player, "discard": discard.id if discard else None}
        if type(move) is Reshuffle:
            new = {name: _ids(cards) for name, cards in move.piles}
            return {"event": "reshuffle", "piles": new if any(v is not None for v in new.values()) else None}
        if type(move) is Season:
            return _season_event(move)
        raise InvalidMoveError(f"not a move of Circle of Power: {move!r}")

    # ------------------------------------------------------------------ the rest

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        return complete_moves(moves)

    def is_period_start(self, move: Move) -> bool:
        """A season begins a scoring period (C16)."""
        return type(move) is Season


CODEC = CircleCodec()


# ---------------------------------------------------------------------- completion


def complete_moves(moves: Sequence[Move]) -> list[Move]:
    """The same moves with cards that were unseen when recorded filled in where later moves
    tell them for certain:

    - a dummy's pile (C6) and its six new cards at the reshuffle (C15), as it plays them from
      the top: actions 1-6 and 13-15 play the season's pile, actions 7-12 the new cards;
    - a player's hand and draws: a card played from an unseen hand or draw is placed when the
      rules leave it one place (a card played in action 1 was in the hand; one played after the
      reshuffle that was played in actions 1-6 was drawn after the reshuffle, C15; and so on),
      by checking every way the unseen cards could have come and went.

    Moves of a record that breaks the rules are left as they are where nothing is certain.
    """
    out = list(moves)
    seasons = [(k, m) for k, m in enumerate(out) if type(m) is Season]
    for n, (start, season) in enumerate(seasons):
        end = seasons[n + 1][0] if n + 1 < len(seasons) else len(out)
        _complete_season(out, season, start, end)
    return out


def _complete_season(out: list[Move], season: Season, start: int, end: int) -> None:
    """Complete in place the moves ``out[start:end]`` of one season, ``season`` its set-up:
    each dummy's piles (C6, C15) and each player's hand and draws (C8)."""
    seats = season.seats
    plays: list[tuple[int, int, Play]] = []  # (action, index in out, move)
    reshuffle_at = -1
    new_piles: dict[str, tuple[HandCard, ...]] = {}
    for k in range(start + 1, end):
        m = out[k]
        if type(m) is Play:
            plays.append((len(plays) // 4 + 1, k, m))
        elif type(m) is Reshuffle and reshuffle_at < 0:
            reshuffle_at = k
            new_piles = dict(m.piles)
    played_a = {m.card for a, _, m in plays if a <= 6}
    hands = dict(season.hands)
    piles = dict(season.piles)
    changed = False
    for name in seats:
        own = [(a, k, m) for a, k, m in plays if m.player == name]
        if not name.startswith("@"):
            changed |= _complete_player(out, name, own, hands, played_a)
            continue
        pile = _fill(piles.get(name), _pile_positions(own), _PILE)
        if pile is not None and pile != piles.get(name):
            piles[name] = pile
            changed = True
        if reshuffle_at >= 0:
            later = {a - 7: m.card for a, _, m in own if 7 <= a <= 12}
            filled = _fill(new_piles.get(name), later, _NEW_PILE)
            if filled is not None and filled != new_piles.get(name):
                new_piles[name] = filled
                out[reshuffle_at] = Reshuffle(tuple((n, new_piles[n]) for n in seats if n in new_piles))
    if changed:
        out[start] = Season(
            season.dealer,
            seats,
            season.cities,
            season.bottom,
            tuple((n, hands[n]) for n in seats if n in hands) + tuple((n, c) for n, c in season.hands if n not in seats),
            tuple((n, piles[n]) for n in seats if n in piles) + tuple((n, c) for n, c in season.piles if n not in seats),
        )


def _complete_player(
    out: list[Move],
    name: str,
    own: list[tuple[int, int, Play]],
    hands: dict[str, tuple[HandCard, ...]],
    played_a: set[Card],
) -> bool:
    """Fill in player ``name``'s hand (in ``hands``) and unseen draws (in ``out``) where their
    plays ``own`` leave no doubt (C8, C15). Returns whether the hand changed."""
    found = _place_player_cards(hands.get(name), own, played_a)
    if found is None:
        return False
    hand, draws = found
    changed = False
    if hand != hands.get(name) and hand is not None:
        hands[name] = hand
        changed = True
    plays_at = {k: m for _, k, m in own}
    for k, card in draws.items():
        m = plays_at[k]
        out[k] = Play(m.player, m.card, card)
    return changed


def _pile_positions(own: list[tuple[int, int, Play]]) -> dict[int, Card]:
    """The season's pile of a dummy as its plays show it, by position from the top: actions
    1-6 take positions 0-5, actions 13-15 positions 6-8 (C6, C15)."""
    found: dict[int, Card] = {}
    for a, _, m in own:
        if a <= 6:
            found[a - 1] = m.card
        elif a >= 13:
            found[a - 7] = m.card
    return found


def _fill(given: tuple[HandCard, ...] | None, positions: dict[int, Card], size: int) -> tuple[HandCard, ...] | None:
    """A pile as given, its unseen cards filled from what the dummy played (by position)."""
    cards: list[HandCard] = list(given) if given is not None and len(given) == size else [UNSEEN] * size
    for k, c in positions.items():
        if 0 <= k < size and cards[k] is UNSEEN:
            cards[k] = c
    if all(x is UNSEEN for x in cards):
        return given
    return tuple(cards)


def _place_player_cards(
    hand: tuple[HandCard, ...] | None, own: list[tuple[int, int, Play]], played_a: set[Card]
) -> tuple[tuple[HandCard, ...] | None, dict[int, Card]] | None:
    """The hand and the draws of one player that their plays tell for certain. Slots are
    the hand's unseen cards (interchangeable) and each unseen draw; each card played from an
    unseen slot is matched to one that was in the player's hand at the time and that C15
    allows (after the reshuffle a card played in actions 1-6 comes from a new draw, any other
    from before it). A slot is filled when every matching agrees."""
    if hand is not None and len(hand) != _HAND:
        return None
    known_hand = [x for x in (hand or ()) if x is not UNSEEN]
    # Draws after the player's plays of actions 1-12 (C8, C15).
    draws = {a: (k, m.drew) for a, k, m in own if a <= 12}
    unknown = _unexplained_plays(own, known_hand, draws, played_a)
    # The unseen slots: the hand's unseen cards, then each unseen draw by its action.
    slots: list[tuple[str, int]] = [("hand", 0)] * (_HAND - len(known_hand))
    slots += [("draw", b) for b, (_, d) in draws.items() if d is None]
    edges = [[s for s, slot in enumerate(slots) if _may_come_from(a, card, slot, played_a)] for a, card in unknown]
    if _matching(edges, len(slots)) is None:
        return None
    in_hand, drawn = _placed_alike(unknown, edges, slots)
    hand_out = known_hand + in_hand
    new_hand: tuple[HandCard, ...] | None
    if hand is None and not hand_out:
        new_hand = None
    else:
        new_hand = tuple(hand_out) + (UNSEEN,) * (_HAND - len(hand_out))
    return new_hand, {draws[b][0]: card for b, card in drawn.items()}


def _unexplained_plays(
    own: list[tuple[int, int, Play]],
    known_hand: list[HandCard],
    draws: dict[int, tuple[int, Card | None]],
    played_a: set[Card],
) -> list[tuple[int, Card]]:
    """The plays, as (action, card), that the cards seen do not explain: a card seen in the
    hand is played from it (after the reshuffle only one not played in actions 1-6, C15), a
    card seen drawn from that draw, made in an earlier action."""
    used_hand = list(known_hand)
    used_draw: set[int] = set()
    unknown: list[tuple[int, Card]] = []
    for a, _, m in own:
        card = m.card
        if card in used_hand and (a <= 6 or card not in played_a):
            used_hand.remove(card)
            continue
        source = next((b for b, (_, d) in draws.items() if d is card and b < a and b not in used_draw), None)
        if source is not None:
            used_draw.add(source)
            continue
        unknown.append((a, card))
    return unknown


def _may_come_from(a: int, card: Card, slot: tuple[str, int], played_a: set[Card]) -> bool:
    """Whether ``card``, played in action ``a``, may come from ``slot``: a draw only of an
    earlier action; from action 7 on (C15), a card played in actions 1-6 only from a draw of
    action 7 or later (the new battle deck), any other only from the hand or a draw of
    actions 1-6."""
    kind, b = slot
    if kind == "draw" and b >= a:
        return False
    if a >= 7:
        new = card in played_a
        return kind == "draw" and b >= 7 if new else kind == "hand" or b <= 6
    return True


def _placed_alike(
    unknown: list[tuple[int, Card]], edges: list[list[int]], slots: list[tuple[str, int]]
) -> tuple[list[Card], dict[int, Card]]:
    """The unseen plays that every matching places alike: the cards that were surely in the
    hand, and the cards surely drawn, by the action of their draw."""
    hand_slots = [s for s, slot in enumerate(slots) if slot[0] == "hand"]
    in_hand: list[Card] = []
    drawn: dict[int, Card] = {}
    for u, (_, card) in enumerate(unknown):
        if hand_slots and any(s in hand_slots for s in edges[u]) and _forced(edges, u, hand_slots, len(slots)):
            in_hand.append(card)
            continue
        for s in edges[u]:
            kind, b = slots[s]
            if kind == "draw" and _forced(edges, u, [s], len(slots)):
                drawn[b] = card
                break
    return in_hand, drawn


def _forced(edges: list[list[int]], u: int, banned: list[int], slots: int) -> bool:
    """Whether play ``u`` must come from one of the ``banned`` slots: no matching is left
    without them."""
    without = [e if v != u else [s for s in e if s not in banned] for v, e in enumerate(edges)]
    return _matching(without, slots) is None


def _matching(edges: list[list[int]], slots: int) -> list[int] | None:
    """A matching of every left node to a distinct slot (Kuhn's augmenting paths), ``None``
    when there is none."""
    owner = [-1] * slots

    def augment(u: int, seen: list[bool]) -> bool:
        for s in edges[u]:
            if not seen[s]:
                seen[s] = True
                if owner[s] < 0 or augment(owner[s], seen):
                    owner[s] = u
                    return True
        return False

    for u in range(len(edges)):
        if not augment(u, [False] * slots):
            return None
    return owner
