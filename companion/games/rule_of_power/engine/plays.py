"""A card played: a card for the centre captures one card of its value or cards summing to it,
or stays there (R4), a value-1 card empowered by a Mystic Crystal captures like a Wizard (R5),
the last capturer is remembered (R6) and a natural World card emptying the centre makes a clean
sweep (R7); a Fate card lies in front of its owner (R19, R24) or does its one deed: opponents
discard (R21), hands swap cards (R22), a stack's top card is stolen (R23), a World card drawn
(R25); the Fate cards in play forbid, empower and react (R24). Worked out as effects, then
carried out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.effects import CENTRE, FRONT, HAND, Effects, Spent
from companion.games.rule_of_power.engine.fate import FATE_RULES, FateRule
from companion.games.rule_of_power.engine.moves import UNSEEN, HandCard, Play
from companion.games.rule_of_power.engine.position import GameBase, _Core, _add, _put, _remove, _remove_all, _remove_owned
from companion.contract.errors import IllegalMoveError

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameState

__all__ = ["Plays"]


class Plays(GameBase):
    """The state's part for what a card played does (R4-R7, R19-R25)."""

    if TYPE_CHECKING:

        def _take_from_hand(self, i: int, card: Card) -> None: ...

        def _next_turn(self) -> None: ...

    def capture_options(self, card: Card) -> list[tuple[Card, ...]]:
        """The capture options of ``card`` played now on the centre (R4, R5)."""
        if card.value is None:
            return []
        return capture_options(self._core.centre, card.value, empowered=self.is_empowered(card))

    def is_empowered(self, card: Card) -> bool:
        """A card played to the centre while a Fate card in play empowers it: a value-1 card
        while a Mystic Crystal is in play (R5)."""
        return bool(self._core.in_play) and card.to_centre and any(r.empowers(card) for r in self._rules_in_play())

    def _rules_in_play(self) -> list[FateRule]:
        """The rules of the Fate cards in play, once each however many copies lie there."""
        in_play = self._core.in_play
        if len(in_play) == 1:
            return [FATE_RULES[in_play[0][1]]]
        return list(dict.fromkeys(FATE_RULES[card] for _, card in in_play))

    def _forbidden(self, card: Card) -> IllegalMoveError | None:
        """Why a Fate card in play forbids playing ``card`` now (R24), or ``None``."""
        state = cast("GameState", self)
        for rule in self._rules_in_play():
            problem = rule.forbids(state, card)
            if problem is not None:
                return problem
        return None

    def _centre_plays(self, me: str, card: Card) -> Iterator[Play]:
        options = self.capture_options(card)
        if not options:
            yield Play(me, card)
        for option in options:
            yield Play(me, card, option)

    def _play_effects(self, move: Play) -> Effects:
        """What a (checked) play does: a Fate card's own rule, or for a card laid in the centre
        R4, R5, R7, capturing or not, and what the Fate cards in play do when it is laid (R24:
        a Minion sends the Exorcists away)."""
        card = move.card
        if not card.to_centre:
            return FATE_RULES[card].effects(cast("GameState", self), move)
        c = self._core
        capture = tuple(move.capture)
        if not c.in_play:
            return Effects(move.player, card, not capture, capture, _is_sweep(c, capture, card.is_world))
        empowered = False
        spent: tuple[Spent, ...] = ()
        # A plain loop: a comprehension here would make every play build closures.
        for rule in self._rules_in_play():
            if rule.empowers(card):
                empowered = True
            spent += rule.reacts(cast("GameState", self), card)
        return Effects(
            move.player,
            card,
            laid=not capture,
            captured=capture,
            sweep=_is_sweep(c, capture, card.is_world and not empowered),
            empowered=empowered,
            spent=spent,
        )

    def _carry_out_play(self, move: Play, fx: Effects) -> None:
        """R17: the player plays one card from hand, and the turn passes on. A card for the
        centre captures or is laid there (R4-R7, R20); a Fate card is laid in front of its
        owner (R19, R24) or does its one deed (R21-R23, R25); the cards ``fx`` spends leave
        play for the round, the played event card among them (R18)."""
        i = self._seat[move.player]
        card = move.card
        self._take_from_hand(i, card)
        if card.to_centre:
            self._play_to_centre(i, card, fx)
            if fx.spent:  # R24: a Minion sends the Exorcists away
                self._spend(fx.spent)
        else:
            # What only Fate cards do; each of them does one or two of these.
            if fx.in_front:
                self._put_in_front(fx.in_front)
            if fx.spent:
                self._spend(fx.spent)
            if fx.exchanged:
                self._exchange(fx.exchanged)
            if fx.stolen is not None:
                self._steal(i, fx.stolen)
            if fx.drawn is not None:
                self._draw_world(i, fx.drawn)
        self._next_turn()

    def _play_to_centre(self, i: int, card: Card, fx: Effects) -> None:
        """Player ``i``'s ``card`` captures what ``fx`` says or stays in the centre (R4, R5); only a
        natural World card can make a clean sweep (R7). A Warlock or Vampire left lying there
        (R20) is remembered with who laid it: an Exorcist puts it out of play as its owner's
        card (R24)."""
        c = self._core
        _lay_in_centre(c, i, card, fx.captured, card.is_world and not fx.empowered)
        if card.is_fate and fx.laid:
            c.centre_fate = c.centre_fate + ((i, card),)

    def _put_in_front(self, in_front: tuple[tuple[str, Card], ...]) -> None:
        """A Mystic Crystal or an Exorcist stays in front of its owner until the round ends
        (R19), or for the Exorcist until a Minion sends it away (R24)."""
        c = self._core
        seat = self._seat
        for player, card in in_front:
            c.in_play = c.in_play + ((seat[player], card),)

    def _spend(self, spent: tuple[Spent, ...]) -> None:
        """Cards out of play for the rest of the round, onto the discards (R18): the event card
        just played, a card each opponent discards from hand (R21), Creatures the Exorcist
        sends from the centre (R24), Crystals that meet (R19) and Exorcists a Minion sends
        away (R24) from in front of their owners."""
        c = self._core
        seat = self._seat
        for s in spent:
            card = s.card
            j = seat[s.player] if s.player is not None else -1
            if s.zone == HAND:
                self._take_from_hand(j, card)
            elif s.zone == CENTRE:
                c.centre = _remove(c.centre, card)
                if card.is_fate:
                    c.centre_fate = _remove_owned(c.centre_fate, (card,), j)
            elif s.zone == FRONT:
                k = c.in_play.index((j, card))
                c.in_play = c.in_play[:k] + c.in_play[k + 1 :]
            c.discards = c.discards + (card,)

    def _exchange(self, exchanged: tuple[tuple[str, str, HandCard], ...]) -> None:
        """Mirror Swap: World cards change hands (R22). A card the companion saw moves from one
        known hand to the other; one it did not see only changes the two counts of cards
        held face down."""
        c = self._core
        seat = self._seat
        for giver, receiver, card in exchanged:
            src, dst = seat[giver], seat[receiver]
            if isinstance(card, Card):
                self._take_from_hand(src, card)
                c.hands[dst] = c.hands[dst] + (card,)
                # The one who gave it away now knows where it is.
                c.revealed = c.revealed + ((src, card, dst),)
            else:
                c.hidden = _add(_add(c.hidden, src, -1), dst, 1)

    def _steal(self, i: int, stolen: tuple[str, Card]) -> None:
        """Thief: player ``i`` takes the top card of the victim's capture stack onto the top of
        their own (R23). It is no capture: the last capturer (R6) and the sweeps (R7) stay."""
        c = self._core
        victim, card = stolen
        j = self._seat[victim]
        c.stacks[j] = c.stacks[j][:-1]
        c.stacks[i] = c.stacks[i] + (card,)

    def _draw_world(self, i: int, drawn: HandCard) -> None:
        """Renewal: player ``i`` takes the top card of the World deck into hand (R25), face up or
        face down; it is played in this deal like the others."""
        c = self._core
        if drawn is UNSEEN:
            c.hidden = _add(c.hidden, i, 1)
            c.deck_count -= 1
        elif isinstance(drawn, Card):
            c.hands[i] = c.hands[i] + (drawn,)
            c.pool = c.pool - {drawn}
            c.deck_count -= 1


