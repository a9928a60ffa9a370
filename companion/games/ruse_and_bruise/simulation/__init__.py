"""What a game of Ruse and Bruise looks like to the table's sensors, step by step: to NFC
readers, a reader at each column (:mod:`~companion.games.ruse_and_bruise.simulation.taps`),
and to an overhead camera (:mod:`~companion.games.ruse_and_bruise.simulation.staging`, filmed
by :mod:`~companion.games.ruse_and_bruise.simulation.camera`); what a table with a camera alone
types (:mod:`~companion.games.ruse_and_bruise.simulation.keys`) and how a move tracked compares
with the move played (:mod:`~companion.games.ruse_and_bruise.simulation.compare`). The games
themselves come from :func:`companion.games.ruse_and_bruise.policies.simulate`. For tests and
benchmarks."""
