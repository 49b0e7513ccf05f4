"""`companion doctor`: checks this device and says how to fix what is wrong.

Each check gives OK, WARN or FAIL, a detail and (unless OK) a fix, all as translatable Messages.
The exit code is 1 when any check FAILs. Checks are cheap on purpose: no Kivy window, no long
camera session (one frame, with a timeout), versions read from package metadata, not imports.

Everything the checks look at goes through `Machine` (paths of /dev, /sys and /proc, environment,
commands, camera probes), so tests can build a machine with a camera, a touchscreen or none.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from .errors import os_error_text
from .games.api import Message
from .i18n import N_, NP_

OK, WARN, FAIL = "OK", "WARN", "FAIL"
FRAME_TIMEOUT_SECONDS = 6.0
LOCK_SETTLE_SECONDS = 1.0  # auto exposure converges in well under a second in room light
LOCK_CHECK_FRAMES = 8
CALIBRATION_MAX_AGE_DAYS = 30
DISK_FAIL_BYTES = 200 * 1024**2
DISK_WARN_BYTES = 1024**3
JOURNAL_PATTERNS = ("*.sqlite", "*.sqlite3", "*.db")
ABS_MT_POSITION_X = 0x35  # linux/input-event-codes.h: multi-touch screens report it
BCM_PINS = range(0, 28)  # GPIO0-27 on the 40-pin header
CAMERA_FILE = Path("calibration") / "camera.json"  # vision.calibration.files.camera_path, without importing vision
# The camera's measured lens (intrinsics) lets marker location refuse far more misreads: 24 boards bent
# of 230 small misreads instead of 75 (docs/calibration.md). Said by doctor, `calibrate` and the wizard.
CAMERA_NOT_MEASURED = N_("Measure the camera's lens with `companion calibrate camera` (print its sheet with "
                         "`companion calibrate target`): without it, a misread marker bends the board about "
                         "three times as often.")


def camera_lens_measured(state_dir: Path | str | None) -> bool:
    """Whether the camera's intrinsics are stored in the state folder (none without a folder)."""
    return state_dir is not None and (Path(state_dir) / CAMERA_FILE).is_file()


class Status(StrEnum):
    OK = OK
    WARN = WARN
    FAIL = FAIL


@dataclass(frozen=True)
class CheckResult:
    name: str  # stable key: "camera", "gpio.led_red", "fonts.ja"...
    status: Status
    detail: Message
    fix: Message | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"check": self.name, "status": self.status.value, "detail": self.detail.to_json()}
        if self.fix is not None:
            data["fix"] = self.fix.to_json()
        return data


def _ok(name: str, detail: Message) -> CheckResult:
    return CheckResult(name, Status.OK, detail)


def _warn(name: str, detail: Message, fix: Message | None = None) -> CheckResult:
    return CheckResult(name, Status.WARN, detail, fix)


def _fail(name: str, detail: Message, fix: Message | None = None) -> CheckResult:
    return CheckResult(name, Status.FAIL, detail, fix)


# ---------------------------------------------------------------------------------------------
# What the checks can see


@dataclass(frozen=True)
class CameraProbe:
    """What one camera backend found: a camera, a frame, and whether exposure can be fixed."""

    source: str  # "picamera2" or "opencv"
    found: bool
    name: str = ""
    frame: tuple[int, int] | None = None  # (width, height) of a frame that arrived
    exposure_locked: bool | None = None  # fixed exposure held over the last frames; None: unknown
    error: str = ""  # what went wrong, in English (the log; the library's own words)
    problem: Message | None = None  # the same for the player: what is wrong and what to try


def _run_command(argv: list[str], timeout: float = 10.0) -> str | None:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None


