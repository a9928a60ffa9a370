"""What a game of Love, Money, Power, Death looks like to the table's sensors, step by step: to
an overhead camera (:mod:`.staging`, :mod:`.camera`) and to NFC readers (:mod:`.taps`); and a
tracked move compared with the move played (:mod:`.compare`). The games themselves come from
:func:`companion.games.love_money_power_death.policies.simulate`. For tests and benchmarks."""
