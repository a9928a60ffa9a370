"""Game records: the ``rop-record/1`` format (:mod:`~companion.records.format`), the games
directory where each game is written as it is played (:mod:`~companion.records.store`), and
the completion of a tracked game's face-down hands (:mod:`~companion.records.completion`)."""
