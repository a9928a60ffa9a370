"""The Textual dashboard: the table's scorekeeper and rules teacher, for any game.

:class:`~companion.dashboard.app.DashboardApp` shows a game fed by a move source
(:mod:`companion.dashboard.sources`): the demo table, a record replayed, manual entry, or
the sensor tracker. What it shows and asks in a game's own terms comes from the game's
dashboard kit (:mod:`companion.dashboard.kit`).
"""
