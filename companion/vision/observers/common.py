"""Shared steps of the observers: pick the best (class, height) per cell, make readings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import CompanionError, ErrorText
from ...i18n import N_
from ..appearance import AppearanceProfile
from ..types import CellReading


class ProfileMissing(CompanionError, ValueError):
    """An observer asked to read before its pieces' colours were learned (a ValueError too, as it
    always was). Its text says how to learn them; the line showing it names the board already."""


def need_profile(profile: AppearanceProfile | None, region: str) -> AppearanceProfile:
    if profile is None:
        raise ProfileMissing(message=ErrorText.of(
            N_("its pieces' colours are not learned yet: calibrate them with {command}"),
            command=f"companion calibrate appearance --region {region}"))
    return profile


def class_support(profile: AppearanceProfile, features: np.ndarray, classes: Sequence[str]) -> dict[str, np.ndarray]:
    """Per class name, its support (0..1) for each feature vector, among `classes` only."""
    support = profile.support(features, classes)
    return {name: support[..., profile.index(name)] for name in classes if name in profile.names}


def confidence(best: float, runner_up: float) -> float:
    """High when the best candidate fits well and clearly beats the next different reading."""
    margin = max(best - runner_up, 0.0)
    return float(np.clip(best, 0.0, 1.0) * (1.0 - np.exp(-margin / 0.15)))


def reading(label: str, attrs: dict, scored: list[tuple[float, str, dict]]) -> CellReading:
    """A CellReading from candidates sorted best first as (score, label, attrs)."""
    best = scored[0][0]
    runner = next((s for s, lab, att in scored[1:] if (lab, att) != (label, attrs)), 0.0)
    alternatives = tuple((lab, att, float(max(s, 0.0))) for s, lab, att in scored[1:3])
    return CellReading(label, confidence(best, runner), attrs, alternatives)
