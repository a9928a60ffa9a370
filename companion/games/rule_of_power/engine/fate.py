"""Every Fate card's rules, one class per card (R3, R19-R25).

A :class:`FateRule` holds all that one Fate card means to the companion: its legal plays, the
checks a play of it must pass, its effect on the table (as :class:`~companion.games.rule_of_power.engine.effects.
Effects`, which the engine then carries out), the details its ``play`` event carries in a
record (:attr:`FateRule.details`), how a play of it is typed and the words the commentary
says (its name, and the words a player may type for it, are the card catalogue's). Cards
that stay in play (Mystic Crystal, Exorcist) also say how they change other plays while
they lie in front of a player: :meth:`FateRule.forbids`,
:meth:`FateRule.empowers`, :meth:`FateRule.reacts`.

Adding a Fate card is adding its catalogue entry in :mod:`companion.games.rule_of_power.engine.cards` and a rule
here, registered in :data:`FATE_RULES`; nothing else in the companion names a Fate card.

>>> from companion.games.rule_of_power.engine.cards import THIEF
>>> rule = fate_rule(THIEF)
>>> rule.ruling, rule.details, rule.example
('R23', ('target', 'stolen'), 'thief bob')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, product
from typing import TYPE_CHECKING

from companion.games.rule_of_power.engine.cards import (
    DARK_DECAY,
    EXORCIST,
    MIRROR_SWAP,
    MYSTIC_CRYSTAL,
    RENEWAL,
    THIEF,
    VAMPIRE,
    WARLOCK,
    Card,
)
from companion.games.rule_of_power.engine.effects import CENTRE, FRONT, HAND, PLAYED, Effects, Spent
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.rule_of_power.engine.moves import DETAILS, UNSEEN, HandCard, Play

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameState

__all__ = ["FateRule", "FATE_RULES", "fate_rule", "check_details"]


class FateRule:
    """The rules of one Fate card. The base class is a card with no effect and no details."""

    card: Card
    ruling: str = "R3"
    """The ruling that defines the card (R19-R25)."""
    details: tuple[str, ...] = ()
    """The :data:`~companion.games.rule_of_power.engine.moves.DETAILS` a play of this card carries, in record order."""
    example: str = ""
    """How a play of it is typed, details included (``thief bob``)."""
    summary: str = ""
    """The rule in one plain sentence, for help and illegal-move reminders."""

    # -- playing it
    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        """The legal plays of the card by ``player``, as far as the companion can tell them
        (a card exchanged or drawn face down is :data:`~companion.games.rule_of_power.engine.moves.UNSEEN`)."""
        yield Play(player, self.card)

    def seen_plays(self, game: GameState, player: str, shown: Mapping[str, Sequence[Card]]) -> list[Play]:
        """The plays a table sensor could have seen: ``shown`` maps players to the cards laid
        face up in front of them with this one (discards it called for). Cards that change
        hands or are drawn face down are :data:`~companion.games.rule_of_power.engine.moves.UNSEEN`."""
        return list(self.plays(game, player))

    def victims(self, game: GameState, player: str) -> list[str]:
        """The players who must answer the card with a card from their hand (R21)."""
        return []

    def check(self, game: GameState, move: Play) -> None:
        """Raise :class:`IllegalMoveError` naming the ruling if ``move`` breaks this card's rule."""

    def effects(self, game: GameState, move: Play) -> Effects:
        """What the (checked) play does. By default: shown, then out of play."""
        return Effects(move.player, self.card, spent=(Spent(self.card, PLAYED, move.player),))

    def describe(self, move: Play, effects: Effects) -> str:
        """The commentary's words after "ann plays the Thief"."""
        return f" ({self.ruling})"

    # -- while it lies in front of a player
    def touches(self, card: Card) -> bool:
        """Whether this card in play may change anything about playing ``card``: what
        :meth:`forbids`, :meth:`empowers` or :meth:`reacts` look at. The engine's fast path
        for World cards is taken only for cards no Fate card in play touches."""
        return False

    def forbids(self, game: GameState, card: Card) -> IllegalMoveError | None:
        """Why ``card`` may not be played while this card is in play, or ``None``."""
        return None

    def empowers(self, card: Card) -> bool:
        """Whether ``card``, played to the centre, is empowered while this card is in play."""
        return False

    def reacts(self, game: GameState, card: Card) -> tuple[Spent, ...]:
        """What happens to this card (every copy in play) when ``card`` is laid in the centre."""
        return ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.card.id} {self.card.title}>"


