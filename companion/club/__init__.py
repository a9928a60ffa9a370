"""The club: an archive of every table's games, standings and ratings, and a live page, the
same for every game.

- :mod:`~companion.club.parts` what a game provides to the club (its figures, its standings'
  columns, its words for the page), through ``game.club()``; the club imports no game.
- :mod:`~companion.club.schema` the tables of the archive; :mod:`~companion.club.database`
  opens it (SQLite or PostgreSQL) and brings its schema up to date with the migrations.
- :mod:`~companion.club.identity` a game's identity; :mod:`~companion.club.archive` adds
  records (replayed by their game's rules first) and reads them back.
- :mod:`~companion.club.standings` standings, ratings and a player's history, per game.
- :mod:`~companion.club.live` the games being played now; :mod:`~companion.club.server` the
  web server (table posts, the spectators' page), its endpoints in
  :mod:`~companion.club.endpoints`; :mod:`~companion.club.tokens` the tables'
  tokens; :mod:`~companion.club.feed` the table's side: events sent as they happen;
  :mod:`~companion.club.fanout` several server processes on one PostgreSQL archive.
"""
