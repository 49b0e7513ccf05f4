"""Observers: rectified views of one board region → an Observation with a confidence per cell.

Each region's observer lives in the module named after the region (`babylon.garden` →
`babylon_garden.py`) and is the class there whose `region` attribute names it.
"""

from __future__ import annotations

import importlib


def observer_class(region: str) -> type | None:
    """The observer class of a region, or None when this build has no observer for it."""
    module_name = f"{__name__}.{region.replace('.', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise  # a broken observer must not look like a missing one
    for value in vars(module).values():
        if isinstance(value, type) and getattr(value, "region", None) == region and hasattr(value, "observe"):
            return value
    return None
