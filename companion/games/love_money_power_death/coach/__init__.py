"""Love, Money, Power, Death's coach: what the game-generic coach (:mod:`companion.coach`)
needs to know of the game, its :class:`~companion.coach.model.CoachModel` (:mod:`.model`).

The coach judges a player's one kind of decision, the card they commit face down (L6), from
their view alone, whatever the others committed before them: the noble is turned only once
everyone has committed (L7), so each card is weighed against every noble still face down. Each
commit is played out to the end of the game on worlds sampled from that view.

- :mod:`.worlds`: sampled worlds and the table's moves in them;
- :mod:`.policies`: decisions and the quick player of the playouts;
- :mod:`.styles`: the other players' styles in the playouts, weighed by what they revealed;
- :mod:`.outcome`: what a game's end is worth (L13);
- :mod:`.reasons`: reasons and risks in a newcomer's words.
"""
