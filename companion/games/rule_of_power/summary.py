"""A game's scores as ``rop replay`` prints them: the JSON of the record format, and the same
in words, round by round with every point's reason (R6-R14)."""

from __future__ import annotations

from typing import Any

from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.record import ReplaySummary

__all__ = ["summary_json", "score_lines", "format_score_table", "unfinished"]

_COLUMNS = (
    ("world_cards", "World"),
    ("power_cards", "Power"),
    ("fire_dragon", "Fire"),
    ("pride_of_dragons", "Pride"),
    ("power_master", "Master"),
    ("power_points", "Chain"),
    ("sweeps", "Sweeps"),
)


def format_score_table(sides: Any) -> str:
    """A plain-text table of points per side."""
    width = max([4] + [len(s) for s in sides])
    head = "side".ljust(width) + "".join(f"{label:>8}" for _, label in _COLUMNS) + f"{'Total':>8}"
    rows = [head]
    for side, pts in sides.items():
        j = pts.to_json()
        rows.append(side.ljust(width) + "".join(f"{j[k]:>8}" for k, _ in _COLUMNS) + f"{j['total']:>8}")
    return "\n".join(rows)


def summary_json(game: GameState) -> dict[str, Any]:
    """``rop replay --json``'s line for a game (less the record's path): its players and
    sides first, then each round's points with their reasons, as ``rop score --json`` gives
    them, the totals and the winner."""
    out: dict[str, Any] = {"players": list(game.setup.players), "sides": list(game.setup.sides)}
    body = ReplaySummary.of(game).to_json()
    for data, result in zip(body["rounds"], game.results):
        data["number"] = result.number
        data["dealer"] = result.dealer
        data["reasons"] = result.score.reasons_json()
    out.update(body)
    return out


def score_lines(game: GameState) -> list[str]:
    """The table, then every finished round's points with their reasons, the totals and the
    winner (or where an unfinished game stops)."""
    setup = game.setup
    teams = f", teams {' vs '.join(setup.sides)}" if setup.teams else ""
    lines = [f"{', '.join(setup.players)}{teams}; target {setup.target}{', expansion' if setup.expansion else ''}"]
    for result in game.results:
        lines.append("")
        lines.append(f"Round {result.number} (dealer {result.dealer})")
        lines.extend(format_score_table(result.score.sides).split("\n"))
        lines.extend("  " + line for line in result.score.reasons())
        if result.leftover:
            who = result.last_capturer or "nobody (no capture this round)"
            lines.append(f"  Left in the centre at the end, to {who} (R6): {', '.join(c.label for c in result.leftover)}")
        lines.append("  Totals: " + ", ".join(f"{s} {t}" for s, t in result.totals.items()))
    outcome = game.outcome()
    lines.append("")
    if outcome:
        how = "Rule of Power (R13)" if outcome.termination.value == "rule_of_power" else f"reached {setup.target} first with the highest total (R14)"
        lines.append(f"Winner: {outcome.winner}, {how}")
    else:
        lines.append(f"Unfinished game: {unfinished(game)}")
    return lines


def unfinished(game: GameState) -> str:
    """Where an unfinished record stops, in words: 'no round finished yet, the first deal
    is next', '2 rounds finished, round 3 is being played'."""
    done = len(game.results)
    finished = "no round finished yet" if done == 0 else f"{done} round{'s' if done != 1 else ''} finished"
    phase = game.phase.value
    if phase == "round":
        nxt = "the first round is next" if done == 0 else f"round {done + 1} is next"
    elif phase == "deal":
        nxt = f"the next deal of round {game.round_number} is due"
    else:
        nxt = f"round {game.round_number} stops with {game.turn} to move" if game.turn else f"round {game.round_number} is under way"
    return f"{finished}; {nxt}"
