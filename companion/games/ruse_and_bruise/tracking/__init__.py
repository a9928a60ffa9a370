"""Following a Ruse and Bruise table by its sensors: the tracker's reasoning for this game
(:class:`~companion.games.ruse_and_bruise.tracking.reasoner.RabTracking`, what
``GAME.tracking()`` returns) and the table as the camera sees it
(:mod:`~companion.games.ruse_and_bruise.tracking.table`)."""
