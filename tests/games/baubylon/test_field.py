"""The field: units of blocks (baubylon.units) and the field check (baubylon.field)."""

import pytest

from companion.games.baubylon.field import Block, Field, FieldError, check_field, example_field


def build(blocks, starts=("A2",), rows=6, cols=6):
    return Field.build(rows, cols, tuple(blocks), tuple(starts))


def issues(field):
    found = check_field(field)
    assert all(v.rule_id == "baubylon.field" for v in found)
    return [v.message.render() for v in found]


def test_block_heights_in_pawn_heights():
    field = build([Block("B2", "lying", "east"), Block("B3", "standing"), Block("C2", "standing"),
                   Block("D4", "lying", "south"), Block("D4", "lying", "south")])
    assert field.height("B2") == 2 and field.height("C2") == 2 + 4  # a standing block on a lying one
    assert field.height("B3") == 4
    assert (field.height("D4"), field.height("D5")) == (4, 4)  # two lying blocks, one on the other
    assert field.height("A1") == 0 and not field.is_field("A1")


def test_a_lying_block_must_lie_flat():
    with pytest.raises(FieldError) as info:
        build([Block("B2", "standing"), Block("B2", "lying", "east")])
    assert info.value.rule_id == "baubylon.units" and info.value.index == 1
    assert "lie flat" in str(info.value)


@pytest.mark.parametrize(
    ("block", "fragment"),
    [
        (Block("F6", "lying", "east"), "off the"),
        (Block("Z9", "standing"), "off the"),
        (Block("B2", "lying"), "needs toward"),
        (Block("B2", "standing", "east"), "needs toward"),
        (Block("B2", "sideways"), "shape"),
    ],
)
def test_blocks_that_cannot_be_placed(block, fragment):
    with pytest.raises(FieldError, match=fragment):
        build([block])


def test_no_more_blocks_than_the_box():
    with pytest.raises(FieldError, match="box holds 48"):
        build([Block("B2", "standing")] * 49)


def test_the_example_field_passes_the_check():
    field = example_field()
    assert issues(field) == []
    assert field.goal() == ("D4", "E4")  # a lying block on top: one place, two spaces
    assert len(field.blocks) == 12


def test_a_step_needing_six_or_more_is_reported():
    # B2: lying (2); C2: two standing blocks (8): from B2 up to C2 costs 1 + 6 = 7.
    field = build([Block("A2", "lying", "east"), Block("C2", "standing"), Block("C2", "standing"),
                   Block("C3", "standing"), Block("C4", "lying", "east")], starts=("A1", "A3"))
    found = issues(field)
    assert any("B2 up to C2 needs 7" in text for text in found)
    where = [v.where for v in check_field(field) if "needs" in v.message.render()]
    assert ("B2", "C2") in where


def test_five_is_still_a_step():
    # The standing block from the table: 4 up + 1 across = 5, climbable with a 5.
    assert issues(build([Block("B2", "standing")], starts=("A2",))) == []


def test_unreachable_places_are_reported():
    field = build([Block("B2", "standing"), Block("E5", "lying", "east")], starts=("A2",))
    text = " ".join(issues(field))
    assert "cannot be reached" in text and "E5, F5" in text


def test_a_summit_shared_by_two_blocks_is_reported():
    field = build([Block("B2", "standing"), Block("C2", "standing")], starts=("A2",))
    assert any("not unique" in text and "B2, C2" in text for text in issues(field))
    assert field.goal() == ()


def test_start_points_must_be_table_places_beside_the_field():
    assert any("on a block" in t for t in issues(build([Block("B2", "standing")], starts=("B2", "A2"))))
    assert any("does not touch" in t for t in issues(build([Block("B2", "standing")], starts=("A2", "F6"))))
    assert any("no start point" in t for t in issues(build([Block("B2", "standing")], starts=())))
    assert issues(build([], starts=("A1",))) == ["The field has no blocks."]
    with pytest.raises(FieldError, match="listed twice"):
        build([Block("B2", "standing")], starts=("A2", "A2"))
