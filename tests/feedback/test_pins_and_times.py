"""What each pattern does to the pins, and when (gpiozero MockPin states and times)."""

from __future__ import annotations

from datetime import time

import pytest

from companion.feedback import PATTERNS, Pattern
from companion.feedback.patterns import Step
from companion.games.api import Message
from companion.referee.events import GameOver, MoveAccepted, SourceStatus, ViolationFound

from .conftest import pin

RED, GREEN, BLUE, BUZZER = 17, 27, 22, 18  # the default pin map (config.py [feedback])


def play(feedback, name):
    for number in (RED, GREEN, BLUE, BUZZER):
        pin(feedback, number).clear_states()
    feedback.play(name)
    assert feedback.player.wait_idle(5)


def test_accepted_is_half_a_second_of_green_with_one_short_beep(make_feedback):
    feedback = make_feedback()
    play(feedback, "accepted")
    pin(feedback, GREEN).assert_states_and_times([(0.0, 0.0), (0.0, 1.0), (0.5, 0.0)])
    pin(feedback, BUZZER).assert_states_and_times([(0.0, False), (0.0, True), (0.12, False)])
    assert len(pin(feedback, GREEN).states) == 3
    assert len(pin(feedback, RED).states) == 1  # red never lit
    assert len(pin(feedback, BUZZER).states) == 3


def test_violation_is_three_red_buzzes_then_steady_red(make_feedback):
    feedback = make_feedback()
    play(feedback, "violation")
    # three 0.25 s flashes 0.15 s apart, then the last off-gap, then 0.6 s of steady red
    pin(feedback, RED).assert_states_and_times(
        [(0.0, 0.0), (0.0, 1.0), (0.25, 0.0), (0.15, 1.0), (0.25, 0.0), (0.15, 1.0), (0.25, 0.0),
         (0.15, 1.0), (0.6, 0.0)])
    assert len(pin(feedback, RED).states) == 9
    buzzer = pin(feedback, BUZZER)
    assert [s.state for s in buzzer.states] == [False] + [True, False] * 3
    buzzer.assert_states_and_times([(0.0, False)] + [(0.0, True), (0.25, False)] + [(0.15, True), (0.25, False)] * 2)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_pattern_drives_the_pins_for_its_steps_and_ends_dark_and_silent(make_feedback, name):
    feedback = make_feedback()
    play(feedback, name)
    pattern = PATTERNS[name]
    for leg, number in enumerate((RED, GREEN, BLUE)):
        states = pin(feedback, number).states
        expected = _expected_states([s.colour[leg] for s in pattern.steps], pattern)
        assert [(round(t, 6), v) for t, v in states[1:]] == expected, (name, number)
        assert states[-1].state == 0.0
    assert not pin(feedback, BUZZER).state


def _expected_states(values, pattern: Pattern):
    """Each change of a leg's value, with the seconds since its previous change."""
    out, last_value, since = [], 0.0, 0.0
    for value, step in zip(values, pattern.steps, strict=True):
        if value != last_value:
            out.append((round(since, 6), value))
            last_value, since = value, 0.0
        since += step.seconds
    if last_value != 0.0:
        out.append((round(since, 6), 0.0))
    return out


def test_patterns_are_told_apart_by_sound_not_only_colour():
    def rhythm(p: Pattern):
        return tuple((s.tone, s.seconds) for s in p.steps if s.tone is not None)

    sounding = [p for p in PATTERNS.values() if rhythm(p)]
    assert len({rhythm(p) for p in sounding}) == len(sounding)
    assert {"accepted", "violation", "ask", "your_turn", "game_over", "source_lost"} <= {p.name for p in sounding}


def test_volume_zero_silences_the_buzzer_but_not_the_led(make_feedback):
    feedback = make_feedback(volume=0.0)
    play(feedback, "violation")
    assert len(pin(feedback, BUZZER).states) == 1
    assert len(pin(feedback, RED).states) == 9


@pytest.mark.parametrize(("now", "silent"), [(time(23, 0), True), (time(6, 59), True),
                                             (time(7, 0), False), (time(12, 0), False)])
