"""UI tests: the plain-Python parts run anywhere; tests marked `ui` need a display (make test runs
pytest under scripts/with-display.sh, which starts Xvfb) and are skipped without one."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return
    skip = pytest.mark.skip(reason="needs a display: run under scripts/with-display.sh (make test)")
    for item in items:
        if item.get_closest_marker("ui") is not None:
            item.add_marker(skip)


@pytest.fixture
def harness():
    """A fresh app on the shared Kivy window, driven by a FakeReferee, at the 7-inch 800×480."""
    from companion.ui.harness import Harness

    built = Harness(800, 480, "en")
    yield built
    built.close()
