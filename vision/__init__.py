"""Seal markers and the overhead camera: printing markers, calibrating the table, detecting
cards and steadying what the frames show into observations.

The public pieces (each in its own module; heavy dependencies load on import of that module):

- :mod:`vision.markers`: the id scheme (``SealMarker``, ``MatCorner``, ``decode``);
- :mod:`vision.layout`: table layouts and zones (``load_layout``);
- :mod:`vision.reader`: ``TableReader`` reads cards from an image;
- :mod:`vision.stabiliser`: ``Stabiliser`` turns readings into ``CardSeen``/``CardGone``;
- :mod:`vision.camera` and :mod:`vision.watch`: frames from a camera or video, the live loop;
- :mod:`vision.render`: the virtual overhead table for tests, benchmark and demo.

See ``docs/vision.md``.
"""
