"""Line breaking for Japanese and Chinese text with the basic kinsoku rules (JIS X 4051).

Kivy (kivy.core.text.text_layout.layout_text) breaks a line only at ASCII spaces; a "word" wider
than the line is cut after as many characters as fit, wherever that is. CJK text has no spaces, so
Kivy cuts it anywhere: a line can start with 。、」） or end with 「（, and "90 %" or a Latin word can
be torn apart. Here the lines are broken before Kivy sees them, with the same measuring function
Kivy uses, and joined with newlines (which Kivy always honours):

- no line starts with a closing bracket, small kana, the prolonged sound mark or punctuation
  (。、，．・：；？！」』）】〕］｝〉》 …);
- no line ends with an opening bracket (「『（【〔［｛〈《 …);
- a Latin word, a number and the unit written after it ("90%", "0.4px", "3点") stay whole;
- anywhere else between two CJK characters, and at spaces, a line may break.

Pure Python (no Kivy): `break_lines(text, width, measure)` takes the width in pixels and a
function giving a string's width in pixels.
"""

from __future__ import annotations

from collections.abc import Callable

NBSP = "\u00a0"
SPACES = (" ", NBSP, "\u3000")

# Characters that must not begin a line (JIS X 4051 cl-02 closing brackets, cl-04 hyphens,
# cl-05 dividing punctuation, cl-06/07 middle dots and full stops, cl-11 small kana, plus the
# prolonged sound mark and iteration marks).
NO_LINE_START = frozenset(
    ")]}）］｝〕〉》」』】〙〗〟’”｠»"  # closing brackets and quotes
    "、。，．,.：；:;？！?!‼⁇⁈⁉・･…‥"  # punctuation and leaders
    "ゝゞヽヾ々〻ー〜～‐゠–"  # iteration marks, prolonged sound mark, waves, hyphens
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"  # small kana
    "%％‰°℃′″"  # postfix units
)
# Characters that must not end a line (cl-01 opening brackets and quotes, prefix currency signs).
NO_LINE_END = frozenset("([{（［｛〔〈《「『【〘〖〝‘“｟«$＄￥£€#＃")
# Written straight after a number, these stay on its line ("3点", "2人", "5枚").
UNITS = frozenset("点個枚人回秒分時段階番手名位票歩列行本色マスつ件張層根片塊格輪局次")
LATIN_UNITS = ("px", "mm", "cm", "VP", "%")


def _is_latin(ch: str) -> bool:
    """Part of a Latin word or a number: never broken inside."""
    return ch.isascii() and (ch.isalnum() or ch in "_'-/.:@#&+=*<>%$,") or ch in "０１２３４５６７８９"


def _is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80


def has_cjk(text: str) -> bool:
    return any(_is_cjk(ch) for ch in text)


def may_break_before(text: str, i: int) -> bool:
    """May a line end between text[i - 1] and text[i]?"""
    if i <= 0 or i >= len(text):
        return False
    before, after = text[i - 1], text[i]
    if after in SPACES:
        return False  # break after the space instead (it is dropped at the line's end)
    if before in SPACES:
        if i >= 2 and text[i - 2].isdigit() and (after in UNITS or text[i:i + 2] in LATIN_UNITS):
            return False  # "3 枚", "0.4 px": the translations space numbers, the unit stays
        return after not in NO_LINE_START
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if _is_latin(before) and _is_latin(after):
        return False  # inside a Latin word or a number
    if before.isdigit() and after in UNITS:
        return False
    return _is_cjk(before) or _is_cjk(after)


def clusters(text: str) -> list[str]:
    """The text cut at every place a line may break (joined, they give the text back)."""
    out: list[str] = []
    start = 0
    for i in range(1, len(text)):
        if may_break_before(text, i):
            out.append(text[start:i])
            start = i
    if text:
        out.append(text[start:])
    return out


def break_lines(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """Greedy lines of at most `width` pixels, broken only where the kinsoku rules allow. A
    cluster wider than a whole line is cut by characters (nothing else could show it)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines.extend(_paragraph(paragraph, width, measure))
    return lines


def _paragraph(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """Greedy: a line's width is the sum of its clusters' widths (one short string measured per
    cluster, and those repeat: the caller's measure can cache them). The sum is never less than the
    line measured whole (no kerning between CJK characters, rounding up per piece), so Kivy always
    finds each line fits and adds no break of its own."""
    blank = "".join(SPACES)
    lines: list[str] = []
    line, used = "", 0.0  # used: the width of `line`, trailing blanks included
    for cluster in clusters(text):
        bare = cluster.rstrip(blank)
        if line and used + measure(bare) > width:
            lines.append(line.rstrip(blank))
            cluster = cluster.lstrip(blank)
            bare = cluster.rstrip(blank)
            line, used = "", 0.0
        if used + measure(bare) > width:  # one cluster alone is wider than a line
            pieces = _by_characters(line + cluster, width, measure)
            lines.extend(pieces[:-1])
            line = pieces[-1]
            used = measure(line)
            continue
        line += cluster
        used += measure(cluster)
    lines.append(line.rstrip(blank))
    return lines


def _by_characters(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    out: list[str] = []
    line = ""
    for ch in text:
        if line and measure(line + ch) > width:
            cut = _push_down(line, ch)
            out.append(line[:cut])
            line = line[cut:] + ch
        else:
            line += ch
    out.append(line)
    return out


def _push_down(line: str, ch: str, most: int = 4) -> int:
    """Where to cut `line` when `ch` no longer fits: at its end, or up to `most` characters
    earlier so the next line does not start with 。 or this one end with （ (oidashi)."""
    for cut in range(len(line), max(0, len(line) - most), -1):
        following = line[cut:] + ch
        if following[0] not in NO_LINE_START and line[cut - 1] not in NO_LINE_END:
            return cut
    return len(line)


def wrap(text: str, width: float, measure: Callable[[str], float]) -> str:
    """The text with newlines where its lines break (only CJK text is touched; Kivy wraps Latin
    text at its spaces well enough). Spaces become no-break spaces so Kivy adds no breaks itself."""
    if not has_cjk(text) or width <= 0:
        return text
    return "\n".join(break_lines(text, width, measure)).replace(" ", NBSP)
