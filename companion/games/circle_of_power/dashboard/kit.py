"""Circle of Power's dashboard kit (:class:`~companion.dashboard.kit.DashboardKit`): its table
screen and panels, the season's settlement, the table's set-up dialog, its words for the event
log and for refused moves, manual play (typed cards and acts, the season dialog, the dummies'
and the table's own moves, corrections), the demo table and what the help screen explains.
``GAME.dashboard()`` hands it out; the screens are imported when first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import Option
from companion.dashboard.kit import DashboardKit, Flag
from companion.games.circle_of_power.dashboard.demo import CircleDemo
from companion.games.circle_of_power.dashboard.entry import __doc__ as _ENTRY_DOC
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Move, Season
from companion.session import Applied

if TYPE_CHECKING:
    from textual.binding import BindingType
    from textual.screen import ModalScreen

    from companion.dashboard.widgets.event_log import LogEntry
    from companion.games.circle_of_power.dashboard.manual import CircleManual
    from companion.games.circle_of_power.dashboard.screens.settlement import SeasonSettlement
    from companion.games.circle_of_power.dashboard.screens.table import CircleTable
    from companion.games.circle_of_power.dashboard.tablesetup import CircleTableChoice
    from companion.observations import Observation

__all__ = ["KIT", "LEGEND", "CircleDashboard"]

#: What each code on the table screen means: (code, meaning).
LEGEND: tuple[tuple[str, str], ...] = (
    ("QS, 10H, X1", "a card: rank then suit (S spades, H hearts, D diamonds, C clubs), X1 and X2 the jokers; red cards on red, black on grey, jokers on gold (C1)"),
    ("trump H, D*, -", "an emperor's trump suit, their city's suit; D* a joker's, borrowed from the next available city; - none (C9)"),
    ("7H trump", "a card of its player's own trump suit: it beats every card that is not (C9)"),
    ("* and >", "Action panel: * holds the initiative so far (C9), > is to play next (C8)"),
    (">D", "Emperors panel: > the emperor to play or act, D the dealer (C5)"),
    ("@1, @2", "dummies, the auto emperors of the empty seats: they play their pile's top card and act by rule (C4, C8, C11)"),
    ("J ────> Q", "the circle: an arrow points to the attacker (Q takes J, K takes Q, A takes K, J takes A); orange when cities stand at both ends, reversed for the winner's choices (C3)"),
    ("red ─> joker ─> black", "a joker takes any red city, any black city takes a joker; two jokers never meet; joker - when no joker is a city (C3)"),
    ("Under threat from nobody", "cities no other city may take: regrouping from one of them is a rebellion that costs a trophy (C14)"),
    ("1 conquer bob's QS", "the winner's choices, numbered: type the number (or conquer bob, retake bob, regroup) (C10-C14, C18, C19)"),
    ("(QS)", "a destroyed city, face down in its loser's line (C18, C19)"),
    ("pts, total 3>5", "the season's points so far, one per trophy (C16); game total before this season > with them"),
    ("lost 2/5", "destroyed cities that count towards a knock-out at 5 (C18); dummies' never count"),
    ("S1, S2, S3 now", "Seasons panel: each season's points (in Lonely Tyrant the destroyed cities that count), the season under way last"),
    ("out", "a knocked-out player: plays the season out, then a dummy takes the seat; can neither end nor win the game (C18, C20)"),
    ("Next city JD (9 left)", "the next available city, face up on the city deck, and the cards left in it, the bottom joker included (C7)"),
    ("battle deck 11, reshuffle after action 6", "cards left in the battle deck and its cycle: reshuffled once after action 6, empty after action 12 (C15)"),
    ("+", "teaching mode: a card of the hand that would take the initiative now (C9)"),
    ("REFUSED, ILLEGAL", "a move that breaks a rule, with the ruling and a reminder of it; nothing recorded changes"),
    ("F4: Emperors", "small terminal: the side column shows one panel; F4 turns to the one named"),
)

#: A table's option besides the game's own: the first season's dealer (C5).
TABLE_OPTIONS: tuple[Option, ...] = (Option("dealer", "the first season's dealer (C5; default: the first player listed)", "text", ""),)

#: How moves are typed in manual play: the entry module's own summary.
ENTRY_SYNTAX = (_ENTRY_DOC or "").split("::", 1)[-1].split("Where a trophy")[0].rstrip()


class CircleDashboard:
    """What Circle of Power brings to the dashboard."""

    title = "Circle of Power"
    period = "season"
    key_words = {
        "settlement": ("Results", "The settlement of the last finished season"),
        "next_step": ("Next", "Set up the next season, or the companion's own next move (a dummy's act, the reshuffle)"),
    }
    legend = LEGEND
    entry_syntax = ENTRY_SYNTAX
    table_options = TABLE_OPTIONS
    manual_options: tuple[Option, ...] = ()

    def __init__(self) -> None:
        self.demo = CircleDemo()

    # ------------------------------------------------------------------ screens

    def table_screen(self, *, editable: bool) -> CircleTable:
        from companion.games.circle_of_power.dashboard.screens.table import CircleTable

        return CircleTable(editable=editable)

    def settlement_screen(self) -> SeasonSettlement:
        from companion.games.circle_of_power.dashboard.screens.settlement import SeasonSettlement

        return SeasonSettlement()

    def setup_screen(self) -> ModalScreen[CircleTableChoice]:
        from companion.games.circle_of_power.dashboard.screens.setup import SetupScreen

        return SetupScreen()

    # ------------------------------------------------------------------ words

    def log_lines(self, state: CircleState, applied: Applied) -> list[LogEntry]:
        from companion.games.circle_of_power.dashboard.log import log_entries

        return log_entries(state, applied)

    def played(self, state: CircleState, applied: Applied) -> None:
        """Nothing: the Action panel reads the action, under way or just done, from the game."""
        return None

    def refusal(self, move: Move, error: ValueError) -> Flag:
        """The ruling broken and a plain-words reminder of it (C1-C20)."""
        from companion.games.circle_of_power.dashboard.words import refusal

        return refusal(move, error)

    def dialog_keys(self, *, editable: bool) -> list[tuple[str, list[BindingType]]]:
        from textual.binding import Binding

        from companion.games.circle_of_power.dashboard.screens.season import SeasonScreen
        from companion.games.circle_of_power.dashboard.screens.settlement import SeasonSettlement

        groups: list[tuple[str, list[BindingType]]] = [("Settlement screen", SeasonSettlement.BINDINGS)]
        if editable:
            groups.append(("Choosing a trophy", [Binding("1-9", "pick", "Pick trophy 1-9 (or arrows and Enter)"), Binding("escape", "cancel", "Cancel")]))
            groups.append(("Season dialog", SeasonScreen.BINDINGS))
        return groups

    # ------------------------------------------------------------------ manual play

    def manual(self, *, seed: int | None = None, **options: Any) -> CircleManual:
        from companion.games.circle_of_power.dashboard.manual import CircleManual

        return CircleManual(seed=seed, **options)

    def table_choice(self, players: str, **options: Any) -> CircleTableChoice:
        """Players, variant, target and first dealer, as ``rop play`` takes them
        (:func:`~.tablesetup.build_table_choice`)."""
        from companion.games.circle_of_power.dashboard.tablesetup import build_table_choice

        return build_table_choice(players, **options)

    def resume_options(self, state: CircleState) -> dict[str, Any]:
        """The first season's dealer (the later ones follow C5)."""
        first = next((m for m in state.move_stack if type(m) is Season), None)
        return {"first_dealer": first.dealer if first is not None else None}

    def announcement(self, move: Move, *, source: str, at: float) -> Observation | None:
        """None: every move of Circle of Power is seen or typed as it is."""
        return None


KIT: DashboardKit = CircleDashboard()
"""Circle of Power's dashboard kit, as ``GAME.dashboard()`` hands it out."""
