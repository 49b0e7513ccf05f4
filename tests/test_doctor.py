"""`companion doctor`: each check on a machine built in a temp dir (camera, touch, fonts or none)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time

import pytest

from companion import diagnostics
from companion.cli import main as cli_main
from companion.config import load_config
from companion.diagnostics import CameraProbe, Machine, Status, collect, exit_code, run_checks
from companion.feedback.pins import PinFactoryChoice, mock_factory

MT_TOUCH_ABS = (1 << 0) | (1 << 1) | (1 << 0x2F) | (1 << 0x35) | (1 << 0x36) | (1 << 0x39)


@pytest.fixture(autouse=True)
def _forget_fake_picamera2():
    """The fake picamera2 packages below are imported for real; forget them afterwards, or every
    later test in the run would believe a Pi camera library is installed."""
    yield
    for name in [m for m in sys.modules if m == "picamera2" or m.startswith("picamera2.")]:
        del sys.modules[name]


@pytest.fixture
def config(tmp_path):
    cfg = load_config(None)
    cfg.values["general"]["state_dir"] = str(tmp_path / "state")
    return cfg


def fc_list(argv):
    return {"ja": "Noto Sans CJK HK,Noto Sans CJK HK Regular\nNoto Sans CJK JP\n",
            "zh-tw": "Noto Sans CJK TC\n"}[argv[1].split("=")[1]]


def machine(tmp_path, **overrides) -> Machine:
    """A machine with nothing attached: no camera, no /dev/dri, no touch, mock GPIO."""
    for sub in ("dev", "sys", "proc"):
        (tmp_path / sub).mkdir(exist_ok=True)
    base = dict(
        dev=tmp_path / "dev", sysfs=tmp_path / "sys", proc=tmp_path / "proc", environ={},
        which=lambda cmd: f"/usr/bin/{cmd}", run=fc_list,
        probe_picamera2=lambda: None, probe_opencv=lambda device, dev: None,
        pin_factory=lambda: PinFactoryChoice(mock_factory(), True, "GPIOZERO_PIN_FACTORY=mock"),
        distribution_version=lambda name: {"opencv-python": "4.10.0", "numpy": "2.0", "kivy": "2.3.1",
                                           "gpiozero": "2.0.1"}.get(name),
    )
    base.update(overrides)
    return Machine(**base)


def by_name(results):
    return {r.name: r for r in results}


def test_this_kind_of_machine_camera_missing_fails_with_the_fix_and_mock_gpio_warns(tmp_path, config):
    results = by_name(collect(config, machine(tmp_path)))
    camera = results["camera"]
    assert camera.status is Status.FAIL
    assert "no /dev/video0" in camera.detail.render()
    assert "rpicam-hello --list-cameras" in camera.fix.render()
    assert 'source = "sim"' in camera.fix.render()
    assert results["gpio"].status is Status.WARN
    assert "mock" in results["gpio"].detail.render()
    assert exit_code(results.values()) == 1


def test_every_problem_comes_with_a_fix_and_renders_in_every_language(tmp_path, config):
    results = collect(config, machine(tmp_path))
    for result in results:
        if result.status is not Status.OK:
            assert result.fix is not None, result.name
        for lang in ("en", "ja", "zh_TW"):
            assert "{" not in result.detail.render(lang), result.name


def test_json_output_is_machine_readable_and_exit_code_follows_fail(tmp_path, config, capsys):
    code = run_checks(config, as_json=True, machine=machine(tmp_path))
    data = json.loads(capsys.readouterr().out)
    assert code == data["exit_code"] == 1
    assert data["summary"]["fail"] == sum(1 for c in data["checks"] if c["status"] == "FAIL") >= 1
    camera = next(c for c in data["checks"] if c["check"] == "camera")
    assert camera["fix"]["msgid"].startswith("Connect the Camera Module")


def test_text_output_lists_status_name_detail_and_fix(tmp_path, config, capsys):
    run_checks(config, machine=machine(tmp_path))
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("FAIL  camera")
    assert "→ Connect the Camera Module" in out
    assert out.rstrip().splitlines()[-1].endswith("FAIL")


def test_a_working_camera_with_manual_exposure_is_ok(tmp_path, config):
    probe = CameraProbe("picamera2", True, "imx708_wide", (640, 480), True)
    results = by_name(collect(config, machine(tmp_path, probe_picamera2=lambda: probe)))
    assert results["camera"].status is Status.OK
    assert "imx708_wide via picamera2" in results["camera"].detail.render()
    assert results["camera.exposure"].status is Status.OK


def test_a_webcam_without_manual_exposure_warns(tmp_path, config):
    probe = CameraProbe("opencv", True, "/dev/video0", (1280, 720), False)
    results = by_name(collect(config, machine(tmp_path, probe_opencv=lambda d, dev: probe)))
    assert results["camera"].status is Status.OK
    assert results["camera.exposure"].status is Status.WARN


def test_a_camera_that_sends_no_frames_fails(tmp_path, config):
    probe = CameraProbe("opencv", True, "/dev/video0", None, None, "opened, but no frame arrived")
    results = by_name(collect(config, machine(tmp_path, probe_opencv=lambda d, dev: probe)))
    assert results["camera"].status is Status.FAIL
    assert "no frame arrived" in results["camera"].detail.render()


def test_the_simulated_table_needs_no_camera(tmp_path, config):
    config.values["camera"]["source"] = "sim"
    results = by_name(collect(config, machine(tmp_path)))
    assert results["camera"].status is Status.OK
    assert results["camera.exposure"].status is Status.OK


def test_picamera2_failing_at_import_with_a_non_import_error_is_reported_not_raised(tmp_path, monkeypatch):
    fake = tmp_path / "site" / "picamera2"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise RuntimeError('libcamera: no pipeline handler for this SoC')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    probe = diagnostics.probe_picamera2()
    assert probe is not None and not probe.found
    assert probe.error.startswith("RuntimeError: libcamera")


FAKE_PICAMERA2 = """
class _Frame:
    shape = (480, 640, 3)


