#!/usr/bin/env python3
"""Writes hardware/wiring.svg from the default pin map in companion/config.py, so the drawing and
the config can never disagree.

    .venv/bin/python hardware/wiring_svg.py            # rewrite hardware/wiring.svg
    .venv/bin/python hardware/wiring_svg.py --check    # exit 1 if the SVG is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from led_resistors import led_resistors  # hardware/, beside this script

from companion.config import DEFAULTS

OUT = Path(__file__).with_name("wiring.svg")

# 40-pin header: physical pin -> name (BCM numbering for GPIOs).
HEADER = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND",
    10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23",
    17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11",
    24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6",
    32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
PHYSICAL = {name: pin for pin, name in HEADER.items() if name.startswith("GPIO")}

# Component values (derivations in hardware/README.md).
R_LED = {r.role: f"{r.chosen_ohms:.0f} Ω" for r in led_resistors()}
R_BASE = "1 kΩ"
R_BASE_BUZZER = "470 Ω"  # up to ~55 mA of coil current still saturates the transistor
COLOURS = {"led_red": "#d62728", "led_green": "#2ca02c", "led_blue": "#1f77b4", "buzzer": "#9467bd",
           "button_confirm": "#ff7f0e", "button_undo": "#8c564b"}


def pin_map() -> dict[str, int]:
    feedback = DEFAULTS["feedback"]
    return {role: feedback[role][0] for role in COLOURS}


class Svg:
    def __init__(self, width: int, height: int):
        self.parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                      f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
                      f'<rect width="{width}" height="{height}" fill="white"/>']

    def line(self, x1, y1, x2, y2, colour="#333", width=2, dash=""):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="{width}"{extra}/>')

    def poly(self, points, colour="#333", width=2):
        pts = " ".join(f"{x},{y}" for x, y in points)
        self.parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{width}"/>')

    def rect(self, x, y, w, h, fill="none", stroke="#333", rx=4):
        self.parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')

    def circle(self, x, y, r, fill, stroke="#333"):
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>')

    def text(self, x, y, s, anchor="start", size=13, weight="normal", colour="#111"):
        self.parts.append(f'<text x="{x}" y="{y}" text-anchor="{anchor}" font-size="{size}" '
                          f'font-weight="{weight}" fill="{colour}">{escape(s)}</text>')

    def resistor(self, x, y, label, vertical=False):
        if vertical:
            self.rect(x - 6, y, 12, 30, fill="#f4e2b8", rx=2)
            self.text(x + 12, y + 20, label, size=12)
        else:
            self.rect(x, y - 6, 30, 12, fill="#f4e2b8", rx=2)
            self.text(x + 15, y - 10, label, anchor="middle", size=12)

    def npn(self, x, y, label="BC337"):
        """Base on the left at (x, y); collector up at (x+20, y-20); emitter down at (x+20, y+20)."""
        self.circle(x + 12, y, 16, "none")
        self.line(x, y, x + 8, y)
        self.line(x + 8, y - 10, x + 8, y + 10, width=3)
        self.line(x + 8, y - 5, x + 20, y - 20)
        self.line(x + 8, y + 5, x + 20, y + 20)
        self.poly([(x + 14, y + 17), (x + 20, y + 20), (x + 18, y + 13)])
        if label:
            self.text(x + 32, y + 4, label, size=11)

    def ground(self, x, y):
        self.line(x - 9, y, x + 9, y)
        self.line(x - 6, y + 4, x + 6, y + 4)
        self.line(x - 3, y + 8, x + 3, y + 8)

    def svg(self) -> str:
        return "\n".join([*self.parts, "</svg>"]) + "\n"


def terminal(s: Svg, x: int, y: int, gpio: str, colour: str) -> None:
    """A net label: the wire ends here and continues at the header pin of the same name."""
    s.line(x, y, x, y + 22, colour=colour)
    s.circle(x, y + 26, 4, "white", stroke=colour)
    s.text(x, y + 46, gpio, anchor="middle", size=12, colour=colour, weight="bold")
    s.text(x, y + 61, f"pin {PHYSICAL[gpio]}", anchor="middle", size=11, colour=colour)


def draw() -> str:
    pins = pin_map()
    used = {f"GPIO{number}": role for role, number in pins.items()}
    s = Svg(1060, 660)
    s.text(20, 30, "Table Companion — feedback wiring (default pin map of companion/config.py [feedback])", size=16, weight="bold")

    # The header, two columns, pin 1 top left; the pins we use are coloured and named.
    hx, hy, step = 200, 80, 26
    s.rect(hx - 16, hy - 20, 82, 20 * step + 8, fill="#1b5e20", stroke="#0b3d0b")
    s.text(hx + 25, hy - 28, "40-pin header (pin 1 = 3V3)", anchor="middle", size=12)
    for pin, name in HEADER.items():
        row, col = (pin - 1) // 2, (pin - 1) % 2
        x, y = hx + col * 50, hy + row * step
        role = used.get(name)
        fill = COLOURS[role] if role else ("#e33" if name == "5V" else "#222" if name == "GND" else "#ccc")
        s.circle(x, y - 4, 8, fill)
        label = f"{pin} {name}" + (f"  {role}" if role else "")
        weight = "bold" if role or name == "5V" else "normal"
        colour = COLOURS[role] if role else "#111"
        if col == 1:
            s.text(x + 16, y, label, size=11, weight=weight, colour=colour)
        else:
            label = (f"{role}  " if role else "") + f"{name} {pin}"
            s.text(x - 16, y, label, anchor="end", size=11, weight=weight, colour=colour)

    # RGB LED: common anode on 5 V, each cathode through its resistor to an NPN low-side switch.
    bx = 470
    s.rect(bx - 20, 55, 310, 330, stroke="#999")
    s.text(bx - 10, 75, "Status LED: 5 mm RGB, common anode", weight="bold")
    s.line(bx + 10, 100, bx + 270, 100, colour="#e33")
    s.text(bx + 270, 94, "+5 V (pin 2)", anchor="end", size=12, colour="#e33")
    for i, role in enumerate(("led_red", "led_green", "led_blue")):
        x = bx + 60 + i * 90
        colour = COLOURS[role]
        s.line(x, 100, x, 115, colour="#e33")
        s.poly([(x - 10, 115), (x + 10, 115), (x, 133), (x - 10, 115)], colour=colour)  # LED triangle
        s.line(x - 10, 133, x + 10, 133, colour=colour, width=3)
        s.line(x, 133, x, 150, colour=colour)
        s.resistor(x, 150, R_LED[role], vertical=True)
        s.line(x, 180, x, 210, colour=colour)
        s.npn(x - 20, 230, label="")
        s.line(x, 250, x, 262)
        s.ground(x, 262)
        s.resistor(x - 60, 230, R_BASE)
        s.line(x - 30, 230, x - 20, 230)
        s.line(x - 60, 230, x - 70, 230, colour=colour)
        s.line(x - 70, 230, x - 70, 280, colour=colour)
        terminal(s, x - 70, 280, f"GPIO{pins[role]}", colour)
    s.text(bx - 10, 375, "NPN: BC337-40 (or 2N2222A), emitter to GND", size=11)

    # Buzzer: NPN low-side, flyback diode across the coil.
    zx, zy = 810, 55
    s.rect(zx - 20, zy, 230, 330, stroke="#999")
    s.text(zx - 10, zy + 20, "Buzzer", weight="bold")
    s.text(zx - 10, zy + 38, "active, or passive (tonal)", size=11)
    bxz = zx + 100
    s.line(bxz, zy + 60, bxz + 45, zy + 60, colour="#e33")
    s.text(bxz - 8, zy + 64, "+5 V", size=11, colour="#e33", anchor="end")
    s.line(bxz, zy + 60, bxz, zy + 80, colour="#e33")
    s.circle(bxz, zy + 100, 20, "#eee")
    s.text(bxz, zy + 105, "BZ", anchor="middle", size=12, weight="bold")
    s.line(bxz, zy + 120, bxz, zy + 175)
    dx = bxz + 45  # flyback diode 1N4148, cathode to +5 V
    s.line(dx, zy + 60, dx, zy + 85, colour="#e33")
    s.line(dx - 9, zy + 85, dx + 9, zy + 85, width=3)
    s.poly([(dx - 9, zy + 103), (dx + 9, zy + 103), (dx, zy + 85), (dx - 9, zy + 103)])
    s.line(dx, zy + 103, dx, zy + 150)
    s.line(dx, zy + 150, bxz, zy + 150)
    s.text(dx + 12, zy + 98, "1N4148", size=11)
    s.npn(bxz - 20, zy + 195, label="")
    s.text(bxz + 12, zy + 240, "BC337", size=11)
    s.line(bxz, zy + 215, bxz, zy + 228)
    s.ground(bxz, zy + 228)
    s.resistor(bxz - 80, zy + 195, R_BASE_BUZZER)
    s.line(bxz - 50, zy + 195, bxz - 20, zy + 195)
    s.line(bxz - 80, zy + 195, bxz - 90, zy + 195, colour=COLOURS["buzzer"])
    s.line(bxz - 90, zy + 195, bxz - 90, zy + 225, colour=COLOURS["buzzer"])
    terminal(s, bxz - 90, zy + 225, f"GPIO{pins['buzzer']}", COLOURS["buzzer"])
    s.text(zx - 10, zy + 318, "passive: add 47 Ω in series with BZ", size=11)

    # Buttons: GPIO to ground, internal pull-ups.
    tx, ty = 470, 410
    s.rect(tx - 20, ty, 570, 170, stroke="#999")
    s.text(tx - 10, ty + 20, "Optional buttons: momentary, GPIO to GND, internal pull-up (pin -1 = none)", weight="bold", size=12)
    for i, role in enumerate(("button_confirm", "button_undo")):
        x = tx + 90 + i * 260
        colour = COLOURS[role]
        s.text(x + 50, ty + 45, role, anchor="middle", size=12, colour=colour, weight="bold")
        s.resistor(x, ty + 70, "1 kΩ")
        s.line(x + 30, ty + 70, x + 60, ty + 70, colour=colour)
        s.line(x + 60, ty + 70, x + 72, ty + 56, colour=colour, width=3)  # switch lever
        s.line(x + 80, ty + 70, x + 100, ty + 70, colour=colour)
        s.line(x + 100, ty + 70, x + 100, ty + 90)
        s.ground(x + 100, ty + 90)
        s.line(x, ty + 70, x - 20, ty + 70, colour=colour)
        terminal(s, x - 20, ty + 70, f"GPIO{pins[role]}", colour)

    s.text(20, 620, "Coloured pins connect to the terminal of the same name. All grounds common (header pins 6, 9, 14...). "
                    "Resistors ¼ W.", size=12)
    s.text(20, 640, "Values and their derivation: hardware/README.md. Drawing generated by hardware/wiring_svg.py.", size=12)
    return s.svg()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    svg = draw()
    if "--check" in args:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != svg:
            print(f"{OUT} is out of date: run .venv/bin/python hardware/wiring_svg.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(svg, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
