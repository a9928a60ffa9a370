"""What a game of Circle of Power looks like to the table's sensors, step by step: to an
overhead camera (:mod:`~companion.games.circle_of_power.simulation.staging`) and to NFC
readers (:mod:`~companion.games.circle_of_power.simulation.taps`). The games themselves come
from :func:`companion.games.circle_of_power.policies.simulate`. For tests and benchmarks."""
