"""The kiosk unit: systemd-analyze verify and security on the file itself, and the settings the
brief asks for (own user, watchdog, restart, state/config directories, journal, hardening)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from .conftest import PREFIX, SYSTEMD_DIR, values

UNIT = SYSTEMD_DIR / "companion.service"
needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                           reason="systemd-analyze is not installed on this machine")
MAX_EXPOSURE = 3.0


@needs_systemd_analyze
def test_installed_unit_passes_systemd_analyze_verify(staged_once, tmp_path):
    staged, _ = staged_once
    # verify checks that ExecStart= binaries exist; point it at the staged tree (no booted systemd
    # or --root needed, so it runs in a container too).
    unit = staged / "etc/systemd/system/companion.service"
    check = tmp_path / "verify" / "companion.service"
    check.parent.mkdir()
    check.write_text(unit.read_text().replace(PREFIX, str(staged) + PREFIX))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(check)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr  # unknown keys are only warnings: none allowed


@needs_systemd_analyze
def test_verify_would_catch_a_typo_and_a_missing_binary(tmp_path):
    bad = tmp_path / "companion.service"
    bad.write_text(UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs="))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(bad)],
                            capture_output=True, text=True, timeout=60)
    assert "WatchdogSecs" in result.stderr
    assert "not executable" in result.stderr  # /opt/companion is not installed on the test machine


@needs_systemd_analyze
def test_security_exposure_is_at_most_3(tmp_path):
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    assert exposure <= MAX_EXPOSURE, f"exposure {exposure} > {MAX_EXPOSURE}"


def test_runs_as_its_own_user_with_the_device_groups():
    assert values(UNIT, "User") == ["companion"]
    assert set(values(UNIT, "SupplementaryGroups")[0].split()) == {"video", "render", "input", "gpio"}
    sysusers = (SYSTEMD_DIR / "companion.sysusers").read_text()
    for group in ("video", "render", "input", "gpio"):
        assert re.search(rf"^m companion {group}$", sysusers, re.M)


def test_watchdog_restart_and_notify():
    assert values(UNIT, "Type") == ["notify"]
    assert values(UNIT, "NotifyAccess") == ["main"]
    assert int(values(UNIT, "WatchdogSec")[0]) >= 10
    assert values(UNIT, "Restart") == ["on-failure"]


def test_state_and_config_directories_match_what_the_app_reads():
    assert values(UNIT, "StateDirectory") == ["companion"]  # → $STATE_DIRECTORY, Config.state_dir()
    assert values(UNIT, "ConfigurationDirectory") == ["companion"]
    env = dict(v.split("=", 1) for v in values(UNIT, "Environment"))
    assert env["XDG_CONFIG_HOME"] == "%E"  # config.py then finds /etc/companion/config.toml first
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_HOME"].startswith("%S/companion")  # writable under ProtectSystem=strict
    assert env["NUMBA_CACHE_DIR"].startswith("%C/companion")  # compiled kernels: the app dir is read-only


def test_logs_to_the_journal_and_is_hardened():
    assert values(UNIT, "StandardOutput") == ["journal"]
    for key, value in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "yes"),
                       ("PrivateTmp", "yes"), ("DevicePolicy", "closed")]:
        assert values(UNIT, key) == [value], key
    allowed = " ".join(values(UNIT, "DeviceAllow"))
    for device in ("video4linux", "drm", "input", "gpiochip", "vchiq", "dma_heap", "media"):
        assert f"char-{device}" in allowed, device
    assert values(UNIT, "PrivateDevices") == []  # would hide the camera and the screen


def test_wait_for_devices_returns_when_display_and_camera_exist(tmp_path):
    (tmp_path / "dev/dri").mkdir(parents=True)
    (tmp_path / "dev/dri/card1").touch()
    (tmp_path / "dev/video0").touch()
    result = subprocess.run(["sh", str(SYSTEMD_DIR / "wait-for-devices"), "5"], capture_output=True,
                            text=True, timeout=30, env={"COMPANION_DEV_ROOT": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0
    assert result.stderr == ""


def test_wait_for_devices_gives_up_without_failing_and_says_what_is_missing(tmp_path):
    (tmp_path / "dev/dri").mkdir(parents=True)
    (tmp_path / "dev/dri/card0").touch()
    result = subprocess.run(["sh", str(SYSTEMD_DIR / "wait-for-devices"), "0"], capture_output=True,
                            text=True, timeout=30, env={"COMPANION_DEV_ROOT": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0
    assert "no camera" in result.stderr
    assert "no display" not in result.stderr