@dataclass
class Machine:
    dev: Path = Path("/dev")
    sysfs: Path = Path("/sys")
    proc: Path = Path("/proc")
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    which: Callable[[str], str | None] = shutil.which
    run: Callable[[list[str]], str | None] = _run_command
    probe_picamera2: Callable[[], CameraProbe | None] = field(default=lambda: probe_picamera2())
    probe_opencv: Callable[[int, Path], CameraProbe | None] = field(default=lambda d, dev: probe_opencv(d, dev))
    pin_factory: Callable[[], Any] | None = None  # () -> PinFactoryChoice; default gpiozero's
    distribution_version: Callable[[str], str | None] = field(default=lambda name: _distribution_version(name))
    now: Callable[[], float] = time.time
    access: Callable[[Path, int], bool] = os.access

    def is_pi(self) -> bool:
        model = self.proc / "device-tree" / "model"
        try:
            return "Raspberry Pi" in model.read_text(errors="replace")
        except OSError:
            return False


def _distribution_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _with_timeout(func: Callable[[], Any], seconds: float) -> tuple[bool, Any]:
    """Run func in a daemon thread; (finished, result or exception). A hung driver cannot hang us."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(func())
        except Exception as exc:  # reported by the caller, never raised through the doctor
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    return (bool(box), box[0] if box else None)


def probe_picamera2() -> CameraProbe | None:
    """None when picamera2 is not installed. Its import fails off a Pi in many ways (ImportError,
    RuntimeError from libcamera, OSError...), so every failure is caught and reported.

    With a camera: let auto exposure settle, fix exposure, gain and colour gains at the settled
    values (what the companion does at start), and check the next frames keep them."""
    if importlib.util.find_spec("picamera2") is None:
        return None

    def grab() -> CameraProbe:
        from picamera2 import Picamera2  # only here, only when present

        cameras = Picamera2.global_camera_info()
        if not cameras:
            return CameraProbe("picamera2", False, error="libcamera lists no camera", problem=Message.of(N_(
                "libcamera lists no camera: the ribbon cable may be loose or the wrong way round")))
        name = str(cameras[0].get("Model", "camera 0"))
        with Picamera2(0) as cam:
            cam.configure(cam.create_preview_configuration(main={"size": (640, 480)}))
            cam.start()
            time.sleep(LOCK_SETTLE_SECONDS)
            settled = cam.capture_metadata()
            exposure, gain = settled["ExposureTime"], settled["AnalogueGain"]
            controls: dict[str, Any] = {"AeEnable": False, "ExposureTime": exposure, "AnalogueGain": gain}
            if "ColourGains" in settled:
                controls |= {"AwbEnable": False, "ColourGains": settled["ColourGains"]}
            cam.set_controls(controls)
            # New controls reach the sensor a few frames later; judge the last frames only.
            held = [cam.capture_metadata() for _ in range(LOCK_CHECK_FRAMES)][-3:]
            locked = all(abs(m["ExposureTime"] - exposure) <= max(50, 0.02 * exposure)
                         and abs(m["AnalogueGain"] - gain) <= 0.05 * gain for m in held)
            frame = cam.capture_array()
        return CameraProbe("picamera2", True, name, (frame.shape[1], frame.shape[0]), locked)

    done, result = _with_timeout(grab, FRAME_TIMEOUT_SECONDS)
    if not done:
        return CameraProbe("picamera2", True, error=f"no frame within {FRAME_TIMEOUT_SECONDS:.0f} s",
                           problem=_no_frame_in_time())
    if isinstance(result, Exception):
        error = f"{type(result).__name__}: {result}"
        return CameraProbe("picamera2", False, error=error, problem=Message.of(
            N_("the camera library (picamera2) failed; updating the system may help ({detail})"), detail=error))
    return result


def probe_opencv(device: int, dev: Path = Path("/dev")) -> CameraProbe | None:
    """None when /dev/video<device> does not exist (so cv2 never scans for it slowly)."""
    node = dev / f"video{device}"
    if not node.exists():
        return None

    def grab() -> CameraProbe:
        import cv2  # heavy; only when a device node exists

        cap = cv2.VideoCapture(device, cv2.CAP_V4L2)
        try:
            if not cap.isOpened():
                return CameraProbe("opencv", True, str(node), error="cv2.VideoCapture cannot open it",
                                   problem=Message.of(N_("it cannot be opened: another program may be using it, or "
                                                         "this user is not in the video group")))
            ok, frame = cap.read()
            if not ok or frame is None:
                return CameraProbe("opencv", True, str(node), error="opened, but no frame arrived",
                                   problem=Message.of(N_("it opened, but no frame arrived: reconnect it, or try "
                                                         "another USB port")))
            # V4L2 auto exposure: 1 = manual (0.25 on builds using the old DC1394 scale). Locked
            # means the driver took manual mode and still reports it after a few frames.
            if not cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1):
                cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
            cap.set(cv2.CAP_PROP_AUTO_WB, 0)
            for _ in range(LOCK_CHECK_FRAMES):
                cap.read()
            locked = cap.get(cv2.CAP_PROP_AUTO_EXPOSURE) in (1.0, 0.25)
            return CameraProbe("opencv", True, str(node), (frame.shape[1], frame.shape[0]), locked)
        finally:
            cap.release()

    done, result = _with_timeout(grab, FRAME_TIMEOUT_SECONDS)
    if not done:
        return CameraProbe("opencv", True, str(node), error=f"no frame within {FRAME_TIMEOUT_SECONDS:.0f} s",
                           problem=_no_frame_in_time())
    if isinstance(result, Exception):
        error = f"{type(result).__name__}: {result}"
        return CameraProbe("opencv", True, str(node), error=error, problem=Message.of(
            N_("OpenCV failed while reading it ({detail})"), detail=error))
    return result


def _no_frame_in_time() -> Message:
    return Message.of(NP_("no frame within {count} second: another program may be using the camera",
                          "no frame within {count} seconds: another program may be using the camera"),
                      count=round(FRAME_TIMEOUT_SECONDS))


def _probe_problem(probe: CameraProbe) -> Message:
    """What a camera probe found wrong, for the player (a probe made without one: a translated
    reason, with the library's own English words only as a detail in brackets)."""
    if probe.problem is not None:
        return probe.problem
    return Message.of(N_("the camera reported a problem ({detail})"), detail=probe.error)


# ---------------------------------------------------------------------------------------------
# The checks


CAMERA_FIX = N_(
    "Connect the Camera Module ribbon (Pi off), then check `rpicam-hello --list-cameras`; or plug "
    "in a USB webcam; or set [camera] source = \"sim\" to play on the simulated table."
)


def check_camera(config: Any, machine: Machine) -> tuple[list[CheckResult], CameraProbe | None]:
    source = config.get("camera", "source")
    if source == "sim":
        return [_ok("camera", Message.of(N_("Camera: the simulated table (set in the config).")))], None
    if source == "files":
        path = config.get("camera", "path")
        if path and Path(path).expanduser().exists():
            return [_ok("camera", Message.of(N_("Camera: recorded images from {path}."), path=path))], None
        return [_fail("camera", Message.of(N_("Camera: [camera] path {path} does not exist."), path=path or "(empty)"),
                      Message.of(N_("Set [camera] path to an image folder or a video file.")))], None
    probes: list[CameraProbe] = []
    if source in ("auto", "picamera2"):
        probe = machine.probe_picamera2()
        if probe is not None:
            probes.append(probe)
    if source in ("auto", "opencv") and not any(p.frame for p in probes):
        probe = machine.probe_opencv(config.get("camera", "device"), machine.dev)
        if probe is not None:
            probes.append(probe)
    working = next((p for p in probes if p.frame), None)
    if working is not None:
        width, height = working.frame or (0, 0)
        return [_ok("camera", Message.of(N_("Camera: {name} via {source}, frames arriving ({width}×{height})."),
                                         name=working.name or working.source, source=working.source,
                                         width=width, height=height))], working
    found = next((p for p in probes if p.found), None)
    if found is not None:
        return [_fail("camera", Message.of(N_("Camera: {name} via {source} found, but no frames: {error}"),
                                           name=found.name or found.source, source=found.source, error=_probe_problem(found)),
                      Message.of(N_("Check that no other program uses the camera (the kiosk service: "
                                    "`sudo systemctl stop companion`), then reseat the cable.")))], found
    if probes:
        tried = tuple(Message.of(N_("{source}: {problem}"), source=p.source, problem=_probe_problem(p)) for p in probes)
        detail = Message.of(N_("Camera: none found ({tried})."), tried=tried)
    else:
        detail = Message.of(N_("Camera: none found (picamera2 not installed, no /dev/video{device})."),
                            device=config.get("camera", "device"))
    return [_fail("camera", detail, Message.of(CAMERA_FIX))], None


def check_exposure(probe: CameraProbe | None, config: Any) -> CheckResult:
    settle = config.get("camera", "settle_seconds")
    if probe is None or not probe.frame:
        return _warn("camera.exposure", Message.of(N_("Exposure: no working camera to check.")),
                     Message.of(N_("Fix the camera first.")))
    if probe.exposure_locked:
        return _ok("camera.exposure", Message.of(
            N_("Exposure: locked and held ({source}); the companion locks it {seconds} s after start."),
            source=probe.source, seconds=settle))
    return _warn("camera.exposure", Message.of(N_("Exposure: the {source} camera did not hold a fixed exposure; "
                                                  "colours will drift when the light changes."), source=probe.source),
                 Message.of(N_("Use the Pi Camera Module, or a webcam with manual exposure, and steady lighting.")))


def _pin_reason(reason: str) -> Message | str:
    """feedback.pins' English reason for its pin choice, in words a translation has (the exception's
    own text stays in the log)."""
    if reason == "GPIOZERO_PIN_FACTORY=mock":
        return Message.of(N_("GPIOZERO_PIN_FACTORY is set to mock"))
    if reason.startswith("no usable GPIO"):
        return Message.of(N_("no usable GPIO: not a Pi, or no access to /dev/gpiochip*"))
    return reason  # "gpiozero LGPIOFactory": a library's name, the same in every language


def check_gpio(config: Any, machine: Machine) -> list[CheckResult]:
    from .feedback.devices import FeedbackSettings
    from .feedback.pins import choose_pin_factory

    settings = FeedbackSettings.from_config(config, check=False)  # bad pins are reported below
    choice = machine.pin_factory() if machine.pin_factory else choose_pin_factory(log_fallback=False)
    results = []
    if choice.mock:
        results.append(_warn("gpio", Message.of(N_("GPIO: mock pins ({reason}); LED and buzzer are only logged."),
                                                reason=_pin_reason(choice.reason)),
                             Message.of(N_("On a Raspberry Pi: install python3-lgpio, unset GPIOZERO_PIN_FACTORY, and run as a "
                                           "user in the gpio group (sudo -u companion companion doctor)."))))
    else:
        results.append(_ok("gpio", Message.of(N_("GPIO: {reason}."), reason=choice.reason)))
    pins = settings.used_pins()
    seen: dict[int, str] = {}
    for role, number in pins.items():
        name = f"gpio.{role}"
        if number not in BCM_PINS:
            results.append(_fail(name, Message.of(N_("GPIO {role}: {pin} is not a header GPIO (0-27)."), role=role, pin=number),
                                 Message.of(N_("Set [feedback] {role} to a BCM number from hardware/README.md."), role=role)))
            continue
        if number in seen:
            results.append(_fail(name, Message.of(N_("GPIO {role}: GPIO{pin} is also given to {other}."),
                                                  role=role, pin=number, other=seen[number]),
                                 Message.of(N_("Give every device its own pin in [feedback]."))))
            continue
        seen[number] = role
        if choice.mock:
            results.append(_ok(name, Message.of(N_("GPIO {role}: GPIO{pin} (mock pins: not checked on hardware)."),
                                                role=role, pin=number)))
        else:
            results.append(_pin_free(name, role, number, choice.factory))
    return results


def _pin_free(name: str, role: str, number: int, factory: Any) -> CheckResult:
    from gpiozero import InputDevice

    try:
        # An input without pull claims the line without driving anything wired to it.
        InputDevice(number, pull_up=None, active_state=True, pin_factory=factory).close()
    except Exception as exc:  # lgpio raises its own error type for a line another process holds
        return _warn(name, Message.of(N_("GPIO {role}: GPIO{pin} is busy ({error})."), role=role, pin=number, error=str(exc)),
                     Message.of(N_("Stop the kiosk service while checking (`sudo systemctl stop companion`), or "
                                   "free the pin from other overlays in /boot/firmware/config.txt.")))
    return _ok(name, Message.of(N_("GPIO {role}: GPIO{pin} is free."), role=role, pin=number))


def check_display(machine: Machine) -> list[CheckResult]:
    env = machine.environ
    cards = sorted((machine.dev / "dri").glob("card*"))
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        which = env.get("WAYLAND_DISPLAY") or env.get("DISPLAY")
        display = _ok("display", Message.of(N_("Display: a desktop session ({display})."), display=which))
    elif cards:
        usable = [c for c in cards if machine.access(c, os.R_OK | os.W_OK)]
        if usable:
            display = _ok("display", Message.of(N_("Display: KMS/DRM at {card}."), card=str(usable[0])))
        else:
            display = _fail("display", Message.of(N_("Display: {card} exists but this user cannot open it."), card=str(cards[0])),
                            Message.of(N_("Add the user to the video and render groups (the kiosk's `companion` user has them).")))
    else:
        display = _fail("display", Message.of(N_("Display: no $DISPLAY, $WAYLAND_DISPLAY or /dev/dri/card*.")),
                        Message.of(N_("Connect the touchscreen and enable KMS (dtoverlay=vc4-kms-v3d in "
                                      "/boot/firmware/config.txt), then reboot.")))
    return [display, _check_touch(machine)]


def _check_touch(machine: Machine) -> CheckResult:
    touch = []
    for event_dir in sorted((machine.sysfs / "class" / "input").glob("event*")):
        try:
            abs_caps = (event_dir / "device" / "capabilities" / "abs").read_text().split()
        except OSError:
            continue
        # Hex words of a kernel `long`, most significant first. ABS_MAX is 63, so a 64-bit kernel
        # prints one word and a 32-bit kernel at most two.
        try:
            words = [int(word, 16) for word in abs_caps]
        except ValueError:
            continue
        bits = (words[0] << 32 | words[1]) if len(words) == 2 else (words[0] if words else 0)
        if bits >> ABS_MT_POSITION_X & 1:
            try:
                name = (event_dir / "device" / "name").read_text().strip()
            except OSError:
                name = event_dir.name
            touch.append((event_dir.name, name))
    if not touch:
        return _warn("display.touch", Message.of(N_("Touch: no multi-touch input device found.")),
                     Message.of(N_("Connect the display's touch cable (DSI) or USB; a mouse works meanwhile.")))
    node, name = touch[0]
    if not machine.access(machine.dev / "input" / node, os.R_OK):
        return _warn("display.touch", Message.of(N_("Touch: {name} at /dev/input/{node}, but this user cannot read it."),
                                                 name=name, node=node),
                     Message.of(N_("Add the user to the input group.")))
    return _ok("display.touch", Message.of(N_("Touch: {name} at /dev/input/{node}."), name=name, node=node))


def check_fonts(machine: Machine) -> list[CheckResult]:
    if machine.which("fc-list") is None:
        return [_warn("fonts", Message.of(N_("Fonts: fc-list (fontconfig) is not installed; cannot check CJK fonts.")),
                      Message.of(N_("sudo apt install fontconfig fonts-noto-cjk")))]
    results = []
    for lang, label, regional in (("ja", "Japanese", "JP"), ("zh-tw", "Traditional Chinese", "TC")):
        out = machine.run(["fc-list", f":lang={lang}", "family"]) or ""
        families = sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()},
                          key=lambda family: (regional not in family, family))  # "Noto Sans CJK JP" first
        name = f"fonts.{lang}"
        if families:
            results.append(_ok(name, Message.of(NP_("Fonts for {language}: {count} family, {family}.",
                                                    "Fonts for {language}: {count} families, e.g. {family}."),
                                                language=label, count=len(families), family=families[0])))
        else:
            results.append(_fail(name, Message.of(N_("Fonts for {language}: none; rulings would show as boxes."), language=label),
                                 Message.of(N_("sudo apt install fonts-noto-cjk"))))
    return results


