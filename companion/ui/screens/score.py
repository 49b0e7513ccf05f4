"""The score sheet: the score pad's categories per player with rule ids, totals, the tie-break when
it decides, a bar chart, and a top-down picture with the scoring pieces of a chosen line lit."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from ...games.api import ScoreSheet
from ...i18n import N_
from .. import theme
from ..topdown import picture_for
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
        left = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_x=0.64)
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
            text = self.t(N_("Shared victory: {names}"), names=names)
        else:
            text = self.t(N_("Winner: {name}"), name=names)
        banner = BoxLayout(orientation="vertical", size_hint_y=None)
        banner.bind(minimum_height=banner.setter("height"))
        banner.add_widget(self.label(text, s.large, bold=True, color=theme.OK))
        if sheet.tiebreak_decided():
            rule = self.r(sheet.tiebreak_label) if sheet.tiebreak_label else self.t(N_("Tie-break"))
            banner.add_widget(self.label(self.t(N_("Equal points: the tie-break decides ({rule})."), rule=rule), s.small, color=theme.WARN))
        return banner

    def _table(self, sheet: ScoreSheet):
        if len(sheet.players) > 4:  # 5 to 10 players: a row each, or the columns get too thin to tap
            return self._table_by_player(sheet)
        s = self.s
        players = sheet.players
        row_height = round(s.touch * 0.8)  # a finger-sized number to tap
        rows = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))

        footer = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
        footer.bind(minimum_height=footer.setter("height"))

        def row(first, cells, height=row_height, into=rows):
            line = BoxLayout(spacing=2, size_hint_y=None, height=height)
            first.size_hint_x = 0.48
            line.add_widget(first)
            for cell in cells:
                cell.size_hint_x = 0.52 / max(1, len(players))
                line.add_widget(cell)
            into.add_widget(line)

        def text(value, size=s.small, **kwargs):
            kwargs.setdefault("halign", "center")
            return Txt(value, size, grow=False, shorten=True, **kwargs)

        row(text(self.t(N_("Category")), color=theme.MUTED, halign="left"),
            [text(name, bold=True, color=theme.seat_colour(p)) for p, name in enumerate(players)])
        for category in sheet.categories():
            lines = {line.player: line for line in sheet.lines if line.category == category}
            first = next(iter(lines.values()))
            label = self._two_lines(self.r(first.label), first.rule_id, theme.TEXT)
            cells = []
            for p in range(len(players)):
                points = lines[p].points if p in lines else 0
                cells.append(Btn(str(points), lambda p=p, c=category: self.select(p, c), selected=self.selected == (p, category),
                                 size=s.body, height=row_height))
            row(label, cells)
        row(text(self.t(N_("Total")), s.body, bold=True, halign="left"),
            [text(str(total), s.large, bold=True) for total in sheet.totals()], into=footer)
        if sheet.tiebreak_decided():
            name = self.r(sheet.tiebreak_label) if sheet.tiebreak_label else self.t(N_("Tie-break"))
            label = self._two_lines(name, sheet.tiebreak_rule or "", theme.WARN)
            row(label, [text(str(abs(v)), color=theme.WARN) for v in sheet.tiebreak], into=footer)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(rows)
        table = BoxLayout(orientation="vertical", spacing=2)
        table.add_widget(scroll)
        table.add_widget(footer)
        return table

    def _table_by_player(self, sheet: ScoreSheet):
        """One row per player, one column per score pad category (these games have few)."""
        s = self.s
        categories = sheet.categories()
        row_height = round(s.touch * 0.8)
        rows = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        share = 0.6 / (len(categories) + 1)

        header = BoxLayout(spacing=2, size_hint_y=None, height=row_height)
        header.add_widget(Txt(self.t(N_("Player")), s.small, color=theme.MUTED, grow=False, size_hint_x=0.4))
        for category in categories:
            first = next(line for line in sheet.lines if line.category == category)
            label = self._two_lines(self.r(first.label), first.rule_id, theme.TEXT)
            label.size_hint_x = share
            header.add_widget(label)
        header.add_widget(Txt(self.t(N_("Total")), s.small, bold=True, grow=False, halign="center", size_hint_x=share))
        rows.add_widget(header)
        for player, name in enumerate(sheet.players):
            line = BoxLayout(spacing=2, size_hint_y=None, height=row_height)
            line.add_widget(Txt(name, s.body, bold=True, color=theme.seat_colour(player), grow=False, shorten=True,
                                size_hint_x=0.4))
            for category in categories:
                points = sum(ln.points for ln in sheet.lines if ln.player == player and ln.category == category)
                line.add_widget(Btn(str(points), lambda p=player, c=category: self.select(p, c), size=s.body,
                                    height=row_height, selected=self.selected == (player, category), size_hint_x=share))
            line.add_widget(Txt(str(sheet.total(player)), s.large, bold=True, grow=False, halign="center", size_hint_x=share))
            rows.add_widget(line)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(rows)
        return scroll

    def _two_lines(self, text: str, rule_id: str, color) -> BoxLayout:
        """A score pad label with its rule id in small print underneath."""
        s = self.s
        box = BoxLayout(orientation="vertical")
        box.add_widget(Txt(text, s.small, color=color, grow=False, shorten=True, size_hint_y=0.6))
        box.add_widget(Txt(rule_id, max(9, round(s.small * 0.7)), color=theme.MUTED, grow=False, shorten=True,
                           shorten_from="left", size_hint_y=0.4))
        return box

    def _picture(self, sheet: ScoreSheet):
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=4)
        state = self.app.session.state
        if self.selected is None:
            hint = self.t(N_("Tap a number to light up the pieces that scored it."))
            board = picture_for(state, self._shown_player(state), sheet.game)
            cells: set = set()
        else:
            player, category = self.selected
            line = next((ln for ln in sheet.lines if ln.player == player and ln.category == category), None)
            board = picture_for(state, player, sheet.game)
            cells, _others = board.locate(line.pieces if line else ())
            label = self.r(line.label) if line else category
            hint = self.t(N_("{name}: {category}"), name=sheet.players[player], category=label)
        box.add_widget(Txt(hint, s.small, color=theme.MUTED))
        box.add_widget(BoardPicture(board, cells, color=theme.OK, font=s.small * 0.8))
        return box

    def _shown_player(self, state) -> int:
        """Before a number is tapped, show the leader's board (or the player to move)."""
        sheet = self.app.session.sheet
        leaders = sheet.leaders() if sheet is not None else ()
        if leaders:
            return leaders[0]
        return getattr(state, "current_player", None) or 0
