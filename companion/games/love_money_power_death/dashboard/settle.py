"""The settlement of a round, step by step, as the table reads it once the cards are face up:
the noble turned and the cards revealed (L7); who wins, the agents first (L9), then suit and
rank (L8), and where the noble goes (L10); the courts and totals; and then either what comes
next (L11) or, after the last round, the end (L12) and every step of the tie-break that decided
the winner (L13).

Everything is worked out from the game's decided rounds, so a round settled earlier reads the
same when it is looked at again later (F3).

>>> from companion.games.love_money_power_death import GAME
>>> from companion.games.love_money_power_death.moves import Commit, Deal, Reveal, TurnUp
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"], nobles=["N3P", "N2L"]))
>>> state.push(Deal())
>>> for p in state.players:
...     state.push(Commit.of(p))
>>> state.push(TurnUp.of("N3P"))
>>> state.push(Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}))
>>> steps = round_steps(state, state.rounds[0])
>>> [title for title, _ in steps]
['Round 1 of 2: the noble and the cards (L7)', 'Who wins: bob (L8-L10)', 'Courts and totals', 'Next: round 2 of 2']
>>> print(steps[1][1])
bob revealed the only agent, A2: bob wins the noble, whatever the other cards (L9).
N3P goes face up into bob's court: 3 crowns for bob (L10).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from companion.dashboard.grid import Column, grid
from companion.games.love_money_power_death.cards import SUIT_NAMES, SUITS, Card
from companion.games.love_money_power_death.dashboard.cards import card_chip, cards_line, suit_text
from companion.games.love_money_power_death.dashboard.words import names_list, plural
from companion.games.love_money_power_death.scoring import Outcome, RoundResult, TieBreak, Why, decide_game
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["round_steps", "courts_after", "card_words", "tiebreak_steps", "crowns_by_suit"]

Step = tuple[str, RenderableType]


def card_words(card: Card, noble: Card | None = None) -> str:
    """What a card is, for the table: ``Power 2, the noble's suit``, ``Money 4``, ``an agent``."""
    if card.is_agent:
        return "an agent: no suit, no rank (L1)"
    words = f"{card.suit_name} {card.rank}"
    if noble is not None and card.suit == noble.suit:
        words += ", the noble's suit"
    return words


def courts_after(state: LmpdState, number: int) -> dict[str, list[Card]]:
    """Each player's court once round ``number`` was decided (L10)."""
    courts: dict[str, list[Card]] = {p: [] for p in state.players}
    for r in state.rounds[:number]:
        if r.winner is not None:
            courts[r.winner].append(r.noble)
    return courts


def crowns_by_suit(nobles: tuple[Card, ...] | list[Card]) -> Text:
    """``Love 5, Money 2, Power 8, Death 3``: the crowns of ``nobles`` in each suit, each suit in
    its colour."""
    out = Text()
    for s in SUITS:
        crowns = sum(c.rank for c in nobles if c.suit == s)
        if out.plain:
            out.append(", ")
        out.append_text(suit_text(s))
        out.append(f" {crowns}")
    return out


def _noble(state: LmpdState, r: RoundResult) -> Text:
    t = Text()
    t.append_text(card_chip(r.noble))
    left = state.setup.rounds - r.number
    t.append(f", the {r.noble.suit_name} noble of {plural(r.noble.rank, 'crown')}, is turned up once everyone has committed (L7); ")
    t.append(f"{plural(left, 'noble')} still face down." if left else "it was the last noble.")
    return t


def _revealed(r: RoundResult) -> Text:
    rows: list[list[Text | str]] = []
    for p, card in r.plays:
        who = Text(p, style="bold")
        mark = Text("wins" if p == r.winner else "", style="bold reverse" if p == r.winner else "")
        rows.append([who, card_chip(card), Text(card_words(card, r.noble)), mark])
    return grid([Column("player"), Column("card"), Column("what it is"), Column("")], rows)


def _agents(r: RoundResult) -> Text:
    agents = r.agents
    others = [p for p, _ in r.plays if p not in agents]
    if not agents:
        return Text("Nobody revealed an agent: every player contests the noble (L8).")
    if r.why is Why.AGENT:
        card = dict(r.plays)[agents[0]]
        return Text(f"{agents[0]} revealed the only agent, {card.id}: {agents[0]} wins the noble, whatever the other cards (L9).")
    if r.why is Why.ALL_AGENTS:
        return Text("Every player revealed an agent: nobody is left to contest the noble, and it is discarded (L9).")
    return Text(
        f"{names_list(agents)} revealed agents: they cancel out and drop out, and {names_list(others)} "
        f"contest{'s' if len(others) == 1 else ''} the noble (L9)."
    )


