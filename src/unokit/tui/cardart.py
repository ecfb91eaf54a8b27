"""Cards drawn with Rich text: coloured blocks with the colour-blind symbol and
the notation, in two sizes (a 6×3 card and a one-line chip).

>>> from unokit.engine.cards import CLASSIC, FLEX
>>> lines = card_lines(FLEX.parse("R5~G").light, state="normal")
>>> [line.plain for line in lines]
['▲     ', ' R5~G ', '    ~❦']
>>> chip(CLASSIC.parse("W4").light).plain
' ▲✱❦● W4 '
"""

from __future__ import annotations

from typing import Literal

from rich.style import Style
from rich.text import Text

from unokit.engine.cards import Color, Face, Kind
from unokit.engine.narration import COLOR_SYMBOL

__all__ = [
    "State",
    "card_lines",
    "fan_strip",
    "chip",
    "back_chip",
    "color_badge",
    "COLOR_HEX",
    "CARD_W",
    "CHIP_W",
]

State = Literal["normal", "dim", "selected"]

#: Card colours (close to the web cards, a little darker so white text reads well).
COLOR_HEX: dict[Color, str] = {
    Color.R: "#d32f2f",
    Color.Y: "#f4c20d",
    Color.G: "#2e7d32",
    Color.B: "#1565c0",
    Color.Pk: "#c2185b",
    Color.Tl: "#00796b",
    Color.Or: "#e8590c",
    Color.Pu: "#6a3d9a",
}
#: Bright versions for text on a dark background (symbols of wilds, backs, log).
COLOR_GLYPH: dict[Color, str] = {
    Color.R: "#ff5252",
    Color.Y: "#ffd740",
    Color.G: "#4caf50",
    Color.B: "#42a5f5",
    Color.Pk: "#ff5fa8",
    Color.Tl: "#2ad4c4",
    Color.Or: "#ff8c42",
    Color.Pu: "#b57cf0",
}
_WILD_BG = "#1c1c1c"
_DIM_BG = "#3a3a3a"
_DIM_FG = "#8a8a8a"
_SEL_BG = "#fafafa"
CARD_W = 6
CHIP_W = 8  # widest chip: " ▲ RFD2 " is 8 cells
_LIGHT = (Color.R, Color.Y, Color.G, Color.B)
_DARK = (Color.Pk, Color.Tl, Color.Or, Color.Pu)


def _fg_on(color: Color) -> str:
    return "black" if color is Color.Y else "white"


def _base(face: Face, state: State) -> tuple[Style, Style]:
    """(card style, symbol style) of a face."""
    if face.color is None:
        bg = _DIM_BG if state == "dim" else _SEL_BG if state == "selected" else _WILD_BG
        fg = _DIM_FG if state == "dim" else "black" if state == "selected" else "white"
        return Style(bgcolor=bg, color=fg, bold=True), Style(bgcolor=bg, color=fg)
    c = face.color
    if state == "dim":
        st = Style(bgcolor=_DIM_BG, color=COLOR_GLYPH[c], bold=False)
        return st, st
    if state == "selected":
        fg = "#9a7600" if c is Color.Y else COLOR_HEX[c]
        st = Style(bgcolor=_SEL_BG, color=fg, bold=True)
        return st, st
    st = Style(bgcolor=COLOR_HEX[c], color=_fg_on(c), bold=True)
    return st, st


def _wild_symbols(face: Face, state: State) -> Text:
    colors = _DARK if face.dark else _LIGHT
    bg = _DIM_BG if state == "dim" else _SEL_BG if state == "selected" else _WILD_BG
    out = Text()
    for c in colors:
        fg = COLOR_HEX[c] if state == "selected" else COLOR_GLYPH[c]
        out.append(COLOR_SYMBOL[c], Style(bgcolor=bg, color=fg, bold=True))
    return out