def _opponents(game: GameState, player: str) -> list[str]:
    return [p for p in game.players if game.setup.is_opponent(player, p)]


class MysticCrystal(FateRule):
    """R19, R5: laid in front of its owner until the round ends; while it is in play every
    value-1 card played (a World Wizard or the Warlock) takes the whole centre. A second
    Crystal played while one is in play discards both."""

    card = MYSTIC_CRYSTAL
    ruling = "R19"
    example = "crystal"
    summary = "A second Mystic Crystal discards both Crystals; while one is in play a Wizard (a 1) takes the whole centre (R5)."

    def effects(self, game: GameState, move: Play) -> Effects:
        others = [p for p, c in game.in_play if c is MYSTIC_CRYSTAL]
        if others:
            spent = (Spent(self.card, PLAYED, move.player), *(Spent(self.card, FRONT, p) for p in others))
            return Effects(move.player, self.card, spent=spent)
        return Effects(move.player, self.card, in_front=((move.player, self.card),))

    def describe(self, move: Play, effects: Effects) -> str:
        if effects.in_front:
            return " (Wizards are empowered, R5/R19)"
        return " on the other Crystal: both are discarded (R19)"

    def empowers(self, card: Card) -> bool:
        return card.is_wizard and card.to_centre

    def touches(self, card: Card) -> bool:
        return card.is_wizard


class CentreCreature(FateRule):
    """R20: a Creature played to the centre as if it were a World card of its value, capturing
    by R4 and R5; the engine lays it like any centre card. It never makes a clean sweep (R7)
    and never scores (R8)."""

    ruling = "R20"
    details = ()

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        # Centre plays, with their capture options, are the engine's (R4, R5).
        return iter(())

    def describe(self, move: Play, effects: Effects) -> str:
        return ""


class Warlock(CentreCreature):
    card = WARLOCK
    example = "warlock"
    summary = "The Warlock plays as a Wizard (a 1), empowered by a Mystic Crystal."


class Vampire(CentreCreature):
    card = VAMPIRE
    example = "vampire"
    summary = "The Vampire plays as a Ruler (a 10)."


class DarkDecay(FateRule):
    """R21: every opponent (not a team-mate) with cards in hand discards one card of their
    choice, World or Fate; the cards are out of play for the round."""

    card = DARK_DECAY
    ruling = "R21"
    details = ("discards",)
    example = "decay bob:10m dee:thief"
    summary = "Dark Decay makes every opponent discard one card of their choice."

    def victims(self, game: GameState, player: str) -> list[str]:
        """The opponents who must discard: those holding any card (R21)."""
        return [p for p in _opponents(game, player) if game.hand_size(p) > 0]

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        victims = self.victims(game, player)
        choices = [sorted(set(game.hand(p)) | set(game.fate_hand(p))) for p in victims]
        if any(not ch for ch in choices):
            return  # a victim's hand is face down: the discards cannot be listed
        for pick in product(*choices):
            yield Play(player, self.card, discards=tuple(zip(victims, pick)))

    def seen_plays(self, game: GameState, player: str, shown: Mapping[str, Sequence[Card]]) -> list[Play]:
        # Each opponent shows the card they discard by laying it in front of them.
        discards = []
        for p in self.victims(game, player):
            cards = shown.get(p, ())
            if len(cards) != 1:
                return []
            discards.append((p, cards[0]))
        return [Play(player, self.card, discards=tuple(discards))]

    def check(self, game: GameState, move: Play) -> None:
        named = [p for p, _ in move.discards]
        if len(set(named)) != len(named):
            twice = next(p for p in named if named.count(p) > 1)
            raise IllegalMoveError("R21", f"each opponent discards one card only; {twice} is named twice")
        for name, card in move.discards:
            if not game.setup.is_opponent(move.player, name):
                raise IllegalMoveError("R21", f"Dark Decay strikes opponents only; {name} is not one")
            if not game.may_hold(name, card):
                raise IllegalMoveError("R21", f"{name} cannot discard {card.id}: it is not in their hand")
        for p in self.victims(game, move.player):
            if p not in named:
                raise IllegalMoveError("R21", f"every opponent with cards in hand discards one; {p} did not")

    def effects(self, game: GameState, move: Play) -> Effects:
        spent = (Spent(self.card, PLAYED, move.player), *(Spent(c, HAND, p) for p, c in move.discards))
        return Effects(move.player, self.card, spent=spent)

    def describe(self, move: Play, effects: Effects) -> str:
        gone = ", ".join(f"{p} {c.short}" for p, c in move.discards) or "nobody had a card"
        return f": opponents discard ({gone}) (R21)"


