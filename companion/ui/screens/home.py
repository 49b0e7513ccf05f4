"""Home: choose the game, the players (names, seats, Babylon flowers), the variant and the language."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput

from ...errors import CompanionError
from ...games import registry
from ...i18n import GAME_TITLES, LANGUAGES, N_
from .. import kana, theme
from ..controller import GameSetup
from ..editor_data import FLOWER_COLOURS, FLOWER_NAMES, FLOWERS
from ..setup_steps import PLAYER_RANGE
from ..text import LANGUAGE_NAMES
from ..widgets import Btn, Panel
from .base import CompanionScreen

VARIANTS = {
    "babylon": (("standard", N_("Standard")),),
    "reclamation": (("garden", N_("Garden (black cards)")), ("throne", N_("Throne (red cards)"))),
    "babel": (("standard", N_("Standard")),),
    "baubylon": (("standard", N_("Standard")),),
}


def reading_options(game: str) -> tuple:
    """The engine's options that choose between readings of an open rule question (they have
    choices); the Reclamation variant has its own buttons. Empty without the engine."""
    try:
        spec = registry.get(game)
    except (CompanionError, ImportError):
        return ()
    return tuple(option for option in spec.options if option.choices and option.name != "variant")


def _wide(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in text)


class HomeScreen(CompanionScreen):
    screen_name = "home"

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.game = "babylon"
        self.count = 3
        self.names: list[str] = ["" for _ in range(10)]  # empty = the default "Player n"
        self.flowers: list[int] = list(range(10))
        self.variant = "standard"
        self.readings: dict[str, dict[str, object]] = {}  # game -> option -> chosen value
        self.show_readings = False
        self.confirming = False  # "a game is under way: start a new one?" is showing
        self.editing: int | None = None  # the seat whose name the kana pad is typing
        self.katakana = False
        self.problem = None  # the referee's answer when the game could not start

    # --- choices -----------------------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        self.game = game
        low, high = PLAYER_RANGE[game]
        self.count = min(max(self.count, low), high)
        self.variant = VARIANTS[game][0][0]
        self.render()

    def change_count(self, delta: int) -> None:
        low, high = PLAYER_RANGE[self.game]
        self.count = min(max(self.count + delta, low), high)
        self.render()

    def next_flower(self, seat: int) -> None:
        # Each board has its own flower: skip the flowers other seats already hold.
        taken = {self.flowers[s] for s in range(self.count) if s != seat}
        flower = self.flowers[seat]
        for _ in range(len(FLOWERS)):
            flower = (flower + 1) % len(FLOWERS)
            if flower not in taken:
                break
        self.flowers[seat] = flower
        self.render()

    def move_up(self, seat: int) -> None:
        """Seat order is play order (seat 1 starts): move this player one seat earlier."""
        other = (seat - 1) % self.count
        for values in (self.names, self.flowers):
            values[seat], values[other] = values[other], values[seat]
        self.render()

    def player_names(self) -> tuple[str, ...]:
        return tuple(self.names[s].strip() or self.t(N_("Player {n}"), n=s + 1) for s in range(self.count))

    def choose_reading(self, option: str, value: object) -> None:
        self.readings.setdefault(self.game, {})[option] = value
        self.render()

    def toggle_readings(self) -> None:
        self.show_readings = not self.show_readings
        self.render()

    def setup(self) -> GameSetup:
        options: dict[str, object] = dict(self.readings.get(self.game, {}))
        if self.game == "reclamation":
            options["variant"] = self.variant
        seats: tuple[str, ...] = ()
        if self.game == "babylon":
            seats = tuple(FLOWERS[self.flowers[s] % len(FLOWERS)] for s in range(self.count))
            # The engine's `flowers` option names all four, player i taking flower i: seats first.
            options["flowers"] = ",".join(seats + tuple(f for f in FLOWERS if f not in seats))
        return GameSetup(self.game, self.player_names(), self.variant, tuple(sorted(options.items())), seats)

    def start(self, confirmed: bool = False) -> None:
        """Start the game; a game under way is only ended after the players confirm on screen."""
        if self.app.game_under_way and not confirmed:
            self.confirming = True
            self.render()
            return
        self.confirming = False
        answer = self.app.start_game(self.setup())
        if not answer.done:
            self.problem = answer.message
            self.render()
            return
        self.problem = None
        self.app.names.remember([self.names[s] for s in range(self.count)])
        self.app.go("setup")

    # --- names without a keyboard ---------------------------------------------------------------
    def use_name(self, name: str) -> None:
        """A name used before: to the seat being typed, else the first seat without a name."""
        seat = self.editing
        if seat is None:
            empty = [s for s in range(self.count) if not self.names[s].strip()]
            seat = empty[0] if empty else self.count - 1
        for other in range(self.count):  # one player, one seat
            if other != seat and self.names[other] == name:
                self.names[other] = ""
        self.names[seat] = name
        self.render()

    def edit_name(self, seat: int | None) -> None:
        self.editing = seat
        self.render()

    def pad(self, edit) -> None:
        """Apply one kana pad key to the name being typed."""
        if self.editing is not None:
            self.names[self.editing] = edit(self.names[self.editing])
            self.render()

    def toggle_katakana(self) -> None:
        self.katakana = not self.katakana
        self.render()

    def keep_playing(self) -> None:
        self.confirming = False
        self.render()

    # --- layout ------------------------------------------------------------------------------
    def build_content(self):
        s = self.s
        body = BoxLayout(spacing=s.pad)
        left = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_x=0.42)
        left.add_widget(self.heading(self.t(N_("Which game?"))))
        for game, title in GAME_TITLES.items():
            left.add_widget(self.button(self.t(title), lambda g=game: self.choose_game(g), selected=game == self.game))
        variants = VARIANTS[self.game]
        if len(variants) > 1:
            row = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
            for key, title in variants:
                row.add_widget(self.button(self.t(title), lambda k=key: self._set_variant(k), selected=key == self.variant, size=s.small))
            left.add_widget(row)
        langs = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)

        for lang in LANGUAGES:
            langs.add_widget(self.button(LANGUAGE_NAMES[lang], lambda code=lang: self.app.set_language(code), selected=lang == self.app.lang,
                                          size=s.small))
        left.add_widget(BoxLayout())  # push the language row to the bottom
        left.add_widget(langs)
        body.add_widget(left)

        right = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad)
        if self.editing is not None and self.editing < self.count:  # the pad needs the whole panel
            right.add_widget(self._kana_pad(self.editing))
            body.add_widget(right)
            return body
        low, high = PLAYER_RANGE[self.game]
        count_row = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        count_row.add_widget(self.label(self.t(N_("Players: {count} ({low}–{high})"), count=self.count, low=low, high=high), s.large, grow=False))
        count_row.add_widget(self.button("−", lambda: self.change_count(-1), size_hint_x=None, width=s.touch * 1.3, size=s.huge))
        count_row.add_widget(self.button("+", lambda: self.change_count(1), size_hint_x=None, width=s.touch * 1.3, size=s.huge))
        right.add_widget(count_row)
        options = reading_options(self.game)
        scroll = ScrollView(do_scroll_x=False)
        rows = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        if self.show_readings and options:
            for option in options:
                self._reading_rows(rows, option)
        else:
            known = self.app.names.names
            if known:  # first, so a regular finds their name without scrolling
                rows.add_widget(self.label(self.t(N_("Names used before: tap one to seat that player.")), s.small,
                                           color=theme.MUTED))
                chips = StackLayout(spacing=s.pad // 2, size_hint_y=None)
                chips.bind(minimum_height=chips.setter("height"))
                for name in known[:12]:
                    chips.add_widget(self.button(name, lambda n=name: self.use_name(n), size=s.small, size_hint=(None, None),
                                                 width=max(s.touch * 1.6, 18 + s.small * 0.62 * len(name) * (1.6 if _wide(name) else 1))))
                rows.add_widget(chips)
            for seat in range(self.count):
                rows.add_widget(self._seat_row(seat))
        scroll.add_widget(rows)
        right.add_widget(scroll)
        footer = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        if not (self.show_readings and options):
            footer.add_widget(self.label(self.t(N_("Seat 1 starts. Tap a seat number to move that player one seat up.")),
                                         s.small, color=theme.MUTED, grow=False))
        if options:
            title = N_("Players") if self.show_readings else N_("Rule readings")
            footer.add_widget(self.button(self.t(title), self.toggle_readings, size=s.small, size_hint_x=0.4))
        right.add_widget(footer)
        if self.problem is not None:
            right.add_widget(self.label(self.r(self.problem), s.small, color=theme.BAD))
        if self.confirming:
            right.add_widget(self.label(self.t(N_("A game is under way. End it and start a new one? "
                                                  "The game under way stays in the journal.")), s.body, color=theme.WARN))
            confirm = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
            confirm.add_widget(self.button(self.t(N_("Keep playing")), self.keep_playing, size=s.large))
            confirm.add_widget(self.button(self.t(N_("Start a new game")), lambda: self.start(confirmed=True),
                                           color=theme.BAD, size=s.large))
            right.add_widget(confirm)
        else:
            right.add_widget(self.button(self.t(N_("Start the game")), self.start, color=theme.OK, size=s.large))
        body.add_widget(right)
        return body

    def _reading_rows(self, rows: BoxLayout, option) -> None:
        """An open rule question the table settles before play: the engine's words, then its choices."""
        s = self.s
        chosen = self.readings.get(self.game, {}).get(option.name, option.default)
        rows.add_widget(self.label(self.t(option.help), s.small))
        line = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        for value in option.choices:
            line.add_widget(self.button(str(value), lambda v=value, name=option.name: self.choose_reading(name, v),
                                        selected=value == chosen, size=s.small))
        rows.add_widget(line)

    def _kana_pad(self, seat: int) -> BoxLayout:
        """A gojūon table to tap a Japanese name with, and the marks a phone's kana keypad has."""
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=4)
        top = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        name = self.names[seat] or self.t(N_("Player {n}"), n=seat + 1)
        top.add_widget(Btn(str(seat + 1), None, height=s.touch, size=s.large, color=theme.seat_colour(seat),
                           size_hint_x=None, width=s.touch))
        top.add_widget(self.label(name, s.large, bold=True, grow=False, color=theme.TEXT if self.names[seat] else theme.MUTED))
        top.add_widget(self.button(self.t(N_("Done")), lambda: self.edit_name(None), color=theme.OK, size_hint_x=None,
                                   width=s.touch * 2))
        box.add_widget(top)
        grid = GridLayout(cols=len(kana.GOJUON), spacing=3)
        for row in range(5):
            for column in kana.GOJUON:  # columns right to left, as the table is printed
                key = column[row]
                shown = kana.katakana(key) if self.katakana else key
                if key:
                    grid.add_widget(self.button(shown, lambda k=key: self.pad(lambda t: kana.type_key(t, k, self.katakana)),
                                                size=s.large, size_hint_y=1))
                else:
                    grid.add_widget(BoxLayout())
        box.add_widget(grid)
        marks = BoxLayout(spacing=3, size_hint_y=None, height=s.touch)
        for label, edit in (("゛", kana.add_voiced), ("゜", kana.add_semi_voiced), ("小", kana.toggle_small)):
            marks.add_widget(self.button(label, lambda e=edit: self.pad(e), size=s.large))
        marks.add_widget(self.button("カナ" if not self.katakana else "かな", self.toggle_katakana, size=s.body))
        marks.add_widget(self.button("←", lambda: self.pad(lambda t: t[:-1]), size=s.large, color=theme.PANEL_LIGHT))
        marks.add_widget(self.button(self.t(N_("Clear")), lambda: self.pad(lambda t: ""), size=s.small, color=theme.PANEL_LIGHT))
        box.add_widget(marks)
        return box

    def _set_variant(self, key: str) -> None:
        self.variant = key
        self.render()

    def _seat_row(self, seat: int) -> BoxLayout:
        s = self.s
        row = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        row.add_widget(Btn(str(seat + 1), lambda: self.move_up(seat), height=s.touch, size=s.large,
                           color=theme.seat_colour(seat), size_hint_x=None, width=s.touch))
        entry = TextInput(text=self.names[seat], hint_text=self.t(N_("Player {n}"), n=seat + 1), multiline=False,
                          font_size=s.large, write_tab=False, padding=(s.pad, s.pad * 1.5))
        entry.bind(text=lambda _w, value, seat=seat: self.names.__setitem__(seat, value))
        row.add_widget(entry)
        row.add_widget(self.button("かな", lambda: self.edit_name(seat), size=s.small, size_hint_x=None, width=s.touch * 1.3))
        if self.game == "babylon":
            flower = FLOWERS[self.flowers[seat] % len(FLOWERS)]
            row.add_widget(self.button(self.t(FLOWER_NAMES.get(flower, flower)), lambda: self.next_flower(seat),
                                       size_hint_x=None, width=s.touch * 2.4, color=FLOWER_COLOURS.get(flower, theme.BUTTON),
                                       color_text=theme.BACKGROUND))
        return row
