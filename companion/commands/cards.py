"""`companion cards`: list, add and check The Reclamation's card patterns."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "cards", "list, add and check The Reclamation's card patterns", "The Reclamation engine")
