"""Turns (R17): clockwise, each player plays one card from hand, or draws the top card of their
own Fate deck once per deal instead, or passes when they hold no World card; the deal ends as
soon as nobody holds a World card. A play is checked here against the hand, the details its
card carries, what the Fate cards in play forbid (R24), and the capture (R4, R5) or the Fate
card's own rule (R19-R25); what it then does is :mod:`.plays`'."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from companion.games.rule_of_power.engine.captures import is_valid_capture
from companion.games.rule_of_power.engine.cards import Card, world_deck
from companion.games.rule_of_power.engine.fate import FATE_RULES, FateRule, check_details
from companion.games.rule_of_power.engine.moves import DrawFate, Pass, Play
from companion.games.rule_of_power.engine.position import _TURN, GameBase, Phase, _add, _phase_problem, _remove
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameState

__all__ = ["Turns"]

# A Play of a World card carries none of the Fate details (DETAILS): its tail is all empty.
_NO_DETAILS = Play("", world_deck()[0])[3:]


class Turns(GameBase):
    """The state's part for whose turn it is and what a player may do with it (R17)."""

    if TYPE_CHECKING:

        def _rules_in_play(self) -> list[FateRule]: ...

        def _end_round(self) -> None: ...

    def _check_turn(self, player: str, what: str) -> int:
        c = self._core
        i = self._seat.get(player) if type(player) is str else None
        if i is None:
            i = self.player_seat(player)
        if c.phase is not _TURN:
            raise IllegalMoveError(*_phase_problem(c.phase, f"{player} cannot {what}"))
        if i != c.turn:
            raise IllegalMoveError("R17", f"it is {self.players[c.turn]}'s turn, not {player}'s")
        return i

    def _check_draw_fate(self, move: DrawFate) -> None:
        """R17: on their turn, once per deal, a player holding World cards may draw the top card
        of their own Fate deck instead of playing, while that deck holds one."""
        c = self._core
        i = self._check_turn(move.player, "draw a Fate card")
        if not (c.hands[i] or c.hidden[i]):
            raise IllegalMoveError("R17", f"{move.player} holds no World card, so cannot draw a Fate card")
        if c.drew_fate[i]:
            raise IllegalMoveError("R17", f"{move.player} already drew a Fate card in this deal (once per deal)")
        if len(c.fate_decks[i]) - c.fate_hidden[i] <= 0:
            if not any(c.fate_sets or ()):
                raise IllegalMoveError("R17", "this game is played without Fate decks, so there is no Fate card to draw (R3)")
            raise IllegalMoveError("R17", f"{move.player}'s Fate deck is empty")

    def _check_pass(self, move: Pass) -> None:
        """R17: only a player without World cards passes; whoever holds one must play."""
        c = self._core
        i = self._check_turn(move.player, "pass")
        if c.hands[i] or c.hidden[i]:
            raise IllegalMoveError("R17", f"{move.player} holds World cards and must play one, not pass")

    def _check_play(self, move: Play) -> None:
        """Check a play whose turn is checked: the details its card carries, the hand (R17),
        what the Fate cards in play forbid (R24), then the capture (R4, R5) or the Fate card's
        own rule."""
        c = self._core
        card = move.card
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if move[3:] != _NO_DETAILS or (move.capture and not card.to_centre):
            check_details(move)
        i = self._seat[move.player]  # known: the turn was checked
        if card.is_world:
            if card.is_expansion and not self.setup.expansion:
                raise IllegalMoveError("R2", f"{card.id} belongs to the Higher Powers expansion, not in this game")
            if card not in c.hands[i] and not (c.hidden[i] and card in c.pool):
                raise IllegalMoveError("R17", f"{card.long_label} is not in {move.player}'s hand{self.whereabouts(card)}")
        elif card not in c.fate_hands[i] and not (c.fate_hidden[i] and card in c.fate_decks[i]):
            raise IllegalMoveError("R17", f"{card.long_label} is not among the Fate cards in {move.player}'s hand")
        empowered = False
        if c.in_play:
            # _forbidden and is_empowered in one pass over the rules in play: every checked
            # play comes this way, and two passes cost a measurable 0.7 % of a Fate replay.
            state = cast("GameState", self)
            for rule in self._rules_in_play():
                problem = rule.forbids(state, card)
                if problem is not None:
                    raise problem
                empowered = empowered or rule.empowers(card)
        if card.to_centre:
            assert card.value is not None
            problem_text = is_valid_capture(c.centre, card.value, move.capture, empowered=empowered)
            if problem_text:
                rule_id, _, text = problem_text.partition(": ")
                raise IllegalMoveError(rule_id, f"{card.title} played by {move.player}: {text}")
        else:
            FATE_RULES[card].check(cast("GameState", self), move)

    def whereabouts(self, card: Card) -> str:
        """Where a card really is, in words, to make an error message useful."""
        c = self._core
        if card in c.centre:
            return " (it lies in the centre)"
        for j, p in enumerate(self.players):
            if card in c.hands[j]:
                return f" (it is in {p}'s hand)"
            if card in c.stacks[j]:
                return f" (it is in {p}'s capture stack)"
        if card in c.discards:
            return " (it was discarded)"
        if card.is_world and card not in self._deck:
            return " (it is not in this game's deck)"
        if card in c.pool and not any(c.hidden):
            return " (it is still in the World deck)"
        return ""

    def _carry_out_draw_fate(self, move: DrawFate) -> None:
        """R17: instead of playing, the player takes the top card of their own Fate deck, once
        per deal; the turn passes on. When the deck's order is unknown, the card is unknown
        too."""
        c = self._core
        i = self._seat[move.player]
        drew = c.drew_fate
        c.drew_fate = drew[:i] + (True,) + drew[i + 1 :]
        if c.fate_order_known:
            deck = c.fate_decks[i]
            c.fate_hands[i] = c.fate_hands[i] + (deck[0],)
            c.fate_decks[i] = deck[1:]
        else:
            c.fate_hidden = _add(c.fate_hidden, i, 1)
        self._next_turn()

    def _carry_out_pass(self, move: Pass) -> None:
        """R17: a player without a World card who plays no Fate card passes: the turn passes on."""
        self._next_turn()

    def _take_from_hand(self, i: int, card: Card) -> None:
        """``card`` leaves player ``i``'s hand: from the cards known to be there, or else from
        those held face down (a World card then leaves the unlocated ones, a Fate card its
        owner's deck)."""
        c = self._core
        if card.is_world:
            hand = c.hands[i]
            if card in hand:
                c.hands[i] = _remove(hand, card)
            else:
                c.hidden = _add(c.hidden, i, -1)
                c.pool = c.pool - {card}
        else:
            hand = c.fate_hands[i]
            if card in hand:
                c.fate_hands[i] = _remove(hand, card)
            else:
                c.fate_hidden = _add(c.fate_hidden, i, -1)
                c.fate_decks[i] = _remove(c.fate_decks[i], card)

    def _next_turn(self) -> None:
        c = self._core
        turn = (c.turn + 1) % self._n
        # The next player's hand, asked first, settles it nearly always.
        if c.hands[turn] or any(c.hands) or any(c.hidden):
            c.turn = turn
            return
        # R17: the deal ends as soon as nobody holds a World card.
        c.turn = -1
        if c.deck_count > 0:
            c.phase = Phase.DEAL
        else:
            self._end_round()
