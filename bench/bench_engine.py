"""Rules engines' speed, every game in one run: for Rule of Power, capture options on
worst-case centres, validated replay of records and random games simulated per second; for
Circle of Power, records replayed per second with every rule checked (events and seasons) and
random games simulated per second; for Ruse and Bruise, whole games replayed from their records
with every rule checked (events and rounds, with every card named and as one player's companion
keeps them) and games simulated per second; for Love, Money, Power, Death, whole records
replayed per second with every rule checked (events and rounds; the target is 100,000 events a
second), and random games simulated per second. Single-threaded: the figures are for one core.

    ./run bench engine             (python -m bench engine)
    ./run bench engine -- --quick  fewer repetitions
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable

from companion.games.rule_of_power.engine.captures import capture_options
from companion.games.rule_of_power.engine.cards import EXPANSION_CARDS, WORLD_DECK
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import Move
from companion.records.format import RecordWriter, iter_record_lines, load_game
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup, simulate_game

SEATINGS = [(2, 0), (3, 0), (4, 2), (6, 3)]


def best_of(fn: Callable[[], object], repeat: int, number: int, *, clock: Callable[[], float] = time.perf_counter) -> float:
    """The best time of one call, in seconds (the least disturbed of ``repeat`` runs), by
    ``clock`` (the wall clock unless told)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - start) / number)
    return best


def bench_captures(repeat: int) -> None:
    low = [c for c in WORLD_DECK if c.value is not None and c.value <= 5][:20]
    cases = [
        ("20 cards of 1-5 against a 10", low, 10),
        ("20 cards of 1-5 against a 13 (expansion)", low, 13),
        ("the same 20 and the three 11s against a 13 (expansion)", low + [EXPANSION_CARDS[0], EXPANSION_CARDS[3], EXPANSION_CARDS[6]], 13),
    ]
    print("capture options (R4), worst-case centres:")
    for label, centre, value in cases:
        n = len(capture_options(centre, value))
        t = best_of(lambda: capture_options(centre, value), repeat, 20)
        print(f"  {label}: {n} options in {t * 1e3:.3f} ms")


def _records(games: int, fate: bool) -> tuple[list[list[str]], list[tuple[object, list[Move]]], int]:
    texts, parsed, rounds = [], [], 0
    for k in range(games):
        setup = make_setup(*SEATINGS[k % len(SEATINGS)])
        game, moves = simulate_game(setup, seed=1000 + k, fate=fate)
        buf = io.StringIO()
        writer = RecordWriter(buf, setup)
        for m in moves:
            writer.write(m)
        texts.append(buf.getvalue().splitlines())
        parsed.append((setup, moves))
        rounds += len(game.results)
    return texts, parsed, rounds


def bench_replay(games: int, repeat: int) -> None:
    print(f"validated replay ({games} simulated games, seatings 2, 3, 4 in teams, 6 in teams):")
    for fate in (False, True):
        texts, parsed, rounds = _records(games, fate)
        lines = sum(len(t) for t in texts)

        def from_records() -> None:
            for text in texts:
                load_game(text)

        def engine_only() -> None:
            for setup, moves in parsed:
                game = GameState(setup, keep_history=False)  # type: ignore[arg-type]
                for m in moves:
                    game.push(m)

        def with_undo_stack() -> None:
            for setup, moves in parsed:
                game = GameState(setup)  # type: ignore[arg-type]
                for m in moves:
                    game.push(m)

        label = "with Fate cards" if fate else "World cards only"
        t = best_of(from_records, repeat, 1)
        print(f"  {label}: records (JSON parsed, every rule checked): {rounds / t:,.0f} rounds/s ({lines / t:,.0f} lines/s)")
        t = best_of(engine_only, repeat, 1)
        print(f"  {label}: moves already parsed, every rule checked:  {rounds / t:,.0f} rounds/s")
        t = best_of(with_undo_stack, repeat, 1)
        print(f"  {label}: the same keeping the undo stack:         {rounds / t:,.0f} rounds/s")


def bench_simulate(games: int, repeat: int) -> None:
    print("random legal games simulated (moves checked):")
    for players, teams, fate in [(2, 0, False), (4, 2, True), (6, 3, True)]:
        setup = make_setup(players, teams)

        def run() -> None:
            for seed in range(games):
                game = GameState(setup, keep_history=False)
                for _ in VirtualTable(setup, seed=seed, fate=fate).moves(game):
                    pass

        t = best_of(run, repeat, 1)
        print(f"  {players} players{f' in {teams} teams' if teams else ''}{', Fate decks' if fate else ''}: {games / t:,.0f} games/s")


