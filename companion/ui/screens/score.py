"""The score sheet: the score pad's categories per player with rule ids, totals, the tie-break when
it decides, a bar chart, and a top-down picture with the scoring pieces of a chosen line lit."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ...games.api import ScoreSheet
from ...i18n import N_
from .. import theme
from ..board import cells_and_others, grid_for
from ..widgets import BoardPicture, Btn, Panel, Txt, bar_chart
from .base import CompanionScreen


class ScoreScreen(CompanionScreen):
    screen_name = "score"
    uses_session = True

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.selected: tuple[int, str] | None = None  # (player, category) whose pieces are lit

    def select(self, player: int, category: str) -> None:
        self.selected = (player, category)
        self.render()

    def build_content(self):
        s = self.s
        sheet = self.app.session.sheet
        if sheet is None:
            box = BoxLayout(orientation="vertical")
            box.add_widget(self.heading(self.t(N_("No score yet."))))
            box.add_widget(BoxLayout())
            return box
        body = BoxLayout(spacing=s.pad)
        left = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_x=0.62)
        left.add_widget(self._banner(sheet))
        left.add_widget(self._table(sheet))
        body.add_widget(left)
        right = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad)
        totals = sheet.totals()
        right.add_widget(bar_chart([(name, totals[p], theme.seat_colour(p)) for p, name in enumerate(sheet.players)],
                                   s.small * 1.6, s.small))
        right.add_widget(self._picture(sheet))
        body.add_widget(right)
        return body

    def _banner(self, sheet: ScoreSheet):
        s = self.s
        winners = self.app.session.winners if self.app.session.over else None
        if winners is None and sheet.final:
            winners = sheet.leaders()
        if winners is None:
            return self.label(self.t(N_("Score so far")), s.large, bold=True)
        names = "、".join(sheet.players[w] for w in winners) if self.app.lang != "en" else ", ".join(sheet.players[w] for w in winners)
        if len(winners) > 1:
            return self.label(self.t(N_("Shared victory: {names}"), names=names), s.large, bold=True, color=theme.OK)
        return self.label(self.t(N_("Winner: {name}"), name=names), s.large, bold=True, color=theme.OK)

    def _table(self, sheet: ScoreSheet):
        s = self.s
        players = sheet.players
        categories = sheet.categories()
        row_height = max(s.small * 1.9, (s.touch * 0.62))
        grid = GridLayout(cols=len(players) + 1, spacing=2, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        cell = dict(size_hint_y=None, height=row_height, size=s.small)
        grid.add_widget(Txt(self.t(N_("Category")), s.small, color=theme.MUTED, grow=False, size_hint_y=None, height=row_height))
        for p, name in enumerate(players):
            grid.add_widget(Txt(name, s.small, bold=True, color=theme.seat_colour(p), grow=False, halign="center",
                                size_hint_y=None, height=row_height, shorten=True))
        for category in categories:
            lines = {line.player: line for line in sheet.lines if line.category == category}
            first = next(iter(lines.values()))
            grid.add_widget(Txt(f"{self.r(first.label)}  [size={int(s.small * 0.8)}]{first.rule_id}[/size]", s.small,
                                grow=False, markup=True, size_hint_y=None, height=row_height, shorten=True))
            for p in range(len(players)):
                line = lines.get(p)
                points = line.points if line else 0
                lit = self.selected == (p, category)
                grid.add_widget(Btn(str(points), lambda p=p, c=category: self.select(p, c), selected=lit, **cell))
        grid.add_widget(Txt(self.t(N_("Total")), s.body, bold=True, grow=False, size_hint_y=None, height=row_height))
        for total in sheet.totals():
            grid.add_widget(Txt(str(total), s.body, bold=True, halign="center", grow=False, size_hint_y=None, height=row_height))
        if sheet.tiebreak_decided():
            label = self.r(sheet.tiebreak_label) if sheet.tiebreak_label else self.t(N_("Tie-break"))
            grid.add_widget(Txt(f"{label}  [size={int(s.small * 0.8)}]{sheet.tiebreak_rule or ''}[/size]", s.small,
                                color=theme.WARN, grow=False, markup=True, size_hint_y=None, height=row_height, shorten=True))
            for value in sheet.tiebreak:
                grid.add_widget(Txt(str(abs(value)), s.small, color=theme.WARN, halign="center", grow=False,
                                    size_hint_y=None, height=row_height))
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        return scroll

    def _picture(self, sheet: ScoreSheet):
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=4)
        rows, cols = grid_for(sheet.game)
        if self.selected is None:
            hint = self.t(N_("Tap a number to light up the pieces that scored it."))
            cells: set = set()
        else:
            player, category = self.selected
            line = next((ln for ln in sheet.lines if ln.player == player and ln.category == category), None)
            pieces = line.pieces if line else ()
            cells, _others = cells_and_others(pieces, sheet.game)
            label = self.r(line.label) if line else category
            hint = self.t(N_("{name}: {category}"), name=sheet.players[player], category=label)
        box.add_widget(Txt(hint, s.small, color=theme.MUTED))
        box.add_widget(BoardPicture(rows, cols, cells, color=theme.OK))
        return box
