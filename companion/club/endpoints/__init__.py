"""The club server's endpoints, each module by what it serves (:func:`companion.club.server.
create_app` wires them together):

- :mod:`.page` the spectators' page (``/``);
- :mod:`.tables` the live tables (``/api/tables``);
- :mod:`.games` the stored games and their replays, and the standings (``/api/games``,
  ``/api/games/{id}``, ``/api/standings``);
- :mod:`.exports` the archive as CSV and a game for BG Stats (``/api/export.csv``,
  ``/api/games/{id}/bgstats``);
- :mod:`.posts` the tables' posts and take-backs (``/api/games/{id}/events/{number}``,
  ``/api/games/{id}/progress``);
- :mod:`.stream` the live stream of every table's state (``/events``);
- :mod:`.others` the posts other server processes store on a shared PostgreSQL archive,
  followed here;
- :mod:`.answers` what every endpoint answers with: JSON and refusals.
"""
