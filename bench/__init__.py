"""Benchmarks: ``./run bench`` runs them all, ``./run bench NAME...`` some (``python -m bench``).

Each ``bench/bench_<name>.py`` has a ``main(argv) -> int`` that measures and prints its figures.
"""