def check_calibration(state_dir: Path, machine: Machine) -> CheckResult:
    folder = state_dir / "calibration"
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if not files:
        return _warn("calibration", Message.of(N_("Calibration: none in {folder}."), folder=str(folder)),
                     Message.of(N_("Run `companion calibrate` with the printed ChArUco sheet under the camera.")))
    for path in files:
        if path.suffix == ".json":
            try:
                json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                return _fail("calibration", Message.of(N_("Calibration: {file} cannot be used: {problem}."),
                                                       file=str(path), problem=_file_problem(exc)),
                             Message.of(N_("Move the file aside and run `companion calibrate` again.")))
    newest = max(files, key=lambda p: p.stat().st_mtime)
    age_days = (machine.now() - newest.stat().st_mtime) / 86400
    if age_days > CALIBRATION_MAX_AGE_DAYS:
        return _warn("calibration", Message.of(NP_("Calibration: newest file {file} is {count} day old.",
                                                   "Calibration: newest file {file} is {count} days old."),
                                               file=newest.name, count=int(age_days)),
                     Message.of(N_("If the camera or the stand moved, run `companion calibrate` again.")))
    age = Message.of(NP_("{count} day old", "{count} days old"), count=int(age_days))
    return _ok("calibration", Message.of(NP_("Calibration: {count} file, {file} ({age}).",
                                             "Calibration: {count} files, newest {file} ({age})."),
                                         count=len(files), file=newest.name, age=age))


