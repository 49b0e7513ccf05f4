"""LED, buzzer and buttons (gpiozero): the referee's events as light and sound.

Off a Pi gpiozero's mock pins stand in and each pattern is logged. See controller.Feedback.
"""

from .controller import Feedback, pattern_for
from .devices import FeedbackDevices, FeedbackSettings
from .patterns import PATTERNS, Pattern, Step
from .pins import choose_pin_factory
from .player import PatternPlayer
from .quiet import QuietHours

__all__ = [
    "PATTERNS",
    "Feedback",
    "FeedbackDevices",
    "FeedbackSettings",
    "Pattern",
    "PatternPlayer",
    "QuietHours",
    "Step",
    "choose_pin_factory",
    "pattern_for",
]
