"""Driving Circle of Power's dashboard in tests with real key presses: what a scorekeeper
types for each event, the season dialog filled in field by field, a whole stretch of a game
kept by keyboard, and positions found in simulated games."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from textual.pilot import Pilot
from textual.widgets import Input

from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.settlement import Settlement
from companion.dashboard.widgets.event_log import EventLog
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import SUIT_SYMBOLS, Card
from companion.games.circle_of_power.dashboard.manual import automatic
from companion.games.circle_of_power.dashboard.screens.pick import PickScreen
from companion.games.circle_of_power.dashboard.screens.season import SeasonScreen
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import CircleSetup
from tests.dashboard.driving import until

__all__ = ["FORMS", "act_text", "card_text", "fill_season", "keep", "kept_by_hand", "pick_event", "positions", "type_line"]

FORMS: tuple[str, ...] = ("lower", "upper", "symbol", "spaced")
"""The ways a card is typed, taken in turn: ``7h``, ``7H``, ``7♥``, ``7 ♥``."""


def card_text(card: Card, form: str) -> str:
    """``card`` as a scorekeeper types it in ``form``; a joker as ``joker``."""
    if card.is_joker:
        return "joker"
    if form == "lower":
        return card.id.lower()
    if form == "symbol":
        return card.rank + SUIT_SYMBOLS[card.suit or "S"]
    if form == "spaced":
        return f"{card.rank.lower()} {SUIT_SYMBOLS[card.suit or 'S']}"
    return card.id


def act_text(state: CircleState, move: Move, by_number: bool) -> tuple[str, int | None]:
    """What is typed for the winner's act ``move`` in ``state``: its choice's number or its
    words; and the option to pick in the trophy list when one opens (1-based), else ``None``."""
    choices = state.choices()
    if by_number:
        for k, choice in enumerate(choices, 1):
            victim = state.seats[choice.victim] if choice.victim is not None else None
            if type(move) is Conquer and choice.act == "conquer" and victim == move.victim and bool(choice.keep) == move.keep:
                return str(k), None
            if type(move) is Retake and choice.act == "retake" and victim == move.victim:
                return str(k), _pick(state, move, lambda m: type(m) is Retake and m.victim == move.victim)
            if type(move) is Regroup and choice.act == "regroup":
                return str(k), _pick(state, move, lambda m: type(m) is Regroup)
        raise AssertionError(f"{move} is none of the choices {choices}")
    if type(move) is Conquer:
        return f"conquer {move.victim}" + (" keep" if move.keep else ""), None
    if type(move) is Retake:
        return f"retake {move.victim}" + (f" {move.discard.id.lower()}" if move.discard else ""), None
    assert type(move) is Regroup
    return "regroup" + (f" {move.discard.id}" if move.discard else ""), None


def _pick(state: CircleState, move: Move, same: Callable[[Move], bool]) -> int | None:
    options = [m for m in state.legal_moves if same(m)]
    return options.index(move) + 1 if len(options) > 1 else None


async def type_line(pilot: Pilot, text: str) -> None:
    """Type ``text`` into the focused field and press Enter. A suit symbol (``♥``) has no key
    of its own for the pilot: it goes in as a terminal's keyboard layout would put it."""
    for ch in text:
        if ch.isascii():
            await pilot.press("space" if ch == " " else ch)
        else:
            focused = pilot.app.focused
            assert isinstance(focused, Input), f"{ch!r} typed outside a field"
            focused.insert_text_at_cursor(ch)
            await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def fill_season(pilot: Pilot, app: DashboardApp, season: Season) -> None:
    """Type ``season``'s cities and bottom joker into the open season dialog, field by field
    (Enter goes to the next; on the last it starts the season)."""
    await until(lambda: isinstance(app.screen, SeasonScreen), "the season dialog")
    screen = app.screen
    assert isinstance(screen, SeasonScreen)
    assert screen.dealer == season.dealer and tuple(screen.seats) == season.seats, "the dialog offers the rules' dealer and seats"
    await until(lambda: getattr(screen.focused, "id", None) == "season-city-0", "the first city's field")
    await pilot.pause()
    cities = dict(season.cities)
    for name in screen.seats:
        await type_line(pilot, card_text(cities[name], "upper"))
    await type_line(pilot, season.bottom.id)


