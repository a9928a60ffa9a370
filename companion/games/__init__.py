"""The card games the companion plays, each a plug-in behind one protocol
(:mod:`~companion.games.protocol`), found by name or record format through
:mod:`~companion.games.registry`.

- :mod:`~companion.games.rule_of_power`: Rule of Power (rulings R1-R25, ``rop-record/1``).
- :mod:`~companion.games.circle_of_power`: Circle of Power (rulings C1-C20, ``cop-record/1``).
"""
