"""Love, Money, Power, Death in words: a move in a few words, what it did for the event log,
and the scores as ``rop replay`` prints them. A commitment is never named to the table before
the reveal (L6): the log says who committed, not what."""

from __future__ import annotations

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.effects import Effects
from companion.games.love_money_power_death.moves import Commit, Deal, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["describe", "narrate", "score_lines", "plays_words"]


def plays_words(plays: tuple[tuple[str, Card], ...]) -> str:
    """``"ann 4Mb, bob A2, cy 2Pa"``."""
    return ", ".join(f"{p} {c.id}" for p, c in plays)


def describe(move: Move) -> str:
    """A move in a few words, as the whole table may read it: ``"ann commits a card face
    down"``, ``"N3P is turned up"``. A commit never names its card, nor a draw the cards drawn:
    they are face down to everyone but their player (L6, L14), and the screens that show these
    words are shared (an undo, a refused or corrected event)."""
    if type(move) is Commit:
        return f"{move.player} commits a card face down"
    if type(move) is TurnUp:
        return f"{move.card.id} is turned up"
    if type(move) is Reveal:
        return f"the cards are revealed: {plays_words(move.cards)}"
    if type(move) is Draw:
        return "every player draws a card"
    if type(move) is Deal:
        seen = [p for p, _ in move.piles] + [p for p, _ in move.hands]
        return "the cards are dealt" + (f" (seen: {', '.join(seen)})" if seen else ", face down")
    return repr(move)


def narrate(state: LmpdState, move: Move, effects: Effects) -> str:
    """What ``move``, just applied, did, in one line for the table's event log. A commit says
    who committed, never the card (L6)."""
    if type(move) is Commit:
        if effects.waiting:
            return f"{move.player} commits a card, face down (L6); waiting for {', '.join(effects.waiting)}"
        return f"{move.player} commits a card, face down (L6); everyone has committed: the noble is turned next (L7)"
    if type(move) is TurnUp:
        card = move.card
        return f"{card.id} is round {effects.round}'s noble: {card.suit_name}, {card.rank} crowns (L7)"
    if type(move) is Reveal and effects.result is not None:
        r = effects.result
        taken = f"{r.noble.id} to {r.winner}" if r.winner else f"nobody wins {r.noble.id}"
        text = f"{plays_words(r.plays)}: {taken}, since {r.reason}"
        if effects.outcome is not None:
            text += f"; the game is over: {effects.outcome.explain()}"
        return text
    if type(move) is Draw:
        text = "every player draws a card (L11)"
        if effects.empty:
            text += f"; nothing for {', '.join(effects.empty)}: an empty pile"
        return text
    if type(move) is Deal:
        setup = state.setup
        aside = f", {setup.aside_size} set aside" if setup.aside_size else ""
        return f"the {setup.rounds} nobles are laid face down and the cards dealt: {setup.pile_size} to each pile{aside}, three to each hand (L5)"
    return describe(move)


def score_lines(state: LmpdState) -> list[str]:
    """The scores in words, as ``rop replay`` prints them: the table, each round, the courts,
    the totals and the result."""
    setup = state.setup
    lines = [f"{', '.join(setup.players)}; {len(setup.nobles)} nobles: {' '.join(c.id for c in setup.nobles)}"]
    for r in state.rounds:
        taken = f"to {r.winner}" if r.winner else "to nobody"
        lines.append(f"Round {r.number}, {r.noble.id}: {plays_words(r.plays)}; {taken}: {r.reason}")
    courts = state.courts
    lines.append("Courts: " + ", ".join(f"{p} {' '.join(c.id for c in court) or '-'}" for p, court in courts.items()))
    if state.discarded:
        lines.append("Discarded: " + " ".join(c.id for c in state.discarded))
    counts = state.counts
    lines.append("Totals: " + ", ".join(f"{p} {t} ({counts[p]} noble{'s' if counts[p] != 1 else ''})" for p, t in state.totals.items()))
    outcome = state.outcome()
    if outcome is None:
        lines.append(f"Not finished: round {state.round_number} of {setup.rounds}")
    else:
        lines.append(f"Result: {outcome.explain()}")
    return lines