def test_quiet_hours_across_midnight_silence_the_buzzer(make_feedback, now, silent):
    feedback = make_feedback(now=lambda: now, quiet_start="22:30", quiet_end="07:00")
    play(feedback, "accepted")
    assert (len(pin(feedback, BUZZER).states) == 1) is silent
    assert len(pin(feedback, GREEN).states) == 3


def test_tonal_buzzer_plays_the_pattern_pitch_with_volume_as_duty_cycle(make_feedback):
    feedback = make_feedback(buzzer_tonal=True, volume=0.5)
    seen = []
    show = feedback.devices.show

    def spy(colour, tone):
        show(colour, tone)
        seen.append((tone, pin(feedback, BUZZER).frequency, pin(feedback, BUZZER).state))

    feedback.player._show = spy
    play(feedback, "ask")
    assert seen[0] == (523.25, 523.25, 0.25)  # C5 at half volume = 25 % duty
    assert seen[2] == (659.26, 659.26, 0.25)  # then E5: a rising "question"
    assert pin(feedback, BUZZER).state == 0.0
    pin(feedback, BUZZER).assert_states_and_times(
        [(0.0, 0.0), (0.0, 0.25), (0.1, 0.0), (0.05, 0.25), (0.1, 0.0)])


def test_events_start_their_patterns(make_feedback):
    feedback = make_feedback()
    from companion.games.api import Move, Ruling, Violation

    class Put(Move):
        kind = "put"

        def to_json(self):
            return {"kind": "put"}

    ruling = Ruling(Put(), (Violation("babylon.build.support", Message.of("x")),))
    assert feedback.handle(ViolationFound("babylon", 3, ruling, None)).name == "violation"
    assert feedback.handle(MoveAccepted("babylon", 3, Ruling(Put()), None)).name == "accepted"
    assert feedback.player.wait_idle(5)
    assert list(feedback.player.history) == ["violation", "accepted"]
    assert feedback.handle(GameOver("babylon", 9, None, (0,))).name == "game_over"
    assert feedback.player.wait_idle(5)


def test_camera_lost_warns_once_then_rests_dim_amber_until_it_is_back(make_feedback):
    feedback = make_feedback()
    assert feedback.handle(SourceStatus("babylon", 2, "lost")).name == "source_lost"
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.25, 0.125, 0.0)
    assert feedback.handle(SourceStatus("babylon", 2, "lost")) is None  # no nagging
    assert feedback.handle(SourceStatus("babylon", 2, "busy")) is None
    assert feedback.handle(SourceStatus("babylon", 2, "ok")).name == "source_back"
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.0, 0.0, 0.0)


def test_an_urgent_pattern_cuts_the_current_one_short(make_feedback, clock):
    import threading

    clock.gate = threading.Event()
    feedback = make_feedback()
    feedback.play("your_turn")
    assert clock.entered.wait(5)  # your_turn's first step is under way
    feedback.play("accepted")  # queued behind it...
    feedback.play("violation")  # ...but a violation drops both and plays at once
    clock.gate.set()
    assert feedback.player.wait_idle(5)
    assert list(feedback.player.history) == ["your_turn", "violation"]
    assert clock.waits[0] == pytest.approx(0.06)
    assert len(clock.waits) == 1 + len(PATTERNS["violation"].steps)


def test_ordinary_patterns_queue_and_the_oldest_waiting_one_is_dropped(make_feedback, clock):
    import threading

    from companion.feedback.player import MAX_PENDING

    clock.gate = threading.Event()
    feedback = make_feedback()
    feedback.play("ask")
    assert clock.entered.wait(5)
    for name in ["accepted", "your_turn", "accepted", "your_turn"][: MAX_PENDING + 1]:
        feedback.play(name)
    clock.gate.set()
    assert feedback.player.wait_idle(5)
    assert list(feedback.player.history) == ["ask", "your_turn", "accepted", "your_turn"]


