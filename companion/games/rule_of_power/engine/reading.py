"""The position read: whose turn it is (R17), the dealer and the deals (R15), the centre, the
hands and the Fate decks (R17, R18), the capture stacks and the sweeps (R6, R7, R23), the Fate
cards in play (R19, R24), the finished rounds, the totals and the outcome (R8-R14). Reading
changes nothing."""

from __future__ import annotations

from companion.games.rule_of_power.engine.cards import EXORCIST, MYSTIC_CRYSTAL, Card
from companion.games.rule_of_power.engine.position import _TURN, GameBase, Phase
from companion.games.rule_of_power.engine.rounds import Outcome, RoundResult

__all__ = ["Reading"]


class Reading(GameBase):
    """The state's properties and questions about the position (no move)."""

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def to_move(self) -> str | None:
        """Whose decision comes next: the player to move, or ``None`` when the table deals or
        starts a round, or the game is over (the protocol's name for :attr:`turn`)."""
        c = self._core
        return self.players[c.turn] if c.phase is _TURN else None

    @property
    def turn(self) -> str | None:
        """The player to move, or ``None`` between deals and rounds."""
        c = self._core
        return self.players[c.turn] if c.phase is Phase.TURN else None

    @property
    def dealer(self) -> str | None:
        d = self._core.dealer
        return self.players[d] if d >= 0 else None

    @property
    def round_number(self) -> int:
        return self._core.round_no

    @property
    def deal_number(self) -> int:
        """The deal of the current round, from 1; 0 before the first deal."""
        return self._core.deal_no

    @property
    def is_last_deal(self) -> bool:
        """The current deal emptied the deck when dealt: the dealer announces "last hand" (R7)."""
        return self._core.last_deal

    @property
    def centre(self) -> tuple[Card, ...]:
        return self._core.centre

    @property
    def deck_count(self) -> int:
        return self._core.deck_count

    @property
    def discards(self) -> tuple[Card, ...]:
        return self._core.discards

    def hand(self, player: str) -> tuple[Card, ...]:
        """The World cards known to be in ``player``'s hand."""
        return self._core.hands[self._seat[player]]

    def unseen_in_hand(self, player: str) -> int:
        """How many of ``player``'s World cards are face down, unknown to the companion."""
        return self._core.hidden[self._seat[player]]

    def hand_size(self, player: str) -> int:
        i = self._seat[player]
        c = self._core
        return len(c.hands[i]) + c.hidden[i] + len(c.fate_hands[i]) + c.fate_hidden[i]

    def world_cards_in_hand(self, player: str) -> int:
        i = self._seat[player]
        return len(self._core.hands[i]) + self._core.hidden[i]

    def fate_hand(self, player: str) -> tuple[Card, ...]:
        return self._core.fate_hands[self._seat[player]]

    def fate_deck(self, player: str) -> tuple[Card, ...]:
        """The cards left in ``player``'s Fate deck, top first when the order is known."""
        return self._core.fate_decks[self._seat[player]]

    def fate_deck_count(self, player: str) -> int:
        i = self._seat[player]
        return len(self._core.fate_decks[i]) - self._core.fate_hidden[i]

    def fate_set(self, player: str) -> frozenset[Card]:
        """The seven Fate cards ``player`` chose for the whole game (R18), empty before the
        first round and for a player without a Fate deck."""
        sets = self._core.fate_sets
        return sets[self._seat[player]] if sets is not None else frozenset()

    def has_drawn_fate(self, player: str) -> bool:
        return self._core.drew_fate[self._seat[player]]

    def stack(self, player: str) -> tuple[Card, ...]:
        """``player``'s capture stack, bottom first: its last card is the top (R23)."""
        return self._core.stacks[self._seat[player]]

    def sweeps(self, player: str) -> tuple[Card, ...]:
        """The cards with which ``player`` made clean sweeps this round (R7)."""
        return self._core.sweeps[self._seat[player]]

    @property
    def in_play(self) -> tuple[tuple[str, Card], ...]:
        """Fate cards lying in front of their owners: Mystic Crystal, Exorcist (R19, R24)."""
        return tuple((self.players[i], card) for i, card in self._core.in_play)

    @property
    def centre_fate(self) -> tuple[tuple[str, Card], ...]:
        """The Fate cards lying in the centre (a Warlock, a Vampire), each with who laid it."""
        return tuple((self.players[i], card) for i, card in self._core.centre_fate)

    @property
    def crystal_in_play(self) -> bool:
        return any(card is MYSTIC_CRYSTAL for _, card in self._core.in_play)

    @property
    def exorcist_in_play(self) -> bool:
        return any(card is EXORCIST for _, card in self._core.in_play)

    @property
    def last_capturer(self) -> str | None:
        lc = self._core.last_capturer
        return None if lc is None else self.players[lc]

    @property
    def unlocated(self) -> frozenset[Card]:
        """World cards whose place the companion does not know: the deck and face-down hands."""
        return self._core.pool

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return self._core.results

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.setup.sides, self._core.totals))

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def is_game_over(self) -> bool:
        return self._core.outcome is not None

    def may_hold(self, player: str, card: Card) -> bool:
        """Whether ``card`` is, or may be (among face-down cards), in ``player``'s hand."""
        return self._holds(self.player_seat(player), card)

    def _holds(self, i: int, card: Card) -> bool:
        c = self._core
        if card.is_world:
            return card in c.hands[i] or bool(c.hidden[i] and card in c.pool)
        return card in c.fate_hands[i] or bool(c.fate_hidden[i] and card in c.fate_decks[i])
