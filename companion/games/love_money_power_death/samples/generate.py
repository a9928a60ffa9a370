"""Write Love, Money, Power, Death's sample records from their fixed seeds:
``python -m companion.games.love_money_power_death.samples.generate``."""

from __future__ import annotations

from pathlib import Path

from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move
from companion.games.love_money_power_death.policies import simulate
from companion.games.love_money_power_death.samples import SAMPLES
from companion.records.format import write_record

__all__ = ["generate", "as_seen_by"]


def as_seen_by(player: str, moves: list[Move]) -> list[Move]:
    """The moves as ``player``'s own view keeps them (L14): at the deal, their hand only (no
    pile, no noble pile, nothing set aside); their own commits and draws, nobody else's. The
    nobles turned and the reveals are face up for everyone."""
    out: list[Move] = []
    for move in moves:
        if type(move) is Deal:
            pile = move.pile_of(player) or ()
            out.append(Deal(hands=((player, pile[:3]),)))
        elif type(move) is Commit:
            out.append(move if move.player == player else Commit(move.player, UNSEEN))
        elif type(move) is Draw:
            out.append(Draw(tuple((p, c if p == player else UNSEEN) for p, c in move.cards)))
        else:
            out.append(move)
    return out


def generate(directory: Path) -> None:
    for name, sample in SAMPLES.items():
        setup, moves = simulate(sample.players, sample.nobles, sample.seed, sample.level)
        if sample.seen_by is not None:
            moves = as_seen_by(sample.seen_by, moves)
        write_record(directory / f"{name}.jsonl", setup, moves)


if __name__ == "__main__":
    generate(Path(__file__).parent)
