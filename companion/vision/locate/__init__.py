"""Where a board region lies in the camera image: a homography per height level.

Three ways to find it, each giving a `BoardLocation` (board millimetres → image pixels at level 0):
markers on a play mat or stickers (markers.py), the board's own grid lines (gridlines.py), or four
corners tapped on the touchscreen or given on the command line (corners.py). With the camera's
intrinsics (or a default focal length) the level-0 homography is lifted to any height (location.py).
"""

from .location import BoardLocation, LocateError

__all__ = ["BoardLocation", "LocateError"]
