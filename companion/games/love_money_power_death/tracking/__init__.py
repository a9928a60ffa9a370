"""Following a Love, Money, Power, Death table by its camera and NFC readers: what the table
should show (:mod:`.table`) and the tracker's reasoning (:mod:`.reasoner`)."""
