"""The card games the companion plays, each a plug-in implementing the contract
(:mod:`companion.contract`), found by name or record format through
:mod:`companion.contract.registry`. They are the top floor: a game may use every host for its
parts, and nothing below imports a game.

- :mod:`~companion.games.rule_of_power`: Rule of Power (rulings R1-R25, ``rop-record/1``).
- :mod:`~companion.games.circle_of_power`: Circle of Power (rulings C1-C20, ``cop-record/1``).
- :mod:`~companion.games.ruse_and_bruise`: Ruse and Bruise (rulings B1-B29, ``rab-record/1``).
"""

SHIPPED: dict[str, tuple[str, str]] = {
    "rule-of-power": ("companion.games.rule_of_power:GAME", "rop-record/1"),
    "circle-of-power": ("companion.games.circle_of_power:GAME", "cop-record/1"),
    "ruse-and-bruise": ("companion.games.ruse_and_bruise:GAME", "rab-record/1"),
    "love-money-power-death": ("companion.games.love_money_power_death:GAME", "lmpd-record/1"),
}
"""The games shipped with the companion, by name: where each game's plug-in object is (a
``module:attribute`` path, imported only when the game is first asked for) and the record
format it reads, so that a record's reader imports its own game alone. A game packaged apart
registers under the entry-point group ``companion.games`` instead."""

DEFAULT = "rule-of-power"
"""The game every command plays when none is named."""
