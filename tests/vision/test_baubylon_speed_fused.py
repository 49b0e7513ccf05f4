"""The Baubylon read's fifth-sitting speed pass (observers/baubylon_speed.py and the steps it feeds):
several small arrays passed through each step together. Each must give the very same numbers as
the plain formulation it replaced, so readings do not change with the speed work."""

from __future__ import annotations

import numpy as np

from companion.benchmarking import vision as bench
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.vision.appearance import AppearanceProfile
from companion.vision.boards import BAUBYLON
from companion.vision.observers import baubylon, stack_sampling
from companion.vision.observers.baubylon_speed import block_outline_terms
from companion.vision.observers.stack_sampling import (
    Outline,
    ProbeSamples,
    along_side,
    outline,
    seam_evidence,
)
from tests.sim.helpers import GAMES, camera_for

RNG = np.random.default_rng(53)
LEVELS = 5  # the table and four block levels
SPACES = BAUBYLON.rows * BAUBYLON.cols


def _lab(shape) -> np.ndarray:
    return np.stack([RNG.uniform(10, 95, shape), RNG.uniform(-50, 50, shape), RNG.uniform(-50, 50, shape)],
                    axis=-1).astype(np.float32)


def _lines() -> Outline:
    """Block-top outlines of random colours (S, levels − 1, 4 sides, 4 positions, 5 offsets)."""
    across = _lab((SPACES, LEVELS - 1, 4, 4, 5))
    reference = _lab((SPACES, LEVELS - 1))
    # Some faces like their reference inside, so the likeness terms are not all ~0.
    across[::3, :, :, :, :2] = reference[::3, :, None, None, None, :] + RNG.normal(0, 3, (1, 1, 1, 1, 2, 3))
    samples = ProbeSamples(np.zeros((SPACES, LEVELS - 1, 0, 3), np.float32), across, (-2.0, -1.0, 0.0, 1.0, 2.0))
    return outline(samples, reference)


def _per_level(values: np.ndarray) -> np.ndarray:
    """BaubylonObserver._per_level: zeros on the table level, (rows, cols, levels, 4)."""
    padded = np.concatenate([np.zeros((len(values), 1, 4), values.dtype), values], axis=1)
    return padded.reshape(BAUBYLON.rows, BAUBYLON.cols, -1, 4)


def test_block_outline_terms_are_the_four_plain_terms():
    lines = _lines()
    expected = RNG.uniform(-0.5, 0.5, (SPACES, LEVELS - 1, 4)).astype(np.float32)
    evidence, seams, alike, inside = block_outline_terms(lines, expected, 15.0)
    plain = Outline(lines.crossing, lines.step, lines.inside, lines.outside, lines.middle)  # its own like cache
    want_alike = along_side(np.exp(-((plain.inside / 15.0) ** 2) - (plain.outside / 15.0) ** 2))
    for got, want in ((evidence, plain.evidence(expected)), (seams, seam_evidence(plain)),
                      (alike, want_alike), (inside, along_side(plain.inside_like(15.0)))):
        assert got.shape == (BAUBYLON.rows, BAUBYLON.cols, LEVELS, 4)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, _per_level(want))
    assert evidence.max() > 0.1 and seams.max() > 0.0 and alike.max() > 0.1  # the terms are not all 0


def test_block_outline_terms_with_another_likeness_scale():
    lines = _lines()
    expected = np.zeros((SPACES, LEVELS - 1, 4), np.float32)
    _, _, alike, inside = block_outline_terms(lines, expected, 9.0)
    plain = Outline(lines.crossing, lines.step, lines.inside, lines.outside, lines.middle)
    np.testing.assert_array_equal(alike, _per_level(along_side(np.exp(-((plain.inside / 9.0) ** 2)
                                                                     - (plain.outside / 9.0) ** 2))))
    np.testing.assert_array_equal(inside, _per_level(along_side(plain.inside_like(9.0))))


def test_block_tops_meeting_is_the_pairwise_comparison_of_the_tops_read():
    observer = GAMES["baubylon"].observer(region_geometry(camera_for(GAMES["baubylon"], tilt=30.0, azimuth=-60.0)))
    levels = len(observer.levels)
    for _ in range(5):
        raised = RNG.permutation(SPACES)[: int(RNG.integers(2, 90))]
        level = RNG.integers(1, levels, len(raised))
        where = observer.block_pixels[raised, level]
        plain = baubylon._apart(where) < 0.25 * observer.block_px[raised, level]
        at = raised * levels + level
        np.testing.assert_array_equal(observer._tops_meet[at[:, None], at], plain)


