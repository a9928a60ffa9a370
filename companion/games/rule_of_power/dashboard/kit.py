"""Rule of Power's dashboard kit (:class:`~companion.dashboard.kit.DashboardKit`): its table
screen and panels, the round's settlement, the table's set-up dialog, its words for the event
log and for refused moves, manual play (typed entries, deals, corrections), the demo table and
what the help screen explains. ``GAME.dashboard()`` hands it out; the screens are imported
when first asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.contract import Option
from companion.dashboard.kit import DashboardKit, Flag
from companion.games.rule_of_power.dashboard.demo import RuleOfPowerDemo
from companion.games.rule_of_power.dashboard.entry import __doc__ as _ENTRY_DOC
from companion.games.rule_of_power.dashboard.tablesetup import FATE_MODES
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, Move, NewRound, Play
from companion.observations import DrawAnnounced, Observation
from companion.session import Applied

if TYPE_CHECKING:
    from textual.binding import BindingType
    from textual.screen import ModalScreen

    from companion.dashboard.widgets.event_log import LogEntry
    from companion.games.rule_of_power.dashboard.manual import RuleOfPowerManual
    from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen
    from companion.games.rule_of_power.dashboard.screens.table import RuleOfPowerTable
    from companion.games.rule_of_power.dashboard.tablesetup import TableSetup
    from companion.games.rule_of_power.dashboard.widgets.moves import LastPlay

__all__ = ["KIT", "LEGEND", "RuleOfPowerDashboard"]

#: What each code on the table screen means: (code, meaning).
LEGEND: tuple[tuple[str, str], ...] = (
    ("6M, 10D", "a card by value and suit letter: P Powers (gold), M Men (blue), E Elves (green), D Darkness (purple); W016 is the id printed on the card"),
    ("^  *  !", "marks: ^ a Wizard (1), * a Dragon (7), ! the Fire Dragon (7P, W007, R10)"),
    ("1Po 2Poo 3Pooo", "the Power Ring cards, with the rings printed on them: Cosmic Power (W001), Sword of Power (W002), Temple of Power (W003), R12"),
    ("Fate colours", "teal Magic, red Creature, orange Character, grey Event (R3)"),
    ("takes 6P 4P", "the cards a play captures (R4); 'to the centre' when it captures nothing"),
    ("+2 pt", "teaching mode: how the side's points for the round change with that move"),
    ("+1", "the side wins that point now (most World or Power cards R9, Fire Dragon R10, Pride R11)"),
    ("Pride 0-3-1..", "the side's Dragons (7s), 6s and 5s; the Pride of Dragons panel shows every value down to the 1s (R11)"),
    ("1/3 rings", "Ring cards the side holds; Master +n: it holds all three and scores the Power chain (R12)"),
    ("0->3, 0>3", "game total before this round -> with the round's points so far; /11 is the target (R14)"),
    ("Wld Pow FD Prd Ring Sw Rnd", "narrow score table: World cards, Power cards, Fire Dragon, Pride, Power Ring, sweeps, round points"),
    ("> and D", "Players panel: > the player to move, D the dealer"),
    ("hand 3+1F", "3 World cards and 1 Fate card in hand (R17)"),
    ("stack, top", "how many cards the player captured, and the last of them"),
    ('"last hand"', "the last deal of the round: what is left in the centre goes to the last capturer (R6)"),
    ("unseen", "not yet seen face up: in the deck or in someone's hand"),
    ("F4: Fate", "small terminal: the side column shows one panel; F4 turns to the one named"),
)

#: A table's options besides the game's own: its Fate decks (R18) and the first dealer.
TABLE_OPTIONS: tuple[Option, ...] = (
    Option(
        "fate",
        "the Fate decks (R18): none, seven Fate cards at random for each player, or custom ones (--fate-decks)",
        "choice",
        "none",
        choices=FATE_MODES,
    ),
    Option("fate_decks", 'each player\'s seven Fate cards, with --fate custom: "ann=F001 F002 F003 F004 F005 F006 F007; bob=..."', "text", ""),
    Option("dealer", "the first round's dealer (default: the last player listed)", "text", ""),
)

#: Manual play's own option: who shuffles and deals.
MANUAL_OPTIONS: tuple[Option, ...] = (Option("companion_deals", "the companion shuffles and deals (no physical cards needed)", "flag", False),)

#: How moves are typed in manual play: the entry module's own summary.
ENTRY_SYNTAX = (_ENTRY_DOC or "").split("::", 1)[-1].split(":func:")[0].rstrip()


class RuleOfPowerDashboard:
    """What Rule of Power brings to the dashboard."""

    title = "Rule of Power"
    period = "round"
    key_words = {
        "settlement": ("Results", "The settlement of the last finished round"),
        "next_step": ("Deal", "Start the next round or enter the next deal"),
    }
    legend = LEGEND
    entry_syntax = ENTRY_SYNTAX
    table_options = TABLE_OPTIONS
    manual_options = MANUAL_OPTIONS

    def __init__(self) -> None:
        self.demo = RuleOfPowerDemo()

    # ------------------------------------------------------------------ screens

    def table_screen(self, *, editable: bool) -> RuleOfPowerTable:
        from companion.games.rule_of_power.dashboard.screens.table import RuleOfPowerTable

        return RuleOfPowerTable(editable=editable)

    def settlement_screen(self) -> SettlementScreen:
        from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen

        return SettlementScreen()

    def setup_screen(self) -> ModalScreen[TableSetup]:
        from companion.games.rule_of_power.dashboard.screens.setup import SetupScreen

        return SetupScreen()

    # ------------------------------------------------------------------ words

    def log_lines(self, state: GameState, applied: Applied) -> list[LogEntry]:
        from companion.games.rule_of_power.dashboard.log import log_entries

        return log_entries(state, applied)

    def played(self, state: GameState, applied: Applied) -> LastPlay | None:
        """The card just played to the centre and every capture it had (R4, R5)."""
        from companion.games.rule_of_power.dashboard.log import last_play

        return last_play(state, applied)

    def refusal(self, move: Move, error: ValueError) -> Flag:
        """The rule broken; the play panel adds a plain-words reminder of it (R1-R25) after
        the moves that are legal, so that the reminder never pushes them out of view."""
        rule = getattr(error, "rule", None)
        text = str(error)
        if rule and text.startswith(f"{rule}: "):
            text = f"{text[len(rule) + 2:]} ({rule})"
        if isinstance(move, Play):
            # The table already reads what was tried before this text: the card is not named twice.
            text = text.removeprefix(f"{move.card.title} played by {move.player}: ")
        return Flag(getattr(move, "player", None), text, rule)

    def dialog_keys(self, *, editable: bool) -> list[tuple[str, list[BindingType]]]:
        from textual.binding import Binding

        from companion.games.rule_of_power.dashboard.screens.deal import DealScreen
        from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen

        groups: list[tuple[str, list[BindingType]]] = [("Settlement screen", SettlementScreen.BINDINGS)]
        if editable:
            groups.append(("Choosing a capture", [Binding("1-9", "pick", "Pick option 1-9 (or arrows and Enter)"), Binding("escape", "cancel", "Cancel")]))
            groups.append(("Deal dialog", DealScreen.BINDINGS))
        return groups

    # ------------------------------------------------------------------ manual play

    def manual(self, *, seed: int | None = None, **options: Any) -> RuleOfPowerManual:
        from companion.games.rule_of_power.dashboard.manual import RuleOfPowerManual

        return RuleOfPowerManual(seed=seed, **options)

    def table_choice(self, players: str, **options: Any) -> TableSetup:
        """Players, teams, target, expansion, Fate decks, first dealer and who deals, as ``rop
        play`` takes them (:func:`~.tablesetup.build_table_setup`)."""
        from companion.games.rule_of_power.dashboard.tablesetup import build_table_setup

        return build_table_setup(players, **options)

    def resume_options(self, state: GameState) -> dict[str, Any]:
        """The Fate decks and the first dealer of the game's first round, and whether the
        companion dealt it (every card known, every Fate deck's order)."""
        moves = list(state.move_stack)
        rounds = [m for m in moves if isinstance(m, NewRound)]
        return {
            "companion_deals": _dealt_by_companion(moves),
            "fate_sets": {p: list(rounds[0].deck_of(p)) for p in state.players if rounds and rounds[0].deck_of(p)},
            "first_dealer": rounds[0].dealer if rounds else None,
        }

    def announcement(self, move: Move, *, source: str, at: float) -> Observation | None:
        """A Fate card drawn (R17): no sensor sees it, the table says it."""
        return DrawAnnounced(source, at, move.player) if isinstance(move, DrawFate) else None


def _dealt_by_companion(moves: Sequence[Move]) -> bool:
    """A record the companion dealt has every card known and every Fate deck's order."""
    for move in moves:
        if isinstance(move, NewRound) and not move.fate_order_known:
            return False
        if isinstance(move, Deal) and any(c is UNSEEN for _, cards in move.hands for c in cards):
            return False
    return True


KIT: DashboardKit = RuleOfPowerDashboard()
"""Rule of Power's dashboard kit, as ``GAME.dashboard()`` hands it out."""
