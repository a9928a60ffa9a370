"""The line at the top: round, deal "n of m", "last hand", deck, dealer, player to move. The
round and what is due are the game's words (:mod:`companion.games.rule_of_power.progress`),
which the club's page says too."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.progress import progress

__all__ = ["TableStatus"]


class TableStatus(StatusLine):
    def render_game(self, game: GameState) -> Text:
        t = Text()
        setup = game.setup
        narrow = bool(self.size.width) and self.size.width < 100
        sides = " vs ".join(setup.sides)
        said = progress(game)
        head = Text()
        if game.round_number == 0:
            head.append(f"{said.period} ", style="bold")
            head.append(f"{sides}, target {setup.target}")
        else:
            head.append(said.period, style="bold")
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
        elif said.who:
            who.append(f"  {said.label}: ")
            who.append(f" {said.who} ", style="bold reverse")
        elif said.what:
            who.append(f"  {said.due}", style="italic")
        # On a narrow line whose turn it is comes right after the round, before the details.
        parts = (head, who, detail) if narrow else (head, detail, who)
        for part in parts:
            t.append_text(part)
        # One line whatever the width: the source's state, last, is what gives way, in whole
        # words (shortened, then its least needed parts left out).
        return self.ending(t)
