"""Learned appearance of piece classes: nothing about a piece's colour is written in the code.

A short calibration capture shows known pieces (the setup wizard says where to put them); each
class is learned from its patches as a Gaussian over a few features (mean and spread of Lab colour,
and the share of strong edges, a cheap texture measure). A patch is read as the class with the
highest likelihood; the confidence combines that class's share of the likelihood with how typical
the patch is for it (Mahalanobis distance), so an unknown thing gets a low confidence.

Profiles are JSON with a format name and version; a corrupt or foreign file is a clear
FormatError naming the file and key, and a profile is only written to a new path or by replacing
the old one atomically after a successful save, never half-written.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TOP_LEVEL, ErrorText, FormatError, got, line_column, os_error_text, shown_value
from ..i18n import N_

FORMAT = "companion.appearance"
VERSION = 1
FEATURES = ("L", "a", "b", "sd_L", "sd_a", "sd_b")
_FLOOR = np.array([4.0, 2.0, 2.0, 1.0, 1.0, 1.0])  # variance floor per feature (lighting, noise)
TYPICAL_D2 = 22.5  # chi-square(6) at 99.9 %: beyond this a patch is atypical for its class


def patch_features(patches: np.ndarray) -> np.ndarray:
    """Features of Lab patches (..., h, w, 3) → (..., 6)."""
    flat = patches.reshape(*patches.shape[:-3], -1, 3).astype(np.float32)
    mean = flat.mean(axis=-2)
    sd = flat.std(axis=-2)
    return np.concatenate([mean, sd], axis=-1)


@dataclass(frozen=True)
class ClassModel:
    name: str
    mean: np.ndarray  # (F,)
    cov: np.ndarray  # (F, F)
    samples: int

    @property
    def precision(self) -> np.ndarray:
        return np.linalg.inv(self.cov)


@dataclass(frozen=True)
class Reading:
    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    distance2: float


class AppearanceProfile:
    def __init__(self, region: str, classes: Mapping[str, ClassModel]):
        if not classes:
            raise ValueError("a profile needs at least one class")
        self.region = region
        self.classes = dict(classes)
        self._names = list(self.classes)
        self._means = np.stack([self.classes[n].mean for n in self._names])
        self._prec = np.stack([self.classes[n].precision for n in self._names])
        # Whitening: d² = |diff @ chol|² with chol·cholᵀ = precision.
        self._chol = np.stack([np.linalg.cholesky(p) for p in self._prec])
        self._logdet = np.array([np.linalg.slogdet(self.classes[n].cov)[1] for n in self._names])
        self._subsets: dict[tuple[str, ...] | None, tuple[np.ndarray, ...]] = {}  # _subset's, per subset asked

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @classmethod
    def learn(cls, region: str, samples: Mapping[str, np.ndarray | Iterable[np.ndarray]]) -> AppearanceProfile:
        """Learn from feature vectors per class (N, F); a handful per class is enough."""
        classes = {}
        for name, rows in samples.items():
            data = np.asarray(rows if isinstance(rows, np.ndarray) else list(rows), dtype=np.float64)
            data = data.reshape(-1, len(FEATURES))
            if len(data) == 0:
                raise ValueError(f"no calibration samples for class {name!r}")
            data = _trim(data)
            mean = data.mean(axis=0)
            cov = np.cov(data, rowvar=False) if len(data) > 1 else np.zeros((len(FEATURES),) * 2)
            # Few samples: shrink towards the diagonal and keep a floor, so one calibration frame
            # does not make the class infinitely sharp.
            shrink = min(1.0, len(FEATURES) / max(1, len(data)))
            cov = (1 - shrink) * cov + shrink * np.diag(np.diag(cov))
            cov = cov + np.diag(_floor(mean))
            classes[name] = ClassModel(name, mean, cov, len(data))
        return cls(region, classes)

    def distances2(self, features: np.ndarray, subset: Iterable[str] | None = None) -> np.ndarray:
        """Squared Mahalanobis distances (..., C) of features (..., F) to each class (inf outside
        `subset`)."""
        features = np.asarray(features, dtype=np.float64)
        chosen = self._chosen(subset)
        d2 = np.full((*features.shape[:-1], len(self._names)), np.inf)
        d2[..., chosen] = self._distances2(features, chosen)
        return d2

    def _chosen(self, subset: Iterable[str] | None) -> np.ndarray:
        if subset is None:
            return np.arange(len(self._names))
        keep = set(subset)
        return np.array([i for i, n in enumerate(self._names) if n in keep], dtype=int)

    def _subset(self, subset: Iterable[str] | None) -> tuple[np.ndarray, ...]:
        """The chosen classes' indices, whitening side by side (F, S·F), shifted means (S, F) and
        log-determinants, made once per subset (an observer asks for the same few every frame)."""
        key = None if subset is None else tuple(subset)
        # (setdefault: a profile unpickled from before this cache has none yet)
        made = self.__dict__.setdefault("_subsets", {}).get(key)
        if made is None:
            # Whitened by each class: (x − μ)·chol = x·chol − μ·chol, every class's chol side by side.
            chosen = self._chosen(key)
            chol = self._chol[chosen]  # (S, F, F)
            whiten = np.moveaxis(chol, 0, 1).reshape(chol.shape[1], -1)
            shift = np.einsum("sf,sfg->sg", self._means[chosen], chol)
            made = self._subsets[key] = (chosen, whiten, shift, self._logdet[chosen])
        return made

    def _distances2(self, features: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """distances2 of the `chosen` classes only: (..., len(chosen))."""
        chol = self._chol[chosen]  # (S, F, F)
        whiten = np.moveaxis(chol, 0, 1).reshape(features.shape[-1], -1)  # (F, S·F)
        shift = np.einsum("sf,sfg->sg", self._means[chosen], chol)  # (S, F)
        return self._whitened2(features, whiten, shift)

    @staticmethod
    def _whitened2(features: np.ndarray, whiten: np.ndarray, shift: np.ndarray) -> np.ndarray:
        """Squared distances (..., S) of features (..., F) whitened by `whiten` (F, S·F) and `shift`."""
        # Only the classes asked for are measured (the others are infinitely far).
        nf = features.shape[-1]
        chosen = shift.shape[0]
        flat = features.reshape(-1, nf)
        # einsum, not matmul: a BLAS product this small costs more in its threads than it saves.
        y = np.einsum("nf,fk->nk", flat, whiten).reshape(len(flat), chosen, nf) - shift
        return np.einsum("nsf,nsf->ns", y, y).reshape(*features.shape[:-1], chosen)

    def _posterior(self, d2: np.ndarray) -> np.ndarray:
        loglik = -0.5 * (d2 + self._logdet)
        loglik = loglik - loglik.max(axis=-1, keepdims=True)
        post = np.exp(loglik)
        return post / post.sum(axis=-1, keepdims=True)

    def classify(self, features: np.ndarray, subset: Iterable[str] | None = None):
        """Best class index, confidence and the per-class posterior for features (..., F)."""
        d2 = self.distances2(features, subset)
        post = self._posterior(d2)
        best = post.argmax(axis=-1)
        best_d2 = np.take_along_axis(d2, best[..., None], axis=-1)[..., 0]
        typical = np.exp(-np.maximum(0.0, best_d2 - TYPICAL_D2) / 10.0)
        conf = np.take_along_axis(post, best[..., None], axis=-1)[..., 0] * typical
        return best, conf, post, best_d2

    def support(self, features: np.ndarray, subset: Iterable[str] | None = None) -> np.ndarray:
        """Per class (..., C): its share of the likelihood, discounted when the features are atypical
        for it, so a thing unlike every class supports none of them."""
        # Computed over the asked classes only: the others' likelihood is zero.
        chosen, whiten, shift, logdet = self._subset(subset)
        d2 = self._whitened2(np.asarray(features, dtype=np.float64), whiten, shift)
        loglik = -0.5 * (d2 + logdet)
        post = np.exp(loglik - loglik.max(axis=-1, keepdims=True))
        post /= post.sum(axis=-1, keepdims=True)
        out = np.zeros((*d2.shape[:-1], len(self._names)))
        out[..., chosen] = post * np.exp(-np.maximum(0.0, d2 - TYPICAL_D2) / 10.0)
        return out

    def read(self, features: np.ndarray, subset: Iterable[str] | None = None) -> Reading:
        best, conf, post, d2 = self.classify(np.asarray(features, float)[None], subset)
        order = np.argsort(-post[0])
        alts = tuple((self._names[i], float(post[0, i])) for i in order[1:3] if post[0, i] > 1e-3)
        return Reading(self._names[int(best[0])], float(conf[0]), alts, float(d2[0]))

    def name(self, index: int) -> str:
        return self._names[index]

    def index(self, name: str) -> int:
        return self._names.index(name)

    # --- files -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "region": self.region,
            "features": list(FEATURES),
            "classes": {
                n: {"mean": c.mean.tolist(), "cov": c.cov.tolist(), "samples": c.samples}
                for n, c in self.classes.items()
            },
        }

    def save(self, path: Path) -> None:
        """Write atomically: the old profile stays intact until the new one is complete."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.to_json(), out, indent=1)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> AppearanceProfile:
        path = Path(path)
        source = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise FormatError(source, "", os_error_text(exc)) from None
        except json.JSONDecodeError as exc:
            raise FormatError(source, line_column(exc.lineno, exc.colno),
                              ErrorText.of(N_("not valid JSON"))) from None
        return cls.from_json(data, source)

    @classmethod
    def from_json(cls, data: Any, source: str = "<profile>") -> AppearanceProfile:
        if not isinstance(data, dict):
            raise FormatError(source, TOP_LEVEL, got(N_("expected an object"), data))
        if data.get("format") != FORMAT:
            raise FormatError(source, "format", ErrorText.of(N_("expected {expected}, got {value} (another kind of file)"),
                                                             expected=repr(FORMAT), value=shown_value(data.get("format"))))
        if data.get("version") != VERSION:
            raise FormatError(source, "version", got(N_("expected profile version {version} (this software's); calibrate the "
                                                          "appearance again"), data.get("version"), version=VERSION))
        if list(data.get("features", [])) != list(FEATURES):
            raise FormatError(source, "features", ErrorText.of(N_("expected the features {features}; calibrate the appearance "
                                                                  "again"), features=", ".join(FEATURES)))
        region = data.get("region")
        if not isinstance(region, str):
            raise FormatError(source, "region", got(N_("expected a region name"), region))
        classes_data = data.get("classes")
        if not isinstance(classes_data, dict) or not classes_data:
            raise FormatError(source, "classes", ErrorText.of(N_("expected an object with one entry per class")))
        f = len(FEATURES)
        classes = {}
        for name, entry in classes_data.items():
            where = f"classes.{name}"
            if not isinstance(entry, dict):
                raise FormatError(source, where, got(N_("expected an object with mean, cov and samples"), entry))
            mean = _numbers(entry.get("mean"), (f,), source, f"{where}.mean")
            cov = _numbers(entry.get("cov"), (f, f), source, f"{where}.cov")
            if not np.allclose(cov, cov.T) or np.any(np.linalg.eigvalsh(cov) <= 0):
                raise FormatError(source, f"{where}.cov", ErrorText.of(N_("expected a symmetric positive definite matrix")))
            samples = entry.get("samples")
            if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
                raise FormatError(source, f"{where}.samples", got(N_("expected a whole number ≥ {limit}"), samples, limit=1))
            classes[name] = ClassModel(name, mean, cov, samples)
        return cls(region, classes)


