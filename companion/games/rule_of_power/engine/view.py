"""A player's view of the game: what they may know, and nothing more.

Teaching hints must not peek at other hands, so they work from a :class:`PlayerView`:
the player's own hand and Fate cards, everything face up or seen by all (the centre, every
capture as it was made, Fate cards in play, discards), the size of every other hand, the
World cards the player cannot place (:attr:`PlayerView.unseen`), which the rulebook tells a
good player to count, and, when the player is to move, their decisions
(:attr:`PlayerView.decisions`).

The coach's playouts make a view for every move, so a view is cheap: it keeps what the state
already holds as it is (tuples are shared, never copied) and works out the rest (the unseen
cards, the counts by player) only when asked, from what it keeps. It keeps nothing the player
may not know: no other hand, no deck order, not even a move listing another hand's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.rule_of_power.engine.cards import DARK_DECAY, MIRROR_SWAP, RENEWAL, Card, world_deck
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.moves import Move, Play

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameSetup, GameState

__all__ = ["PlayerView", "make_view", "decisions_of", "OPEN_DECISIONS"]

OPEN_DECISIONS = frozenset({RENEWAL, DARK_DECAY, MIRROR_SWAP})
"""The Fate cards whose play the player decides only in part: the card a Renewal draws
(R25), the cards a Mirror Swap takes without looking (R22) and what each opponent discards to
a Dark Decay (R21) are chance's or the others'. Their moves list cards the player cannot see."""


class PlayerView:
    """What ``player`` may know of the game. Two views are equal when the player could not
    tell the two games apart."""

    __slots__ = (
        "player",
        "setup",
        "hand",
        "fate_hand",
        "centre",
        "in_play",
        "discards",
        "deck_count",
        "turn",
        "dealer",
        "deal_number",
        "last_deal",
        "round_number",
        "decisions",
        "stacks_by_seat",
        "sweeps_by_seat",
        "world_cards_by_seat",
        "last_capturer",
        "_sizes",
        "_fate_deck",
        "_known",
        "_unseen",
    )

    player: str
    setup: GameSetup
    """The table: its players, their teams, the expansion (R2)."""
    hand: tuple[Card, ...]
    """The player's World cards (face-down ones the companion has not seen are left out)."""
    fate_hand: tuple[Card, ...]
    centre: tuple[Card, ...]
    in_play: tuple[tuple[str, Card], ...]
    """Fate cards lying in front of their owners (R19, R24)."""
    discards: tuple[Card, ...]
    deck_count: int
    turn: str | None
    dealer: str | None
    deal_number: int
    last_deal: bool
    round_number: int
    stacks_by_seat: tuple[tuple[Card, ...], ...]
    """Every capture stack, bottom first, in seating order: captures are made in front of
    everybody."""
    sweeps_by_seat: tuple[tuple[Card, ...], ...]
    """The cards of every player's clean sweeps this round (R7), in seating order."""
    world_cards_by_seat: tuple[int, ...]
    """How many World cards every player holds, in seating order (card backs tell World from
    Fate cards)."""
    last_capturer: str | None
    """Who captured last this round: the centre left at its end is theirs (R6)."""
    decisions: tuple[Move, ...]
    """The player's decisions when they are to move (else none), one move each, in the order
    of :attr:`GameState.legal_moves`: every play, Fate draw or pass as it is, except that a
    Renewal, a Mirror Swap on each player and a Dark Decay are one move each, naming no card
    that chance or the others choose (:data:`OPEN_DECISIONS`)."""

    def __init__(self, game: GameState, seat: int) -> None:
        c = game._core  # the view is part of the engine and reads its state directly
        players = game.players
        self.player = me = players[seat]
        self.setup = game.setup
        self.hand = c.hands[seat]
        self.fate_hand = c.fate_hands[seat]
        self.centre = c.centre
        self.in_play = game.in_play if c.in_play else ()
        self.discards = c.discards
        self.deck_count = c.deck_count
        self.turn = game.turn
        self.dealer = game.dealer
        self.deal_number = c.deal_no
        self.last_deal = c.last_deal
        self.round_number = c.round_no
        self.decisions = decisions_of(game, me) if self.turn == me else ()
        hands = c.hands
        self.world_cards_by_seat = world = tuple([len(h) + n for h, n in zip(hands, c.hidden)])
        self._sizes = tuple([w + len(f) + n for w, f, n in zip(world, c.fate_hands, c.fate_hidden)])
        self.stacks_by_seat = tuple(c.stacks)
        self.sweeps_by_seat = c.sweeps
        self.last_capturer = None if c.last_capturer is None else players[c.last_capturer]
        self._fate_deck = c.fate_decks[seat]
        known: dict[Card, str] = {}
        for viewer, card, holder in c.revealed:
            if viewer == seat and card in hands[holder]:
                known[card] = players[holder]
        self._known = known
        self._unseen: frozenset[Card] | None = None

    # -- worked out when asked

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def hand_sizes(self) -> Mapping[str, int]:
        """How many cards every player holds, World and Fate together."""
        return dict(zip(self.setup.players, self._sizes))

    @property
    def stacks(self) -> Mapping[str, tuple[Card, ...]]:
        """Every capture stack, bottom first: captures are made in front of everybody."""
        return dict(zip(self.setup.players, self.stacks_by_seat))

    @property
    def sweeps(self) -> Mapping[str, int]:
        """How many clean sweeps every player made this round (R7)."""
        return {p: len(s) for p, s in zip(self.setup.players, self.sweeps_by_seat)}

    @property
    def fate_deck_left(self) -> frozenset[Card]:
        """The cards still in the player's own Fate deck (they chose it; its order is secret)."""
        return frozenset(self._fate_deck) - frozenset(self.fate_hand)

    @property
    def known_elsewhere(self) -> Mapping[Card, str]:
        """Cards the player knows to be in another hand (given away in a Mirror Swap)."""
        return self._known

    @property
    def unseen(self) -> frozenset[Card]:
        """World cards the player cannot place: in the deck or in other players' hands."""
        unseen = self._unseen
        if unseen is None:
            located: set[Card] = set(self.hand)
            located.update(self.centre)
            for stack in self.stacks_by_seat:
                located.update(stack)
            located.update(x for x in self.discards if x.is_world)
            located.update(self._known)
            # Before the first round no card is in play, so none is unseen.
            deck = world_deck(self.setup.expansion) if self.round_number else ()
            unseen = self._unseen = frozenset(x for x in deck if x not in located)
        return unseen

    def is_opponent(self, player: str) -> bool:
        """Whether ``player`` plays against this view's player (not a team-mate)."""
        return self.setup.is_opponent(self.player, player)

    def is_empowered(self, card: Card) -> bool:
        """Whether ``card`` played to the centre now is empowered by a Fate card in play (R5)."""
        return bool(self.in_play) and card.to_centre and any(fate_rule(x).empowers(card) for _, x in self.in_play)

    # -- equality: what the player knows, all of it

    def _key(self) -> tuple[Any, ...]:
        return (
            self.player,
            self.setup,
            self.hand,
            self.fate_hand,
            self.fate_deck_left,
            self._sizes,
            self.world_cards_by_seat,
            self.last_capturer,
            self.centre,
            self.stacks_by_seat,
            tuple(map(len, self.sweeps_by_seat)),
            self.in_play,
            self.discards,
            self.deck_count,
            tuple(sorted((c.index, p) for c, p in self._known.items())),
            self.unseen,
            self.turn,
            self.dealer,
            self.deal_number,
            self.last_deal,
            self.round_number,
            frozenset(self.decisions),  # the same decisions, however the engine lists them
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is PlayerView and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"PlayerView(player={self.player!r}, hand={self.hand!r}, centre={self.centre!r}, turn={self.turn!r})"


def make_view(game: GameState, seat: int) -> PlayerView:
    return PlayerView(game, seat)


def decisions_of(game: GameState, player: str) -> tuple[Move, ...]:
    """``player``'s decisions in ``game`` (they are to move), as :attr:`PlayerView.decisions`
    lists them: the legal moves, each Renewal, Mirror Swap on one player, and Dark Decay made
    one move naming none of the cards that chance or the others choose."""
    out: list[Move] = []
    open_: set[tuple[Card, str | None]] = set()
    for move in game.legal_moves:
        if type(move) is Play and move.card in OPEN_DECISIONS:
            key = (move.card, move.target)
            if key not in open_:
                open_.add(key)
                out.append(Play(player, move.card, target=move.target))
        else:
            out.append(move)
    if DARK_DECAY in game.fate_hand(player) and (DARK_DECAY, None) not in open_ and _may_play(game, DARK_DECAY):
        # R21: a Dark Decay is the player's to play even when the companion cannot list the
        # discards (a victim's hand face down); which cards go is the victims' choice.
        out.append(Play(player, DARK_DECAY))
    return tuple(out)


def _may_play(game: GameState, card: Card) -> bool:
    """Whether no Fate card in play forbids ``card`` (R24)."""
    return all(fate_rule(x).forbids(game, card) is None for _, x in game.in_play)
