"""Table Companion: watches a physical board game, referees it, scores it and teaches it."""

__version__ = "0.1.0"
