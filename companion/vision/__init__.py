"""From a camera frame to an Observation: sources, calibration, board location, observers.

Knows nothing of rules: never imports companion.games, referee, feedback or ui.
"""
