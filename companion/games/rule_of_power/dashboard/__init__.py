"""Rule of Power at the dashboard: its kit (:mod:`.kit`, handed out by ``GAME.dashboard()``),
its table screen and panels (:mod:`.table`, :mod:`.widgets`), its dialogs (:mod:`.screens`:
the settlement, set-up, deal and capture choice), its words (:mod:`.commentary`, :mod:`.log`),
manual play (:mod:`.entry`, :mod:`.manual`, :mod:`.tablesetup`) and the demo table
(:mod:`.demo`)."""
