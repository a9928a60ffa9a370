"""Circle of Power's part of the club (``GAME.club()``, :mod:`.part`): its figures (seasons,
trophies, draws, knock-outs), its standings' columns, and its words for the live page
(:mod:`.describe`)."""
