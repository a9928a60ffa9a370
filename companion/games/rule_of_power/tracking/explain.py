"""Explaining a change on the table by the rules: which sequences of legal moves, from the
game's position, leave the table looking exactly as the sensors see it.

A sequence is a few moves nobody can see (a Fate card drawn, a pass by a player holding only
Fate cards) followed by one move the table shows (a card in the centre, cards taken from it, a
Fate card laid in front of its owner). Every sequence found is legal; none is applied here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, Pass, Play
from companion.games.rule_of_power.tracking.table import expected_zones, spent_keys
from companion.tracker.view import Key, TableView, Zones, difference, same, without

__all__ = [
    "Explanation",
    "TableReading",
    "explain",
    "visible_candidates",
    "fate_plays",
    "matches",
    "describe_moves",
    "forced_move",
    "push_forced",
]


@dataclass(frozen=True, slots=True)
class Explanation:
    moves: tuple[Move, ...]
    inferred: bool = False
    """The capturing card was never seen: the rules allow this move, but only the table can
    say it happened (a hand over the centre looks the same)."""

    @property
    def visible(self) -> Move:
        return self.moves[-1]

    def describe(self) -> str:
        return describe_moves(self.moves)


def matches(game: GameState, observed: Zones, lingering: Zones | None = None) -> bool:
    """Whether the table, less the cards allowed to linger, looks as ``game`` expects."""
    obs = without(observed, lingering) if lingering else observed
    return same(expected_zones(game), obs)



def _merge(a: Zones | None, b: Zones) -> Zones:
    out: Zones = {z: Counter(c) for z, c in (a or {}).items()}
    for zone, cards in b.items():
        out[zone] = out.get(zone, Counter()) + cards
    return out


def possible_cards(game: GameState, player: str) -> list[Card]:
    """The cards ``player`` may hold, as far as the game knows: known ones, and any unlocated
    World card while some of their cards are face down."""
    cards = list(dict.fromkeys(game.hand(player)))
    if game.unseen_in_hand(player):
        cards.extend(sorted(game.unlocated))
    cards.extend(dict.fromkeys(c for c in game.fate_hand(player) if c.to_centre))
    return cards


def visible_candidates(game: GameState, observed: Zones, shown: Sequence[Key], lingering: Zones | None = None) -> list[Move]:
    """Moves of the player to move that could make the table look as observed. ``shown`` lists
    the physical cards (card, owner) seen in the centre since the last move was applied."""
    obs = without(observed, lingering) if lingering else observed
    extra, missing = difference(expected_zones(game), obs)
    if game.phase is Phase.DEAL:
        return _first_deal(game, extra, missing, shown)
    if game.phase is not Phase.TURN:
        return []
    me = game.turn
    assert me is not None
    out = _laid(me, extra, missing, shown) + _captures(game, me, extra, missing, shown)
    # Fate cards laid in front of the player.
    for x in extra.get(f"fate:{me}", Counter()):
        out.extend(fate_plays(game, me, x, extra))
    return [m for m in out if game.is_legal(m)]


def _first_deal(game: GameState, extra: Zones, missing: Zones, shown: Sequence[Key]) -> list[Move]:
    """A round's first deal as a camera sees it (R15): four cards laid in the centre, in the
    order shown, the hands face down."""
    centre = extra.get("centre", Counter())
    if game.deal_number != 0 or sum(centre.values()) != 4 or missing:
        return []
    shown_order = [c for c, _ in shown if centre[c]]
    rest = sorted(set(centre) - set(shown_order))
    return [Deal(game.unseen_deal().hands, tuple(dict.fromkeys(shown_order + rest)))]


def _owned(me: str, card: Card, shown: Sequence[Key]) -> bool:
    """A Fate card carries its owner's seal: only its owner plays it (a World card, anyone)."""
    return not card.is_fate or any(c is card and o == me for c, o in shown)


