"""Camera calibration: printable targets, intrinsics from ChArUco views, versioned calibration files.

- intrinsics.py: `Intrinsics` (camera matrix + distortion) and the default when none is measured.
- charuco.py: the ChArUco sheets (A4, A3) and calibration from views of them.
- targets.py + pdf.py: printable targets (ChArUco sheet, marker mat) as PNG and true-scale PDF.
- files.py: reading and writing calibration files (versioned JSON, docs/calibration.md).
"""