def test_handle_returns_at_once_while_the_pattern_plays_in_the_background(make_feedback):
    feedback = make_feedback(real_time=True)
    feedback.play("game_over")
    assert feedback.player.busy  # handle/play came back before the 1.75 s pattern finished
    assert feedback.player.wait_idle(10)
    assert not feedback.player.busy
    assert [s.state for s in pin(feedback, BUZZER).states] == [False] + [True, False] * 4


def test_a_failing_device_does_not_stop_later_patterns(make_feedback):
    feedback = make_feedback()
    calls = []

    def broken(colour, tone):
        calls.append(colour)
        if len(calls) == 1:
            raise OSError("gpio write failed")

    feedback.player._show = broken
    feedback.play("accepted")
    feedback.play("ask")
    assert feedback.player.wait_idle(5)
    assert list(feedback.player.history) == ["accepted", "ask"]


def test_custom_pattern_steps_are_frozen():
    step = Step(0.1)
    with pytest.raises(AttributeError):
        step.seconds = 2  # type: ignore[misc]


def test_volume_and_quiet_hours_can_change_while_running(make_feedback):
    feedback = make_feedback(now=lambda: time(23, 30))
    feedback.set_volume(0.0)
    play(feedback, "accepted")
    assert len(pin(feedback, BUZZER).states) == 1
    feedback.set_volume(1.0)
    play(feedback, "accepted")
    assert len(pin(feedback, BUZZER).states) == 3
    feedback.set_quiet_hours("23:00", "07:00")
    play(feedback, "accepted")
    assert len(pin(feedback, BUZZER).states) == 1
    with pytest.raises(ValueError):
        feedback.set_volume(1.5)


def test_events_without_a_pattern():
    from companion.feedback import pattern_for
    from companion.games.api import ScoreSheet
    from companion.referee.events import OverrideRecorded, ScoreChanged

    sheet = ScoreSheet("babylon", ("A", "B"), ())
    assert pattern_for(ScoreChanged("babylon", 4, sheet)) is None
    assert pattern_for(OverrideRecorded("babylon", 4, "undo", Message.of("undone"))) is None
    assert pattern_for(SourceStatus("babylon", 4, "busy")) is None  # a hand over the board is normal
    assert pattern_for(SourceStatus("babylon", 4, "ok")) is None  # ok without a loss before it


def _ruling(rejected: bool):
    from companion.games.api import Move, Ruling, Violation

    class Put(Move):
        kind = "put"

        def to_json(self):
            return {"kind": "put"}

    return Ruling(Put(), (Violation("babylon.build.support", Message.of("x")),) if rejected else ())


def test_red_rests_on_the_led_until_the_violation_is_put_right(make_feedback):
    from companion.referee.events import ViolationCleared

    feedback = make_feedback()
    feedback.handle(ViolationFound("babylon", 3, _ruling(True), None))
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.25, 0.0, 0.0)
    # the camera drops meanwhile: amber outranks red, and red comes back with the camera
    feedback.handle(SourceStatus("babylon", 3, "lost"))
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.25, 0.125, 0.0)
    feedback.handle(SourceStatus("babylon", 3, "ok"))
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.25, 0.0, 0.0)
    assert feedback.handle(ViolationCleared("babylon", 3, None)).name == "cleared"
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.0, 0.0, 0.0)
    assert PATTERNS["cleared"].steps[0].tone is None  # putting things right is not worth a beep


def test_an_accepted_move_after_a_violation_also_puts_the_red_out(make_feedback):
    feedback = make_feedback()
    feedback.handle(ViolationFound("babylon", 3, _ruling(True), None))
    feedback.handle(MoveAccepted("babylon", 4, _ruling(False), None))
    assert feedback.player.wait_idle(5)
    assert feedback.devices.led.value == (0.0, 0.0, 0.0)


def test_your_turn_sounds_when_the_turn_passes_not_after_every_step(make_feedback):
    from companion.referee.events import TurnGuidance

    feedback = make_feedback()
    played = [feedback.handle(TurnGuidance("babylon", n, player, "build"))
              for n, player in enumerate([0, 0, 1, 1, None, 0])]
    assert [p.name if p else None for p in played] == ["your_turn", None, "your_turn", None, None, "your_turn"]
    assert feedback.player.wait_idle(5)