def _laid(me: str, extra: Zones, missing: Zones, shown: Sequence[Key]) -> list[Move]:
    """A card lies in the centre that the game does not have there: played, capturing nothing.
    Several: the table ran ahead of the camera, and the first laid is played first."""
    centre_extra = extra.get("centre", Counter())
    if not centre_extra or missing.get("centre"):
        return []
    if sum(centre_extra.values()) == 1:
        (card,) = centre_extra
    else:
        found = next((c for c, _ in shown if centre_extra[c]), None)
        if found is None:
            return []
        card = found
    return [Play(me, card)] if _owned(me, card, shown) else []


def _captures(game: GameState, me: str, extra: Zones, missing: Zones, shown: Sequence[Key]) -> list[Move]:
    """A card shown in the centre has gone, and centre cards with it: a capture (R4, R5). Other
    cards may already lie there (the table may have run ahead of the camera); copies are
    counted, since two players' Warlocks may both have been shown."""
    centre_missing = missing.get("centre", Counter())
    if not centre_missing:
        return []
    centre_extra = extra.get("centre", Counter())
    taken = tuple(sorted(centre_missing.elements(), key=lambda c: c.index))
    shown_cards = [c for c, _ in shown]
    capturers = [
        x
        for x in dict.fromkeys(shown_cards)
        if x.to_centre and _owned(me, x, shown) and shown_cards.count(x) > game.centre.count(x) + centre_extra[x]
    ]
    out: list[Move] = []
    for x in capturers:
        out.append(Play(me, x, taken))
        # Or laid without capture, and taken since by a play laid after it.
        out.append(Play(me, x))
        # Or only part of what left: the rest was taken by a play laid after it (a table
        # that ran ahead of the camera), which the search looks for next.
        for option in game.capture_options(x):
            if len(option) < len(taken) and not Counter(option) - centre_missing:
                out.append(Play(me, x, tuple(sorted(option, key=lambda c: c.index))))
    if not capturers and not centre_extra:
        # The capturing card was never seen: whichever card the player may hold takes them.
        out.extend(Play(me, x, taken) for x in possible_cards(game, me))
    return out


def fate_plays(game: GameState, me: str, card: Card, extra: Zones) -> list[Move]:
    """The plays of Fate card ``card`` a table sensor could have seen, given the cards laid in
    front of each player (``extra``): the card's rule says which (R19-R25). A World card laid
    in front of a player is a discard, never a play of its own."""
    if not card.is_fate or card.to_centre:
        return []
    shown = {z.partition(":")[2]: list(cards.elements()) for z, cards in extra.items() if z.startswith("fate:")}
    shown[me] = [c for c in shown.get(me, []) if c is not card]
    return list(fate_rule(card).seen_plays(game, me, shown))


def _silent_moves(game: GameState, draws_visible: bool) -> list[Move]:
    """Moves the camera cannot see, open to the player to move."""
    me = game.turn
    if me is None:
        return []
    out: list[Move] = []
    if not game.world_cards_in_hand(me) and game.hand_size(me):
        out.append(Pass(me))  # holding only Fate cards, they may pass (R17)
    if not draws_visible:
        draw = DrawFate(me)
        if game.is_legal(draw):
            out.append(draw)
    return out


def forced_move(game: GameState, *, hands_unseen: bool) -> Move | None:
    """The move the rules leave no choice about, needing nothing seen: a pass by a player
    holding nothing (R17), and, while hands are dealt face down, every deal after the first."""
    if game.phase is Phase.TURN:
        me = game.turn
        assert me is not None
        if game.hand_size(me) == 0:
            return Pass(me)
    elif game.phase is Phase.DEAL and hands_unseen and game.deal_number > 0:
        return game.unseen_deal()
    return None


def push_forced(game: GameState, *, hands_unseen: bool) -> int:
    """Push forced moves on ``game``; returns how many."""
    n = 0
    while True:
        move = forced_move(game, hands_unseen=hands_unseen)
        if move is None:
            return n
        game.push(move)
        n += 1


