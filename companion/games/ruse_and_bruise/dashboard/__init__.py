"""Ruse and Bruise at the table by keyboard, on the dashboard's basic parts
(:class:`~companion.dashboard.basic.BasicKit`).

The table panel shows the round's goal cards as columns, each card under them in order: a
face-down card as its owner's back (``[blue]``; the screen is shared, so a card the companion
knows is still shown as a back, B8), a face-up card by name; each column's count (n of m, B16)
and the Storm that closed it (B13). The keeper types what happens in the table's own words
(:data:`.kit.ENTRY_SYNTAX`); what the rules decide alone (an Explorer's move, the Assassin's victim,
a Storm, the distribution, B11-B13, B18-B26) the companion makes by itself. The settlement of a
round goes column by column and step by step (what the Musketeers cancel, what the Wizard and
the Witch remove, the Prince and Squire, each card's value and why, the winner), then every
player's goal cards and score with and without the doubling (B28).

- :mod:`.kit`: the kit (:class:`~.kit.RabKit`): table panel, entry words, the table's moves;
- :mod:`.screens`: the scores panel and the settlement, step by step;
- :mod:`.demo`: the demo table (``rop demo --game ruse-and-bruise``).
"""
