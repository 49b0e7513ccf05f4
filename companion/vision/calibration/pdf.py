"""A minimal PDF writer: one page of a given size with one greyscale image at an exact size.

Enough for printable targets at true scale (print at 100 %, "actual size"), no dependency.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

PT_PER_MM = 72.0 / 25.4


def pdf_bytes(image: np.ndarray, page_mm: tuple[float, float], image_mm: tuple[float, float, float, float]) -> bytes:
    """image: greyscale uint8 H×W; image_mm: (left, top, width, height) on the page, in mm."""
    if image.ndim != 2 or image.dtype != np.uint8:
        raise ValueError("expected a greyscale uint8 image")
    h_px, w_px = image.shape
    page_w, page_h = (v * PT_PER_MM for v in page_mm)
    left, top, width, height = (v * PT_PER_MM for v in image_mm)
    bottom = page_h - top - height  # PDF's origin is the page's bottom-left corner
    data = zlib.compress(np.ascontiguousarray(image).tobytes(), 9)
    content = f"q {width:.4f} 0 0 {height:.4f} {left:.4f} {bottom:.4f} cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.4f} {page_h:.4f}] "
         "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w_px} /Height {h_px} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_pdf(path: Path, image: np.ndarray, page_mm: tuple[float, float],
              image_mm: tuple[float, float, float, float]) -> None:
    Path(path).write_bytes(pdf_bytes(image, page_mm, image_mm))