@dataclass(frozen=True)
class TableReading:
    """What the table showed, as the search reads it.

    - ``view``: the cards face up; ``spent``: physical cards put out of play this round, which
      may still lie there a moment; ``lingering``: cards of a finished round left until the
      table is cleared (R6, R18).
    - ``shown``: the physical cards seen laid in the centre since the last move applied, in
      the order they were laid.
    - ``vanished``: cards shown in the centre that have left it unexplained (a capture whose
      taken cards the camera has not yet reported gone): a move of one of them, or of the
      first of several cards ``in_order`` (a card the camera named late, after the cards laid
      after it), may be followed by up to ``chain`` more visible moves, so that a table that
      ran ahead of the camera is caught up.
    - ``laid_at``, ``left_at``: when cards were seen laid in the centre and leaving it (counted
      in observations): a move that follows takes no card that left the centre before its own
      card was laid. ``in_order``: cards that must be played in that order, none skipped.
    - ``announced``: players whose Fate draws were announced and not yet applied: each draws as
      soon as their turn comes, or (``after_own``: announced during their own move) at their
      next turn after a play of theirs.
    """

    view: TableView
    shown: Sequence[Key] = ()
    spent: frozenset[Key] = frozenset()
    lingering: Zones | None = None
    vanished: frozenset[Card] = frozenset()
    chain: int = 1
    laid_at: Mapping[Card, int] = field(default_factory=dict)
    left_at: Mapping[Card, int] = field(default_factory=dict)
    in_order: Sequence[Card] = ()
    announced: Sequence[str] = ()
    after_own: frozenset[str] = frozenset()


def explain(game: GameState, table: TableReading, *, draws_visible: bool = False, hands_unseen: bool = True, max_silent: int | None = None) -> list[Explanation]:
    """Every sequence of legal moves from ``game``'s position after which the table looks
    exactly as the game expects, forced moves included as the rules apply them; shortest
    first. More than one means the table must say which.

    A sequence is up to ``max_silent`` (default: one round of the table) moves nobody sees (a
    pass, and, unless ``draws_visible``, a Fate draw) followed by a move the table shows, and,
    after a card that ``vanished``, up to ``table.chain`` more shown moves (:class:`TableReading`)."""
    search = _Search(game, table, draws_visible=draws_visible, hands_unseen=hands_unseen)
    search.run([], 0, set(table.spent), table.lingering, 0, 0, len(game.players) if max_silent is None else max_silent)
    found = search.found
    if any(not e.inferred for e in found):
        # A capture by a card seen in the centre beats one by a card nobody saw.
        found = [e for e in found if not e.inferred]
    unique = {e.moves: e for e in found}
    return sorted(unique.values(), key=lambda e: len(e.moves))