def test_rebalance_each_broadcasting_to_a_larger_shape_still_balances_each():
    lab = _lab((1,))[0]  # one colour...
    gains = RNG.uniform(0.6, 1.6, (7, 5, 3)).astype(np.float32)  # ...balanced with many gains
    plain = stack_sampling.to_lab(stack_sampling.lab_to_bgr(lab) * gains)
    got = stack_sampling.rebalance_each(lab, gains)
    assert got.shape == (7, 5, 3)
    np.testing.assert_array_equal(got, plain)


def test_block_colour_and_table_balanced_in_one_call_are_two_calls_numbers():
    """_blocks balances the learned block colour (with 1 / gains) and the 144 table colours (with the
    gains) in one rebalance_each: each colour is converted on its own (the Lab → BGR conversion's
    vector blocks of 8: 144 is a whole number of them), so the numbers are those of two calls."""
    block = np.broadcast_to(_lab((1,)), (SPACES, 3))
    table = _lab((SPACES,))
    gains = RNG.uniform(0.6, 1.6, (SPACES, 3)).astype(np.float32)
    both = stack_sampling.rebalance_each(np.concatenate([block, table]), np.concatenate([1.0 / gains, gains]))
    np.testing.assert_array_equal(both[:SPACES], stack_sampling.rebalance_each(block, 1.0 / gains))
    np.testing.assert_array_equal(both[SPACES:], stack_sampling.rebalance_each(table, gains))


def test_nan_median_is_np_nanmedian_along_the_grid():
    for rows in (1, 7, 97):
        values = _lab((rows, 9))
        counted = RNG.random((rows, 9)) < 0.6
        counted[:, :3] = True  # _pawn_part asks for at least three
        count = counted.sum(axis=1)
        part = np.where(counted[:, :, None], values, np.nan)
        got = baubylon._nan_median(part, count)
        assert got.shape == (rows, 3) and got.dtype == part.dtype
        np.testing.assert_array_equal(got, np.nanmedian(part, axis=1).astype(part.dtype))


def test_small_median_of_a_strided_grid_is_np_median():
    grid = _lab((40, 16))[:, ::2]  # a view, not contiguous
    np.testing.assert_array_equal(stack_sampling.small_median(grid), np.median(grid, axis=-2))
    grid = _lab((40, 9))
    np.testing.assert_array_equal(stack_sampling.small_median(grid), np.median(grid, axis=-2))


def test_planes_summed_by_add_reduce_are_summed_in_order():
    """_read_pawns' first look sums the grid's planes with np.add.reduce along the outer axis:
    plane by plane, in order, as the loop it replaced (and np.mean)."""
    planes = _lab((9, SPACES, 13))
    total = planes[0].copy()
    for plane in planes[1:]:
        total += plane
    np.testing.assert_array_equal(np.add.reduce(planes, axis=0), total)


def _observer():
    game = GAMES["baubylon"]
    return game.observer(region_geometry(camera_for(game, tilt=30.0, azimuth=-60.0)))


def test_first_block_pass_is_the_general_formula_with_every_neighbour_on_the_table():
    observer = _observer()
    rows, cols, levels = BAUBYLON.rows, BAUBYLON.cols, len(observer.levels)
    evidence, seams = RNG.random((rows, cols, levels, 4)), RNG.random((rows, cols, levels, 4)) * 0.3
    evidence[RNG.random(evidence.shape) < 0.3] = 0.0  # sides that show nothing
    terms = observer._block_terms(RNG.random((rows, cols)), evidence, seams, RNG.random((rows, cols, levels, 4)),
                                  RNG.random((rows, cols)) < 0.2)
    got = observer._block_scores_given(terms, np.zeros((rows, cols), int), False)
    # The general formula (as _block_scores_given computes any other pass), neighbours all at 0.
    beyond = np.zeros((1, 4, rows, cols), int)
    value = observer._level_values
    use = (beyond == 0) | (observer._near_first & (beyond < value)) | (observer._far_first & (beyond > value))
    w_edge = np.where(use, terms["edge"], 0.0)
    w_seam = np.where(np.zeros(use.shape, bool), observer._weight_first, 0.0)
    total = baubylon._sum_sides_first(w_edge) + baubylon._sum_sides_first(w_seam)
    shown = baubylon._sum_sides_first(terms["evidence"] * w_edge)
    scores = (shown + baubylon._sum_sides_first(terms["joints"] * w_seam)) / np.maximum(total, 1e-6)
    scores[0] = terms["table"]
    support = shown + baubylon._sum_sides_first(terms["seams"] * w_seam)
    np.testing.assert_array_equal(got[0], scores.transpose(1, 2, 0))
    np.testing.assert_array_equal(got[1], support.transpose(1, 2, 0))