def check_camera_lens(state_dir: Path, source: str) -> CheckResult:
    """The camera's intrinsics (`calibrate camera`): without them small marker misreads bend the board."""
    if source == "sim":
        return _ok("calibration.camera", Message.of(N_("Camera lens: not needed for the {source} source."),
                                                    source=source))
    if camera_lens_measured(state_dir):
        return _ok("calibration.camera", Message.of(N_("Camera lens: measured ({file})."),
                                                    file=str(state_dir / CAMERA_FILE)))
    return _warn("calibration.camera", Message.of(N_("Camera lens: not measured ({file} is missing)."),
                                                  file=str(state_dir / CAMERA_FILE)),
                 Message.of(CAMERA_NOT_MEASURED))


def _journal_files(state_dir: Path) -> list[Path]:
    found: set[Path] = set()
    for pattern in JOURNAL_PATTERNS:
        found.update(state_dir.glob(pattern))
        found.update(state_dir.glob(f"*/{pattern}"))
    return sorted(p for p in found if p.is_file())


def check_journal(state_dir: Path, machine: Machine) -> list[CheckResult]:
    results = []
    existing = next((p for p in (state_dir, *state_dir.parents) if p.exists()), Path("/"))
    if not machine.access(existing, os.W_OK | os.X_OK):
        results.append(_fail("journal.writable", Message.of(N_("State directory {dir}: not writable by this user."), dir=str(state_dir)),
                             Message.of(N_("Run as the `companion` user (sudo -u companion companion doctor), or set "
                                           "[general] state_dir to a writable folder."))))
    else:
        results.append(_ok("journal.writable", Message.of(N_("State directory {dir}: writable."), dir=str(state_dir))))
    files = _journal_files(state_dir) if state_dir.is_dir() else []
    if not files:
        results.append(_ok("journal", Message.of(N_("Journal: none yet (it starts with the first game)."))))
    for path in files:
        results.append(_check_sqlite(path))
    return results


