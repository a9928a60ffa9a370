"""Seal markers and the overhead camera: printing markers, calibrating the table, detecting
and tracking cards."""
