"""Circle of Power's panels: the status line (:mod:`.status`), the action under way
(:mod:`.action`), the circle with the four cities on it (:mod:`.circle`), the emperors with
their cities, trump suits and lines (:mod:`.emperors`), the seasons' points (:mod:`.seasons`)
and the two decks (:mod:`.decks`)."""
