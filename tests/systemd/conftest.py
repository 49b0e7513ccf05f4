"""Fixtures: the installer run against a temporary DESTDIR, with systemctl & co. replaced by
recorders on $PATH so a test can prove they were (not) called."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD_DIR = REPO / "systemd"
PREFIX = "/opt/companion"
RECORDED = ("systemctl", "systemd-sysusers", "useradd", "userdel", "groupdel", "apt-get", "chown", "fc-cache")


def make_recorder(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name in RECORDED:
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        script.chmod(0o755)
    log.touch()
    return log


@pytest.fixture
def recorder(tmp_path) -> Path:
    """A bin dir whose systemctl, apt-get, useradd... only append their argv to calls.log."""
    return make_recorder(tmp_path)


def run_script(name: str, *args: str, destdir: Path | None, recorder: Path, check: bool = True):
    env = dict(os.environ)
    env["PATH"] = f"{recorder.parent / 'fakebin'}:{env['PATH']}"
    env.pop("DESTDIR", None)
    if destdir is not None:
        env["DESTDIR"] = str(destdir)
    result = subprocess.run(["bash", str(SYSTEMD_DIR / name), *args], env=env, capture_output=True,
                            text=True, timeout=120)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture
def staged(tmp_path, recorder) -> Path:
    """A fresh staged install, for tests that change it."""
    root = tmp_path / "root"
    run_script("install.sh", "--skip-deps", destdir=root, recorder=recorder)
    return root


@pytest.fixture(scope="module")
def staged_once(tmp_path_factory) -> tuple[Path, Path]:
    """One staged install shared by the tests that only look at it: (root, calls log)."""
    base = tmp_path_factory.mktemp("staged")
    log = make_recorder(base)
    root = base / "root"
    run_script("install.sh", "--skip-deps", destdir=root, recorder=log)
    return root, log


def unit_directives(path: Path) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment; systemd allows a key several times."""
    section, out = "", []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key.strip(), value.strip()))
    return out


def values(path: Path, key: str) -> list[str]:
    return [v for _, k, v in unit_directives(path) if k == key]
