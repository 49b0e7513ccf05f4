"""The screen's side of the live controls: no lost game, a declared move, camera and editor answers."""

from __future__ import annotations

import pytest

from companion.ui.controller import GameSetup

pytestmark = pytest.mark.ui


def _running(harness):
    harness.app.start_game(GameSetup("babylon", ("Aiko", "Ben")))
    harness.fake.play_move()
    harness.app.poll_feed()
    harness.app.go("home")


def test_starting_a_new_game_while_one_runs_asks_first(harness):
    _running(harness)
    calls = len(harness.fake.calls)
    harness.tap("Start the game")
    assert len(harness.fake.calls) == calls  # nothing asked of the referee yet
    assert any(t.startswith("A game is under way.") for t in harness.texts())
    harness.tap("Keep playing")
    assert harness.app.session.players == ("Aiko", "Ben") and harness.app.session.move_number == 1
    assert "Start the game" in harness.texts()
    harness.tap("Start the game")
    harness.tap("Start a new game")
    assert harness.fake.calls[-1][0] == "start_game"
    assert harness.app.manager.current == "setup"
    assert harness.app.session.move_number == 0


def test_a_finished_game_is_not_asked_about(harness):
    harness.app.start_game(GameSetup("babylon", ("Aiko", "Ben")))
    harness.fake.end_game()
    harness.app.poll_feed()
    harness.app.go("home")
    harness.tap("Start the game")
    assert harness.fake.calls[-1][0] == "start_game" and harness.app.manager.current == "setup"


def test_a_game_the_referee_cannot_start_stays_on_home_with_the_reason(harness):
    _running(harness)
    harness.fake.games = ("reclamation",)
    harness.tap("Start the game")
    harness.tap("Start a new game")
    assert harness.app.manager.current == "home"
    assert "This game cannot start: the simulated table has no recorded game of Babylon" in harness.texts()
    assert harness.app.session.players == ("Aiko", "Ben")  # the running game is still shown


def test_a_suggested_move_can_be_declared_played(harness):
    _running(harness)
    expected = next(iter(harness.app.session.state.legal_moves()))
    harness.app.go("hints")
    harness.tap("We made this move")
    assert harness.fake.calls[-1] == ("play", (expected,))
    assert harness.app.session.move_number == 2 and harness.app.manager.current == "live"


def test_a_camera_that_fails_is_reported_and_the_old_one_kept(harness):
    harness.fake.broken_cameras = ("opencv",)
    harness.tap("Settings")
    harness.tap("opencv")
    # Answered at once; opened in the background. The screen's poll (every 0.5 s) may already have
    # added the readers' "preparing" part to the line when the machine is slow.
    assert any(t.startswith("Switching to camera opencv…") for t in harness.texts())
    harness.fake.finish_camera_switch()
    harness.app.screens["settings"].poll_switch()
    assert ("Camera opencv could not be used: it gives no picture (check its cable, and that no other program is "
            "using it). Still using sim.") in harness.texts()
    assert harness.fake.camera == "sim"


def test_an_editor_save_the_referee_refuses_is_shown_as_a_problem(harness):
    from companion.games.api import Message

    harness.fake.save_editor_data = lambda kind, data: Message.of("Not saved: {reason}", reason="bad file")
    harness.tap("Editors")
    editors = harness.app.screens["editors"]
    editors.card.toggle(1, 0)
    harness.tap("Save")
    assert "Not saved: bad file" in harness.texts() and editors.feedback_ok is False


@pytest.mark.slow
def test_home_start_on_the_real_referee_loop(tmp_path):
    """The screen and `companion run`'s referee loop together: a new game from Home, confirmed,
    replaces the simulated table's game with one under the players' names."""
    import io
    import threading
    import time

    from companion.commands.run import referee_loop
    from companion.config import load_config
    from companion.referee.controls import LiveControls
    from companion.referee.interface import EventFeed
    from companion.referee.live import RunOptions
    from companion.ui.harness import Harness

    controls = LiveControls(tmp_path)
    controls.feed = EventFeed()
    options = RunOptions(game="reclamation", fresh=True, speed=0.02, state_dir=tmp_path, frames=False)
    stop = threading.Event()
    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [controls.feed.push], stop),
                              kwargs={"out": io.StringIO()}, daemon=True)
    worker.start()
    harness = Harness(800, 480, "en", controls=controls)

    def until(condition, seconds=60.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            harness.app.poll_feed()
            harness.frame(1)
            if condition():
                return True
            time.sleep(0.05)
        return False

    try:
        assert until(lambda: harness.app.session.move_number >= 2)  # the simulated table plays
        # the screen's own handlers (taps could race the referee bringing a ruling forward)
        harness.app.go("home")
        home = harness.app.screens["home"]
        home.choose_game("reclamation")
        home.names[0], home.names[1] = "Aiko", "陳美玲"
        home.start()
        assert home.confirming  # a game is under way: asked first
        home.start(confirmed=True)
        assert until(lambda: harness.app.session.state is not None
                     and harness.app.session.state.players == ("Aiko", "陳美玲"))
    finally:
        controls.shutdown()
        stop.set()
        worker.join(30)
        harness.close()


def test_the_calibration_wizard_shows_the_games_layout_in_words(harness):
    harness.app.start_game(GameSetup("reclamation", ("Aiko", "Ben")))
    harness.app.go("calibration")
    harness.tap("Diagram")
    texts = harness.texts()
    assert "Reclamation field: printed diagram calibration/layout-reclamation.png" in texts
    places = [t for t in texts if t.startswith("Row ")]
    assert len(places) >= 10 and any("stones, flower up" in t for t in places)
    harness.tap("Camera")
    assert not [t for t in harness.texts() if t.startswith("Row ")]


def test_a_ruling_marks_the_offending_cells_on_the_camera_picture(harness):
    """A camera view that can place board cells (CameraView.where) gets a red mark on each cell of
    the violation, and the ruling shows the camera's picture of that spot."""
    from companion.ui.controller import CameraView
    from companion.ui.fake import demo_camera_image
    from companion.ui.widgets import CameraPicture

    harness.app.start_game(GameSetup("babylon", ("Aiko", "Ben")))
    harness.fake.camera_view = lambda: CameraView(demo_camera_image(), (), lambda r, c: (120.0 + 50 * c, 40.0 + 50 * r))
    harness.fake.find_violation()
    harness.app.poll_feed()
    assert harness.app.manager.current == "ruling"
    pictures = [w for w in harness.widgets() if isinstance(w, CameraPicture)]
    assert len(pictures) == 1
    marks = pictures[0].marks
    assert len(marks) == 4 and {m.kind for m in marks} == {"bad"}  # the four cells under the tile
    harness.fake.camera_view = lambda: CameraView(demo_camera_image(), ())  # cannot place cells: no crop
    harness.app.screens["ruling"].render()
    assert not [w for w in harness.widgets() if isinstance(w, CameraPicture)]