def test_column_shows_judged_for_the_stacks_only_is_the_same_there():
    observer = _observer()
    unlike = RNG.uniform(0, 40, (SPACES, observer.top))
    top = RNG.integers(1, observer.top + 1, SPACES)
    stacked = RNG.random(SPACES) < 0.3
    got = observer._stacks_column_shows(unlike, top, stacked).reshape(SPACES, -1)
    every = observer._column_shows(unlike, top)
    np.testing.assert_array_equal(got[stacked], every[stacked])
    assert got[~stacked].all()


def test_a_partial_look_made_once_gives_the_part_and_the_reference_as_made_afresh():
    samples = {}
    for name in (baubylon.TABLE, baubylon.BLOCK, *baubylon.PAWN_CLASSES):
        centre = _lab((1,))[0]
        samples[name] = [np.concatenate([centre + RNG.normal(0, 3, 3), RNG.uniform(1, 3, 3)]) for _ in range(12)]
    profile = AppearanceProfile.learn(BAUBYLON.region, samples)
    grids = _lab((40, 9))
    gains = RNG.uniform(0.7, 1.4, (40, 3)).astype(np.float32)
    looked = baubylon._unlike_part(grids, gains, profile)
    fresh = baubylon.BaubylonObserver._pawn_part(grids, gains, profile)
    given = baubylon.BaubylonObserver._pawn_part(grids, gains, profile, looked)
    assert (fresh is None) == (given is None)
    if fresh is not None:
        np.testing.assert_array_equal(fresh[0], given[0])
        np.testing.assert_array_equal(fresh[1], given[1])
    whole = stack_sampling.small_median(grids)[:, None, :]
    np.testing.assert_array_equal(baubylon._part_reference(whole, grids, gains, profile, looked[1]),
                                  baubylon._part_reference(whole, grids, gains, profile))


def test_partial_pawn_scores_from_the_first_look_are_those_sampled_afresh():
    """_partial_pawn_scores given _read_pawns' look (its interiors and colour supports) scores its
    candidates as when it samples and judges them itself (bench seed 0, frame 0: a white pawn
    partly behind a standing block, and other candidates of the first look)."""
    camera, observer = bench.bench_setup("baubylon", 0, 0)
    _, scene = bench.bench_scene("baubylon", 0, 0)
    image = render(scene, camera, seed=0)
    profile = observer.profile
    _, pawn_offsets = observer._learned_offsets(profile)
    gains = observer._light_gains(image, profile)
    *_, unlike, look = observer._read_pawns(image, profile, pawn_offsets, gains)
    squares, heights = np.nonzero(unlike > baubylon._PAWN_UNLIKE)
    assert len(squares) > 20
    given = observer._partial_pawn_scores(image, profile, pawn_offsets, gains, squares, heights, look)
    fresh = observer._partial_pawn_scores(image, profile, pawn_offsets, gains, squares, heights)
    np.testing.assert_array_equal(given[0], fresh[0])
    np.testing.assert_array_equal(given[1], fresh[1])


def test_neighbours_by_index_are_the_padded_neighbours():
    observer = _observer()
    for _ in range(5):
        heights = RNG.integers(0, 5, (BAUBYLON.rows, BAUBYLON.cols)) * 2
        np.testing.assert_array_equal(observer._neighbours_first(heights), baubylon._beside_first(heights))


def test_no_better_top_hidden_judged_on_the_few_pairs_is_the_whole_mask():
    observer = _observer()
    others = observer.hiding_other
    for _ in range(20):
        levels = RNG.integers(0, len(observer.levels), (BAUBYLON.rows, BAUBYLON.cols))
        support = RNG.random((BAUBYLON.rows, BAUBYLON.cols, len(observer.levels)))
        flat = levels.ravel()
        tops = observer.levels[flat]
        shown = support.reshape(SPACES, -1)[np.arange(SPACES), flat]
        hidden = (observer.hiding_nearer & (tops[others] > tops[:, None]) & (tops[:, None] > 0)
                  & observer._hides(tops, tops[others]) & (shown[:, None] > shown[others] * baubylon._HIDDEN_SHOWS))
        plain = np.ones((SPACES, len(observer.levels)), bool)
        plain[others[hidden], flat[others[hidden]]] = False
        np.testing.assert_array_equal(observer._hides_no_better_top(levels, support).reshape(SPACES, -1), plain)


def test_any_hides_on_the_pairs_is_the_whole_table_lookup():
    observer = _observer()
    others = observer.hiding_other
    for table in (None, observer._hiding_part_flat):
        for _ in range(20):
            own = RNG.integers(0, observer.top + 1, SPACES)
            beside = RNG.integers(0, observer.top + 1, SPACES)[others]
            pairs = observer.hiding_nearer & (beside > own[:, None])
            plain = (pairs & observer._hides(own, beside, table)).any(axis=1)
            np.testing.assert_array_equal(observer._any_hides(own, beside, pairs, table), plain)
