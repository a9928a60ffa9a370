"""The shell's widgets: the base of every game panel, the status line's, the event log."""
