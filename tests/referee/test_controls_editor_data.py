"""save_editor_data in `companion run`: the editors' entries land where `companion cards` and the
engines read them; bad data or a corrupt file never overwrites the player's file."""

from __future__ import annotations

import json

import pytest

from companion.referee.controls import LiveControls

pytest.importorskip("companion.games.reclamation")
pytest.importorskip("companion.games.babel")


def test_a_reclamation_card_is_added_to_the_card_book_companion_cards_reads(tmp_path):
    from companion.games.reclamation.cards import default_card_path, load_book

    controls = LiveControls(tmp_path)
    answer = controls.save_editor_data("reclamation.card", {"name": "card 2", "garden": [{"forward": 1, "right": 1}]})
    assert answer.msgid.startswith("Saved")
    book = load_book(default_card_path(tmp_path), missing_ok=False)
    assert [c.name for c in book.cards][-1] == "card 2"
    assert len(book.cards) == 2  # the rulebook's example card stays
    # the other side of the same card, entered later, keeps the first side
    controls.save_editor_data("reclamation.card", {"name": "card 2", "throne": [{"forward": 2, "right": 0}]})
    card = load_book(default_card_path(tmp_path), missing_ok=False).get("card 2")
    assert card.garden is not None and card.throne is not None


def test_a_babel_blueprint_is_added_to_the_library_the_engine_loads(tmp_path):
    from companion.games.babel.cards import library_path, load_library

    controls = LiveControls(tmp_path)
    answer = controls.save_editor_data("babel.blueprint", {"name": "blank1", "cells": {"B2": 2}})
    assert answer.msgid.startswith("Saved")
    assert load_library(library_path(tmp_path)).blueprint("blank1").minimum[4] == 2
    controls.save_editor_data("babel.blueprint", {"name": "blank1", "cells": {"A1": 1}})  # edited again
    library = load_library(library_path(tmp_path))
    assert [b.name for b in library.blueprints].count("blank1") == 1
    assert library.blueprint("blank1").minimum[0] == 1


def test_a_babylon_tile_face_goes_to_the_tile_catalogue(tmp_path):
    from companion.games.babylon.catalogue import load_catalogue

    controls = LiveControls(tmp_path)
    face = {"material": "clay", "flower": "pink", "icons": ["bridge", None, "statue", None]}
    assert controls.save_editor_data("babylon.tile", face).msgid.startswith("Saved")
    assert len(load_catalogue(tmp_path / "babylon-tiles.json").tiles) == 1


def test_bad_data_is_refused_with_the_key_and_the_file_left_as_it_was(tmp_path):
    controls = LiveControls(tmp_path)
    controls.save_editor_data("babel.blueprint", {"name": "mine", "cells": {"B2": 2}})
    before = (tmp_path / "babel-cards.json").read_bytes()
    answer = controls.save_editor_data("babel.blueprint", {"name": "other", "cells": {"Z9": 1}})
    reason = answer.render("en")
    assert answer.msgid.startswith("Not saved") and "Z9" in reason and "babel-cards.json" in reason
    assert (tmp_path / "babel-cards.json").read_bytes() == before
    wrong = controls.save_editor_data("babylon.tile", {"material": "clay", "flower": "pink", "icons": ["bridge", None, None, None]})
    assert wrong.msgid.startswith("Not saved") and "icons" in wrong.render("en")
    assert not (tmp_path / "babylon-tiles.json").exists()


def test_a_corrupt_file_of_the_player_is_never_overwritten(tmp_path):
    path = tmp_path / "reclamation-cards.json"
    path.write_text("{not json", encoding="utf-8")
    answer = LiveControls(tmp_path).save_editor_data("reclamation.card", {"name": "c", "garden": [{"forward": 1, "right": 0}]})
    assert answer.msgid.startswith("Not saved") and "reclamation-cards.json" in answer.render("en")
    assert "not valid JSON" in answer.render("en") and "not valid JSON" not in answer.render("ja")
    assert path.read_text(encoding="utf-8") == "{not json"
    path.write_text(json.dumps({"cards": "nope"}), encoding="utf-8")
    answer = LiveControls(tmp_path).save_editor_data("reclamation.card", {"name": "c", "garden": [{"forward": 1, "right": 0}]})
    assert answer.msgid.startswith("Not saved") and '"cards" list' in answer.render("en")
    assert "reclamation-cards.json" in answer.render("zh_TW") and "expected" not in answer.render("zh_TW")
    assert json.loads(path.read_text(encoding="utf-8")) == {"cards": "nope"}


def test_unknown_kind_and_no_state_folder_are_said_plainly(tmp_path):
    assert "Unknown kind" in LiveControls(tmp_path).save_editor_data("chess.piece", {}).msgid
    assert "Nowhere to save" in LiveControls().save_editor_data("babel.blueprint", {"name": "x"}).msgid


def test_new_games_use_what_the_editors_saved(tmp_path):
    from companion.referee.controls import new_game_for
    from companion.referee.interface import GameSetup

    controls = LiveControls(tmp_path)
    controls.save_editor_data("reclamation.card", {"name": "card 2", "garden": [{"forward": 1, "right": 1}]})
    state = new_game_for(GameSetup("reclamation", ("A", "B")), tmp_path)
    assert "card 2" in str(state.to_json())
    controls.save_editor_data("babel.blueprint", {"name": "tower", "cells": {"B2": 3}})
    options = (("blueprint", "tower"),)
    babel = new_game_for(GameSetup("babel", ("A", "B", "C", "D", "E"), options=options), tmp_path)
    assert "tower" in str(babel.to_json())


def test_a_babylon_game_takes_the_starting_tiles_icons_from_the_tile_catalogue(tmp_path):
    import json

    from companion.referee.controls import new_game_for
    from companion.referee.interface import GameSetup

    catalogue = {"format": "table-companion/babylon-tiles", "version": 1,
                 "start": {"white": ["stairs", None, None, "fountain"]}, "tiles": []}
    (tmp_path / "babylon-tiles.json").write_text(json.dumps(catalogue), encoding="utf-8")
    state = new_game_for(GameSetup("babylon", ("A", "B")), tmp_path)
    white = next(seat for seat in state.seats if seat.flower == "white")
    assert white.slot.icons == ("stairs", None, None, "fountain")
    assert new_game_for(GameSetup("babylon", ("A", "B"))).seats[0].slot.icons is None  # without: unread
