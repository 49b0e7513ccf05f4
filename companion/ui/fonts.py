"""The CJK font: find it, register it as Kivy's default before any widget exists, and check coverage.

Kivy's bundled Roboto has no Japanese or Chinese glyphs (they would show as tofu boxes), so
`register_default_font` must run before the first Label is built. `covered_codepoints` reads the
font's own cmap table (pure Python, no fontTools needed) so a test can prove that every character of
every catalogue has a glyph.
"""

from __future__ import annotations

import os
import struct
from functools import cache
from pathlib import Path

from ..errors import CompanionError, ErrorText
from ..i18n import N_

# Noto Sans CJK covers kana, kanji and traditional hanzi in one file; the first face of the .ttc
# (the one SDL2_ttf opens) is the Japanese one, which has every Traditional Chinese character too.
CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)
FONT_ENV = "COMPANION_FONT"


def find_cjk_font() -> Path:
    """The font file to use: $COMPANION_FONT, else the first installed candidate."""
    override = os.environ.get(FONT_ENV)
    if override:
        path = Path(override)
        if not path.is_file():
            raise CompanionError(message=ErrorText.of(N_("{setting}: no such font file"), setting=f"{FONT_ENV}={override}"))
        return path
    for candidate in CANDIDATES:
        if Path(candidate).is_file():
            return Path(candidate)
    raise CompanionError(message=ErrorText.of(
        N_("no CJK font found (looked for {paths}); install {package} ({command}) or set {variable} to a "
           ".ttc/.otf/.ttf covering Japanese and Chinese"),
        paths=", ".join(CANDIDATES), package="fonts-noto-cjk", command="make system-deps", variable=FONT_ENV))


def register_default_font(path: Path | None = None) -> Path:
    """Make the CJK font Kivy's default; call before any widget is created."""
    from kivy.core.text import DEFAULT_FONT, LabelBase

    path = path or find_cjk_font()
    bold = path.with_name(path.name.replace("Regular", "Bold"))  # Noto ships both weights side by side
    LabelBase.register(DEFAULT_FONT, str(path), fn_bold=str(bold) if bold != path and bold.is_file() else None)
    return path


def _first_face_offset(data: bytes) -> int:
    if data[:4] == b"ttcf":
        (offset,) = struct.unpack_from(">I", data, 12)  # header: tag, version, numFonts, offsets[]
        return offset
    return 0


def _cmap_offset(data: bytes, face: int) -> int:
    (num_tables,) = struct.unpack_from(">H", data, face + 4)
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, face + 12 + 16 * i)
        if tag == b"cmap":
            return offset
    raise ValueError("font has no cmap table")


def _format4(data: bytes, at: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, at + 6)[0]
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg_x2)
    range_at = at + 16 + 3 * seg_x2
    range_offsets = struct.unpack_from(f">{segs}H", data, range_at)
    codes: set[int] = set()
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if range_offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + range_offsets[i] + 2 * (code - starts[i])
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return codes


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    codes: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        for code in range(start, end + 1):
            if glyph + (code - start):
                codes.add(code)
    return codes


@cache
def covered_codepoints(path: str) -> frozenset[int]:
    """Every code point the font (its first face) maps to a real glyph (not .notdef)."""
    data = Path(path).read_bytes()
    face = _first_face_offset(data)
    cmap = _cmap_offset(data, face)
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    best: set[int] = set()
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if platform not in (0, 3):  # Unicode and Windows-Unicode subtables only
            continue
        at = cmap + offset
        (fmt,) = struct.unpack_from(">H", data, at)
        if fmt == 12:
            best |= _format12(data, at)
        elif fmt == 4:
            best |= _format4(data, at)
    return frozenset(best)


def missing_glyphs(text: str, path: str | Path) -> set[str]:
    """The characters of `text` the font cannot draw (whitespace and control characters aside)."""
    covered = covered_codepoints(str(path))
    return {ch for ch in text if not ch.isspace() and ord(ch) >= 0x20 and ord(ch) not in covered}