class _Search:
    """The depth-first search of :func:`explain`, on a copy of the game it pushes and pops."""

    def __init__(self, game: GameState, table: TableReading, *, draws_visible: bool, hands_unseen: bool) -> None:
        self.work = game.copy()
        self.table = table
        self.draws_visible = draws_visible
        self.hands_unseen = hands_unseen
        self.found: list[Explanation] = []

    def run(self, prefix: list[Move], silent: int, spent_now: set[Key], allowed_now: Zones | None, depth: int, drawn: int, limit: int) -> None:
        work = self.work
        pushed, drawn = self._forced_and_announced(prefix, drawn)
        path = prefix + list(work.move_stack[len(work.move_stack) - pushed :])
        for move in visible_candidates(work, self.table.view.zones(spent_now), self.table.shown, allowed_now):
            self._try(move, path, silent, spent_now, allowed_now, depth, drawn, limit)
        if silent < limit:
            for move in _silent_moves(work, self.draws_visible):
                work.push(move)
                self.run(path + [move], silent + 1, spent_now, allowed_now, depth, drawn, limit)
                work.pop()
        for _ in range(pushed):
            work.pop()

    def _forced_and_announced(self, prefix: list[Move], drawn: int) -> tuple[int, int]:
        """Push what the rules force, and each announced draw whose player's turn has come (a
        draw announced before the camera saw the moves before it); returns how many moves were
        pushed and how many announced draws are now made."""
        work = self.work
        announced = self.table.announced
        pushed = push_forced(work, hands_unseen=self.hands_unseen)
        while drawn < len(announced) and work.phase is Phase.TURN and work.turn == announced[drawn] and (
            announced[drawn] not in self.table.after_own or any(isinstance(m, Play) and m.player == announced[drawn] for m in prefix)
        ):
            draw = DrawFate(announced[drawn])
            if not work.is_legal(draw):
                break
            work.push(draw)
            drawn += 1
            pushed += 1 + push_forced(work, hands_unseen=self.hands_unseen)
        return pushed, drawn

    def _try(self, move: Move, path: list[Move], silent: int, spent_now: set[Key], allowed_now: Zones | None, depth: int, drawn: int, limit: int) -> None:
        """``move`` after ``path``: an explanation when the table then looks as expected, or,
        after a vanished card, the start of a chain the search follows."""
        work, table = self.work, self.table
        inferred = isinstance(move, Play) and bool(move.capture) and all(c is not move.card for c, _ in table.shown)
        if depth > 0 and (inferred or _out_of_order(move, path, table.laid_at, table.left_at, table.in_order)):
            return  # a table caught up is caught up with cards seen, in the order seen
        rounds = len(work.results)
        used = spent_keys(work, move, table.view)
        work.push(move)
        allowed = allowed_now
        if len(work.results) > rounds:
            # The move ended the round: its leftover and the Fate cards in play may lie there
            # until the table is cleared (R6, R18).
            left: Zones = {"centre": Counter(work.results[-1].leftover)}
            for p, c in work.in_play:
                left.setdefault(f"fate:{p}", Counter())[c] += 1
            allowed = _merge(allowed_now, left)
        after = spent_now | used
        if matches(work, table.view.zones(after), allowed):
            self.found.append(Explanation(tuple(path + [move]), inferred))
        elif depth < table.chain and (depth > 0 or (isinstance(move, Play) and (move.card in table.vanished or _ahead(move.card, table.in_order)))):
            self.run(path + [move], silent, after, allowed, depth + 1, drawn, limit)
        work.pop()


def _ahead(card: Card, in_order: Sequence[Card]) -> bool:
    """Whether ``card`` is the first of several cards to be played in the order laid: the
    table ran ahead of the camera (a card named late, the cards laid after it already seen),
    and the plays after it follow it."""
    return len(in_order) > 1 and in_order[0] is card


def _out_of_order(
    move: Move, before: Sequence[Move], laid_at: Mapping[Card, int], left_at: Mapping[Card, int], in_order: Sequence[Card]
) -> bool:
    """Whether ``move``, following the moves ``before``, breaks the order the table showed
    things in: a card of ``in_order`` skipped, its card laid before the card of an earlier
    play, or a card it takes seen leaving the centre before its own card was laid."""
    if not isinstance(move, Play):
        return False
    if move.card in in_order:
        played = {m.card for m in before if isinstance(m, Play)}
        if next((c for c in in_order if c not in played), None) is not move.card:
            return True
    if move.card not in laid_at:
        return False
    laid = laid_at[move.card]
    earlier = [laid_at[m.card] for m in before if isinstance(m, Play) and m.card in laid_at]
    if earlier and laid < max(earlier):
        return True
    return any(c in left_at and left_at[c] < laid for c in move.capture if isinstance(c, Card))


def describe_moves(moves: Iterable[Move]) -> str:
    """A sequence of moves in words: "ann draws a Fate card, then bob plays W012"."""
    parts = []
    for m in moves:
        if isinstance(m, Play):
            text = f"{m.player} plays {m.card.long_label}"
            if m.capture:
                text += " taking " + " + ".join(c.label for c in m.capture)
            if m.target:
                text += f" on {m.target}"
            if m.discards:
                text += " (" + ", ".join(f"{p} discards {c.label}" for p, c in m.discards) + ")"
            parts.append(text)
        elif isinstance(m, DrawFate):
            parts.append(f"{m.player} draws a Fate card")
        elif isinstance(m, Pass):
            parts.append(f"{m.player} passes")
        elif isinstance(m, Deal):
            parts.append("the cards are dealt" + (f", centre {', '.join(c.label for c in m.centre)}" if m.centre else ""))
        else:
            parts.append("a new round")
    return ", then ".join(parts)