def _floor(mean: np.ndarray) -> np.ndarray:
    """Variance floor: fixed noise plus 10 % of the colour itself, for light that drifts after
    calibration (brighter, dimmer, warmer) and for the one-sample classes of a short capture."""
    relative = np.zeros(len(FEATURES))
    relative[:3] = (0.1 * np.abs(mean[:3])) ** 2
    # A white-balance drift moves a and b in proportion to brightness, even for a neutral grey.
    relative[1:3] += (0.06 * abs(mean[0])) ** 2
    relative[3:] = (0.3 * np.abs(mean[3:])) ** 2
    return _FLOOR + relative


def _trim(data: np.ndarray, limit: float = 4.0) -> np.ndarray:
    """Drop outlying calibration samples (a piece half hidden, a hand's edge) before fitting:
    anything more than `limit` robust deviations (median, MAD) from the median on some feature."""
    if len(data) < 4:
        return data
    median = np.median(data, axis=0)
    mad = 1.4826 * np.median(np.abs(data - median), axis=0) + np.sqrt(_FLOOR)
    keep = np.all(np.abs(data - median) <= limit * mad, axis=1)
    return data[keep] if keep.sum() >= 2 else data


def _numbers(value: Any, shape: tuple[int, ...], source: str, where: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        array = None
    if array is None or array.shape != shape or not np.all(np.isfinite(array)):
        raise FormatError(source, where, ErrorText.of(N_("expected {shape} finite numbers"),
                                                      shape="×".join(str(s) for s in shape)))
    return array


def confidence_from_margin(score: float, scale: float = 0.25) -> float:
    """Map a fit-score margin (best minus runner-up) to 0..1."""
    return float(1.0 - math.exp(-max(0.0, score) / scale))
