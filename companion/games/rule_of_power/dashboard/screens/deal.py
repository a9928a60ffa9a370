"""Entering a deal (R15): each player's cards (or face down), and the centre on a round's
first deal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from companion.dashboard.screens.form import Form
from companion.games.rule_of_power.dashboard.commentary import explain_illegal
from companion.games.rule_of_power.dashboard.entry import EntryError, resolve_card
from companion.games.rule_of_power.simulation.dealer import TableDealer
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, IllegalMoveError, deal_sizes
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, InvalidMoveError

__all__ = ["DealScreen", "parse_deal"]


def deal_order(game: GameState) -> list[str]:
    players = game.players
    start = players.index(game.dealer or players[0]) + 1
    return [players[(start + k) % len(players)] for k in range(len(players))]


def parse_deal(game: GameState, hands: dict[str, str], centre: str) -> Deal:
    """A deal from typed text; an empty hand is dealt face down (the right number of
    unseen cards). Raises :class:`EntryError` or :class:`IllegalMoveError`."""
    order = deal_order(game)
    sizes = dict(zip(order, deal_sizes(len(order), game.deck_count, game.deal_number == 0)))
    parsed: dict[str, list] = {}
    for p in order:
        words = [w for w in hands.get(p, "").replace(",", " ").split() if w]
        parsed[p] = [resolve_card(w) for w in words] if words else [UNSEEN] * sizes[p]
    centre_cards = [resolve_card(w) for w in centre.replace(",", " ").split() if w]
    deal = Deal.make(parsed, centre_cards)
    game.check(deal)
    return deal


class DealScreen(Form[Deal | None]):
    DEFAULT_CSS = """
    DealScreen {
        align: center middle;
    }
    DealScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: auto;
        max-height: 96%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    DealScreen VerticalScroll {
        height: auto;
        max-height: 14;
    }
    DealScreen .row {
        height: auto;
        margin-bottom: 1;
    }
    DealScreen .row Label {
        width: 14;
        padding: 0 1 0 0;
    }
    DealScreen .row Input {
        width: 1fr;
    }
    DealScreen #deal-error {
        color: $error;
        text-style: bold;
        height: auto;
    }
    DealScreen #deal-buttons {
        height: auto;
        align-horizontal: right;
    }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+r", "shuffle", "Shuffle for me"),
        Binding("ctrl+s", "deal", "Deal"),
    ]
    SUBMIT = "deal"
    ERROR = "deal-error"

    def __init__(self, game: GameState, dealer: TableDealer) -> None:
        super().__init__()
        self.game = game
        self.dealer = dealer
        self.first = game.deal_number == 0

    def compose(self) -> ComposeResult:
        game = self.game
        order = deal_order(game)
        sizes = deal_sizes(len(order), game.deck_count, self.first)
        n = game.deal_number + 1
        title = f"Deal {n} of {game.deals_in_round} - dealer {game.dealer}, deck {game.deck_count}"
        if sum(sizes) + (4 if self.first else 0) >= game.deck_count:
            title += ' - "last hand"'
        with Vertical():
            yield Static(Text(title, style="bold"))
            yield Static(
                "Type each player's cards (W016 or 6M ...), or leave a hand blank when it is dealt face down. "
                "Ctrl+R shuffles and deals for you.",
                classes="hint",
            )
            with VerticalScroll():
                if self.first:
                    with Horizontal(classes="row"):
                        yield Label("centre (4)")
                        yield Input(placeholder="the four face-up cards", id="deal-centre", compact=True)
                for p, size in zip(order, sizes):
                    with Horizontal(classes="row"):
                        yield Label(f"{p} ({size})")
                        yield Input(placeholder="blank: face down", id=f"deal-{p}", compact=True)
            yield Static("", id="deal-error")
            with Horizontal(id="deal-buttons"):
                yield Button("Shuffle for me", id="shuffle", compact=True)
                yield Button("Deal", variant="primary", id="deal", compact=True)
            yield Static("Enter: next field  Ctrl+S: deal  Ctrl+R: shuffle for me  Esc: cancel", classes="keys")

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def _inputs(self) -> tuple[dict[str, str], str]:
        hands = {p: self.query_one(f"#deal-{p}", Input).value for p in self.game.players}
        centre = self.query_one("#deal-centre", Input).value if self.first else ""
        return hands, centre

    def action_shuffle(self) -> None:
        deal = self.dealer.deal(self.game)
        for p, cards in deal.hands:
            # The companion's own shuffle: every card it deals is a card it knows.
            self.query_one(f"#deal-{p}", Input).value = " ".join(c.id for c in cards if isinstance(c, Card))
        if self.first:
            self.query_one("#deal-centre", Input).value = " ".join(c.id for c in deal.centre)

    def action_deal(self) -> None:
        hands, centre = self._inputs()
        try:
            deal = parse_deal(self.game, hands, centre)
        except EntryError as exc:
            self.refuse(str(exc))
            return
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.refuse(explain_illegal(exc)[1])
            return
        self.dismiss(deal)

    def action_cancel(self) -> None:
        self.dismiss(None)