def _check_sqlite(path: Path) -> CheckResult:
    name = f"journal.{path.name}"
    try:
        # Read-only: the doctor never changes a user's file, even a broken one.
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
        try:
            verdict = db.execute("PRAGMA integrity_check").fetchall()
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return _fail(name, Message.of(N_("Journal {file}: {problem} ({error})."), file=str(path),
                                      problem=_sqlite_problem(exc), error=str(exc)),
                     Message.of(N_("Stop the companion, move the file aside (it is set aside automatically at the "
                                   "next start), and resume from a save.")))
    if verdict != [("ok",)]:
        return _fail(name, Message.of(N_("Journal {file}: the file is damaged, its integrity check failed ({error})."),
                                      file=str(path), error="; ".join(str(r[0]) for r in verdict[:3])),
                     Message.of(N_("Stop the companion, move the file aside (it is set aside automatically at the "
                                   "next start), and resume from a save.")))
    return _ok(name, Message.of(N_("Journal {file}: integrity ok, {mode} mode, {size} kB."),
                                file=path.name, mode=mode, size=round(path.stat().st_size / 1024)))


# SQLite's result codes (sqlite3.Error.sqlite_errorname, extended names start with these) in words
_SQLITE_PROBLEMS = (
    ("SQLITE_NOTADB", N_("this is not an SQLite journal (another kind of file, or damaged beyond reading)")),
    ("SQLITE_CORRUPT", N_("the file is damaged")),
    ("SQLITE_BUSY", N_("another program holds it locked: stop the companion first")),
    ("SQLITE_LOCKED", N_("another program holds it locked: stop the companion first")),
    ("SQLITE_CANTOPEN", N_("it cannot be opened: check the permissions of the file and its folder")),
    ("SQLITE_PERM", N_("this user may not read it: check the file's owner and permissions")),
    ("SQLITE_READONLY", N_("this user may not read it: check the file's owner and permissions")),
    ("SQLITE_AUTH", N_("this user may not read it: check the file's owner and permissions")),
    ("SQLITE_IOERR", N_("the storage gave an input/output error: the card or disk may be failing")),
)


