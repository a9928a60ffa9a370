"""The camera-simulated demo table's old address, kept for the callers not yet moved to
:mod:`companion.games.rule_of_power.simulation.camera_sim`, where it lives now (it is Rule of
Power's demo table). To be removed once they import it from there."""

from companion.games.rule_of_power.simulation.camera_sim import CameraSimulation, demo_layout

__all__ = ["CameraSimulation", "demo_layout"]
