"""Love, Money, Power, Death's panels: the round under way (:mod:`.round`), the players with
their piles, hands and courts (:mod:`.players`), the nobles (:mod:`.nobles`), the rounds decided
(:mod:`.rounds`) and the status line (:mod:`.status`)."""
