"""Per-game adapters between the rules engines and the camera (see base.GameView)."""

from __future__ import annotations

import importlib

from ...errors import ErrorText, NotYetAvailable
from ...i18n import N_
from .base import ExpectedCell, ExpectedView, GameView

_VIEWS = {
    "babylon": ("babylon", "BabylonView"),
    "reclamation": ("reclamation", "ReclamationView"),
    "babel": ("babel", "BabelView"),
    "baubylon": ("baubylon", "BaubylonView"),
}


def view_for(game: str, **options) -> GameView:
    """The camera adapter of a game; NotYetAvailable when it (or its engine) is not built here."""
    if game not in _VIEWS:
        raise NotYetAvailable(message=ErrorText.of(N_("no camera view for the game {name}"), name=repr(game)))
    module_name, class_name = _VIEWS[game]
    try:
        module = importlib.import_module(f"{__name__}.{module_name}")
    except ModuleNotFoundError as exc:
        raise NotYetAvailable(message=ErrorText.of(
            N_("the live referee cannot watch {game} on this build yet ({module} is missing)"),
            game=game, module=exc.name)) from None
    return getattr(module, class_name)(**options)


__all__ = ["ExpectedCell", "ExpectedView", "GameView", "view_for"]
