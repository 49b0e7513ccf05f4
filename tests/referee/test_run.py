"""`companion run --headless` on the simulated table, end to end, in a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("companion.games.reclamation")

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), GPIOZERO_PIN_FACTORY="mock",
               PYTHONPATH=str(ROOT))
    env.pop("COMPANION_CONFIG", None)
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "companion", "run", "--headless", "--speed", "0",
                           "--state-dir", str(tmp_path / "state"), *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


@pytest.mark.slow
def test_headless_reclamation_game_finishes_catches_the_illegal_action_and_scores(tmp_path):
    done = run(tmp_path, "--game", "reclamation")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "no camera found" in out
    assert "the digital twin renders the table and the observer reads it" in out
    assert "NOT ALLOWED" in out and "[reclamation.garden." in out  # the injected illegal action
    assert "the table is back as it was" in out  # ... undone by the player
    assert "⚑ A player took back the last move" in out  # the correction
    assert "camera: The camera stopped sending pictures" in out and "camera: The camera is back" in out
    assert "The Reclamation — final score" in out and "winner:" in out
    assert "game over: yes" in out
    pictures = list((tmp_path / "state" / "exports").glob("reclamation-*.png"))
    records = list((tmp_path / "state" / "exports").glob("reclamation-game*.json"))
    assert len(pictures) == 1 and pictures[0].stat().st_size > 1000
    assert len(records) == 2  # the record and its score sheet


def test_observation_level_run_catches_the_illegal_action(tmp_path):
    done = run(tmp_path, "--game", "reclamation", "--no-render")
    assert done.returncode == 0, done.stderr
    assert "NOT ALLOWED" in done.stdout and "[reclamation.garden." in done.stdout
    assert "final score" in done.stdout and "game over: yes" in done.stdout


@pytest.mark.slow
def test_baubylon_demo_is_refereed_and_catches_the_illegal_step(tmp_path):
    pytest.importorskip("companion.games.baubylon")
    done = run(tmp_path, "--game", "baubylon")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "playing a simulated game of Baubylon" in out and " instead of " not in out
    assert "NOT ALLOWED" in out and "[baubylon.move]" in out
    assert "the table is back as it was" in out
    assert "Baubylon — score so far" in out or "Baubylon — final score" in out
    assert "60 moves confirmed" in out


def test_a_stopped_run_resumes_from_the_journal(tmp_path):
    first = run(tmp_path, "--game", "reclamation", "--no-render", "--max-scenes", "25")
    assert first.returncode == 0, first.stderr
    confirmed = first.stdout.count("  ✓ move ")
    assert confirmed >= 3
    second = run(tmp_path, "--game", "reclamation", "--no-render")
    assert second.returncode == 0, second.stderr
    assert "resumed the game from the journal at move" in second.stdout
    assert "game over: yes" in second.stdout
    assert "  ✓ move 1:" not in second.stdout  # nothing replayed twice


def test_a_corrupt_journal_is_set_aside_and_reported(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "demo-journal.sqlite").write_bytes(b"garbage" * 500)
    done = run(tmp_path, "--game", "reclamation", "--no-render", "--max-scenes", "5")
    assert done.returncode == 0, done.stderr
    assert "could not be read" in done.stdout and ".corrupt-" in done.stdout
    kept = list(state.glob("demo-journal.sqlite.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"garbage")


@pytest.mark.slow
def test_headless_babylon_full_game(tmp_path):
    """The whole recorded game at the observation level (the twin-rendered run takes minutes)."""
    pytest.importorskip("companion.games.babylon")
    done = run(tmp_path, "--no-render", timeout=400)
    assert done.returncode == 0, done.stderr
    assert "NOT ALLOWED" in done.stdout and "[babylon." in done.stdout
    assert "Babylon — final score" in done.stdout and "game over: yes" in done.stdout
    assert done.stdout.count("  ? ") < 20  # the flower of a taken tile is not asked at take time


@pytest.mark.slow
def test_headless_babylon_through_the_twin_follows_the_opening(tmp_path):
    """Quarry and gardens rendered by the twin and read by the real observers: the first turns."""
    pytest.importorskip("companion.games.babylon")
    done = run(tmp_path, "--max-scenes", "40", timeout=400)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "the digital twin renders the table and the observer reads it" in out
    assert "NOT ALLOWED" not in out  # legal play only in the first 40 scenes: no false violation
    assert out.count("  ✓ move ") >= 15


def test_a_recorded_run_replays_to_the_same_result(tmp_path):
    record = tmp_path / "rec"
    done = run(tmp_path, "--game", "reclamation", "--no-render", "--record", str(record))
    assert done.returncode == 0, done.stderr
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT))
    replayed = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)], capture_output=True,
                              text=True, timeout=120, env=env, cwd=ROOT)
    assert replayed.returncode == 0, replayed.stderr
    summary = done.stdout.strip().splitlines()[-1].replace("companion run:", "")
    assert replayed.stdout.strip().splitlines()[-1].replace("companion replay:", "") == summary
    sheet = [line for line in done.stdout.splitlines() if line.startswith(("Flower:", "Vine:"))]
    assert sheet and all(line in replayed.stdout for line in sheet)


def test_replay_of_a_broken_recording_names_the_line(tmp_path):
    record = tmp_path / "rec"
    done = run(tmp_path, "--game", "reclamation", "--no-render", "--record", str(record), "--max-scenes", "3")
    assert done.returncode == 0, done.stderr
    with (record / "scenes.jsonl").open("a") as handle:
        handle.write("{not json\n")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT))
    replayed = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)], capture_output=True,
                              text=True, timeout=120, env=env, cwd=ROOT)
    assert replayed.returncode == 2
    assert "scenes.jsonl: line 4, column 2: not valid JSON" in replayed.stderr
    assert "Traceback" not in replayed.stderr


def test_a_camera_that_shows_no_readable_board_falls_back_to_the_simulated_table(tmp_path):
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:03d}.png"), np.full((240, 320, 3), 90 + i, np.uint8))
    config = tmp_path / "config" / "companion"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(f'[camera]\nsource = "files"\npath = "{frames}"\n')
    done = run(tmp_path, "--game", "reclamation", "--no-render", "--max-scenes", "3")
    assert done.returncode == 0, done.stderr
    assert "found, but no board of The Reclamation can be read" in done.stdout
    assert "playing a simulated game of The Reclamation" in done.stdout
