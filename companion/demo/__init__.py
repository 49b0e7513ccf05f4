"""The built-in simulated games `companion run` plays when no camera is found.

Each game is a recorded game (games/<game>.json, the saves.py record format) and a script built
from it: hands coming and going, lighting drift, one illegal action the referee must catch, one
correction (a move taken back with the undo button), the camera dropping out once. The table is
rendered by the digital twin when it and an observer are present; otherwise the same script is
played at the observation level (what an observer would read, with noise on the cells).
"""
