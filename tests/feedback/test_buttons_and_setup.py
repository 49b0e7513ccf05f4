"""Buttons call the caller's callbacks; pins, quiet hours and the pin factory come from config."""

from __future__ import annotations

from datetime import time

import pytest

from companion.errors import ConfigError
from companion.feedback import FeedbackSettings, QuietHours, choose_pin_factory
from companion.feedback.devices import FeedbackDevices
from companion.feedback.pins import mock_factory

from .conftest import pin


def test_confirm_and_undo_buttons_call_their_callbacks_when_pressed(make_feedback):
    pressed = []
    feedback = make_feedback(on_confirm=lambda: pressed.append("confirm"),
                             on_undo=lambda: pressed.append("undo"))
    confirm, undo = pin(feedback, 23), pin(feedback, 24)
    assert confirm.state  # pulled up: released
    confirm.drive_low()
    confirm.drive_high()
    undo.drive_low()
    assert pressed == ["confirm", "undo"]


def test_a_failing_callback_is_logged_not_raised_into_gpiozero(make_feedback, caplog):
    def broken():
        raise RuntimeError("tracker busy")

    feedback = make_feedback(on_confirm=broken)
    pin(feedback, 23).drive_low()
    assert "confirm button's callback failed" in caplog.text


def test_pin_minus_one_means_no_button(make_feedback):
    feedback = make_feedback(button_confirm=-1, button_undo=-1)
    assert feedback.devices.buttons == {}
    assert set(feedback.devices.settings.used_pins()) == {"led_red", "led_green", "led_blue", "buzzer"}


def test_pins_come_from_config(make_feedback):
    feedback = make_feedback(led_red=5, led_green=6, led_blue=13, buzzer=12, button_confirm=16)
    feedback.play("violation")
    assert feedback.player.wait_idle(5)
    assert len(pin(feedback, 5).states) > 1  # red leg moved to GPIO5
    assert feedback.devices.buttons["confirm"].pin.info.name == "GPIO16"


def test_a_pin_used_twice_is_refused_and_nothing_is_left_reserved(config):
    config.values["feedback"]["buzzer"] = 17  # same as led_red
    factory = mock_factory()
    with pytest.raises(Exception, match="in use"):
        FeedbackDevices(FeedbackSettings.from_config(config, check=False), factory)
    config.values["feedback"]["buzzer"] = 18
    FeedbackDevices(FeedbackSettings.from_config(config), factory).close()  # pins were released


@pytest.mark.parametrize(("start", "end", "now", "quiet"), [
    ("22:00", "07:00", time(22, 0), True),
    ("22:00", "07:00", time(3, 0), True),
    ("22:00", "07:00", time(7, 0), False),
    ("13:00", "14:30", time(14, 0), True),
    ("13:00", "14:30", time(12, 59), False),
    ("", "07:00", time(3, 0), False),
    ("08:00", "08:00", time(8, 0), False),
])
def test_quiet_hours_window(start, end, now, quiet):
    assert QuietHours.from_config(start, end).contains(now) is quiet


def test_a_bad_quiet_hour_names_the_key():
    with pytest.raises(ConfigError, match=r"\[feedback\] quiet_end"):
        QuietHours.from_config("22:00", "7pm")


def test_mock_pin_factory_from_the_environment_has_pwm_pins(monkeypatch):
    from gpiozero.pins.mock import MockPWMPin

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    choice = choose_pin_factory()
    assert choice.mock
    assert choice.factory.pin_class is MockPWMPin


def test_off_a_pi_the_factory_falls_back_to_mock_and_says_why(monkeypatch, caplog):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_gpio():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_gpio))
    choice = choose_pin_factory()
    assert choice.mock
    assert "no usable GPIO" in choice.reason
    assert "mock" in caplog.text


def test_two_devices_on_one_pin_is_a_config_error_naming_the_key(config):
    config.values["feedback"]["button_undo"] = 27  # led_green's pin
    with pytest.raises(ConfigError, match=r"\[feedback\] button_undo.*GPIO27 is already led_green"):
        FeedbackSettings.from_config(config)


def test_a_pin_off_the_header_is_a_config_error(config):
    config.values["feedback"]["buzzer"] = 40
    with pytest.raises(ConfigError, match=r"\[feedback\] buzzer.*0 to 27"):
        FeedbackSettings.from_config(config)


def test_a_gpio_failure_on_the_pi_falls_back_to_logging_so_the_referee_keeps_going(config, caplog):
    from gpiozero import OutputDevice

    from companion.feedback import Feedback
    from companion.feedback.pins import PinFactoryChoice

    busy = mock_factory()
    holder = OutputDevice(18, pin_factory=busy)  # another program holds the buzzer pin
    try:
        feedback = Feedback.from_config(config, pins=PinFactoryChoice(busy, False, "lgpio"))
    finally:
        holder.close()
    try:
        assert feedback.mock
        assert "cannot use the GPIO pins" in caplog.text
        feedback.play("accepted")
        assert feedback.player.wait_idle(5)
    finally:
        feedback.close()


def test_self_test_plays_the_named_patterns_and_reports_timing(capsys):
    from companion.feedback.__main__ import main

    assert main(["accepted", "ask"]) == 0
    out = capsys.readouterr().out
    assert "(mock GPIO)" in out
    assert "accepted: LED green, buzzer 1 beep(s) at 659 Hz, 0.50 s" in out
    assert out.count("pin timing within") == 2
    assert "handle() returns in" in out


def test_self_test_refuses_an_unknown_pattern(capsys):
    from companion.feedback.__main__ import main

    assert main(["fanfare"]) == 2
    assert "unknown pattern 'fanfare'" in capsys.readouterr().err