class MirrorSwap(FateRule):
    """R22: the player names any other player (a team-mate too); with ``a`` World cards in the
    player's hand and ``b`` in the target's, ``k = min(a, b)`` cards change hands each way, the
    target's taken without looking, and the player's too when ``a > b``."""

    card = MIRROR_SWAP
    ruling = "R22"
    details = ("target", "given", "received")
    example = "swap bob give 1p receive 7m"
    summary = "Mirror Swap exchanges as many World cards as the smaller hand holds."

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        mine = game.hand(player)
        a = game.world_cards_in_hand(player)
        for target in game.players:
            if target == player:
                continue
            theirs = game.hand(target)
            k = min(a, game.world_cards_in_hand(target))
            # A hand the companion has not seen gives cards it cannot name.
            gives = [(UNSEEN,) * k] if game.unseen_in_hand(player) else list(combinations(mine, k)) if a > k else [mine]
            takes = [(UNSEEN,) * k] if game.unseen_in_hand(target) else list(combinations(theirs, k))
            for received in takes:
                for given in gives:
                    yield Play(player, self.card, target=target, given=tuple(given), received=tuple(received))

    def seen_plays(self, game: GameState, player: str, shown: Mapping[str, Sequence[Card]]) -> list[Play]:
        # Swapped cards change hands face down: a sensor sees who, not which.
        out = []
        for target in game.players:
            if target != player:
                k = min(game.world_cards_in_hand(player), game.world_cards_in_hand(target))
                out.append(Play(player, self.card, target=target, given=(UNSEEN,) * k, received=(UNSEEN,) * k))
        return out

    def check(self, game: GameState, move: Play) -> None:
        if move.target is None:
            raise IllegalMoveError("R22", "Mirror Swap needs a target player")
        game.player_seat(move.target)
        if move.target == move.player:
            raise IllegalMoveError("R22", "Mirror Swap names another player, not oneself")
        a = game.world_cards_in_hand(move.player)
        b = game.world_cards_in_hand(move.target)
        k = min(a, b)
        if len(move.given) != k or len(move.received) != k:
            raise IllegalMoveError(
                "R22", f"{move.player} holds {a} World cards and {move.target} {b}: exactly {k} change hands each way"
            )
        for who, cards in ((move.player, move.given), (move.target, move.received)):
            rest = list(game.hand(who))
            spare = game.unseen_in_hand(who)
            for card in cards:
                if card is UNSEEN:
                    # A face-down card changing hands, as a camera sees a swap.
                    if not spare:
                        raise IllegalMoveError("R22", f"{who} has no face-down World card to swap")
                    spare -= 1
                elif card in rest:
                    rest.remove(card)
                elif spare and isinstance(card, Card) and card.is_world and card in game.unlocated:
                    spare -= 1
                else:
                    raise IllegalMoveError("R22", f"{card} is not a World card in {who}'s hand")

    def effects(self, game: GameState, move: Play) -> Effects:
        assert move.target is not None
        exchanged: tuple[tuple[str, str, HandCard], ...] = (
            *((move.player, move.target, c) for c in move.given),
            *((move.target, move.player, c) for c in move.received),
        )
        return Effects(move.player, self.card, spent=(Spent(self.card, PLAYED, move.player),), exchanged=exchanged)

    def describe(self, move: Play, effects: Effects) -> str:
        k = len(move.given)
        return f" on {move.target}: {k} card{'s' if k != 1 else ''} change hands each way (R22)"


