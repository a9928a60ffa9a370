"""Rule of Power's part of the club (``GAME.club()``, :mod:`.part`): its figures, its
standings' columns, its words for the live page (:mod:`.describe`), and its figures read back
in the shape of their own tables (:mod:`.tables`)."""