def _suit_then_rank(r: RoundResult) -> Text:
    """How L8 decided the round among the contestants."""
    suit = SUIT_NAMES[r.noble.suit or ""]
    cards = dict(r.plays)
    contestants = [(p, c) for p, c in r.plays if p not in r.agents] if len(r.agents) > 1 else list(r.plays)
    suited = [(p, c) for p, c in contestants if c.suit == r.noble.suit]
    t = Text()
    if len(contestants) == 1:
        p = contestants[0][0]
        t.append(f"{p} is the only player left: {p} wins with any card (L9).")
        return t
    if suited:
        t.append(f"{suit} cards among the contestants: ")
        t.append(", ".join(f"{p}'s {c.id}" for p, c in suited))
        t.append(f". The highest {suit} card wins, whatever the other cards (L8).\n")
    else:
        t.append(f"Nobody revealed {suit}: the highest rank wins, whatever its suit (L8). ")
        t.append("Ranks: " + ", ".join(f"{p} {c.rank}" for p, c in contestants) + ".\n")
    best = [f"{p}'s {cards[p].id}" for p in r.best]
    if r.why is Why.TIE:
        what = f"the highest {suit} cards" if suited else "the highest rank"
        why = "tied in suit and rank" if suited else "no rule separates equal ranks of different suits"
        t.append(f"{' and '.join(best)} tie as {what} ({why}): nobody wins, and the noble is discarded (L8).", style="bold")
    else:
        t.append(f"{best[0]} is {'the highest ' + suit + ' card' if suited else 'the highest rank'}: {r.winner} wins (L8).", style="bold")
    return t


def _courts(state: LmpdState, number: int, outcome: Outcome | None) -> Text:
    courts = courts_after(state, number)
    winners = outcome.winners if outcome is not None else ()
    rows: list[list[Text | str]] = []
    for p in state.players:
        court = courts[p]
        crowns = sum(c.rank for c in court)
        name = Text(p, style="bold reverse" if p in winners else "bold")
        rows.append([name, cards_line(court), str(crowns), str(len(court))])
    return grid([Column("player"), Column("court"), Column("crowns", justify="right"), Column("nobles", justify="right")], rows)


def _next(state: LmpdState, r: RoundResult) -> Text:
    setup = state.setup
    turned = {x.noble for x in state.rounds[: r.number]}
    left = [c for c in setup.nobles if c not in turned]
    pile = max(0, setup.pile_size - setup.hand_size - (r.number - 1))
    t = Text()
    if pile:
        t.append(f"Every player draws the top card of their own pile (L11): {plural(pile - 1, 'card')} then left in each. ")
    else:
        t.append("The piles are empty: nobody draws, and each plays on from their hand, one card fewer a round (L11). ")
    t.append(f"{plural(len(left), 'noble')} still face down, in an order nobody knows: ")
    t.append_text(cards_line(left))
    t.append(" (crowns: ")
    t.append_text(crowns_by_suit(left))
    t.append(").")
    return t


def tiebreak_steps(outcome: Outcome) -> list[Step]:
    """How L13 decided the game, one step each: the highest score, then the fewest nobles,
    then the verdict."""
    totals = dict(outcome.totals)
    counts = dict(outcome.counts)
    top = max(totals.values())
    leaders = [p for p, t in outcome.totals if t == top]
    steps: list[Step] = []
    scores = Text("Scores: " + ", ".join(f"{p} {t}" for p, t in outcome.totals) + ". ")
    if len(leaders) == 1:
        scores.append(f"{leaders[0]} alone has the highest, {plural(top, 'crown')}.", style="bold")
    else:
        scores.append(f"{names_list(leaders)} share the highest, {plural(top, 'crown')}.", style="bold")
    steps.append(("The highest score wins (L13)", scores))
    if len(leaders) > 1:
        fewest = min(counts[p] for p in leaders)
        text = Text("Nobles: " + ", ".join(f"{p} {counts[p]}" for p in leaders) + ". ")
        best = [p for p in leaders if counts[p] == fewest]
        if len(best) == 1:
            text.append(f"{best[0]} has the fewest.", style="bold")
        else:
            text.append(f"{names_list(best)} have {plural(fewest, 'noble')} each: nothing more separates them.", style="bold")
        steps.append(("Then the fewest nobles (L13)", text))
    verdict = outcome.explain()
    why = ""
    if outcome.tiebreak is TieBreak.SHARED and top:
        why = " The rulebook's third sentence, the lowest combined ranking, cannot separate equal scores, so it is not applied (L13)."
    steps.append(("Verdict", Text(verdict[0].upper() + verdict[1:] + "." + why, style="bold")))
    return steps


def round_steps(state: LmpdState, result: RoundResult) -> list[Step]:
    """The settlement of round ``result`` of ``state``'s game, one point at a time: (title,
    body)."""
    n, total = result.number, state.setup.rounds
    last = n == total
    outcome = decide_game(state.players, courts_after(state, n)) if last else None
    noble = Text()
    noble.append_text(_noble(state, result))
    noble.append("\n")
    noble.append_text(_revealed(result))
    steps: list[Step] = [(f"Round {n} of {total}: the noble and the cards (L7)", noble)]
    who = _agents(result)
    if result.why not in (Why.AGENT, Why.ALL_AGENTS):
        who.append("\n")
        who.append_text(_suit_then_rank(result))
    who.append("\n")
    who.append_text(card_chip(result.noble))
    if result.winner is not None:
        who.append(f" goes face up into {result.winner}'s court: {plural(result.noble.rank, 'crown')} for {result.winner} (L10).", style="bold")
        title = f"Who wins: {result.winner} (L8-L10)"
    else:
        who.append(" is discarded: it is out of the game and counts for nobody (L10).", style="bold")
        title = "Who wins: nobody, the noble is discarded (L8-L10)"
    steps.append((title, who))
    steps.append(("Courts and totals", _courts(state, n, outcome)))
    if outcome is None:
        steps.append((f"Next: round {n + 1} of {total}", _next(state, result)))
    else:
        steps.append(("The end (L12)", Text("The last noble's round is decided: the game is over; cards left in hands and piles count nothing (L12).")))
        steps += tiebreak_steps(outcome)
    return steps
