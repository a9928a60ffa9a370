"""Game records, for every game: the lines of a record read through a visitor and written one
event at a time (:mod:`~companion.records.format`; each game's events are its codec's, found by
the ``format`` of the record's first line), and the games directory where each game is written
as it is played and resumed after a crash (:mod:`~companion.records.store`)."""