COP_TABLES = [(2, "basic"), (3, "lonely-tyrant"), (4, "coloured-cities"), (3, "basic")]


def bench_circle_of_power(games: int, repeat: int) -> None:
    from companion.games.circle_of_power.policies import simulate

    print(f"Circle of Power: validated replay ({games} simulated games, 2-4 players, every variant):")
    texts, parsed, events, seasons = [], [], 0, 0
    for k in range(games):
        players, variant = COP_TABLES[k % len(COP_TABLES)]
        setup, moves = simulate(["ann", "bob", "cy", "dee"][:players], variant, 2000 + k, level=k % 2)
        buf = io.StringIO()
        writer = RecordWriter(buf, setup)
        for m in moves:
            writer.write(m)
        texts.append(buf.getvalue().splitlines())
        parsed.append((setup, moves))
        events += len(moves)
        game = load_game(texts[-1])
        seasons += len(game.results)

    def from_records() -> None:
        for text in texts:
            load_game(text)

    def engine_only() -> None:
        for setup, moves in parsed:
            game = setup.game.new_state(setup, keep_history=False)
            for m in moves:
                game.push(m)

    def with_undo_stack() -> None:
        for setup, moves in parsed:
            game = setup.game.new_state(setup)
            for m in moves:
                game.push(m)

    t = best_of(from_records, repeat, 1)
    print(f"  records (JSON parsed, every rule checked): {events / t:,.0f} events/s ({seasons / t:,.0f} seasons/s)")
    t = best_of(engine_only, repeat, 1)
    print(f"  moves already parsed, every rule checked:  {events / t:,.0f} events/s")
    t = best_of(with_undo_stack, repeat, 1)
    print(f"  the same keeping the undo stack:         {events / t:,.0f} events/s")
    print("Circle of Power: random legal games simulated (moves drawn from the legal moves):")
    for players, variant in COP_TABLES[:3]:
        names = ["ann", "bob", "cy", "dee"][:players]

        def run() -> None:
            for seed in range(games // 2):
                simulate(names, variant, seed, level=0)

        t = best_of(run, max(2, repeat // 2), 1)
        print(f"  {players} players, {variant}: {games // 2 / t:,.0f} games/s")


RAB_TABLES = (2, 3, 4, 5, 6)


def bench_ruse_and_bruise(games: int, repeat: int) -> None:
    """Ruse and Bruise: whole games replayed from their records, every rule checked (the
    distribution of every round included); the records as one player's companion keeps them
    (hidden hands and placements, B29); random games simulated."""
    from companion.games.ruse_and_bruise.policies import simulate as rab_simulate
    from companion.games.ruse_and_bruise.values import EXAMPLE
    from companion.games.ruse_and_bruise.view import kept_by

    names = ["ann", "bob", "cy", "dee", "eve", "fay"]
    print(f"Ruse and Bruise: validated replay ({games} simulated games, 2-6 players, random and rule-of-thumb players):")
    full: list[tuple[list[str], object, list[object]]] = []
    kept: list[list[str]] = []
    events = rounds = 0
    for k in range(games):
        players = names[: RAB_TABLES[k % len(RAB_TABLES)]]
        setup, moves = rab_simulate(players, EXAMPLE, 3000 + k, "rule-of-thumb" if k % 2 else "random")
        full.append((list(iter_record_lines(setup, moves)), setup, moves))
        kept_setup, kept_moves = kept_by(setup, moves, players[k % len(players)])
        kept.append(list(iter_record_lines(kept_setup, kept_moves)))
        events += len(moves)
        rounds += 6

    def from_records() -> None:
        for text, _, _ in full:
            load_game(text)

    def kept_records() -> None:
        for text in kept:
            load_game(text)

    def engine_only() -> None:
        for _, setup, moves in full:
            game = setup.game.new_state(setup, keep_history=False)  # type: ignore[attr-defined]
            for m in moves:
                game.push(m)

    def with_undo_stack() -> None:
        for _, setup, moves in full:
            game = setup.game.new_state(setup)  # type: ignore[attr-defined]
            for m in moves:
                game.push(m)

    # The processor time this process used: the figure for one core even while other work
    # shares the machine (the wall clock's is printed beside it).
    t = best_of(from_records, repeat, 1, clock=time.process_time)
    wall = best_of(from_records, repeat, 1)
    print(f"  records (JSON parsed, every rule checked): {events / t:,.0f} events/s ({rounds / t:,.0f} rounds/s; {events / wall:,.0f} events/s by the wall clock)")
    t = best_of(kept_records, repeat, 1, clock=time.process_time)
    print(f"  the same kept by one player (hidden cards): {events / t:,.0f} events/s")
    t = best_of(engine_only, repeat, 1, clock=time.process_time)
    print(f"  moves already parsed, every rule checked:  {events / t:,.0f} events/s")
    t = best_of(with_undo_stack, repeat, 1, clock=time.process_time)
    print(f"  the same keeping the undo stack:         {events / t:,.0f} events/s")
    print("Ruse and Bruise: games simulated (dealt, every move drawn from the legal moves):")
    for players in (2, 4, 6):
        for level in ("random", "rule-of-thumb"):

            def run() -> None:
                for seed in range(games // 4):
                    rab_simulate(names[:players], EXAMPLE, seed, level)

            t = best_of(run, max(2, repeat // 2), 1)
            print(f"  {players} players, {level}: {games // 4 / t:,.0f} games/s")


LMPD_TABLES = [(2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (3, 4)]
"""Love, Money, Power, Death's benchmark tables: players and nobles (0: as many as they allow)."""

LMPD_TARGET = 100_000
"""Events a second a whole record must replay at, every rule checked, on one core."""


def bench_love_money_power_death(games: int, repeat: int) -> None:
    from companion.games.love_money_power_death.policies import simulate
    from companion.games.love_money_power_death.samples.generate import as_seen_by

    print(f"Love, Money, Power, Death: validated replay ({games} simulated games, 2-6 players, a third kept from one player's view):")
    names = ["ann", "bob", "cy", "dee", "eve", "fay"]
    texts, parsed, events, rounds = [], [], 0, 0
    for k in range(games):
        players, nobles = LMPD_TABLES[k % len(LMPD_TABLES)]
        setup, moves = simulate(names[:players], nobles, 3000 + k, level=k % 2)
        if k % 3 == 2:
            moves = as_seen_by(names[0], moves)
        buf = io.StringIO()
        writer = RecordWriter(buf, setup)
        for m in moves:
            writer.write(m)
        texts.append(buf.getvalue().splitlines())
        parsed.append((setup, moves))
        events += len(moves)
        rounds += len(load_game(texts[-1]).rounds)

    def from_records() -> None:
        for text in texts:
            load_game(text)

    def engine_only() -> None:
        for setup, moves in parsed:
            game = setup.game.new_state(setup, keep_history=False)
            for m in moves:
                game.push(m)

    def with_undo_stack() -> None:
        for setup, moves in parsed:
            game = setup.game.new_state(setup)
            for m in moves:
                game.push(m)

    t = best_of(from_records, repeat, 1, clock=time.process_time)
    verdict = "meets" if events / t >= LMPD_TARGET else "MISSES"
    print(f"  records (JSON parsed, every rule checked): {events / t:,.0f} events/s ({rounds / t:,.0f} rounds/s) of CPU time; {verdict} the {LMPD_TARGET:,} events/s target")
    t = best_of(from_records, repeat, 1)
    print(f"  the same by the wall clock:                {events / t:,.0f} events/s")
    t = best_of(engine_only, repeat, 1, clock=time.process_time)
    print(f"  moves already parsed, every rule checked:  {events / t:,.0f} events/s")
    t = best_of(with_undo_stack, repeat, 1, clock=time.process_time)
    print(f"  the same keeping the undo stack:           {events / t:,.0f} events/s")
    print("Love, Money, Power, Death: random legal games simulated (commits drawn from each player's view):")
    for players, nobles in LMPD_TABLES[:5:2]:
        for level in (0, 1):

            def run() -> None:
                for seed in range(games // 2):
                    simulate(names[:players], nobles, seed, level=level)

            t = best_of(run, max(2, repeat // 2), 1, clock=time.process_time)
            print(f"  {players} players, {'random' if level == 0 else 'rule-of-thumb'}: {games // 2 / t:,.0f} games/s")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench engine")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    games = 20 if args.quick else 60
    bench_captures(repeat)
    bench_replay(games, repeat)
    bench_simulate(games // 2, max(2, repeat // 2))
    bench_circle_of_power(games, repeat)
    bench_ruse_and_bruise(games, repeat)
    bench_love_money_power_death(games * 2, repeat)
    return 0
