"""The import direction of ARCHITECTURE.md, checked on the source: ui → referee → (vision, games,
feedback); vision and games never import each other, ui, referee or feedback; games stay pure Python;
nothing imports ui but the entry point; only tests, the demo and benchmarks import sim."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

# For each area: the companion areas and the third-party modules it must never import.
FORBIDDEN: dict[str, tuple[set[str], set[str]]] = {
    "games": ({"vision", "sim", "referee", "feedback", "ui", "demo"}, {"cv2", "kivy", "gpiozero", "numpy", "picamera2"}),
    "vision": ({"games", "referee", "feedback", "ui", "sim", "demo"}, {"kivy", "gpiozero"}),
    "feedback": ({"games", "vision", "sim", "ui", "demo"}, {"cv2", "kivy"}),
    "referee": ({"ui", "sim"}, {"kivy"}),
    "sim": ({"referee", "feedback", "ui"}, {"kivy", "gpiozero"}),
}
# Who may import sim and ui at all (areas, or top-level modules of companion).
MAY_IMPORT_SIM = {"sim", "demo", "benchmarking", "commands"}
MAY_IMPORT_UI = {"ui", "commands", "cli"}


def area_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0].removesuffix(".py")


def imported_modules(path: Path) -> set[str]:
    """Absolute module names imported by a file, with relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ["companion", *path.relative_to(PACKAGE).parts[:-1]]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:
                    names.update(f"{module}.{alias.name}" for alias in node.names)
                else:
                    names.add(module)
            elif node.module:
                names.add(node.module)
    return names


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(PACKAGE)) for p in SOURCES])
def test_import_direction(path: Path):
    area = area_of(path)
    forbidden_areas, forbidden_libs = FORBIDDEN.get(area, (set(), set()))
    for module in imported_modules(path):
        parts = module.split(".")
        if parts[0] == "companion" and len(parts) > 1:
            target = parts[1]
            assert target not in forbidden_areas, f"{area} must not import companion.{target} ({module})"
            if target == "sim":
                assert area in MAY_IMPORT_SIM, f"only tests, the demo and benchmarks import sim ({area})"
            if target == "ui":
                assert area in MAY_IMPORT_UI, f"nothing imports ui but the entry point ({area})"
        else:
            assert parts[0] not in forbidden_libs, f"{area} must not import {parts[0]}"


def test_resolver_understands_relative_imports(tmp_path):
    assert "companion.games.api" in imported_modules(PACKAGE / "games" / "registry.py")
