"""Settings' camera switch on the screen: answered at once, "Switching to camera …" with the readers'
"preparing" line while they build (the old camera still refereeing), then how it ended; the live
view keeps the preparing line whatever the running source reports meanwhile."""

from __future__ import annotations

import threading
import time

import pytest

from companion.games.api import Message
from companion.i18n import translate
from companion.referee.events import SourceStatus
from companion.referee.startup import PREPARING, PREPARING_STATUS, READY_STATUS
from companion.ui.session import Session

SWITCHING = "Switching to camera opencv… " + translate(PREPARING, "en")


def _status(status: str, detail: Message | None = None) -> SourceStatus:
    return SourceStatus("babylon", 4, status, detail)


def test_the_preparing_line_outlasts_the_running_sources_news_until_the_readers_are_ready():
    session = Session()
    session.apply(_status(PREPARING_STATUS, Message.of(PREPARING)))
    assert session.preparing == Message.of(PREPARING)
    hands = Message.of("Hands on the table: waiting for the scene to settle")
    session.apply(_status("busy", hands))  # the old camera goes on reporting
    assert session.preparing == Message.of(PREPARING) and (session.source_status, session.source_detail) == (
        "busy", hands)
    session.reset("reclamation", ("A", "B"))  # a new game meanwhile: the build goes on
    assert session.preparing == Message.of(PREPARING)
    session.apply(_status(READY_STATUS))
    assert session.preparing is None and session.source_status == "ok"
    revision = session.revision
    session.apply(_status(PREPARING_STATUS))  # no words from the referee: the start-up's own
    assert session.preparing == Message.of(PREPARING) and session.revision == revision + 1


@pytest.mark.ui
def test_settings_answers_at_once_refuses_a_second_switch_and_says_how_it_ended(harness):
    harness.tap("Settings")
    harness.tap("opencv")
    settings = harness.app.screens["settings"]
    assert harness.fake.calls[-1] == ("set_camera", ("opencv",)) and harness.fake.camera == "sim"
    # The screen's own poll (every 0.5 s) may have run inside the tap on a slow machine: then the
    # line already carries the readers' "preparing" part.
    assert {"Switching to camera opencv…", SWITCHING} & set(harness.texts())
    settings.poll_switch()  # the readers' build announced on the feed: said under the camera buttons
    assert SWITCHING in harness.texts()
    assert settings._clock is not None  # it looks again until the switch is over
    harness.tap("files")
    assert "Still switching to camera opencv: wait until it is ready." in harness.texts()
    assert harness.fake.switch.source == "opencv"
    harness.fake.finish_camera_switch()
    settings.poll_switch()
    assert "Now using camera opencv." in harness.texts() and settings._clock is None
    harness.tap("日本語")
    assert any("opencv" in t and "Now" not in t for t in harness.texts() if t.startswith("カメラ"))


@pytest.mark.ui
def test_a_camera_that_fails_is_said_in_red_and_the_old_one_stays_chosen(harness):
    from companion.ui import theme

    harness.fake.broken_cameras = ("opencv",)
    harness.tap("Settings")
    harness.tap("opencv")
    harness.fake.finish_camera_switch()
    harness.app.screens["settings"].poll_switch()
    text = ("Camera opencv could not be used: it gives no picture (check its cable, and that no other program "
            "is using it). Still using sim.")
    assert list(harness.find(text).color) == list(theme.BAD)
    assert harness.fake.camera == "sim"


@pytest.mark.ui
def test_the_live_view_shows_the_game_and_the_preparing_line_while_the_new_camera_builds(harness):
    from companion.ui.screenshots import _game

    _game(harness)
    harness.app.go("settings")
    harness.app.screens["settings"].set_camera("opencv")
    harness.app.go("live")
    harness.app.poll_feed()
    preparing = translate(PREPARING, "en")
    assert preparing in harness.texts() and "Ben's turn" in harness.texts()
    harness.fake.feed.push(_status("busy"))
    harness.app.poll_feed()
    assert preparing in harness.texts()
    assert "Hands over the board: waiting for a still scene." in harness.texts()
    harness.fake.finish_camera_switch()
    harness.app.poll_feed()
    assert preparing not in harness.texts()


class SlowCamera:
    def __init__(self):
        self.gate = threading.Event()

    def __call__(self, name):
        assert self.gate.wait(10)
        return _Closable(), "reader"


class _Closable:
    def close(self):
        pass


@pytest.mark.ui
def test_with_the_real_controls_the_tap_returns_while_the_readers_build():
    """LiveControls under the screen: the tap comes back with the build still held."""
    from companion.referee.controls import LiveControls
    from companion.referee.interface import EventFeed
    from companion.ui.harness import Harness

    controls = LiveControls()
    controls.feed = EventFeed()
    camera = controls.open_camera = SlowCamera()
    harness = Harness(800, 480, "zh_TW", controls=controls)
    try:
        harness.tap("設定")
        harness.tap("opencv")
        assert not camera.gate.is_set() and controls.camera == "sim"
        assert any(t.startswith(translate("Switching to camera {source}…", "zh_TW").split("{")[0])
                   for t in harness.texts())
        camera.gate.set()
        settings = harness.app.screens["settings"]
        end = time.monotonic() + 10
        while settings._clock is not None and time.monotonic() < end:
            settings.poll_switch()
            time.sleep(0.05)
        assert controls.camera == "opencv"
        assert Message.of("Now using camera {source}.", source="opencv").render("zh_TW") in harness.texts()
    finally:
        controls.shutdown()
        harness.close()


@pytest.mark.ui
def test_back_to_the_simulated_table_is_said_in_the_same_way(harness):
    harness.fake.camera = "opencv"
    harness.tap("Settings")
    harness.tap("sim")
    settings = harness.app.screens["settings"]
    settings.poll_switch()
    assert "Switching to the simulated table. " + translate(PREPARING, "en") in harness.texts()
    harness.fake.finish_camera_switch()
    settings.poll_switch()
    assert "Now using the simulated table." in harness.texts() and harness.fake.camera == "sim"
