"""Rule of Power at the dashboard: its kit (:mod:`.kit`, handed out by ``GAME.dashboard()``),
its screens (:mod:`.screens`: the table screen with its panels from :mod:`.widgets`, the
settlement, the set-up, deal and capture-choice dialogs), its words (:mod:`.commentary`,
:mod:`.log`), manual play (:mod:`.entry`, :mod:`.manual`, :mod:`.tablesetup`) and the demo
table (:mod:`.demo`)."""