async def caught_up(app: DashboardApp, count: int) -> None:
    """The game has ``count`` events, and the companion's own moves that follow are made."""

    def done() -> bool:
        game = app.game
        return game is not None and len(game.move_stack) >= count and automatic(game) is None

    await until(done, f"event {count}")


async def keep(pilot: Pilot, app: DashboardApp, moves: Sequence[Move], *, stop: Callable[[CircleState], bool] = lambda s: False) -> int:
    """Keep ``moves`` (as a keyboard keeps them: :func:`kept_by_hand`) by keyboard from where the game stands (the companion's own moves,
    dummies' acts and the reshuffle among them, are not typed: they come by themselves), the
    cards in every form in turn, acts by number and by words in turn; each season's settlement
    read and closed; until ``stop`` holds or the moves run out. Returns how many events were
    typed."""
    game = app.game
    assert game is not None
    typed = 0
    forms = iter(FORMS * 1000)
    numbers = iter([True, False] * 1000)
    seen = len(game.move_stack)
    while len(game.move_stack) < len(moves) and not stop(game):
        index = len(game.move_stack)
        move = moves[index]
        if type(move) is Season:
            await fill_season(pilot, app, move)
        elif type(move) is Reveal or type(move) is Play:
            await type_line(pilot, card_text(move.card, next(forms)))
        else:
            text, pick = act_text(game, move, next(numbers))
            await type_line(pilot, text)
            if pick is not None:
                await until(lambda: isinstance(app.screen, PickScreen), "the list of trophies")
                await pilot.press(str(pick))
                await pilot.pause()
        typed += 1
        await caught_up(app, index + 1)
        for k in range(index, len(game.move_stack)):
            assert game.move_stack[k] == moves[k], f"event {k + 1}: {game.move_stack[k]} instead of {moves[k]}"
        await close_settlements(pilot, app, seen)
        seen = len(game.move_stack)
    return typed


async def close_settlements(pilot: Pilot, app: DashboardApp, since: int) -> None:
    """Read and close the settlement of a season that ended at event ``since`` or later."""
    assert app.session is not None
    if any(app.session.effects(k).result is not None for k in range(since, len(app.session.moves))):
        await until(lambda: isinstance(app.screen, Settlement), "the season's settlement")
        await pilot.press("a")
        await pilot.press("escape")
        await pilot.pause()


def kept_by_hand(moves: Sequence[Move]) -> list[Move]:
    from companion.games.circle_of_power.samples.generate import as_kept_by_hand

    return as_kept_by_hand(list(moves))


def positions(find: Callable[[CircleState], bool], *, players: Sequence[str] = ("ann", "bob", "cy"), variant: str = "basic", seeds: range = range(200)) -> Iterator[tuple[CircleSetup, list[Move]]]:
    """Positions of simulated games where ``find`` holds: the set-up and the moves to there,
    as a keyboard would have kept them."""
    for seed in seeds:
        setup, moves = simulate(players, variant, seed=seed)
        state = GAME.new_state(setup, keep_history=False)
        for k, move in enumerate(moves):
            if find(state):
                yield setup, kept_by_hand(moves[:k])
                break
            state.push(move, check=False)


async def pick_event(pilot: Pilot, app: DashboardApp, index: int) -> None:
    """Pick event ``index`` in the event log (F6, Enter) to correct it."""
    await pilot.press("f6")
    log = app.screen.query_one(EventLog)
    log.highlighted = next(i for i, e in enumerate(log.entries) if e.index == index)
    await pilot.press("enter")
    await pilot.pause()