def _sqlite_problem(exc: sqlite3.Error) -> Message:
    name = getattr(exc, "sqlite_errorname", None) or ""
    for prefix, msgid in _SQLITE_PROBLEMS:
        if name.startswith(prefix):
            return Message.of(msgid)
    return Message.of(N_("it cannot be read as SQLite"))


def _file_problem(exc: Exception) -> Any:
    """Why a calibration file cannot be used, in the player's language (json's own words left out)."""
    if isinstance(exc, json.JSONDecodeError):
        return Message.of(N_("not valid JSON at line {line}, column {column}"), line=exc.lineno, column=exc.colno)
    return os_error_text(exc)


def check_disk(state_dir: Path) -> CheckResult:
    existing = next((p for p in (state_dir, *state_dir.parents) if p.exists()), Path("/"))
    usage = shutil.disk_usage(existing)
    free_mb = usage.free // 1024**2
    detail = Message.of(N_("Disk: {free} MB free on the state directory's file system ({dir})."), free=free_mb, dir=str(existing))
    fix = Message.of(N_("Free some space: old exports, `sudo journalctl --vacuum-size=100M`, `sudo apt clean`."))
    if usage.free < DISK_FAIL_BYTES:
        return _fail("disk", detail, fix)
    if usage.free < DISK_WARN_BYTES:
        return _warn("disk", detail, fix)
    return _ok("disk", detail)


