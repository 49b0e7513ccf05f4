"""The terminal's progress line (a tty) in the player's language: the simulated table's scene notes
and a camera scene's kind are translated; a recording keeps the script's notes in English."""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.config import load_config
from companion.demo.script import DemoScript
from companion.games.api import Message
from companion.i18n import N_
from companion.referee.camera_run import SCENE_WORDS
from companion.referee.console import Console
from companion.referee.frames import scene_to_json
from companion.referee.live import RunOptions, run_demo
from companion.referee.session import Scene

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


class ProgressConsole(Console):
    """A console whose progress line (a tty's) is kept, each rewrite of it."""

    def __init__(self, lang: str):
        super().__init__(lang, out=io.StringIO())
        self.shown: list[str] = []

    def progress(self, text: str) -> None:
        self.shown.append(text)


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_the_simulated_tables_progress_line_reads_in_the_language(lang, tmp_path):
    console = ProgressConsole(lang)
    options = RunOptions(game="reclamation", fresh=True, speed=0.0, state_dir=tmp_path, max_scenes=60,
                         frames=False, lang=lang)
    run_demo(options, load_config(), io.StringIO(), console=console)
    lines = console.shown
    assert len(lines) >= 30
    from companion.demo.records import load_demo

    players = set(load_demo("reclamation", 1).initial.players)
    for line in lines:  # rule ids (dotted) and the players' names are kept as they are
        words = [w for w in LATIN_WORD.findall(re.sub(r"\w+(\.\w+)+", "", line)) if w not in players]
        assert words == [], line


def test_every_note_of_the_script_is_a_translatable_message():
    from companion.demo.records import load_demo
    from companion.referee.views import view_for

    demo = load_demo("reclamation", 1)
    script = DemoScript(view_for("reclamation"), demo.initial, demo.moves, seed=1)
    notes = [scene.note for scene, _ in zip(script.scenes(), range(400), strict=False)]
    assert notes and all(isinstance(note, Message) for note in notes)
    assert {"the table is set up", "move {number}/{total}"} <= {note.msgid for note in notes}


def test_a_recording_keeps_the_notes_in_english():
    scene = Scene("player", note=Message.of(N_("{scene}: the camera missed it, entered by hand"),
                                              scene=Message.of(N_("move {number}/{total}"), number=3, total=9)))
    assert json.loads(json.dumps(scene_to_json(scene)))["note"] == "move 3/9: the camera missed it, entered by hand"
    assert scene_to_json(Scene("busy", note="an old recording's words"))["note"] == "an old recording's words"


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_a_camera_scenes_kind_is_said_in_the_language(lang):
    for kind, msgid in SCENE_WORDS.items():
        text = Message.of(msgid).render(lang)
        assert text != Message.of(msgid).render("en") and not LATIN_WORD.search(text), kind