_WORD = {
    Kind.NUMBER: "",
    Kind.SKIP: "Skip",
    Kind.REVERSE: "Reverse",
    Kind.DRAW_TWO: "Draw 2",
    Kind.DRAW_ONE: "Draw 1",
    Kind.DRAW_FIVE: "Draw 5",
    Kind.FLIP: "Flip",
    Kind.SKIP_EVERYONE: "Skip All",
    Kind.FLEX_SKIP: "FlexSkip",
    Kind.FLEX_REVERSE: "FlexRev",
    Kind.FLEX_DRAW_TWO: "Flex +2",
    Kind.WILD: "Wild",
    Kind.WILD_DRAW_FOUR: "Wild +4",
    Kind.WILD_DRAW_TWO: "Wild +2",
    Kind.WILD_DRAW_COLOR: "Wild DC",
    Kind.WILD_ALL_FLIP: "All Flip",
    Kind.WILD_ALL_DRAW: "All Draw",
    Kind.WILD_TARGET_DRAW: "Target 2",
    Kind.FLEX_WILD_DRAW_FOUR: "Flex W+4",
}


def card_lines(
    face: Face, state: State = "normal", width: int = CARD_W, height: int = 3
) -> list[Text]:
    """``height`` lines of ``width`` cells: the symbol top-left, the notation in
    the middle (with the kind in words on cards of 5+ lines), the symbol (Flex:
    the flex colour) bottom-right. Wilds show all four symbols top and bottom."""
    style, _ = _base(face, state)
    label = str(face)
    blank = Text(" " * width, style)
    mid = Text(label.center(width)[:width], style)
    if face.color is None:
        syms = _wild_symbols(face, state)
        pad = width - 4
        top = Text(" " * (pad // 2), style) + syms + Text(" " * (pad - pad // 2), style)
        bottom = top.copy()
    else:
        sym = COLOR_SYMBOL[face.color]
        top = Text(sym + " " * (width - 1), style)
        if face.flex_color is not None:
            fc = face.flex_color
            patch = Style(bgcolor=COLOR_HEX[fc], color=_fg_on(fc), bold=True)
            if state == "dim":
                patch = Style(bgcolor=_DIM_BG, color=COLOR_GLYPH[fc])
            bottom = Text(" " * (width - 2), style) + Text("~" + COLOR_SYMBOL[fc], patch)
        else:
            bottom = Text(" " * (width - 1) + sym, style)
    if height <= 3:
        return [top, mid, bottom]
    lines = [top] + [blank.copy() for _ in range(height - 2)] + [bottom]
    m = height // 2
    lines[m] = mid
    word = _WORD.get(face.kind, "")
    if face.flip_icon:
        word = "⟳ Power"
    if word and width >= len(word):
        lines[m + 1] = Text(word.center(width)[:width], style + Style(bold=False))
    return lines


def fan_strip(face: Face, height: int) -> list[Text]:
    """The visible left edge (3 cells) of a card lying under another one."""
    style, _ = _base(face, "normal")
    edge = Style(color="black", bgcolor=style.bgcolor)
    sym = COLOR_SYMBOL[face.color] if face.color is not None else "◆"
    first = Text("▏", edge) + Text(sym + " ", style)
    return [first] + [Text("▏", edge) + Text("  ", style) for _ in range(height - 1)]


def chip(face: Face, state: State = "normal") -> Text:
    """A one-line card: `` ▲ R5 `` (wilds: `` ▲✱❦● W4 ``)."""
    style, _ = _base(face, state)
    if face.color is None:
        return Text(" ", style) + _wild_symbols(face, state) + Text(f" {face} ", style)
    text = Text(f" {COLOR_SYMBOL[face.color]} {face} ", style)
    return text


def back_chip(face: Face) -> Text:
    """A face seen on the back of someone's card (Flip): coloured symbol and value."""
    if face.color is None:
        return Text(str(face), Style(color="white", bold=True))
    label = str(face)[len(face.color.name) :]
    return Text(COLOR_SYMBOL[face.color] + label, Style(color=COLOR_GLYPH[face.color], bold=True))


def color_badge(color: Color | None) -> Text:
    """`` ▲ Red `` on its colour."""
    if color is None:
        return Text("none")
    return Text(
        f" {COLOR_SYMBOL[color]} {color.long_name} ",
        Style(bgcolor=COLOR_HEX[color], color=_fg_on(color), bold=True),
    )
