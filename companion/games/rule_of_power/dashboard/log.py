"""What the dashboard keeps of a move just applied: the event log's lines (the move in words
and, at the end of a round, every point's reason and the totals) and what the play panel
shows of it (the card laid in the centre and every capture it could have made, R4, R5)."""

from __future__ import annotations

from companion.dashboard.widgets.event_log import LogEntry
from companion.games.rule_of_power.dashboard.commentary import describe_move
from companion.games.rule_of_power.dashboard.widgets.moves import LastPlay
from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
from companion.session import Applied

__all__ = ["last_play", "log_entries"]


def log_entries(game: GameState, event: Applied) -> list[LogEntry]:
    """The event log's lines for a move just applied to ``game``: the move in words, and, when
    it ended a round, the round's points with their reasons and the totals."""
    move = event.move
    kind = "round" if isinstance(move, NewRound) else "deal" if isinstance(move, Deal) else "move"
    out = [LogEntry(describe_move(game, move, event.effects), event.index, kind)]
    result = event.effects.round_result
    if result is not None:
        after = event.index + 1
        out.extend(LogEntry(line, None, "note", after=after) for line in result.score.reasons())
        totals = ", ".join(f"{s} {t}" for s, t in result.totals.items())
        out.append(LogEntry(f"Round {result.number} over. Totals: {totals}", None, "result", after=after))
        outcome = game.outcome()
        if outcome:
            how = "the Rule of Power (R13)" if outcome.termination.value == "rule_of_power" else f"reaching {game.setup.target} with the highest total (R14)"
            out.append(LogEntry(f"{outcome.winner} wins the game by {how}", None, "result", after=after))
    return out


def last_play(game: GameState, event: Applied) -> LastPlay | None:
    """The card just played to the centre and the captures it had (R4, R5), worked out from
    the centre after the move and what the move did; ``None`` for any other move."""
    move, fx = event.move, event.effects
    if not isinstance(move, Play) or not move.card.to_centre or move.card.value is None:
        return None
    after = list(fx.round_result.leftover if fx.round_result is not None else game.centre)
    if fx.laid and move.card in after:
        after.remove(move.card)
    before = after + list(fx.captured)
    return LastPlay(move, tuple(capture_options(before, move.card.value, empowered=fx.empowered)), fx.empowered)
