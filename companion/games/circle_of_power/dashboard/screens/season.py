"""Setting up a season (C4-C7): the dealer and the seats as the rules expect them, each
emperor's city as dealt, and the joker at the bottom of the city deck. Hands and the dummies'
piles are dealt face down: the dialog asks for none of them (a player tells their own hand
privately afterwards, F8: :mod:`..told`).

The dealer and the seats come filled in: for the first season the companion's proposal (the
first dealer chosen, the players in their order and the dummies placed as C4 wants), from then
on what the rules make them (C4: a single dummy moves one seat counter-clockwise, a knocked-out
player's seat goes to a new dummy; C5: the deal passes clockwise). The table may change them;
the game checks what it is given, and a set-up the rules refuse is explained in the dialog.
"""

from __future__ import annotations

import random
import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from companion.dashboard.screens.form import Form
from companion.games.circle_of_power.cards import CARDS, CITY_DECK, JOKERS, Card
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Season
from companion.games.circle_of_power.dashboard.entry import EntryError, parse_card
from companion.games.circle_of_power.dashboard.tablesetup import first_seats
from companion.games.circle_of_power.dashboard.words import explain_refusal
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.circle_of_power.dashboard.screens import TCSS

__all__ = ["SeasonScreen", "parse_season", "proposed_seats", "shuffled_cities"]


def proposed_seats(state: CircleState) -> tuple[str, ...]:
    """The seats of the next season: as C4 places them, or for the first the companion's
    proposal."""
    return state.expected_seats() or first_seats(state.setup)


def proposed_dealer(state: CircleState, first_dealer: str | None) -> str:
    """The next season's dealer (C5): the next player clockwise, or the first dealer chosen."""
    return state.expected_dealer() or first_dealer or state.players[0]


def _names(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text.strip()) if w]


def parse_season(state: CircleState, dealer: str, seats: str, cities: dict[str, str], bottom: str) -> Season:
    """The season typed in the dialog, checked against the rules (C4-C6): :class:`EntryError`
    for text that names no card, :class:`IllegalMoveError` naming the ruling."""
    names = _names(seats)
    # A bottom joker typed by name is taken first: a city typed "joker" is then the other one.
    typed_bottom = bottom.strip() if bottom.strip().lower() not in ("", "joker") else ""
    low = parse_card(typed_bottom) if typed_bottom else None
    found: dict[str, Card] = {}
    taken: tuple[Card, ...] = (low,) if low is not None else ()
    for name, text in cities.items():
        if not text.strip():
            raise EntryError(f"{name}'s city is missing: type the card dealt face up to {name} (KH, QS, joker)")
        try:
            card = CARDS.parse_many([*(c.id for c in taken), text])[-1]
        except UnknownCardError as exc:
            raise EntryError(f"{name}'s city: {exc}") from None
        found[name] = card
        taken += (card,)
    if low is None:
        free = [j for j in JOKERS if j not in found.values()]
        low = free[-1] if free else JOKERS[-1]
    move = Season.make(dealer.strip(), names, found, low)
    state.check(move)
    return move


def shuffled_cities(seats: tuple[str, ...], rng: random.Random) -> tuple[dict[str, Card], Card]:
    """A shuffle of the city deck (C6): one joker at the bottom, a city for each emperor."""
    bottom = rng.choice(JOKERS)
    rest = [c for c in CITY_DECK if c is not bottom]
    rng.shuffle(rest)
    return dict(zip(seats, rest)), bottom


class SeasonScreen(Form[Season | None]):
    """The set-up of the next season of ``state`` (or, correcting, of the season ``given``)."""

    CSS_PATH = TCSS

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+r", "shuffle", "Shuffle the cities for me"),
        Binding("ctrl+s", "start", "Start the season"),
    ]
    ERROR = "season-error"

    def __init__(self, state: CircleState, *, first_dealer: str | None = None, rng: random.Random | None = None, given: Season | None = None) -> None:
        super().__init__()
        self.state = state
        self.rng = rng or random.Random()
        self.given = given
        self.seats = given.seats if given is not None else proposed_seats(state)
        self.dealer = given.dealer if given is not None else proposed_dealer(state, first_dealer)

    def compose(self) -> ComposeResult:
        state = self.state
        number = state.season_number + 1
        why = "the table chose the first dealer (C5); the dummies sit as C4 places them" if state.season_number == 0 else "the dealer and the seats as the rules place them (C4, C5)"
        cities = dict(self.given.cities) if self.given is not None else {}
        with Vertical():
            yield Static(Text(f"Season {number}: set up the table; {why}", style="bold"))
            yield Static(
                "Deal each emperor a city face up and lay one joker face up at the bottom of the city deck; "
                "players get 3 battle cards, dummies 9, face down (C6). Type each city (KH, QS, joker). "
                "Once the season starts, a player who wants the coach's hints (F7) tells the companion their own hand "
                "with F8, privately: it is never shown.",
                classes="hint",
            )
            with VerticalScroll():
                with Horizontal(classes="row"):
                    yield Label("dealer")
                    yield Input(self.dealer, id="season-dealer", compact=True)
                with Horizontal(classes="row"):
                    yield Label("seats clockwise")
                    yield Input(", ".join(self.seats), id="season-seats", compact=True)
                for k, name in enumerate(self.seats):
                    with Horizontal(classes="row"):
                        yield Label(f"{name}'s city")
                        card = cities.get(name)
                        yield Input(card.id if card is not None else "", placeholder="KH, QS, joker ...", id=f"season-city-{k}", compact=True)
                with Horizontal(classes="row"):
                    yield Label("bottom joker")
                    bottom = self.given.bottom.id if self.given is not None else ""
                    yield Input(bottom, placeholder="blank: the joker no emperor holds (X2 if neither)", id="season-bottom", compact=True)
            yield Static("", id="season-error")
            with Horizontal(id="season-buttons"):
                yield Button("Shuffle for me", id="shuffle", compact=True)
                yield Button("Start", variant="primary", id="start", compact=True)
            yield Static("Enter: next field  Ctrl+S: start  Ctrl+R: shuffle the cities for me  Esc: cancel", classes="keys")

    def on_mount(self) -> None:
        first = self.query_one("#season-city-0", Input)
        first.focus()

    def _cities(self) -> dict[str, str]:
        return {name: self.query_one(f"#season-city-{k}", Input).value for k, name in enumerate(self.seats)}

    def action_shuffle(self) -> None:
        """The companion shuffles the city deck and deals the cities (C6)."""
        cities, bottom = shuffled_cities(self.seats, self.rng)
        for k, name in enumerate(self.seats):
            self.query_one(f"#season-city-{k}", Input).value = cities[name].id
        self.query_one("#season-bottom", Input).value = bottom.id

    def action_start(self) -> None:
        try:
            move = parse_season(
                self.state,
                self.query_one("#season-dealer", Input).value,
                self.query_one("#season-seats", Input).value,
                self._cities(),
                self.query_one("#season-bottom", Input).value,
            )
        except EntryError as exc:
            self.refuse(str(exc))
            return
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.refuse(explain_refusal(exc)[1])
            return
        self.dismiss(move)

    def action_cancel(self) -> None:
        self.dismiss(None)
