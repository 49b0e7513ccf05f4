"""Camera calibration: printable targets, intrinsics from ChArUco views, versioned calibration files,
and the few-shot appearance capture.

- intrinsics.py: `Intrinsics` (camera matrix + distortion) and the default when none is measured.
- charuco.py: the ChArUco sheets (A4, A3) and calibration from views of them.
- targets.py + pdf.py: printable targets (ChArUco sheet, marker mat) as PNG and true-scale PDF.
- files.py: reading and writing calibration files (versioned JSON, docs/calibration.md).
- layouts.py + layout_diagram.py: the calibration layout per board region (which known pieces go
  where) and its picture for the player.
- capture.py: `AppearanceCapture`, the appearance profile learned from 1-3 checked frames of it.
"""
