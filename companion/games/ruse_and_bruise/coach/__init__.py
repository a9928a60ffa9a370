"""Ruse and Bruise's coach: what the game-generic coach (:mod:`companion.coach`) needs to know
of Ruse and Bruise, its :class:`~companion.coach.model.CoachModel` (:mod:`.model`).

The coach judges a player's decisions from their view alone: which card to place and in
which column (B8), what to put under their Invisibility Cloak (B14), which goal cards their
Traitor exchanges (B15), each played out to the end of the round on worlds sampled from that
view, the other players deciding from their own views; with the chance to take each column
and to win the game, and the reasons in a newcomer's words.

- :mod:`.reckon`: a column reckoned quickly from what a player sees (B18-B26);
- :mod:`.worlds`: sampled worlds and the playout state;
- :mod:`.policies`: decisions and the quick player of the playouts;
- :mod:`.opponents`: the rule-of-thumb players the coach is measured against;
- :mod:`.outcome`: what a round's end is worth (B26-B28);
- :mod:`.reasons`: reasons and risks in a newcomer's words.
"""