class Thief(FateRule):
    """R23: the player takes the top card of one opponent's capture stack into their own,
    where it becomes the top card; nothing when that stack is empty."""

    card = THIEF
    ruling = "R23"
    details = ("target", "stolen")
    example = "thief bob"
    summary = "The Thief takes the top card of an opponent's capture stack."

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        for p in _opponents(game, player):
            yield self.on(game, player, p)

    def on(self, game: GameState, player: str, target: str) -> Play:
        """The play on ``target``: what it steals follows from the table."""
        stack = game.stack(target)
        return Play(player, self.card, target=target, stolen=stack[-1] if stack else None)

    def check(self, game: GameState, move: Play) -> None:
        if move.target is None:
            raise IllegalMoveError("R23", "the Thief needs a target player")
        game.player_seat(move.target)
        if not game.setup.is_opponent(move.player, move.target):
            raise IllegalMoveError("R23", f"the Thief steals from an opponent; {move.target} is not one")
        stack = game.stack(move.target)
        top = stack[-1] if stack else None
        if move.stolen is not top:
            if top is None:
                raise IllegalMoveError("R23", f"{move.target}'s capture stack is empty: nothing can be stolen")
            raise IllegalMoveError(
                "R23", f"the top card of {move.target}'s capture stack is {top.id}, not {getattr(move.stolen, 'id', move.stolen)}"
            )

    def effects(self, game: GameState, move: Play) -> Effects:
        assert move.target is not None
        stolen = (move.target, move.stolen) if move.stolen is not None else None
        return Effects(move.player, self.card, spent=(Spent(self.card, PLAYED, move.player),), stolen=stolen)

    def describe(self, move: Play, effects: Effects) -> str:
        stolen = move.stolen.short if move.stolen else "nothing (empty stack)"
        return f" on {move.target}: steals {stolen} (R23)"


class Exorcist(FateRule):
    """R24: cannot be played while a Minion (a value-4 card) lies in the centre; when played,
    every Creature in the centre is discarded, and while it stays in play no Creature may be
    played. It leaves play as soon as anyone plays a value-4 World card, which removes every
    Exorcist in play."""

    card = EXORCIST
    ruling = "R24"
    example = "exorcist"
    summary = "No Creature may be played while an Exorcist is in play; the Exorcist cannot come out over a 4, and a 4 sends it away."

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        if not any(x.value == 4 for x in game.centre):
            yield Play(player, self.card)

    def check(self, game: GameState, move: Play) -> None:
        if any(x.value == 4 for x in game.centre):
            raise IllegalMoveError("R24", "the Exorcist cannot be played while a Minion (a 4) lies in the centre")

    def effects(self, game: GameState, move: Play) -> Effects:
        laid_by = list(game.centre_fate)
        spent = []
        for c in game.centre:
            if c.is_creature:
                # Whoever laid this copy (two players may each have a Warlock in the centre).
                who = next((p for p, x in laid_by if x is c), None)
                if who is not None:
                    laid_by.remove((who, c))
                spent.append(Spent(c, CENTRE, who))
        return Effects(move.player, self.card, in_front=((move.player, self.card),), spent=tuple(spent))

    def describe(self, move: Play, effects: Effects) -> str:
        gone = [s.card.title for s in effects.spent]
        if gone:
            return f": {', '.join(gone)} leave{'s' if len(gone) == 1 else ''} the centre; no Creature may be played (R24)"
        return ": no Creature may be played while it is in play (R24)"

    def touches(self, card: Card) -> bool:
        return card.is_creature or card.value == 4

    def forbids(self, game: GameState, card: Card) -> IllegalMoveError | None:
        if card.is_creature:
            return IllegalMoveError("R24", f"the Exorcist is in play: no Creature may be played ({card.title})")
        return None

    def reacts(self, game: GameState, card: Card) -> tuple[Spent, ...]:
        if card.is_world and card.value == 4:
            return tuple(Spent(self.card, FRONT, p) for p, c in game.in_play if c is EXORCIST)
        return ()


