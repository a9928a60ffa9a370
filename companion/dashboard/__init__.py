"""The Textual dashboard: the table's scorekeeper and rules teacher.

:class:`~companion.dashboard.app.DashboardApp` shows a game fed by a move source
(:mod:`companion.dashboard.sources`): the demo table, a record replayed, manual entry, or
the sensor tracker.
"""
