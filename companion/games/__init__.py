"""The card games the companion plays, each a plug-in implementing the contract
(:mod:`companion.contract`), found by name or record format through
:mod:`companion.contract.registry`. They are the top floor: a game may use every host for its
parts, and nothing below imports a game.

- :mod:`~companion.games.rule_of_power`: Rule of Power (rulings R1-R25, ``rop-record/1``).
- :mod:`~companion.games.circle_of_power`: Circle of Power (rulings C1-C20, ``cop-record/1``).
"""
