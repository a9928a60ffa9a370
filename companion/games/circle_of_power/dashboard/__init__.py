"""Circle of Power at the dashboard: its kit (:mod:`.kit`, handed out by ``GAME.dashboard()``),
its screens (:mod:`.screens`: the table screen with its panels from :mod:`.widgets`, the
season's settlement, the table's set-up, a season's set-up and the choice of a trophy), its
words (:mod:`.words`, :mod:`.log`, :mod:`.recap`), manual play (:mod:`.entry`, :mod:`.manual`,
:mod:`.tablesetup`) and the demo table (:mod:`.demo`)."""
