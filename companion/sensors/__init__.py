"""The sensors of one table started together: the camera (:mod:`vision`), the NFC readers
(:mod:`hardware`) and the camera-simulated demo table, their observations merged into one
stream. This is the one place where the sensor packages meet the rest of the companion."""
