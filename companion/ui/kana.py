"""The kana pad's keys and edits (plain Python): a kiosk has no keyboard and no input method, so
Japanese players tap their names on a gojūon table, then add ゛ ゜ or make a kana small, as on a
phone's kana keypad."""

from __future__ import annotations

# Columns of the gojūon table (a consonant each), rows a-i-u-e-o; "" where the table has a gap.
GOJUON: tuple[tuple[str, ...], ...] = (
    ("あ", "い", "う", "え", "お"),
    ("か", "き", "く", "け", "こ"),
    ("さ", "し", "す", "せ", "そ"),
    ("た", "ち", "つ", "て", "と"),
    ("な", "に", "ぬ", "ね", "の"),
    ("は", "ひ", "ふ", "へ", "ほ"),
    ("ま", "み", "む", "め", "も"),
    ("や", "", "ゆ", "", "よ"),
    ("ら", "り", "る", "れ", "ろ"),
    ("わ", "を", "ん", "ー", "・"),
)

_VOICED = dict(zip("かきくけこさしすせそたちつてとはひふへほう", "がぎぐげござじずぜぞだぢづでどばびぶべぼゔ", strict=True))
_SEMI_VOICED = dict(zip("はひふへほ", "ぱぴぷぺぽ", strict=True))
_SMALL = dict(zip("あいうえおつやゆよわ", "ぁぃぅぇぉっゃゅょゎ", strict=True))
MAX_NAME = 16  # characters: a seat's name must fit its row and the score sheet


def katakana(text: str) -> str:
    """Hiragana → katakana (the same table shifted by 0x60); anything else unchanged."""
    return "".join(chr(ord(ch) + 0x60) if "ぁ" <= ch <= "ゖ" else ch for ch in text)


def hiragana(ch: str) -> str:
    return chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch


def _cycle(text: str, table: dict[str, str]) -> str:
    """Apply (or take back) a mark on the last kana, keeping it in hiragana or katakana."""
    if not text:
        return text
    last = text[-1]
    kata = last != hiragana(last)
    plain = hiragana(last)
    back = {v: k for k, v in table.items()}
    changed = table.get(plain) or back.get(plain)
    if changed is None:
        return text
    return text[:-1] + (katakana(changed) if kata else changed)


def add_voiced(text: str) -> str:
    """゛: か→が, は→ば, う→ゔ (tap again to take it back)."""
    last = hiragana(text[-1]) if text else ""
    if last in "ぱぴぷぺぽ":  # ぱ → ば, like a phone's keypad
        return _cycle(_cycle(text, _SEMI_VOICED), _VOICED)
    return _cycle(text, _VOICED)


def add_semi_voiced(text: str) -> str:
    """゜: は→ぱ (tap again to take it back); ば → ぱ too."""
    last = hiragana(text[-1]) if text else ""
    if last in "ばびぶべぼ":
        return _cycle(_cycle(text, _VOICED), _SEMI_VOICED)
    return _cycle(text, _SEMI_VOICED)


def toggle_small(text: str) -> str:
    """小: つ→っ, や→ゃ … and back."""
    return _cycle(text, _SMALL)


def type_key(text: str, key: str, kata: bool = False) -> str:
    if len(text) >= MAX_NAME:
        return text
    return text + (katakana(key) if kata else key)
