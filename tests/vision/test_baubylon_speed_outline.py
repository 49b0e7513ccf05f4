"""The outline kernel's crossing (baubylon_kernels._outline_args: the first offset past halfway,
found without a branch) is stack_sampling.outline's on the profiles where that choice is delicate:
no offset past halfway but the last, every one past it, a profile that falls outward, ties at
halfway, and NaN anywhere."""

from __future__ import annotations

import numpy as np

from companion.vision.observers import baubylon_kernels as kernels
from companion.vision.observers.stack_sampling import ProbeSamples, outline

OFFSETS = (-2.0, -1.0, 0.0, 1.0, 2.0)
PROFILES = [  # colour distance (ΔE in L) from the face at each offset, inside to outside
    (0.0, 0.0, 0.0, 0.0, 40.0),  # past halfway only at the last
    (0.0, 40.0, 40.0, 40.0, 40.0),  # past it at the second
    (40.0, 40.0, 40.0, 40.0, 40.0),  # flat: every offset is "past" halfway
    (40.0, 30.0, 20.0, 10.0, 0.0),  # falls outward: the first is past halfway
    (0.0, 10.0, 20.0, 30.0, 40.0),  # 20 is exactly halfway
    (0.0, 5.0, 20.0, 20.0, 40.0),  # two at halfway
    (np.nan, 10.0, 20.0, 30.0, 40.0),  # NaN inside: halfway is NaN
    (0.0, np.nan, 20.0, 30.0, 40.0),  # NaN before the crossing
    (0.0, 10.0, np.nan, 30.0, 40.0),  # NaN in the middle
    (0.0, 10.0, 20.0, 30.0, np.nan),  # NaN outside
]


def test_crossings_on_delicate_profiles_are_outlines():
    face = np.array([50.0, 0.0, 0.0], np.float32)
    across = np.zeros((1, 1, 4, len(PROFILES), len(OFFSETS), 3), np.float32)
    across[...] = face
    across[0, 0, :, :, :, 0] += np.array(PROFILES, np.float32)[None]
    across[0, 0, 1] = across[0, 0, 1, ::-1]  # another side: the positions in another order
    expected = np.zeros((1, 1, 4), np.float32)
    got = kernels.outline_evidence(across, face[None], OFFSETS, expected)
    samples = ProbeSamples(np.zeros((1, 1, 0, 3), np.float32), across, OFFSETS)
    lines = outline(samples, face[None, None])
    np.testing.assert_array_equal(got, lines.evidence(expected))
    fields = np.empty((5, 1, 1, 4, len(PROFILES)), np.float32)
    args = np.empty((4, 1, 1, 4, len(PROFILES)), np.float32)
    kernels._outline_args(across, face[None], np.asarray(OFFSETS, np.float32), expected, np.float32(15.0), fields, args)
    for index, field in enumerate((lines.crossing, lines.step, lines.inside, lines.outside, lines.middle)):
        np.testing.assert_array_equal(fields[index], field)
    crossing = fields[0][0, 0, 0]  # (the profiles as listed: each a case of its own)
    assert np.isnan(crossing).any() and len(np.unique(crossing[np.isfinite(crossing)])) >= 4