class Picamera2:
    HOLDS = {holds}
    log = []

    @staticmethod
    def global_camera_info():
        return {cameras}

    def __init__(self, index):
        self.meta = {{"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}}
        self.frames = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        Picamera2.log.append("closed")

    def create_preview_configuration(self, main):
        return main

    def configure(self, config):
        Picamera2.log.append(("configure", config["size"]))

    def start(self):
        Picamera2.log.append("start")

    def set_controls(self, controls):
        Picamera2.log.append(("set_controls", dict(controls)))
        self.wanted = controls

    def capture_metadata(self):
        self.frames += 1
        if not self.HOLDS:  # auto exposure keeps hunting whatever we ask
            return {{"ExposureTime": 12000 + 900 * self.frames, "AnalogueGain": 2.0}}
        return dict(self.meta)

    def capture_array(self):
        return _Frame()
"""


def fake_picamera2(tmp_path, monkeypatch, holds=True, cameras='[{"Model": "imx708_wide"}]'):
    package = tmp_path / "site" / "picamera2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(FAKE_PICAMERA2.format(holds=holds, cameras=cameras))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(diagnostics, "LOCK_SETTLE_SECONDS", 0.0)


def test_picamera2_probe_locks_exposure_and_white_balance_at_the_settled_values(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch)
    probe = diagnostics.probe_picamera2()
    assert probe == CameraProbe("picamera2", True, "imx708_wide", (640, 480), True)
    log = sys.modules["picamera2"].Picamera2.log
    assert ("set_controls", {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
                             "AwbEnable": False, "ColourGains": (1.8, 1.5)}) in log
    assert log[-1] == "closed"  # the camera is released for the kiosk


def test_picamera2_probe_reports_a_camera_that_does_not_hold_exposure(tmp_path, monkeypatch, config):
    fake_picamera2(tmp_path, monkeypatch, holds=False)
    probe = diagnostics.probe_picamera2()
    assert probe.frame == (640, 480) and probe.exposure_locked is False
    results = by_name(collect(config, machine(tmp_path, probe_picamera2=lambda: probe)))
    assert results["camera"].status is Status.OK
    assert results["camera.exposure"].status is Status.WARN


def test_picamera2_without_cameras_is_not_found(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, cameras="[]")
    probe = diagnostics.probe_picamera2()
    assert not probe.found and "no camera" in probe.error


class FakeCapture:
    """cv2.VideoCapture stand-in: a webcam that opens, sends frames, and may refuse manual exposure."""

    opened, frames, manual_ok = True, True, True
    released = False

    def __init__(self, device, backend):
        self.auto_exposure = 3.0  # V4L2 aperture priority (auto)

    def isOpened(self):  # noqa: N802 - cv2's name
        return self.opened

    def read(self):
        class Frame:
            shape = (720, 1280, 3)

        return (True, Frame()) if self.frames else (False, None)

    def set(self, prop, value):
        if prop == "AUTO_EXPOSURE" and self.manual_ok:
            self.auto_exposure = float(value)
            return True
        return False

    def get(self, prop):
        return self.auto_exposure

    def release(self):
        FakeCapture.released = True


@pytest.fixture
def fake_cv2(monkeypatch, tmp_path):
    import types

    module = types.SimpleNamespace(VideoCapture=FakeCapture, CAP_V4L2=200, CAP_PROP_AUTO_EXPOSURE="AUTO_EXPOSURE",
                                   CAP_PROP_AUTO_WB="AUTO_WB")
    monkeypatch.setitem(sys.modules, "cv2", module)
    (tmp_path / "video0").touch()
    for name, value in (("opened", True), ("frames", True), ("manual_ok", True), ("released", False)):
        monkeypatch.setattr(FakeCapture, name, value)
    return FakeCapture


def test_opencv_probe_with_a_webcam_that_takes_manual_exposure(fake_cv2, tmp_path):
    probe = diagnostics.probe_opencv(0, tmp_path)
    assert probe == CameraProbe("opencv", True, str(tmp_path / "video0"), (1280, 720), True)
    assert fake_cv2.released


def test_opencv_probe_with_a_webcam_stuck_in_auto_exposure(fake_cv2, tmp_path):
    fake_cv2.manual_ok = False
    assert diagnostics.probe_opencv(0, tmp_path).exposure_locked is False


@pytest.mark.parametrize(("attr", "error"), [("opened", "cannot open"), ("frames", "no frame arrived")])
def test_opencv_probe_names_what_went_wrong(fake_cv2, tmp_path, attr, error):
    setattr(fake_cv2, attr, False)
    probe = diagnostics.probe_opencv(0, tmp_path)
    assert probe.found and probe.frame is None and error in probe.error


def test_opencv_probe_is_skipped_without_a_device_node(tmp_path):
    assert diagnostics.probe_opencv(0, tmp_path) is None


def test_duplicate_out_of_range_and_busy_pins(tmp_path, config):
    from gpiozero import OutputDevice

    factory = mock_factory()
    holder = OutputDevice(22, pin_factory=factory)  # something else drives GPIO22
    config.values["feedback"].update(buzzer=17, button_undo=40)
    try:
        results = by_name(collect(config, machine(tmp_path, pin_factory=lambda: PinFactoryChoice(factory, False, "lgpio"))))
    finally:
        holder.close()
    assert results["gpio"].status is Status.OK
    assert results["gpio.led_red"].status is Status.OK
    assert results["gpio.buzzer"].status is Status.FAIL  # same pin as led_red
    assert "also given to led_red" in results["gpio.buzzer"].detail.render()
    assert results["gpio.button_undo"].status is Status.FAIL  # not on the header
    assert results["gpio.led_blue"].status is Status.WARN  # busy
    assert results["gpio.button_confirm"].status is Status.OK


def test_display_from_desktop_or_drm_and_missing(tmp_path, config):
    assert by_name(collect(config, machine(tmp_path, environ={"DISPLAY": ":0"})))["display"].status is Status.OK
    (tmp_path / "dev/dri").mkdir()
    (tmp_path / "dev/dri/card1").touch()
    result = by_name(collect(config, machine(tmp_path)))["display"]
    assert result.status is Status.OK and "card1" in result.detail.render()
    (tmp_path / "dev/dri/card1").unlink()
    assert by_name(collect(config, machine(tmp_path)))["display"].status is Status.FAIL


@pytest.mark.parametrize("caps", [f"{MT_TOUCH_ABS:x}", f"{MT_TOUCH_ABS >> 32:x} {MT_TOUCH_ABS & 0xFFFFFFFF:x}"],
                         ids=["64-bit kernel", "32-bit kernel"])
def test_a_multitouch_screen_is_found_from_sysfs(tmp_path, config, caps):
    m = machine(tmp_path)
    for node, abs_caps, name in (("event0", "3", "gpio_keys"), ("event4", caps, "10-0038 generic ft5x06 (79)")):
        device = tmp_path / "sys/class/input" / node / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "capabilities/abs").write_text(abs_caps + "\n")
        (device / "name").write_text(name + "\n")
    (tmp_path / "dev/input").mkdir()
    (tmp_path / "dev/input/event4").touch()
    result = by_name(collect(config, m))["display.touch"]
    assert result.status is Status.OK
    assert "ft5x06" in result.detail.render() and "event4" in result.detail.render()


def test_no_touch_device_warns(tmp_path, config):
    assert by_name(collect(config, machine(tmp_path)))["display.touch"].status is Status.WARN


def test_cjk_fonts(tmp_path, config):
    results = by_name(collect(config, machine(tmp_path)))
    assert results["fonts.ja"].status is Status.OK
    assert "Noto Sans CJK JP" in results["fonts.ja"].detail.render()  # the Japanese face is named
    only_ja = machine(tmp_path, run=lambda argv: "Noto Sans CJK JP\n" if "ja" in argv[1] else "")
    results = by_name(collect(config, only_ja))
    assert results["fonts.zh-tw"].status is Status.FAIL
    assert "fonts-noto-cjk" in results["fonts.zh-tw"].fix.render()
    no_fc = by_name(collect(config, machine(tmp_path, which=lambda cmd: None)))
    assert no_fc["fonts"].status is Status.WARN


def test_calibration_missing_fresh_old_and_corrupt(tmp_path, config):
    folder = config.state_dir() / "calibration"
    assert by_name(collect(config, machine(tmp_path)))["calibration"].status is Status.WARN
    folder.mkdir(parents=True)
    (folder / "camera.json").write_text('{"version": 1}')
    assert by_name(collect(config, machine(tmp_path)))["calibration"].status is Status.OK
    old = time.time() - 40 * 86400
    os.utime(folder / "camera.json", (old, old))
    result = by_name(collect(config, machine(tmp_path)))["calibration"]
    assert result.status is Status.WARN and "40 days" in result.detail.render()
    (folder / "board.json").write_text('{"version": ')
    result = by_name(collect(config, machine(tmp_path)))["calibration"]
    assert result.status is Status.FAIL and "board.json" in result.detail.render()
    assert (folder / "board.json").read_text() == '{"version": '  # never touched


def test_a_healthy_journal_passes_the_integrity_check(tmp_path, config):
    state = config.state_dir()
    state.mkdir(parents=True)
    db = sqlite3.connect(state / "journal.sqlite")
    db.execute("PRAGMA journal_mode=wal")
    db.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, move TEXT)")
    db.executemany("INSERT INTO entries (move) VALUES (?)", [("{}",)] * 50)
    db.commit()
    db.close()
    result = by_name(collect(config, machine(tmp_path)))["journal.journal.sqlite"]
    assert result.status is Status.OK
    assert "wal" in result.detail.render()


def test_a_corrupt_journal_fails_and_is_left_as_it_was(tmp_path, config):
    state = config.state_dir()
    state.mkdir(parents=True)
    path = state / "journal.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, move TEXT)")
    db.executemany("INSERT INTO entries (move) VALUES (?)", [("x" * 500,)] * 200)
    db.commit()
    db.close()
    data = bytearray(path.read_bytes())
    data[4096 * 3: 4096 * 3 + 200] = b"\xff" * 200  # smash a b-tree page header
    path.write_bytes(bytes(data))
    result = by_name(collect(config, machine(tmp_path)))["journal.journal.sqlite"]
    assert result.status is Status.FAIL
    assert "journal.sqlite" in result.detail.render()
    assert path.read_bytes() == bytes(data)
    (state / "notes.db").write_bytes(b"this is not sqlite at all" * 100)
    assert by_name(collect(config, machine(tmp_path)))["journal.notes.db"].status is Status.FAIL


def test_no_journal_yet_is_fine(tmp_path, config):
    results = by_name(collect(config, machine(tmp_path)))
    assert results["journal"].status is Status.OK
    assert results["journal.writable"].status is Status.OK


def test_a_read_only_state_directory_fails(tmp_path, config):
    config.state_dir().mkdir(parents=True)
    read_only = machine(tmp_path, access=lambda path, mode: not mode & os.W_OK)
    result = by_name(collect(config, read_only))["journal.writable"]
    assert result.status is Status.FAIL
    assert "sudo -u companion" in result.fix.render()


def test_device_nodes_this_user_cannot_open(tmp_path, config):
    no_access = machine(tmp_path, access=lambda path, mode: False)
    (tmp_path / "dev/dri").mkdir()
    (tmp_path / "dev/dri/card0").touch()
    result = by_name(collect(config, no_access))["display"]
    assert result.status is Status.FAIL
    assert "video and render groups" in result.fix.render()


@pytest.mark.parametrize(("free_mb", "status"), [(100, Status.FAIL), (600, Status.WARN), (5000, Status.OK)])
def test_disk_space(tmp_path, config, monkeypatch, free_mb, status):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(32 * 1024**3, 0, free_mb * 1024**2))
    assert by_name(collect(config, machine(tmp_path)))["disk"].status is status


def test_versions_missing_library_fails_and_picamera2_is_wanted_only_on_a_pi(tmp_path, config):
    results = by_name(collect(config, machine(tmp_path)))
    assert results["versions.opencv"].detail.render() == "opencv 4.10.0."
    assert results["versions.picamera2"].status is Status.OK
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.5\x00")
    results = by_name(collect(config, machine(tmp_path, distribution_version=lambda name: None)))
    assert results["versions.kivy"].status is Status.FAIL
    assert results["versions.picamera2"].status is Status.WARN
    assert "--system-site-packages" in results["versions.picamera2"].fix.render()


def test_cli_doctor_json_on_this_machine(capsys):
    code = cli_main(["doctor", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == data["exit_code"] == (1 if data["summary"]["fail"] else 0)
    names = {c["check"] for c in data["checks"]}
    assert {"camera", "camera.exposure", "gpio", "display", "display.touch", "calibration", "journal.writable",
            "disk", "versions.opencv", "versions.kivy", "versions.gpiozero", "versions.picamera2"} <= names
    gpio = next(c for c in data["checks"] if c["check"] == "gpio")
    assert gpio["status"] == "WARN"  # the test suite runs with GPIOZERO_PIN_FACTORY=mock
