"""Small Kivy widgets shared by the screens: labels that wrap, big buttons, panels, pictures."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from . import kinsoku, theme


def breakable(text: str) -> str:
    """CJK text with no-break spaces: Kivy must not break it at its spaces on its own (a space in
    CJK text would leave a stub line, "•" alone, then the sentence); `kinsoku` chooses the breaks."""
    if kinsoku.has_cjk(text):
        return text.replace(" ", kinsoku.NBSP)
    return text


_MEASURERS: dict[tuple, CoreLabel] = {}


_WIDTHS: dict[tuple, dict[str, float]] = {}


def measurer(widget) -> Callable[[str], float]:
    """The width in pixels Kivy's text layout gives a string in this widget's font. Short strings
    (the kinsoku clusters: a character or a word) are remembered per font: they repeat a lot."""
    key = (widget.font_name, float(widget.font_size), bool(widget.bold))
    label = _MEASURERS.get(key)
    if label is None:
        label = _MEASURERS[key] = CoreLabel(font_name=widget.font_name, font_size=widget.font_size, bold=widget.bold)
    widths = _WIDTHS.setdefault(key, {})

    def measure(text: str) -> float:
        width = widths.get(text)
        if width is None:
            width = label.get_extents(text)[0]
            if len(text) <= 12:
                widths[text] = width
        return width

    return measure


class KinsokuText:
    """For labels and buttons that show translated text: Japanese and Chinese lines are broken by
    the kinsoku rules (companion.ui.kinsoku) for the width the label has, every time it changes.
    `plain` keeps the text as written (what tests and screenshots look for)."""

    plain: str = ""

    def set_plain(self, text: str) -> None:
        self.plain = text
        self.text = breakable(text)

    def rewrap(self, width: float) -> None:
        if not kinsoku.has_cjk(self.plain) or width <= 1 or getattr(self, "shorten", False):
            return  # a shortened label is one line with an ellipsis: nothing to break
        wrapped = kinsoku.wrap(breakable(self.plain), width, measurer(self))
        if wrapped != self.text:
            self.text = wrapped


class Txt(KinsokuText, Label):
    """A label that wraps inside its width and grows to its text's height (for BoxLayouts)."""

    def __init__(self, text: str = "", size: float = 17, color=theme.TEXT, bold: bool = False,
                 halign: str = "left", grow: bool = True, **kwargs):
        super().__init__(text=breakable(text), font_size=size, color=color, bold=bold, halign=halign,
                         valign="middle", **kwargs)
        self.plain = text
        self.bind(width=self._wrap, height=self._wrap)
        if grow:
            self.size_hint_y = None
            self.bind(texture_size=self._grow)

    def _wrap(self, *_):
        fixed_height = self.size_hint_y is not None
        self.text_size = (max(1, self.width - 4), self.height if fixed_height else None)
        self.rewrap(self.text_size[0] - 2 * self.padding_x)

    def _grow(self, *_):
        self.height = self.texture_size[1] + 6


class Btn(KinsokuText, Button):
    """A finger-sized button. `on_tap` is called on release (a real touch, or a simulated one)."""

    def __init__(self, text: str, on_tap: Callable[[], object] | None = None, height: float = 56,
                 size: float = 17, color=theme.BUTTON, selected: bool = False, color_text=theme.TEXT,
                 **kwargs):
        kwargs.setdefault("size_hint_y", None)
        kwargs["color"] = color_text
        super().__init__(text=breakable(text), font_size=size, background_normal="", background_down="",
                         background_color=theme.SELECTED if selected else color, height=height,
                         halign="center", valign="middle", **kwargs)
        self.plain = text
        self.bind(size=self._wrap)
        self._tap = on_tap

    def _wrap(self, *_):
        self.text_size = (self.width - 8, None)
        self.rewrap(self.text_size[0] - 2 * self.padding_x)

    def on_release(self):
        if self._tap is not None:
            self._tap()


class Panel(BoxLayout):
    """A BoxLayout with a flat background colour."""

    def __init__(self, color=theme.PANEL, **kwargs):
        super().__init__(**kwargs)
        with self.canvas.before:
            self._color = Color(*color)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_):
        self._rect.pos, self._rect.size = self.pos, self.size


