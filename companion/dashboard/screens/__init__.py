"""The shell's screens: the frame of a game's table screen (:mod:`.table`), what the shell asks
of a game's settlement (:mod:`.settlement`), help, the coach's hint and the tracker's questions.
A game's own screens and dialogs are in its package (its dashboard kit)."""
