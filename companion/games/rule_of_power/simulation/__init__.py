"""The simulated table: a virtual table that plays legal games of its own
(:mod:`~companion.games.rule_of_power.simulation.virtual_table`), and what such a game looks like, step by step,
to a camera (:mod:`~companion.games.rule_of_power.simulation.staging`) and to NFC readers
(:mod:`~companion.games.rule_of_power.simulation.taps`). For the demo, tests and benchmarks."""
