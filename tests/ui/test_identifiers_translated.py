"""No identifier in a translated sentence: every guidance, ruling, move and score text the engines
give during real games, rendered in Japanese and Chinese, has its phases, materials and flowers in
that language (companion.i18n.IDENTIFIER_NAMES), not as the engine's ASCII identifiers."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from companion.games.api import Message
from companion.i18n import IDENTIFIER_NAMES, translate
from companion.ui.text import render


def _engine_identifiers() -> set[str]:
    """The engines' own phase, material and flower names (not the table under test)."""
    from companion.games.babel.state import STAGES
    from companion.games.babylon.model import DEFAULT_FLOWERS, ICON_COUNT
    from companion.games.babylon.serial import PHASES

    return set(STAGES) | set(PHASES) | set(ICON_COUNT) | set(DEFAULT_FLOWERS)


IDENTIFIERS = _engine_identifiers()
WORD = re.compile(r"[A-Za-z_][A-Za-z_.\d]*")


def _messages(state, pool) -> list[Message]:
    out = list(state.guidance())
    for move in pool:
        try:
            ruling = state.check(move)
        except Exception:  # a move of another position may not even fit this one
            continue
        out += [*ruling.notes, move.describe()]
        for violation in ruling.violations:
            out += [violation.message, violation.fix]
    out += [line.label for line in state.score_sheet().lines]
    return [m for m in out if isinstance(m, Message)]


def _games():
    from companion.demo.records import load_demo
    from companion.games.registry import get

    for game in ("babylon", "reclamation", "babel"):
        demo = load_demo(game)
        yield game, demo.initial, demo.moves
    try:
        spec = get("baubylon")
    except Exception:
        return
    rng = random.Random(3)
    state = spec.new_game(("Ann", "Ben"))
    moves = []
    for _ in range(40):
        legal = list(itertools.islice(state.legal_moves(), 50))
        if state.is_over or not legal:
            break
        moves.append(rng.choice(legal))
        state = state.apply(moves[-1])
    yield "baubylon", spec.new_game(("Ann", "Ben")), tuple(moves)


@pytest.fixture(scope="module")
def messages() -> list[Message]:
    out: list[Message] = []
    for _game, initial, moves in _games():
        state = initial
        for index, move in enumerate(moves):
            if index % 3 == 0:  # legal moves, and moves from nearby positions (mostly illegal here)
                pool = [*itertools.islice(state.legal_moves(), 12), *moves[max(0, index - 6): index + 6]]
                out += _messages(state, pool)
            state = state.apply(move)
    return out


def test_the_games_really_put_identifiers_into_sentences(messages):
    used = {value for m in messages for key, value in m.params if key in IDENTIFIER_NAMES}
    assert {"appoint", "build"} <= used  # babel's stages


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_no_identifier_is_left_in_a_translated_sentence(messages, lang):
    left = {}
    for message in messages:
        if translate(message.msgid, lang) == message.msgid:
            continue  # not translated yet: the catalogue test names those (an engine added it since)
        text = render(message, lang)
        words = {w for w in WORD.findall(text) if "." not in w}  # rule ids (babylon.build.support) stay
        stray = words & IDENTIFIERS | {w for w in words if "_" in w}
        if stray:
            left[message.msgid] = sorted(stray)
    assert not left, list(left.items())[:5]


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_calibration_layout_texts_name_icons_colours_and_flowers_in_the_language(lang):
    """The calibration wizard's layout texts ("tile 3 at level 1, {flower}, icon {icon}",
    "{colour} pawn") in the player's language."""
    from companion.vision import labels
    from companion.vision.calibration.layouts import PAWN_COLOURS, layout_for

    identifiers = IDENTIFIERS | set(PAWN_COLOURS) | set(labels.ICONS) | {f"flower{n}" for n in range(4)}
    seen, left = 0, {}
    for region in ("babylon.garden", "babylon.quarry", "reclamation", "babel", "baubylon"):
        for row in layout_for(region).texts():
            for text in row:
                if text is None:
                    continue
                msgid, params = text
                if translate(msgid, lang) == msgid:
                    continue  # not translated yet: the catalogue test's business
                seen += 1
                words = set(WORD.findall(render(Message.of(msgid, **params), lang)))
                if words & identifiers:
                    left[msgid] = sorted(words & identifiers)
    assert not left, list(left.items())[:5]
    assert seen >= 10  # the layouts' texts are really translated and looked at
