"""Following a Circle of Power table by its sensors: the tracker's reasoning for this game
(:class:`~companion.games.circle_of_power.tracking.reasoner.CircleTracking`, what
``GAME.tracking()`` returns) and the table as the camera sees it
(:mod:`~companion.games.circle_of_power.tracking.table`)."""
