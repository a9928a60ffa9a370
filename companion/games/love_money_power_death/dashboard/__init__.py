"""Love, Money, Power, Death at the dashboard: its kit (:mod:`.kit`, handed out by
``GAME.dashboard()``), its screens (:mod:`.screens`: the table screen with its panels from
:mod:`.widgets`, and the settlement of each round), its words (:mod:`.words`, :mod:`.log`,
:mod:`.settle`), manual play (:mod:`.entry`, :mod:`.manual`) and the demo table (:mod:`.demo`).

The screen is shared by the whole table, and every player commits face down at once (L6): it
never names a card in a hand, nor a card committed before the reveal (L7). It says who has
committed, and, once the cards are face up, who won the noble and why.
"""
