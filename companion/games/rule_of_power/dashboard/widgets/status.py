"""The line at the top: round, deal "n of m", "last hand", deck, dealer, player to move."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.rule_of_power.engine.game import GameState, Phase

__all__ = ["TableStatus"]


class TableStatus(StatusLine):
    def render_game(self, game: GameState) -> Text:
        t = Text()
        setup = game.setup
        narrow = bool(self.size.width) and self.size.width < 100
        sides = " vs ".join(setup.sides)
        head = Text()
        if game.round_number == 0:
            head.append("New game ", style="bold")
            head.append(f"{sides}, target {setup.target}")
        else:
            head.append(f"Round {game.round_number}", style="bold")
        detail = Text()
        if game.round_number:
            if game.deal_number:
                deal = f"{game.deal_number}/{game.deals_in_round}" if narrow else f"{game.deal_number} of {game.deals_in_round}"
                detail.append(f"  Deal {deal}")
                if game.is_last_deal:
                    detail.append(' "last hand"', style="bold reverse")
            detail.append(f"  Deck {game.deck_count}")
            detail.append(f"  Dealer {game.dealer}")
        who = Text()
        outcome = game.outcome()
        if outcome:
            who.append("  Winner: ", style="bold")
            who.append(outcome.winner, style="bold reverse")
        elif game.phase is Phase.TURN:
            who.append("  To move: ")
            who.append(f" {game.turn} ", style="bold reverse")
        elif game.phase is Phase.DEAL:
            who.append("  Next: deal", style="italic")
        elif game.phase is Phase.ROUND:
            who.append("  Next: a new round", style="italic")
        # On a narrow line whose turn it is comes right after the round, before the details.
        parts = (head, who, detail) if narrow else (head, detail, who)
        for part in parts:
            t.append_text(part)
        # One line whatever the width: the source's state, last, is what gives way, in whole
        # words (shortened, then its least needed parts left out).
        return self.ending(t)