REQUIRED = (("opencv", ("opencv-python", "opencv-python-headless", "opencv-contrib-python")),
            ("numpy", ("numpy",)), ("kivy", ("kivy", "Kivy")), ("gpiozero", ("gpiozero",)))


def check_versions(machine: Machine) -> list[CheckResult]:
    results = [_ok("versions.python", Message.of(N_("Python {version}."), version=sys.version.split()[0]))]
    for label, names in REQUIRED:
        version = next((v for v in map(machine.distribution_version, names) if v), None)
        if version:
            results.append(_ok(f"versions.{label}", Message.of(N_("{package} {version}."), package=label, version=version)))
        else:
            results.append(_fail(f"versions.{label}", Message.of(N_("{package}: not installed."), package=label),
                                 Message.of(N_("Run `make install` (or `make run`) to set up the venv."))))
    picamera = machine.distribution_version("picamera2")
    if picamera:
        results.append(_ok("versions.picamera2", Message.of(N_("{package} {version}."), package="picamera2", version=picamera)))
    elif machine.is_pi():
        results.append(_warn("versions.picamera2", Message.of(N_("picamera2: not visible from this Python.")),
                             Message.of(N_("sudo apt install python3-picamera2, and make the venv with --system-site-packages."))))
    else:
        results.append(_ok("versions.picamera2", Message.of(N_("picamera2: not installed (not needed off a Pi)."))))
    return results