def _is_sweep(c: _Core, capture: tuple[Card, ...], natural: bool) -> bool:
    """R7: a natural World card that empties the centre, outside the first and last deal."""
    return natural and bool(capture) and len(capture) == len(c.centre) and c.deal_no != 1 and not c.last_deal


def _is_sum_capture(centre: tuple[Card, ...], value: int, capture: tuple[Card, ...]) -> bool:
    """R4 for two or more cards: ``capture`` is distinct centre cards whose values sum to
    ``value``, and no single centre card has that value (it would be the only option). A
    card without a value (a Fate card that never lies in the centre) counts 0 here, and is
    then refused for not being in the centre."""
    return (
        sum([x.value or 0 for x in capture]) == value
        and len(set(capture)) == len(capture)
        and not any([x.value == value for x in centre])
        and all([x in centre for x in capture])
    )


def _lay_in_centre(c: _Core, i: int, card: Card, capture: tuple[Card, ...], natural: bool) -> None:
    """Player ``i``'s ``card`` goes to the centre, taking ``capture`` (already checked).
    ``natural``: a World card, not an empowered Wizard, which can make a clean sweep."""
    if capture:
        c.centre = _remove(c.centre, capture[0]) if len(capture) == 1 else _remove_all(c.centre, capture)
        if c.centre_fate:
            c.centre_fate = _remove_owned(c.centre_fate, capture)  # a Warlock or Vampire taken
        c.stacks[i] = c.stacks[i] + capture + (card,)
        c.last_capturer = i
        # R7, as _is_sweep says it before the capture: the centre is left empty.
        if natural and not c.centre and c.deal_no != 1 and not c.last_deal:
            c.sweeps = _put(c.sweeps, i, c.sweeps[i] + (card,))
    else:
        c.centre = c.centre + (card,)
