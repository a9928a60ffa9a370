"""Love, Money, Power, Death's dashboard kit (:class:`~companion.dashboard.kit.DashboardKit`):
its table screen and panels, the round's settlement, its words for the event log and for
refused moves, manual play (typed commits, the noble and the reveal; the deal and the draws
recorded by the companion; corrections), the demo table and what the help screen explains.
``GAME.dashboard()`` hands it out; the screens are imported when first asked for.

It starts from the hosts' basic kit (:class:`~companion.dashboard.basic.BasicKit`), whose
set-up dialog (the players and the game's options) and command-line table it keeps, and
replaces the rest with the game's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import Option
from companion.dashboard.basic import BasicKit
from companion.dashboard.kit import DashboardKit, Flag
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.dashboard.demo import LmpdDemo
from companion.games.love_money_power_death.dashboard.entry import ENTRY_SYNTAX
from companion.games.love_money_power_death.moves import Move
from companion.games.love_money_power_death.state import LmpdState
from companion.session import Applied

if TYPE_CHECKING:
    from textual.binding import BindingType

    from companion.dashboard.widgets.event_log import LogEntry
    from companion.games.love_money_power_death.dashboard.manual import LmpdManual
    from companion.games.love_money_power_death.dashboard.screens.settlement import RoundSettlement
    from companion.games.love_money_power_death.dashboard.screens.table import LmpdTable
    from companion.observations import Observation

__all__ = ["KIT", "LEGEND", "LmpdDashboard"]

#: What each code on the table screen means: (code, meaning).
LEGEND: tuple[tuple[str, str], ...] = (
    ("N3P", "a noble: N, its crowns (2, 3 or 5: its rank) and its suit; the most crowns in a court win (L1, L3, L13)"),
    ("4Mb, 5D", "a resource: its rank (1-5), its suit and, for ranks 1-4, its copy a or b, which the rules never tell apart (L1, L3)"),
    ("A2", "an agent (A1-A6): no suit, no rank; a lone agent wins the noble, two or more drop out (L1, L9)"),
    ("L M P D", "the suits Love, Money, Power and Death, each card on its suit's colour, an agent in grey (L2)"),
    ("▮ committed", "a card put face down this round (L6); the screen never names it before the reveal (L7)"),
    ("○ to commit", "a player still to commit this round; every player commits at once, in any order (L6)"),
    ("hand 3", "the cards in a player's hand: three, then fewer once their pile is empty (L5, L11)"),
    ("Noble: face down", "the noble is turned up only once everyone has committed, so nobody knows its suit when committing (L7)"),
    ("wins", "the player who won the round's noble; the lines below say why (L8-L10)"),
    ("Last round, 2", "the last round decided, kept in sight until the next round's first commit"),
    ("pile, hand", "Players panel: the cards left in each pile (nobody looks at a pile, its owner included, L5) and in each hand"),
    ("crowns, nobles, court", "Players panel: a player's score (the crowns in their court), how many nobles it holds, and the nobles won (L10, L13); on a small terminal the courts follow the table"),
    ("▮, ○ and *", "Players panel: committed this round; still to commit; at the end, the winner"),
    ("Ahead (L13)", "the player leading now: the most crowns, then the fewest nobles; at the end, the winner or the shared win"),
    ("# noble to how", "Rounds panel: each round's noble and who won it how: agent L9 (a lone agent), suit L8, rank L8 (nobody had the suit), tie L8 or agents L9 (discarded); with room, each card"),
    ("Face down, crowns", "Nobles panel: the nobles still in the pile (which ones is public, not their order, L7) and their crowns by suit"),
    ("Discarded (L10)", "nobles nobody won (a tie, or every player revealed an agent): out of the game"),
    ("Not in use (L4)", "nobles set aside before the deal: with more than four players, fewer nobles are in use"),
    ("Crowns face down", "teaching mode (F2): the crowns still face down in each suit, what a commit plays for"),
    ("Not revealed yet", "teaching mode: the agents and the highest card of each suit not revealed so far: in hands or piles, or set aside (L5); never a hand"),
    ("REFUSED", "a move that breaks a rule, with the ruling and a reminder of it; nothing recorded changes"),
    ("Round 3/10, To commit", "status line: the round of how many (one a noble, L12) and who is still to commit; at the end the winner"),
    ("F4: Rounds", "small terminal: the side column shows one panel; F4 turns to the one named"),
)

#: How moves are typed in manual play: the entry module's own summary.
ENTRY = ENTRY_SYNTAX


class LmpdDashboard(BasicKit):
    """What Love, Money, Power, Death brings to the dashboard."""

    period = "round"
    legend = LEGEND
    entry_syntax = ENTRY
    table_options: tuple[Option, ...] = ()
    """A table kept by hand takes the game's own options alone (the nobles, the fives)."""
    manual_options: tuple[Option, ...] = ()

    def __init__(self) -> None:
        super().__init__(GAME)
        self.demo = LmpdDemo()

    @property
    def key_words(self) -> dict[str, tuple[str, str]]:
        return {
            "settlement": ("Results", "The settlement of the last round decided: the noble, the cards, who won and why"),
            "next_step": ("Next", "What the companion records by itself: the deal face down, the draw, the last noble"),
            "hint": ("Hint", "The coach's hint for one player still to commit (asked whose: only they should look)"),
            "toggle_teaching": (
                "Teaching",
                "Teaching mode: how the noble is decided, the crowns still face down and the cards not revealed yet (never a hand)",
            ),
        }

    # ------------------------------------------------------------------ screens

    def table_screen(self, *, editable: bool) -> LmpdTable:
        from companion.games.love_money_power_death.dashboard.screens.table import LmpdTable

        return LmpdTable(editable=editable)

    def settlement_screen(self) -> RoundSettlement:
        from companion.games.love_money_power_death.dashboard.screens.settlement import RoundSettlement

        return RoundSettlement()

    # ------------------------------------------------------------------ words

    def log_lines(self, state: LmpdState, applied: Applied) -> list[LogEntry]:
        from companion.games.love_money_power_death.dashboard.log import log_entries

        return log_entries(state, applied)

    def refusal(self, move: Move, error: ValueError) -> Flag:
        """The ruling broken and a plain-words reminder of it (L1-L14)."""
        from companion.games.love_money_power_death.dashboard.words import refusal

        return refusal(move, error)

    def dialog_keys(self, *, editable: bool) -> list[tuple[str, list[BindingType]]]:
        from companion.games.love_money_power_death.dashboard.screens.settlement import RoundSettlement

        return [("Settlement screen", RoundSettlement.BINDINGS)]

    # ------------------------------------------------------------------ manual play

    def listed_moves(self, state: Any) -> list[Move]:
        """Nothing is listed: the players commit at once, and the screen is shared."""
        return []

    def manual(self, *, seed: int | None = None, **options: Any) -> LmpdManual:
        from companion.games.love_money_power_death.dashboard.manual import LmpdManual

        return LmpdManual(seed=seed, **options)

    def resume_options(self, state: LmpdState) -> dict[str, Any]:
        """Nothing: manual play goes on from the record alone."""
        return {}

    def announcement(self, move: Move, *, source: str, at: float) -> Observation | None:
        """None: no sensor follows a table of this game yet."""
        return None


KIT: DashboardKit = LmpdDashboard()
"""Love, Money, Power, Death's dashboard kit, as ``GAME.dashboard()`` hands it out."""