# ---------------------------------------------------------------------------------------------
# Running and reporting


def collect(config: Any, machine: Machine | None = None) -> list[CheckResult]:
    machine = machine or Machine()
    state_dir = config.state_dir()
    results: list[CheckResult] = []
    camera, probe = check_camera(config, machine)
    results += camera
    results.append(check_exposure(probe, config) if config.get("camera", "source") not in ("sim", "files")
                   else _ok("camera.exposure", Message.of(N_("Exposure: not applicable to the {source} source."),
                                                          source=config.get("camera", "source"))))
    results += check_gpio(config, machine)
    results += check_display(machine)
    results += check_fonts(machine)
    results.append(check_calibration(state_dir, machine))
    results.append(check_camera_lens(state_dir, config.get("camera", "source")))
    results += check_journal(state_dir, machine)
    results.append(check_disk(state_dir))
    results += check_versions(machine)
    return results


def exit_code(results: Iterable[CheckResult]) -> int:
    return 1 if any(r.status is Status.FAIL for r in results) else 0


def format_text(results: list[CheckResult], lang: str | None = None) -> str:
    lines = []
    for result in results:
        lines.append(f"{result.status.value:<5} {result.name:<22} {result.detail.render(lang)}")
        if result.fix is not None and result.status is not Status.OK:
            lines.append(f"{'':<5} {'':<22} → {result.fix.render(lang)}")
    counts = {s: sum(1 for r in results if r.status is s) for s in Status}
    lines.append(Message.of(N_("{ok} OK, {warn} WARN, {fail} FAIL"), ok=counts[Status.OK], warn=counts[Status.WARN],
                            fail=counts[Status.FAIL]).render(lang))
    return "\n".join(lines)


def format_json(results: list[CheckResult]) -> str:
    counts = {s.value.lower(): sum(1 for r in results if r.status is s) for s in Status}
    return json.dumps({"checks": [r.to_json() for r in results], "summary": counts, "exit_code": exit_code(results)},
                      ensure_ascii=False, indent=2)


def run_checks(config: Any, as_json: bool = False, machine: Machine | None = None) -> int:
    results = collect(config, machine)
    print(format_json(results) if as_json else format_text(results, config.get("general", "language")))
    return exit_code(results)
