"""Garden speed, ninth sitting: what a made observer has ready before its first read."""

from __future__ import annotations

from companion.sim.camera import region_geometry
from companion.vision.observers.babylon_garden import GardenObserver
from companion.vision.observers.garden_history_view import FaceView, face_view
from tests.sim.helpers import GAMES, camera_for


def test_history_view_of_the_faces_is_made_with_the_observer():
    observer = GardenObserver(region_geometry(camera_for(GAMES["babylon.garden"])))
    made = observer.__dict__.get("_history_faces")
    assert isinstance(made, FaceView) and made.geometry is observer.sampler.geometry
    assert face_view(observer) is made  # the first read with history builds nothing
