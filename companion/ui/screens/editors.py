"""Editors for the data the rulebooks leave to the players: Reclamation card patterns, Babel
blueprints (the 9 printed and 3 blank), and the icons of a Babylon tile."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ...games.api import Message
from ...i18n import N_
from .. import theme
from ..editor_data import (
    BABEL_CELLS,
    BABEL_SLOTS,
    CARD_REACH,
    FLOWER_COLOURS,
    FLOWER_NAMES,
    FLOWERS,
    ICON_NAMES,
    MATERIAL_NAMES,
    Blueprint,
    CardPattern,
    TileIcons,
)
from ..widgets import Btn, Panel
from .base import CompanionScreen

SIDES = {"garden": N_("Garden (black cards)"), "throne": N_("Throne (red cards)")}
EDITORS = (
    ("reclamation.card", N_("Reclamation card")),
    ("babel.blueprint", N_("Babel blueprint")),
    ("babylon.tile", N_("Babylon tile")),
)


class EditorsScreen(CompanionScreen):
    screen_name = "editors"

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.kind = "reclamation.card"
        self.card = CardPattern()
        self.blueprint = Blueprint()
        self.tile = TileIcons()
        self.feedback: Message | None = None
        self.feedback_ok = True

    def choose(self, kind: str) -> None:
        self.kind, self.feedback = kind, None
        self.render()

    def changed(self) -> None:
        self.feedback = None
        self.render()

    def save(self) -> None:
        data = {"reclamation.card": self.card, "babel.blueprint": self.blueprint, "babylon.tile": self.tile}[self.kind]
        problems = data.problems()
        if problems:
            self.feedback, self.feedback_ok = problems[0], False
        else:
            answer = self.app.controls.save_editor_data(self.kind, data.to_json())
            self.feedback, self.feedback_ok = answer, answer.msgid.startswith("Saved")  # see RefereeControls
        self.render()

    def build_content(self):
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=s.pad)
        tabs = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        for kind, title in EDITORS:
            tabs.add_widget(self.button(self.t(title), lambda k=kind: self.choose(k), selected=kind == self.kind))
        box.add_widget(tabs)
        body = BoxLayout(spacing=s.pad)
        editor, help_lines = {
            "reclamation.card": self._card,
            "babel.blueprint": self._blueprint,
            "babylon.tile": self._tile,
        }[self.kind]()
        body.add_widget(editor)
        side = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad, size_hint_x=0.45)
        for line in help_lines:
            side.add_widget(self.label(line, s.body))
        side.add_widget(BoxLayout())
        if self.feedback is not None:
            side.add_widget(self.label(self.r(self.feedback), s.body, bold=True, color=theme.OK if self.feedback_ok else theme.BAD))
        side.add_widget(self.button(self.t(N_("Save")), self.save, color=theme.OK))
        body.add_widget(side)
        box.add_widget(body)
        return box

    # --- the three editors -------------------------------------------------------------------------
    def _card(self):
        size = 2 * CARD_REACH + 1
        grid = GridLayout(cols=size, spacing=3)
        for row in range(size):
            forward = CARD_REACH - row
            for col in range(size):
                right = col - CARD_REACH
                if (forward, right) == (0, 0):
                    grid.add_widget(Btn("●", None, size_hint_y=1, color=theme.BAD, size=self.s.large))
                    continue
                lit = (forward, right) in self.card.targets
                grid.add_widget(Btn("◎" if lit else "", lambda f=forward, r=right: self._toggle(f, r), size_hint_y=1,
                                    selected=lit, size=self.s.large))
        help_lines = [
            self.t(N_("Tap the squares this card reclaims. ● is the gardener; up is forward, away from the card's owner.")),
            self.t(N_("Targets marked: {count}"), count=len(self.card.targets)),
            self.t(N_("Rule {rule}"), rule="reclamation.garden.reclaim.card"),
        ]
        box = BoxLayout(orientation="vertical", spacing=3)
        box.add_widget(grid)
        sides = BoxLayout(spacing=3, size_hint_y=None, height=self.s.touch)
        for side, title in SIDES.items():
            sides.add_widget(self.button(self.t(title), lambda sd=side: self._side(sd), selected=side == self.card.side, size=self.s.small))
        box.add_widget(sides)
        return box, help_lines

    def _side(self, side: str) -> None:
        self.card.side = side
        self.changed()

    def _toggle(self, forward: int, right: int) -> None:
        self.card.toggle(forward, right)
        self.changed()

    def _blueprint(self):
        box = BoxLayout(orientation="vertical", spacing=3)
        slots = BoxLayout(spacing=3, size_hint_y=None, height=self.s.touch)
        slots.add_widget(self.button("◀", lambda: self._slot(-1), size_hint_x=None, width=self.s.touch))
        slots.add_widget(self.label(self._slot_name(self.blueprint.slot), self.s.large, grow=False, halign="center"))
        slots.add_widget(self.button("▶", lambda: self._slot(1), size_hint_x=None, width=self.s.touch))
        box.add_widget(slots)
        grid = GridLayout(cols=3, spacing=3)
        for cell in BABEL_CELLS:
            count = self.blueprint.counts[cell]
            grid.add_widget(Btn(f"{cell}\n{count}", lambda c=cell: self._bump(c, 1), size_hint_y=1, selected=count > 0, size=self.s.large))
        box.add_widget(grid)
        box.add_widget(self.button(self.t(N_("Clear")), self._clear_blueprint))
        help_lines = [
            self.t(N_("Tap a cell to add one cube to its minimum; Clear starts again.")),
            self.t(N_("Cubes in this blueprint: {count}"), count=sum(self.blueprint.counts.values())),
            self.t(N_("Rule {rule}"), rule="babel.blueprint"),
        ]
        return box, help_lines

    def _slot_name(self, slot: str) -> str:
        if slot.startswith("blank"):
            return self.t(N_("Blank blueprint {n}"), n=slot[5:])
        return self.t(N_("Printed blueprint {n}"), n=slot[7:])

    def _slot(self, delta: int) -> None:
        index = (BABEL_SLOTS.index(self.blueprint.slot) + delta) % len(BABEL_SLOTS)
        self.blueprint = Blueprint(BABEL_SLOTS[index])
        self.changed()

    def _bump(self, cell: str, delta: int) -> None:
        self.blueprint.bump(cell, delta)
        self.changed()

    def _clear_blueprint(self) -> None:
        self.blueprint = Blueprint(self.blueprint.slot)
        self.changed()

    def _tile(self):
        box = BoxLayout(orientation="vertical", spacing=3)
        row = BoxLayout(spacing=3, size_hint_y=None, height=self.s.touch)
        row.add_widget(self.button(self.t(MATERIAL_NAMES[self.tile.material]), self._material))
        flower = FLOWERS[self.tile.flower]
        row.add_widget(self.button(self.t(FLOWER_NAMES.get(flower, flower)), self._flower,
                                   color=FLOWER_COLOURS.get(flower, theme.BUTTON), color_text=theme.BACKGROUND))
        box.add_widget(row)
        grid = GridLayout(cols=2, spacing=3)
        for space in (0, 1, 3, 2):  # the grid fills row by row; the tile lists its spaces clockwise
            icon = self.tile.icons[space]
            grid.add_widget(Btn(self.t(ICON_NAMES[icon]), lambda sp=space: self._icon(sp), size_hint_y=1,
                                selected=icon != "none", size=self.s.large))
        box.add_widget(grid)
        help_lines = [
            self.t(N_("Tap the material and the flower to change them, and each garden space to cycle its icon.")),
            self.t(N_("Clay tiles have 2 icons, granite 3, basalt 4.")),
        ]
        return box, help_lines

    def _material(self) -> None:
        self.tile.cycle_material()
        self.changed()

    def _flower(self) -> None:
        self.tile.flower = (self.tile.flower + 1) % len(FLOWERS)
        self.changed()

    def _icon(self, space: int) -> None:
        self.tile.cycle_icon(space)
        self.changed()
