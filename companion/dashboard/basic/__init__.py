"""The basic parts of a game's dashboard: a kit a new game starts from.

A game that plugs in brings its dashboard kit (:class:`~companion.dashboard.kit.DashboardKit`).
Before it has panels of its own it can derive its kit from :class:`BasicKit`, which makes every
part from the contract alone: the set-up dialog from the game's options, a table screen showing
who decides and the game's score lines, manual play by the moves' words or by number, the
settlement of a period from the score lines, a demo of random players. A game then replaces
one part after another with its own (docs/architecture.md, "How to add a game")."""

from companion.dashboard.basic.kit import BasicKit, BasicTableChoice

__all__ = ["BasicKit", "BasicTableChoice"]
