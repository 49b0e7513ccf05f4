#!/usr/bin/env python3
"""Series resistors for the status LED and base resistors for its transistors, from forward voltages.

    .venv/bin/python hardware/led_resistors.py

Each LED leg is switched on its cathode by an NPN transistor from the 5 V rail (a Pi GPIO gives
3.3 V and should source no more than ~8 mA; green and blue LEDs need ~3.2 V, which leaves no room to
set a current from 3.3 V). For a target current I:

    R = (V_supply - V_f - V_CE(sat)) / I, rounded UP to the next E12 value (so I stays at or below)

and the base resistor R_B = (V_GPIO - V_BE) / I_B must give I_B >= I / 10 (hard saturation, forced
beta 10) while keeping the GPIO current low.
"""

from __future__ import annotations

from dataclasses import dataclass

E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)
SUPPLY_V = 5.0
GPIO_V = 3.3
VCE_SAT_V = 0.1  # BC337 at ~10 mA
VBE_V = 0.7
TARGET_A = 0.010  # 10 mA per colour: bright through a diffused 5 mm lens, easy on the 5 V rail
BASE_OHMS = 1000.0

# Typical forward voltages of a common-anode 5 mm RGB LED at 10-20 mA (datasheet "typ" column).
FORWARD_V = {"led_red": 2.0, "led_green": 3.2, "led_blue": 3.2}


def e12_at_or_above(ohms: float) -> float:
    decade = 1.0
    while decade * 10 <= ohms:
        decade *= 10
    for base in (*E12, 10.0):
        if base * decade >= ohms - 1e-9:
            return round(base * decade, 6)
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class LegResistor:
    role: str
    forward_v: float
    exact_ohms: float
    chosen_ohms: float
    current_a: float
    power_w: float


def led_resistors(target_a: float = TARGET_A) -> list[LegResistor]:
    rows = []
    for role, vf in FORWARD_V.items():
        exact = (SUPPLY_V - vf - VCE_SAT_V) / target_a
        chosen = e12_at_or_above(exact)
        current = (SUPPLY_V - vf - VCE_SAT_V) / chosen
        rows.append(LegResistor(role, vf, exact, chosen, current, current**2 * chosen))
    return rows


def base_current_a(base_ohms: float = BASE_OHMS) -> float:
    return (GPIO_V - VBE_V) / base_ohms


def main() -> int:
    print(f"LED legs from {SUPPLY_V} V through an NPN (V_CE(sat) {VCE_SAT_V} V), target {TARGET_A * 1000:.0f} mA:")
    for r in led_resistors():
        print(f"  {r.role:<10} Vf {r.forward_v:.1f} V  exact {r.exact_ohms:6.1f} Ω  → E12 {r.chosen_ohms:4.0f} Ω"
              f"  = {r.current_a * 1000:4.1f} mA, {r.power_w * 1000:4.1f} mW")
    ib = base_current_a()
    print(f"Base resistor {BASE_OHMS:.0f} Ω: I_B = ({GPIO_V} - {VBE_V}) / {BASE_OHMS:.0f} = {ib * 1000:.1f} mA "
          f"from the GPIO; saturates up to {ib * 10 * 1000:.0f} mA of collector current at forced beta 10.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
