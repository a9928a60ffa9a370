"""Ruse and Bruise at the club: its part (:mod:`.part`, handed out by ``GAME.club()``) and its
words for the spectators (:mod:`.describe`)."""
