"""Circle of Power's coach: what the game-generic coach (:mod:`companion.coach`) needs to know
of Circle of Power, its :class:`~companion.coach.model.CoachModel` (:mod:`.model`).

The coach judges a player's decisions from their view alone: which battle card to play (the
chance it wins the initiative, C9, and what the winner could then do) and which act to choose
(conquer or retake which city, or regroup, C10-C14), each played out to the end of the season
on worlds sampled from that view. Dummies decide nothing: their moves are the rules' (C11).

- :mod:`.worlds`: sampled worlds, chance, and the playout state that tallies the acts;
- :mod:`.policies`: decisions and the quick player of the playouts;
- :mod:`.outcome`: what a season's end is worth (C16-C20);
- :mod:`.reasons`: reasons and risks in a beginner's words.
"""
