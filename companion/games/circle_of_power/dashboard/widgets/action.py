"""The action under way, the panel the table reads after every card: the next available city
and the battle deck, each emperor in play order with their city, trump suit and card, who holds
the initiative so far and why (C9), then what comes next: who plays, a dummy's card to turn
over, or the winner's choices, each with why (C10-C14, C18, C19; a dummy's one act, C11). Once
an action is done it shows what the winner did, until the next action's first card.

A refused move is flagged here with its ruling. In teaching mode the hand of the player to
play is shown, when the companion has seen it, with the cards that would take the initiative.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.flag import Flag
from companion.dashboard.widgets.base import GamePanel
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import Card, attack_reason, colour_in_attack
from companion.games.circle_of_power.game import ACTIONS, CircleState, Phase
from companion.games.circle_of_power.rules import Choice, strength
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.dashboard.cards import card_chip, suit_text
from companion.games.circle_of_power.dashboard.prompts import KEYBOARD, PLAY_NEXT, PLAYED, SET_UP, TAPS, TURNED_UP, WATCHED
from companion.games.circle_of_power.tracking.reasoner import act_taps
from companion.games.circle_of_power.dashboard.recap import ActionRecap, action_recap, short_reason
from companion.games.circle_of_power.dashboard.words import battle_cycle, rule_hint

__all__ = ["ActionPanel", "choice_words", "short_choice"]

FLAG_STYLE = "bold #ffffff on #b00020"


def _city(card: Card | None) -> str:
    return card.id if card is not None else "none"


def _rule_of(recap: ActionRecap) -> str:
    """The ruling of the act done: C12-C14, C18 or C19."""
    words = recap.words or ""
    return words[words.rfind("(") + 1 : -1] if words.endswith(")") else "C10"


def short_choice(game: CircleState, choice: Choice) -> str:
    """One of the winner's choices in few words, for a narrow panel: ``conquer bob's KS
    (C12)``; the Circle panel says why the circle allows it."""
    w = game.to_move or ""
    mine = game.city(w)
    variant = game.variant
    if choice.act == "regroup":
        if game.threatened(w):
            return "regroup: under threat, no rebellion (C14)"
        if game.trophies(w) and variant != LONELY_TYRANT:
            return "regroup: not under threat, it rebels: a trophy lost (C14)"
        return "regroup: it rebels, but costs nothing (C14)"
    assert choice.victim is not None and mine is not None
    v = game.seats[choice.victim]
    theirs = game.city(v)
    assert theirs is not None
    if choice.act == "retake":
        return f"retake {v}'s {theirs.id}: {w} takes it ({'C19' if variant == COLOURED_CITIES else 'C13'})"
    if variant == LONELY_TYRANT:
        return f"destroy {v}'s {theirs.id} (C18)"
    if variant == COLOURED_CITIES:
        fate = "destroyed" if colour_in_attack(theirs, mine) == "black" else "a trophy"
        keep = f", keep {mine.id}" if choice.keep else f", give {mine.id}"
        return f"conquer {v}'s {theirs.id}: {fate}{keep} (C19)"
    return f"conquer {v}'s {theirs.id}: a trophy (C12)"


def choice_words(game: CircleState, choice: Choice, *, long: bool) -> str:
    """One of the winner's choices in words: what it takes, what it costs, which city each
    side ends up with, and the ruling; ``long`` adds why the circle allows the attack."""
    w = game.to_move or ""
    mine = game.city(w)
    nxt = _city(game.next_city) if game.action_number < ACTIONS else "no city"
    variant = game.variant
    if choice.act == "regroup":
        assert mine is not None
        threat = game.threat(w)
        if game.threatened(w):
            cost = f"{threat if long else f'{mine.id} is under threat'}: no rebellion"
        elif game.trophies(w) and variant != LONELY_TYRANT:
            cost = f"{mine.id} is under threat from nobody: it rebels and costs a trophy"
        else:
            cost = f"{mine.id} is under threat from nobody: it rebels, but costs nothing"
        return f"regroup: discard {mine.id}, take {nxt}; {cost} (C10, C14)"
    assert choice.victim is not None and mine is not None
    v = game.seats[choice.victim]
    theirs = game.city(v)
    assert theirs is not None
    why = f" ({attack_reason(mine, theirs)})" if long else ""
    if choice.act == "retake":
        lost = f", {v} loses a trophy of {w}'s choice" if game.trophies(v) else f", {v} has no trophy to lose"
        if variant == COLOURED_CITIES:
            return f"retake {v}'s {theirs.id}{why}: {w} takes it and gives {mine.id} to {v}{lost} (C19)"
        return f"retake {v}'s {theirs.id}{why}: discard {mine.id}, take {theirs.id}; {v} takes {nxt}{lost} (C13)"
    if variant == LONELY_TYRANT:
        counts = "" if is_dummy(v) else ", one more towards a knock-out"
        return f"destroy {v}'s {theirs.id}{why}: into {v}'s line{counts}; {v} takes {nxt} (C18)"
    if variant == COLOURED_CITIES:
        fate = f"black, destroyed into {v}'s line" if colour_in_attack(theirs, mine) == "black" else f"red, a trophy for {w}"
        if choice.keep:
            swap = f"{w} keeps {mine.id}, {v} takes {nxt}"
        else:
            swap = f"{w} gives {mine.id} to {v} and takes {nxt}"
        return f"conquer {v}'s {theirs.id}{why}: {fate}; {swap} (C19)"
    return f"conquer {v}'s {theirs.id}{why}: a trophy for {w}; {v} takes {nxt} (C12)"


class ActionPanel(GamePanel):
    DEFAULT_CSS = """
    ActionPanel {
        max-height: 70%;
        overflow-y: auto;
    }
    """

    BORDER_TITLE = "Action"

    flag: reactive[Flag | None] = reactive(None, always_update=True)
    """The move just refused, or the entry not understood."""
    table: reactive[str] = reactive(WATCHED)
    """How the table gives the companion its moves (:mod:`..prompts`): the prompts say what to
    type at a keyboard, what to tap at NFC readers, what to lay under a camera."""

    def watch_flag(self, flag: Flag | None) -> None:
        self.refresh_panel()

    def watch_table(self, table: str) -> None:
        self.refresh_panel()

    def on_resize(self) -> None:
        self.refresh_panel()

    @property
    def roomy(self) -> bool:
        """Room for the long words; on a narrow panel the decks are left to the status line and
        the Decks panel, and the reasons are told in few words."""
        return (self.size.width or 0) >= 44

    def render_game(self, game: CircleState) -> Text:
        whole = self._content(game, cards=True)
        room = self.room()
        if room is not None and game.phase is Phase.ACT and self.rows_of(whole) > room:
            # Short of room (a laptop's 80x24, a refusal above), the winner's choices stay in
            # sight: the cards of the action go, the initiative still says whose card won.
            return self._content(game, cards=False)
        return whole

    def _content(self, game: CircleState, *, cards: bool) -> Text:
        parts: list[Text] = []
        if self.flag is not None:
            t = Text(" REFUSED ", style=FLAG_STYLE)
            text = self.flag.text
            hint = rule_hint(self.flag.rule)
            if not self.roomy and hint and text.endswith(hint):
                text = text[: -len(hint)].rstrip(" .")
            t.append(" " + text, style="bold")
            parts.append(t)
        if game.season_number == 0:
            self.border_title = "Action"
            parts += self._next(game, None)
            return lines(parts)
        recap = action_recap(game)
        phase = game.phase
        if self.roomy and phase in (Phase.PLAY, Phase.ACT, Phase.REVEAL, Phase.RESHUFFLE):
            parts.append(self._decks(game))
        if recap is not None:
            done = ", done" if recap.done else ""
            self.border_title = f"Action {recap.action} of {ACTIONS}{done}"
            if cards:
                parts.append(self._plays(game, recap))
            parts += self._initiative(recap)
        else:
            self.border_title = f"Action {game.action_number} of {ACTIONS}" if phase is not Phase.SEASON else "Action"
        if recap is not None and recap.done:
            parts.append(self._done(recap))
        parts += self._next(game, recap)
        if self.teaching:
            parts += self._hand(game)
        return lines(parts)

    def _decks(self, game: CircleState) -> Text:
        t = Text("Next city ")
        nxt = game.next_city
        t.append_text(card_chip(nxt) if nxt is not None else Text("none", style="dim"))
        left = game.city_deck_count
        t.append(f" ({left} in the city deck)" if self.roomy else f" ({left} left)")
        t.append(f"; battle deck {battle_cycle(game, short=True)}")
        return t

    def _plays(self, game: CircleState, recap: ActionRecap) -> Text:
        columns = [Column(""), Column("emperor"), Column("city"), Column("trump"), Column("card")]
        played = dict(recap.plays)
        rows: list[list[Text | str]] = []
        nxt = game.to_move if not recap.done and game.phase is Phase.PLAY else None
        for name in recap.order:
            card = played.get(name)
            mark = "*" if name == recap.holder else ">" if name == nxt else ""
            city = recap.cities.get(name)
            trump = recap.trumps.get(name)
            suit = suit_text(trump)
            if trump is not None and city is not None and city.is_joker:
                suit.append("*", style="bold")
            cell = Text()
            if card is not None:
                cell.append_text(card_chip(card))
                if card.suit is not None and card.suit == trump:
                    cell.append(" trump", style="bold")
            else:
                cell.append("-", style="dim")
            who = Text(name, style="bold reverse" if name == nxt else "bold")
            rows.append([mark, who, card_chip(city) if city is not None else Text("-", style="dim"), suit, cell])
        return grid(columns, rows, width=self.size.width or None)

    def _initiative(self, recap: ActionRecap) -> list[Text]:
        if recap.holder is None or recap.reason is None:
            return []
        all_down = len(recap.plays) == len(recap.seats)
        if not self.roomy:
            t = Text("Initiative: " if all_down else "So far: ", style="bold")
            t.append(f"{short_reason(recap)} (C9)")
            return [t]
        head = f"{recap.holder} takes the initiative: " if all_down else "Initiative so far: "
        t = Text(head, style="bold")
        t.append(f"{recap.reason} (C9)")
        return [t]

    def _done(self, recap: ActionRecap) -> Text:
        t = Text("Done: ", style="bold")
        if not self.roomy and recap.act is not None:
            said = GAME.describe(recap.act)
            if self.game is not None and self.game.variant == LONELY_TYRANT:
                said = said.replace(" conquers ", " destroys ")  # C18: a city taken over is destroyed
            t.append(f"{said} ({_rule_of(recap)})")
        else:
            t.append(recap.words or "")
        if recap.knocked_out:
            t.append(f"; knocked out: {', '.join(recap.knocked_out)} (C18)", style="bold")
        return t

    def _next(self, game: CircleState, recap: ActionRecap | None) -> list[Text]:
        phase = game.phase
        who = game.to_move
        outcome = game.outcome()
        if outcome is not None:
            return [Text(outcome.explain(), style="bold reverse")]
        if phase is Phase.ACT and who is not None:
            return self._choices(game, who)
        if phase is Phase.PLAY and who is not None:
            if is_dummy(who):
                top = game.pile(who)[0] if game.hand_size(who) else None
                if isinstance(top, Card):
                    return [Text(f"Next: {who} is a dummy and plays the top card of its pile (C8).", style="italic")]
                return [Text(f"Next: {who} is a dummy: turn the top card of its pile over{PLAYED[self.table]} (C8).", style="bold")]
            return [Text(f"Next: {who} plays a card.{PLAY_NEXT[self.table]}", style="italic")]
        if phase is Phase.REVEAL:
            if game.city_deck_count == 1:
                return [Text("Next: the bottom joker is turned up, the city deck's last card (C7).", style="italic")]
            return [Text(f"Next: turn up the top card of the city deck{TURNED_UP[self.table]} (C7).", style="italic")]
        if phase is Phase.RESHUFFLE:
            return [Text("Next: the battle deck ran out; the 24 cards played are reshuffled (C15).", style="italic")]
        if phase is Phase.SEASON:
            return [Text(f"Next: season {game.season_number + 1} is set up{SET_UP[self.table]}.", style="italic")]
        return []

    def _choices(self, game: CircleState, who: str) -> list[Text]:
        choices = game.choices()
        if is_dummy(who):
            chosen = choices[0]
            t = Text(f"{who} is a dummy: its one act (C11): " if self.roomy else f"{who}, a dummy (C11): ", style="bold")
            t.append(choice_words(game, chosen, long=True) if self.roomy else short_choice(game, chosen))
            out = [t]
            if self.roomy:
                out.append(Text(chosen.why, style="dim"))
            if self.table == KEYBOARD:
                out.append(Text("The companion does it (F5 if it waits).", style="italic"))
            elif self.table == TAPS:
                out.append(Text("The companion does it: nobody taps.", style="italic"))
            return out
        city = game.city(who)
        if len(choices) == 1 and choices[0].act == "regroup":
            head = f"{who} must regroup: {city.id if city is not None else 'the city'} may take no city (C10)."
        else:
            head = f"{who} must take a city (C10)" + (f", type 1-{len(choices)}" if self.table == KEYBOARD else "") + ":"
        out = [Text(head, style="bold")]
        for k, choice in enumerate(choices, 1):
            t = Text(f"{k} ", style="bold")
            t.append(choice_words(game, choice, long=True) if self.roomy else short_choice(game, choice))
            out.append(t)
        if self.table == TAPS and (len(choices) > 1 or choices[0].act != "regroup" or game.trophies(who)):
            out.append(Text(f"Tap: {act_taps(game, short=not self.roomy)}.", style="italic"))
        return out

    def _hand(self, game: CircleState) -> list[Text]:
        """Teaching mode: the hand of the player to play, each card that would take the
        initiative now marked (C9)."""
        who = game.to_move
        if who is None or game.phase is not Phase.PLAY or is_dummy(who):
            return []
        hand = sorted(game.hand(who), key=lambda c: (c.suit or "", c.number))
        if not hand:
            return [Text(f"{who}'s hand: not seen by the companion.", style="dim")]
        trump = game.trump_suits.get(who)
        best = max((strength(c, game.trump_suits.get(p)) for p, c in game.played), default=-1)
        t = Text(f"{who}'s hand: ", style="bold")
        for k, card in enumerate(hand):
            if k:
                t.append(" ")
            t.append_text(card_chip(card))
            if strength(card, trump) >= best:
                t.append("+", style="bold")
        unseen = game.unseen_in_hand(who)
        if unseen:
            t.append(f" and {unseen} unseen", style="dim")
        t.append("  (+: would take the initiative now)", style="dim")
        return [t]
