"""What each feedback pattern looks and sounds like: pure data, no GPIO.

A pattern is a list of steps; each step holds the LED colour and the buzzer tone (Hz, or None for
silence) for a duration. Patterns differ in colour *and* rhythm *and* pitch, so a player who cannot
tell red from green can still tell "accepted" (one short high beep) from "violation" (three low
buzzes).
"""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[float, float, float]  # red, green, blue, each 0.0-1.0

OFF: Colour = (0.0, 0.0, 0.0)
GREEN: Colour = (0.0, 1.0, 0.0)
RED: Colour = (1.0, 0.0, 0.0)
BLUE: Colour = (0.0, 0.0, 1.0)
CYAN: Colour = (0.0, 1.0, 1.0)
WHITE: Colour = (1.0, 1.0, 1.0)
AMBER: Colour = (1.0, 0.5, 0.0)
MAGENTA: Colour = (1.0, 0.0, 1.0)
DIM_AMBER: Colour = (0.25, 0.125, 0.0)  # resting colour while the camera is lost
DIM_RED: Colour = (0.25, 0.0, 0.0)  # resting colour until a violation is put right

# Notes (Hz) inside a TonalBuzzer's A4 ± 2 octaves range (110-1760 Hz).
A3, A4, C5, E5, G5, C6 = 220.0, 440.0, 523.25, 659.26, 783.99, 1046.5


@dataclass(frozen=True)
class Step:
    seconds: float
    colour: Colour = OFF
    tone: float | None = None  # Hz; an active buzzer just sounds for any tone


@dataclass(frozen=True)
class Pattern:
    name: str
    steps: tuple[Step, ...]
    urgent: bool = False  # interrupts whatever plays and drops what waits

    @property
    def seconds(self) -> float:
        return sum(step.seconds for step in self.steps)

    def describe(self) -> str:
        """A one-line account for the log (what a mock device would have shown)."""
        colours = sorted({_colour_name(s.colour) for s in self.steps if s.colour != OFF})
        tones = [s.tone for s in self.steps if s.tone is not None]
        sound = f"{len(tones)} beep(s) at {', '.join(f'{t:.0f}' for t in tones)} Hz" if tones else "silent"
        return f"{self.name}: LED {'/'.join(colours) or 'off'}, buzzer {sound}, {self.seconds:.2f} s"


def _colour_name(colour: Colour) -> str:
    names = {GREEN: "green", RED: "red", BLUE: "blue", CYAN: "cyan", WHITE: "white",
             AMBER: "amber", MAGENTA: "magenta", DIM_AMBER: "dim amber", DIM_RED: "dim red"}
    return names.get(colour, "rgb{:.2f},{:.2f},{:.2f}".format(*colour))


def _repeat(times: int, *steps: Step) -> tuple[Step, ...]:
    return steps * times


ACCEPTED = Pattern("accepted", (Step(0.12, GREEN, E5), Step(0.38, GREEN)))
VIOLATION = Pattern(
    "violation",
    _repeat(3, Step(0.25, RED, A3), Step(0.15, OFF)) + (Step(0.6, RED),),
    urgent=True,
)
# A rising two-note "question" while the LED stays blue: look at the screen and choose.
ASK = Pattern("ask", (Step(0.1, BLUE, C5), Step(0.05, BLUE), Step(0.1, BLUE, E5), Step(0.55, BLUE)))
YOUR_TURN = Pattern("your_turn", (Step(0.06, CYAN, A4), Step(0.24, CYAN), Step(0.2, OFF), Step(0.3, CYAN)))
GAME_OVER = Pattern(
    "game_over",
    # Short gaps between the notes, so an active (one-pitch) buzzer still gives four beeps.
    (Step(0.12, GREEN, C5), Step(0.03, GREEN), Step(0.12, CYAN, E5), Step(0.03, CYAN),
     Step(0.12, BLUE, G5), Step(0.03, BLUE), Step(0.3, MAGENTA, C6), Step(1.0, WHITE)),
    urgent=True,
)
SOURCE_LOST = Pattern("source_lost", _repeat(2, Step(0.3, AMBER, A3), Step(0.2, OFF)), urgent=True)
SOURCE_BACK = Pattern("source_back", (Step(0.2, GREEN),))
# The game could not be saved (a full or failing card): one long low note, then magenta until the
# next pattern — the screen says what happened, and nothing was kept, so nobody may think it was.
SAVE_FAILED = Pattern("save_failed", (Step(0.8, MAGENTA, A3), Step(0.2, OFF), Step(1.0, MAGENTA)), urgent=True)
# The table is back as it was before the violation: a silent green blink, the red goes out.
CLEARED = Pattern("cleared", (Step(0.3, GREEN),))

PATTERNS: dict[str, Pattern] = {
    p.name: p for p in (ACCEPTED, VIOLATION, ASK, YOUR_TURN, GAME_OVER, SOURCE_LOST, SOURCE_BACK, CLEARED, SAVE_FAILED)
}
