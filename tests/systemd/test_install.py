"""install.sh / uninstall.sh against a temporary DESTDIR: every file lands where the unit expects it,
nothing touches the real system (no systemctl, no users), the user's files survive."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from companion.config import load_config

from .conftest import PREFIX, REPO, SYSTEMD_DIR, run_script, values


def exec_paths(unit_path):
    paths = []
    for key in ("ExecStart", "ExecStartPre"):
        for value in values(unit_path, key):
            paths.append(value.lstrip("-@:+!").split()[0])
    return paths


def test_every_path_the_unit_names_exists_in_the_staged_tree(staged_once):
    staged, _ = staged_once
    unit = staged / "etc/systemd/system/companion.service"
    assert unit.exists()
    for path in exec_paths(unit):
        target = staged / path.lstrip("/")
        assert target.is_file() and os.access(target, os.X_OK), path
    assert (staged / "var/lib/companion/games").is_dir()
    assert (staged / "var/lib/companion/calibration").is_dir()
    assert (staged / "etc/companion/config.toml").is_file()
    assert (staged / "etc/sysusers.d/companion.conf").is_file()


def test_the_launcher_runs_the_copied_app_from_the_venv(staged_once):
    staged, _ = staged_once
    launcher = (staged / "opt/companion/bin/companion").read_text()
    assert f"exec {PREFIX}/venv/bin/python -m companion" in launcher
    venv_python = staged / "opt/companion/venv/bin/python"
    assert venv_python.exists()  # a symlink to the system python, valid outside DESTDIR too
    assert "include-system-site-packages = true" in (staged / "opt/companion/venv/pyvenv.cfg").read_text()
    pth = list((staged / "opt/companion/venv/lib").glob("python3.*/site-packages/table-companion.pth"))
    assert [p.read_text().strip() for p in pth] == [f"{PREFIX}/app"]
    app = staged / "opt/companion/app"
    assert (app / "companion/__main__.py").is_file()
    assert not list(app.rglob("__pycache__"))
    # The copy is complete enough to run: the CLI answers from the staged app directory.
    result = subprocess.run([sys.executable, "-m", "companion", "--version"], cwd=app, capture_output=True,
                            text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(app)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("companion ")
    link = staged / "usr/local/bin/companion"
    assert os.readlink(link) == f"{PREFIX}/bin/companion"


def test_the_installed_config_is_valid_and_matches_the_default_pin_map(staged_once):
    staged, _ = staged_once
    config = load_config(staged / "etc/companion/config.toml")
    defaults = load_config(None)
    assert config.section("feedback") == defaults.section("feedback")
    # The same state directory as the unit's StateDirectory=companion, for commands run by hand.
    assert config.get("general", "state_dir") == "/var/lib/companion"
    assert values(staged / "etc/systemd/system/companion.service", "StateDirectory") == ["companion"]


def test_destdir_never_calls_systemctl_or_creates_users(staged_once):
    _, calls = staged_once
    assert calls.read_text() == ""


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers not installed")
def test_the_sysusers_file_creates_the_user_in_its_groups(staged):
    subprocess.run(["systemd-sysusers", f"--root={staged}", str(staged / "etc/sysusers.d/companion.conf")],
                   check=True, capture_output=True, timeout=60)
    passwd = (staged / "etc/passwd").read_text()
    assert "companion:x:" in passwd and ":/var/lib/companion:/usr/sbin/nologin" in passwd
    groups = {line.split(":")[0]: line.split(":")[3] for line in (staged / "etc/group").read_text().splitlines()}
    for group in ("video", "render", "input", "gpio"):
        assert "companion" in groups[group].split(","), group


def test_reinstall_keeps_the_users_config_games_and_calibration(staged, recorder):
    config = staged / "etc/companion/config.toml"
    config.write_text('[general]\nlanguage = "ja"\n')
    game = staged / "var/lib/companion/games/saved.json"
    game.write_text("{}")
    run_script("install.sh", "--skip-deps", destdir=staged, recorder=recorder)
    assert config.read_text() == '[general]\nlanguage = "ja"\n'
    assert game.read_text() == "{}"


def test_dry_run_changes_nothing(tmp_path, recorder):
    root = tmp_path / "dry"
    result = run_script("install.sh", "--dry-run", "--skip-deps", destdir=root, recorder=recorder)
    assert not root.exists()
    assert "companion.service" in result.stdout
    result = run_script("uninstall.sh", "--dry-run", "--purge", destdir=root, recorder=recorder)
    assert recorder.read_text() == ""


def test_dry_run_on_the_real_system_plans_the_user_and_the_service_but_runs_nothing(recorder):
    result = run_script("install.sh", "--dry-run", "--skip-deps", destdir=None, recorder=recorder)
    plan = result.stdout
    assert "+ systemd-sysusers /etc/sysusers.d/companion.conf" in plan
    assert "+ systemctl enable companion.service" in plan
    assert "+ chown -R companion:companion /var/lib/companion" in plan
    assert recorder.read_text() == ""
    assert not os.path.exists(f"{PREFIX}/app.new")


def test_a_full_install_builds_the_compiled_kernels_as_the_service_user_into_the_units_cache(recorder):
    plan = run_script("install.sh", "--dry-run", destdir=None, recorder=recorder).stdout
    warm = next(line for line in plan.splitlines() if "bench vision" in line)
    assert warm.lstrip().startswith("+ runuser -u companion --")
    cache = next(v.split("=", 1)[1] for v in values(SYSTEMD_DIR / "companion.service", "Environment")
                 if v.startswith("NUMBA_CACHE_DIR="))
    assert f"NUMBA_CACHE_DIR={cache.replace('%C', '/var/cache')}" in warm  # where the service looks
    assert plan.index("pip install") < plan.index("bench vision") < plan.index("systemctl enable")
    assert recorder.read_text() == ""


def test_uninstall_keeps_games_calibration_and_config_unless_purged(staged, recorder):
    (staged / "var/lib/companion/calibration/camera.json").write_text("{}")
    (staged / "var/lib/companion/kivy").mkdir()
    run_script("uninstall.sh", destdir=staged, recorder=recorder)
    assert not (staged / "opt/companion").exists()
    assert not (staged / "etc/systemd/system/companion.service").exists()
    assert not (staged / "usr/local/bin/companion").exists()
    assert not (staged / "var/lib/companion/kivy").exists()
    assert (staged / "var/lib/companion/calibration/camera.json").exists()
    assert (staged / "var/lib/companion/games").is_dir()
    assert (staged / "etc/companion/config.toml").exists()
    run_script("uninstall.sh", "--purge", destdir=staged, recorder=recorder)
    assert not (staged / "var/lib/companion").exists()
    assert not (staged / "etc/companion").exists()
    assert not (staged / "etc/sysusers.d/companion.conf").exists()
    assert recorder.read_text() == ""  # DESTDIR: no systemctl, no userdel


def test_uninstall_leaves_someone_elses_companion_command_alone(staged, recorder):
    link = staged / "usr/local/bin/companion"
    link.unlink()
    link.symlink_to("/usr/bin/true")
    run_script("uninstall.sh", destdir=staged, recorder=recorder)
    assert link.is_symlink()


def test_unknown_options_are_refused_with_usage(recorder, tmp_path):
    result = run_script("install.sh", "--frobnicate", destdir=tmp_path / "x", recorder=recorder, check=False)
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr
    assert "--dry-run" in result.stderr


def test_make_install_target_runs_this_installer():
    makefile = (REPO / "Makefile").read_text()
    assert "bash systemd/install.sh" in makefile and "bash systemd/uninstall.sh" in makefile
