"""The Rule of Power game state: seating, deals, turns, hands, the centre, capture stacks,
Fate cards, and the scores of finished rounds.

Like a chess board, a :class:`GameState` takes moves with :meth:`GameState.push` (checked
against every rule; an illegal move raises :class:`IllegalMoveError` naming the rule) and
takes them back with :meth:`GameState.pop`, restoring the state exactly.

The state can follow a game it cannot fully see: a hand dealt face down holds
:data:`~companion.games.rule_of_power.engine.moves.UNSEEN` cards, which become known as they are played; a Fate deck's
order can be unknown. Every rule that needs no hidden card is still checked.

This module holds the moves' way in and out (``push`` with its fast path for the common
World card, ``pop``, ``apply``, the legal moves); each part of the rules is a module of its
own, of which :class:`GameState` is made:

- :mod:`.setup`: the seating, the teams, the target, the expansion (R2, R14, R16);
- :mod:`.position`: the phases, the position copied on every push;
- :mod:`.reading`: the position read (hands, centre, stacks, Fate cards in play, totals);
- :mod:`.dealing`: new rounds and deals (R15, R18);
- :mod:`.turns`: whose turn it is, drawing a Fate card, passing, a play checked (R17);
- :mod:`.plays`: what a card played does (R4-R7, R19-R25);
- :mod:`.rounds`: the end of a round and of the game (R6, R8-R14);
- :mod:`.hidden`: a player's view, and the hidden cards placed.

>>> game = GameState(GameSetup(("ann", "bob")))
>>> game.push(NewRound("bob"))
>>> game.push(Deal.make({"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]},
...                     ["W004", "W024", "W038", "W009"]))
>>> game.turn
'ann'
>>> sorted(" ".join(c.id for c in m.capture) for m in game.legal_moves if m.card.id == "W012")
['']
>>> game.push(Play.from_ids("ann", "W012"))
>>> game.push(Play.from_ids("bob", "W016"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: R4: Servant of Men (6) played by bob: the 6 can capture, so it must (take 4P W004 + 2M W012 or 4E W024 + 2M W012)
>>> game.push(Play.from_ids("bob", "W016", ["W024", "W012"]))
>>> [c.id for c in game.stack("bob")]
['W024', 'W012', 'W016']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from companion.games.rule_of_power.engine.captures import has_capture
from companion.games.rule_of_power.engine.cards import DARK_DECAY, RENEWAL, Card, world_deck
from companion.games.rule_of_power.engine.dealing import FATE_DECK_SIZE, Dealing, deal_from, deal_sizes
from companion.games.rule_of_power.engine.effects import Effects
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.state import TurnBased
from companion.games.rule_of_power.engine.fate import FATE_RULES, fate_rule
from companion.games.rule_of_power.engine.hidden import Hidden
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Pass, Play
from companion.games.rule_of_power.engine.plays import Plays, _is_sum_capture, _lay_in_centre
from companion.games.rule_of_power.engine.position import _TURN, Phase, _Core
from companion.games.rule_of_power.engine.reading import Reading
from companion.games.rule_of_power.engine.rounds import Outcome, RoundResult, Rounds, Termination
from companion.games.rule_of_power.engine.setup import GameSetup
from companion.games.rule_of_power.engine.turns import _NO_DETAILS, Turns

if TYPE_CHECKING:
    from companion.games.rule_of_power import RuleOfPower

__all__ = [
    "GameSetup",
    "GameState",
    "Phase",
    "IllegalMoveError",
    "InvalidMoveError",
    "RoundResult",
    "Outcome",
    "Termination",
    "deal_sizes",
    "deal_from",
    "FATE_DECK_SIZE",
]

_NOTHING = Effects(None)
_TOUCHED: dict[tuple[tuple[int, Card], ...], frozenset[Card]] = {}
"""The World cards that the Fate cards in play touch (FateRule.touches), remembered: the rules
never change, and the fast path asks for every World card played."""


def _touched_by(in_play: tuple[tuple[int, Card], ...]) -> frozenset[Card]:
    touched = _TOUCHED.get(in_play)
    if touched is None:
        rules = {FATE_RULES[card] for _, card in in_play}
        touched = _TOUCHED[in_play] = frozenset(x for x in world_deck(True) if any(r.touches(x) for r in rules))
    return touched


class GameState(Reading, Dealing, Turns, Plays, Rounds, Hidden, TurnBased[Move]):
    """A game of Rule of Power in progress.

    Read it through properties (``phase``, ``turn``, ``dealer``, ``centre``, ``hand(p)``,
    ``stack(p)``, ``legal_moves``, ``results``, ``totals``, ``outcome()``), change it with
    :meth:`push` and :meth:`pop`. ``keep_history=False`` drops the undo stack for fast
    one-way replays.
    """

    def __init__(self, setup: GameSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self._n = len(setup.players)
        self._seat = {p: i for i, p in enumerate(setup.players)}
        self._touched_in_play: tuple[tuple[int, Card], ...] = ()
        self._touched: frozenset[Card] = frozenset()
        self._side_index = [setup.sides.index(setup.side_of(p)) for p in setup.players]
        self._deck = world_deck(setup.expansion)
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[_Core] = []
        self._core = _Core.before_first_round(self._n, len(setup.sides))

    @property
    def game(self) -> RuleOfPower:
        """Rule of Power, the game this is a state of."""
        return self.setup.game

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move, as a lazy view (``move in
        game.legal_moves``, ``bool(...)``, ``.count()``). Cards still face down are not
        listed; check such a move with :meth:`is_legal`. Between deals and rounds there are
        no moves: the table deals (:class:`Deal`) or starts a round (:class:`NewRound`)."""
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        c = self._core
        if c.phase is not Phase.TURN:
            return
        i = c.turn
        me = self.players[i]
        seen: set[Card] = set()
        for card in c.hands[i] + c.fate_hands[i]:
            if card in seen or (c.in_play and self._forbidden(card) is not None):
                continue
            seen.add(card)
            if card.to_centre:
                yield from self._centre_plays(me, card)
            else:
                yield from fate_rule(card).plays(self, me)
        holds_world = bool(c.hands[i]) or c.hidden[i] > 0
        if holds_world and not c.drew_fate[i] and len(c.fate_decks[i]) - c.fate_hidden[i] > 0:
            yield DrawFate(me)
        if not holds_world:
            yield Pass(me)

    def decision(self, move: Move) -> tuple[str, str | None, tuple[str, ...], str | None]:
        """What the player chose in ``move``, without what chance or others settle: the card
        a Renewal draws (R25) and what each opponent discards to a Dark Decay (R21) are not
        the player's; which card, which capture and which target are."""
        if type(move) is Play:
            card = move.card
            if card is RENEWAL or card is DARK_DECAY:
                return ("play", card.id, (), None)
            return ("play", card.id, tuple(sorted(c.id for c in move.capture)), move.target)
        return (type(move).__name__.lower(), None, (), None)

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` (with the rule) if ``move`` is not legal now."""
        self._check(move)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``. With ``check`` (the default) it is validated first and an
        :class:`IllegalMoveError` names the rule it breaks, leaving the state unchanged;
        ``check=False`` is the fast path for moves known to be legal (from
        :attr:`legal_moves`)."""
        if type(move) is Play:
            if move.card.is_world and self._push_world_card(move, check):
                return
            if check:
                self._check_turn(move.player, "play")
                self._check_play(move)
            # Only a play needs its effects worked out to be carried out.
            effects = self._play_effects(move)
        else:
            if check:
                self._check(move)
            effects = _NOTHING
        if self._keep:
            self._stack.append(self._core)
            self._core = self._core.copy()
            self.move_stack.append(move)
        self._carry_out(move, effects)

    def apply(self, move: Move) -> Effects:
        """Check and push ``move`` like :meth:`push`, and tell what it did (the round it
        ended included)."""
        self._check(move)
        effects = self._effects(move)
        rounds = len(self._core.results)
        self._save(move)
        self._carry_out(move, effects)
        if len(self._core.results) > rounds:
            effects = effects._replace(round_result=self._core.results[-1])
        return effects

    def effects(self, move: Move) -> Effects:
        """What ``move`` would do now, without doing it (checked like :meth:`push`)."""
        self._check(move)
        return self._effects(move)

    def _save(self, move: Move) -> None:
        if self._keep:
            self._stack.append(self._core)
            self._core = self._core.copy()
            self.move_stack.append(move)

    def _push_world_card(self, move: Play, check: bool) -> bool:
        """The most common move, a World card from a known hand that no Fate card in play
        touches (R5, R24), checked and applied in one pass. Returns ``False``, having
        changed nothing, for anything else, which the general path then checks and applies
        (with its messages). A property test keeps the two paths in agreement."""
        c = self._core
        i = self._seat.get(move.player)
        card = move.card
        if i is None or i != c.turn or c.phase is not _TURN:
            return False
        in_play = c.in_play
        if in_play:
            if in_play is not self._touched_in_play:  # the last answer stands while in play is unchanged
                self._touched_in_play = in_play
                self._touched = _touched_by(in_play)
            if card in self._touched:
                return False
        hand = c.hands[i]
        try:
            k = hand.index(card)
        except ValueError:
            return False
        capture = move.capture
        if check:
            n = len(capture)
            if move[3:] != _NO_DETAILS:
                return False
            centre = c.centre
            value = card.value
            assert value is not None  # every World card has one (R1)
            if n == 0:
                if has_capture(centre, value):
                    return False
            elif n == 1:
                if capture[0].value != value or capture[0] not in centre:
                    return False
            elif not _is_sum_capture(centre, value, capture):
                return False
        if self._keep:
            self._stack.append(c)
            c = self._core = c.copy()
            self.move_stack.append(move)
        c.hands[i] = hand[:k] + hand[k + 1 :]
        _lay_in_centre(c, i, card, capture, True)
        self._next_turn()
        return True

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly as it was before it."""
        if not self._keep:
            raise IndexError("pop: this game was created with keep_history=False")
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._core = self._stack.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def before(self, ply: int) -> GameState:
        """A copy of the position as it was before ``move_stack[ply]`` (its move stack empty),
        this state left as it is: what the table looked like when that move was made."""
        if not self._keep:
            raise IndexError("before: this game was created with keep_history=False")
        return self._at(self._stack[ply], False)

    def copy(self, *, keep_history: bool = True) -> GameState:
        """An independent copy of the current position, for trying moves out (push and pop
        on it); its move stack starts empty."""
        return self._at(self._core, keep_history)

    def _at(self, core: _Core, keep_history: bool) -> GameState:
        """An independent copy of this game at the position ``core``, its move stack empty."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        new._core = core.copy()
        return new

    # ------------------------------------------------------------------ one method per kind of move

    def _check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` naming the ruling if ``move`` is not legal now, and
        :class:`InvalidMoveError` if it is no move at all: one check per kind of move."""
        if type(move) is Play:
            self._check_turn(move.player, "play")
            self._check_play(move)
        elif type(move) is DrawFate:
            self._check_draw_fate(move)
        elif type(move) is Pass:
            self._check_pass(move)
        elif type(move) is Deal:
            self._check_deal(move)
        elif type(move) is NewRound:
            self._check_round(move)
        else:
            raise InvalidMoveError(f"not a move: {move!r}")

    def _effects(self, move: Move) -> Effects:
        """What a (checked) move does: the rules of the card played decide (R4-R7, R19-R25)."""
        if type(move) is Play:
            return self._play_effects(move)
        if type(move) is DrawFate:
            return Effects(move.player, drew_fate=True)
        if type(move) is Pass:
            return Effects(move.player)
        return Effects(None)

    def _carry_out(self, move: Move, fx: Effects) -> None:
        """Change the state as ``fx`` says ``move`` does: one method per kind of move."""
        if type(move) is Play:
            self._carry_out_play(move, fx)
        elif type(move) is DrawFate:
            self._carry_out_draw_fate(move)
        elif type(move) is Pass:
            self._carry_out_pass(move)
        elif type(move) is Deal:
            self._carry_out_deal(move)
        elif type(move) is NewRound:
            self._carry_out_round(move)

    def __repr__(self) -> str:
        c = self._core
        return (
            f"<GameState {'/'.join(self.players)} round {c.round_no} deal {c.deal_no} "
            f"{c.phase.value}{' ' + self.players[c.turn] if c.phase is Phase.TURN else ''}>"
        )


class LegalMoves:
    """A lazy view of the legal moves (python-chess style)."""

    __slots__ = ("_game",)

    def __init__(self, game: GameState) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        return self._game.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, (Play, DrawFate, Pass)) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"
