"""Baubylon: a space whose likeliest stack top was another stack's gets its next likeliest judged
(issue #5; one top seen in the frame is one stack).

_one_stack_per_top gives a top seen along one ray to one stack. The space that lost it used to
read bare, though its next likeliest top (its own pawn, lower) did not meet any other."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.observers import baubylon as B
from tests.vision.bench_frames import bench_frame, sure_and_wrong


@pytest.fixture(scope="module")
def frame():
    """Bench frame 127 of seed 1: its layout, image and calibrated observer (made once)."""
    return bench_frame("baubylon", 1, 127)


def _meeting_pair(observer):
    """Two spaces and tops (pawn-height indices) whose places in the frame meet, and a lower top
    of the first space that meets neither."""
    pixels, widths = observer.pawn_pixels, observer.pawn_px
    flat = pixels.reshape(-1, 2)
    for a in range(0, len(pixels), 7):
        for ta in range(2, 6):
            d = np.hypot(*(flat - pixels[a, ta]).T).reshape(pixels.shape[:2])
            d[a] = np.inf
            b, tb = np.unravel_index(np.argmin(d), d.shape)
            if d[b, tb] < 0.25 * widths[b, tb] and tb < ta:
                lower = ta - 2
                if np.hypot(*(pixels[a, lower] - pixels[b, tb])) > widths[b, tb]:
                    return a, ta, b, tb, lower
    raise AssertionError("no meeting pair in this geometry")


def test_the_next_likeliest_top_is_judged_when_the_likeliest_was_taken(frame):
    observer = frame[2]
    a, ta, b, tb, lower = _meeting_pair(observer)
    scores = np.zeros((len(observer.pawn_pixels), observer.top))
    scores[b, tb] = 0.9  # the surer stack keeps the place
    scores[a, ta] = 0.6  # a's likeliest top lies there too: it is b's
    scores[a, lower] = 0.5  # a's own, lower, meets nothing
    once = observer._one_stack_per_top(scores)
    assert once[a].max() == 0.0  # one pass: a reads bare
    out = observer._one_stack_per_space(scores)
    assert out[b, tb] == 0.9
    assert out[a].argmax() == lower and out[a, lower] == 0.5 and out[a, ta] == 0.0


def test_a_space_with_no_other_top_above_the_bar_stays_bare(frame):
    observer = frame[2]
    a, ta, b, tb, lower = _meeting_pair(observer)
    scores = np.zeros((len(observer.pawn_pixels), observer.top))
    scores[b, tb], scores[a, ta], scores[a, lower] = 0.9, 0.6, B._NO_PAWN - 0.01
    out = observer._one_stack_per_space(scores)
    assert out[a].max() == 0.0 and out[b, tb] == 0.9


def test_a_pawn_whose_top_a_phantom_took_is_read(frame):
    # Bench frame 127 of seed 1: a blue pawn on the table at (6, 6); its top, seen along the same
    # ray as a taller top at (4, 6), went to a phantom stack there (read 8 high with a blue pawn).
    layout, image, observer = frame
    expected = layout.expected()
    assert expected[6][6][1] == {"height": 0, "pawns": ["blue"]}
    assert expected[4][6][1] == {"height": 6, "pawns": []}
    observation = observer.observe(image)
    assert observation.cell(6, 6).attrs == expected[6][6][1]
    assert observation.cell(4, 6).attrs == expected[4][6][1]
    assert sure_and_wrong(observation, expected) == []