class Renewal(FateRule):
    """R25: the player takes the top card of the World deck into hand (nothing if the deck is
    empty); it must be played in the current deal like the others."""

    card = RENEWAL
    ruling = "R25"
    details = ("drawn",)
    example = "renewal 10d"
    summary = "Renewal draws the top card of the World deck into the hand."

    def plays(self, game: GameState, player: str) -> Iterator[Play]:
        if game.deck_count == 0:
            yield Play(player, self.card, drawn=None)
        elif not any(game.unseen_in_hand(p) for p in game.players):
            for x in sorted(game.unlocated):
                yield Play(player, self.card, drawn=x)
        else:
            yield Play(player, self.card, drawn=UNSEEN)

    def seen_plays(self, game: GameState, player: str, shown: Mapping[str, Sequence[Card]]) -> list[Play]:
        # The card is drawn face down from the top of the deck.
        return [Play(player, self.card, drawn=UNSEEN if game.deck_count else None)]

    def check(self, game: GameState, move: Play) -> None:
        if game.deck_count == 0:
            if move.drawn is not None:
                raise IllegalMoveError("R25", f"the World deck is empty: Renewal draws nothing, not {move.drawn}")
        elif move.drawn is None:
            raise IllegalMoveError("R25", f"the World deck still has {game.deck_count} cards: Renewal draws one")
        elif isinstance(move.drawn, Card) and move.drawn not in game.unlocated:
            raise IllegalMoveError("R25", f"{move.drawn} is not in the World deck{game.whereabouts(move.drawn)}")

    def effects(self, game: GameState, move: Play) -> Effects:
        return Effects(move.player, self.card, spent=(Spent(self.card, PLAYED, move.player),), drawn=move.drawn)

    def describe(self, move: Play, effects: Effects) -> str:
        if move.drawn is None:
            drawn = "nothing, the deck is empty"
        elif isinstance(move.drawn, Card):
            drawn = move.drawn.short
        else:
            drawn = "a card face down"
        return f": draws {drawn} (R25)"


#: Every Fate card's rule, by card.
FATE_RULES: dict[Card, FateRule] = {
    rule.card: rule
    for rule in (MysticCrystal(), Warlock(), Vampire(), DarkDecay(), MirrorSwap(), Thief(), Exorcist(), Renewal())
}


def fate_rule(card: Card) -> FateRule:
    """The rule of Fate card ``card`` (R3: unknown Fate cards are not supported)."""
    try:
        return FATE_RULES[card]
    except KeyError:
        raise IllegalMoveError("R3", f"{card.id} is not a Fate card this companion knows") from None


_NO_DETAILS = Play("", THIEF)[3:]
# For each card's details, the other details' places in a Play: those must stay empty.
_STRAY: dict[tuple[str, ...], tuple[tuple[int, str], ...]] = {
    allowed: tuple((Play._fields.index(name), name) for name in DETAILS if name not in allowed)
    for allowed in {(), *(rule.details for rule in FATE_RULES.values())}
}


def check_details(move: Play) -> None:
    """A play carries only the details its card's rule names (:data:`~companion.games.rule_of_power.engine.moves.DETAILS`):
    :class:`InvalidMoveError` for any other, and for a capture by a card that does not go to
    the centre."""
    card = move.card
    if move[3:] == _NO_DETAILS and (card.to_centre or not move.capture):
        return  # the common case: nothing beyond the card (and its capture)
    if card.to_centre:
        allowed: tuple[str, ...] = ()  # a capture, and nothing else
    elif move.capture:
        raise InvalidMoveError(f"{card.long_label} is not played to the centre, so it captures nothing")
    else:
        allowed = fate_rule(card).details
    for k, name in _STRAY[allowed]:
        if move[k] not in (None, ()):
            what = ", ".join(allowed) or "no details"
            raise InvalidMoveError(f"{card.long_label} takes no {name!r} (a play of it carries {what})")