class BoardPicture(Widget):
    """A top-down picture of a board (companion.ui.topdown.Picture) with some cells lit: the
    offending spot of a ruling, or the pieces behind a score line."""

    def __init__(self, picture, highlight: Iterable[tuple[int, int]] = (), color=theme.BAD, font: float = 12, **kwargs):
        super().__init__(**kwargs)
        self.picture = picture
        self.rows, self.cols = picture.rows, picture.cols
        self.highlight = set(highlight)
        self.highlight_color = color
        self.font = font
        self._labels: dict[str, Texture] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def cell_rect(self, row: int, col: int) -> tuple[float, float, float]:
        """(x, y, side) of a cell; row 0 is drawn at the top, as the board is seen from the camera."""
        side = min(self.width / self.cols, self.height / self.rows)
        left = self.x + (self.width - side * self.cols) / 2
        top = self.y + (self.height + side * self.rows) / 2
        return left + col * side, top - (row + 1) * side, side

    def _label(self, text: str, dark: bool) -> Texture:
        key = f"{text}|{dark}"
        if key not in self._labels:
            label = CoreLabel(text=text, font_size=self.font, color=(0.1, 0.1, 0.1, 1) if dark else (1, 1, 1, 1))
            label.refresh()
            self._labels[key] = label.texture
        return self._labels[key]

    def redraw(self, *_):
        self.canvas.clear()
        with self.canvas:
            for r in range(self.rows):
                for c in range(self.cols):
                    x, y, side = self.cell_rect(r, c)
                    look = self.picture.looks.get((r, c))
                    Color(*theme.FILLS.get(look.fill, theme.PANEL_LIGHT) if look else theme.PANEL_LIGHT)
                    Rectangle(pos=(x + 1, y + 1), size=(side - 2, side - 2))
            for r, c in self.highlight:
                x, y, side = self.cell_rect(r, c)
                Color(*self.highlight_color)
                Line(rectangle=(x + 2, y + 2, side - 4, side - 4), width=max(2.0, side / 14))
            for (r, c), look in self.picture.looks.items():
                if not look.label:
                    continue
                x, y, side = self.cell_rect(r, c)
                texture = self._label(look.label, look.fill in theme.DARK_TEXT_FILLS)
                if texture.width > side - 4:
                    continue  # a label that does not fit is better left out than spilled over
                Color(1, 1, 1, 1)
                Rectangle(texture=texture, size=texture.size,
                          pos=(x + (side - texture.width) / 2, y + (side - texture.height) / 2))


def texture_from_bgr(image) -> Texture:
    """A Kivy texture of a BGR uint8 image (OpenCV order), shown the right way up."""
    height, width = image.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(image[::-1].tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class CameraPicture(Widget):
    """A camera image fitted into the widget (aspect kept) with marks drawn over it."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.texture: Texture | None = None
        self.image_size = (1, 1)
        self.marks: Sequence = ()
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, view) -> None:
        """Show a controller.CameraView (or None for 'no camera')."""
        if view is None:
            self.texture = None
            self.marks = ()
        else:
            height, width = view.image.shape[:2]
            if self.texture is None or self.image_size != (width, height):
                self.texture = texture_from_bgr(view.image)
            else:
                self.texture.blit_buffer(view.image[::-1].tobytes(), colorfmt="bgr", bufferfmt="ubyte")
            self.image_size = (width, height)
            self.marks = view.marks
        self.redraw()

    def _fit(self) -> tuple[float, float, float]:
        width, height = self.image_size
        scale = min(self.width / width, self.height / height)
        return self.x + (self.width - width * scale) / 2, self.y + (self.height - height * scale) / 2, scale

    def redraw(self, *_):
        self.canvas.clear()
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=self.pos, size=self.size)
            if self.texture is None:
                return
            left, bottom, scale = self._fit()
            width, height = self.image_size
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(left, bottom), size=(width * scale, height * scale))
            for mark in self.marks:
                x = left + mark.x * scale
                y = bottom + (height - mark.y) * scale  # image y grows downwards
                radius = mark.radius * scale
                Color(*theme.MARK_COLOURS.get(mark.kind, theme.ACCENT))
                Line(circle=(x, y, radius), width=2)
                Ellipse(pos=(x - 3, y - 3), size=(6, 6))


class Bar(Widget):
    """One horizontal bar, `fraction` of the widget's width, in a colour."""

    def __init__(self, fraction: float, color, **kwargs):
        super().__init__(**kwargs)
        self.fraction = max(0.0, min(1.0, fraction))
        self.color = color
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_):
        self.canvas.clear()
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=self.pos, size=self.size)
            Color(*self.color)
            Rectangle(pos=self.pos, size=(self.width * self.fraction, self.height))


def bar_chart(rows: Sequence[tuple[str, int, tuple]], row_height: float, font: float) -> BoxLayout:
    """Horizontal bars: (name, value, colour) per row, longest bar = the largest value."""
    box = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None)
    box.height = len(rows) * (row_height + 4)
    top = max((value for _, value, _ in rows), default=0) or 1
    for name, value, color in rows:
        line = BoxLayout(size_hint_y=None, height=row_height, spacing=6)
        line.add_widget(Txt(name, font, grow=False, size_hint_x=0.35, shorten=True))
        line.add_widget(Bar(value / top, color, size_hint_x=0.5))
        line.add_widget(Txt(str(value), font, bold=True, grow=False, size_hint_x=0.15))
        box.add_widget(line)
    return box
