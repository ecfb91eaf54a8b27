"""Dialogs and full screens of the Textual game: choices (colour, challenge,
Flex side, target), help, scores, round end and the hot-seat cover."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Markdown, Static

from unokit.engine.cards import Color
from unokit.tui.cardart import COLOR_HEX, chip

__all__ = [
    "Choice",
    "ChoiceDialog",
    "color_choices",
    "HelpScreen",
    "TableScreen",
    "CoverScreen",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Choice(Generic[T]):
    """One answer of a :class:`ChoiceDialog`: ``key`` answers it from the keyboard."""

    label: str | Text
    value: T
    key: str
    background: str | None = None
    foreground: str | None = None


class ChoiceDialog(ModalScreen[T | None], Generic[T]):
    """A question with buttons; keys: each choice's key, 1-9, Escape to cancel."""

    DEFAULT_CSS = """
    ChoiceDialog { align: center middle; }
    ChoiceDialog > Vertical {
        width: auto; max-width: 76; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceDialog .title { text-style: bold; width: 100%; content-align: center middle; }
    ChoiceDialog .message { width: auto; max-width: 72; margin-bottom: 1; }
    ChoiceDialog Horizontal { height: auto; width: auto; }
    ChoiceDialog Vertical.buttons { height: auto; width: auto; }
    ChoiceDialog Button { margin: 0 1 0 0; min-width: 10; }
    ChoiceDialog .hint { color: $text-muted; width: 100%; }
    """

    def __init__(
        self,
        title: str,
        message: str | Text,
        choices: Sequence[Choice[T]],
        *,
        cancel: bool = True,
        vertical: bool = False,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.choices = list(choices)
        self.cancel = cancel
        self.vertical = vertical

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="title", markup=False)
            if self.message:
                yield Static(self.message, classes="message", markup=False)
            buttons = []
            for i, c in enumerate(self.choices):
                label = c.label if isinstance(c.label, Text) else Text(c.label)
                b = Button(label, id=f"choice-{i}", compact=self.vertical)
                if c.background:
                    b.styles.background = c.background
                if c.foreground:
                    b.styles.color = c.foreground
                buttons.append(b)
            box = Vertical(*buttons, classes="buttons") if self.vertical else Horizontal(*buttons)
            yield box
            keys = ", ".join(f"{c.key}" for c in self.choices if c.key and not c.key.isdigit())
            digits = f"1-{len(self.choices)}"
            hint = f"Keys: {keys} or {digits}" if keys else f"Keys: {digits}"
            hint += ", Esc cancels" if self.cancel else ""
            yield Static(hint, classes="hint", markup=False)

    def on_mount(self) -> None:
        for button in self.query("#choice-0").results(Button):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id or ""
        if bid.startswith("choice-"):
            self.dismiss(self.choices[int(bid[7:])].value)

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key == "escape":
            event.stop()
            if self.cancel:
                self.dismiss(None)
            return
        if key.isdigit() and 1 <= int(key) <= len(self.choices):
            event.stop()
            self.dismiss(self.choices[int(key) - 1].value)
            return
        for c in self.choices:
            if c.key and key == c.key.lower():
                event.stop()
                self.dismiss(c.value)
                return


_COLOR_KEYS = {
    Color.R: "r",
    Color.Y: "y",
    Color.G: "g",
    Color.B: "b",
    Color.Pk: "p",
    Color.Tl: "t",
    Color.Or: "o",
    Color.Pu: "u",
}


def color_choices(colors: Sequence[Color]) -> list[Choice[Color]]:
    """Buttons for colours: symbol, name, the key underlined by brackets."""
    from unokit.engine.narration import COLOR_SYMBOL

    out = []
    for c in colors:
        fg = "black" if c is Color.Y else "white"
        out.append(
            Choice(
                f"{COLOR_SYMBOL[c]} {c.long_name} ({_COLOR_KEYS[c]})",
                c,
                _COLOR_KEYS[c],
                background=COLOR_HEX[c],
                foreground=fg,
            )
        )
    return out


class HelpScreen(ModalScreen[None]):
    """The rules of the variant in play and the keys."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    HelpScreen .hint { dock: bottom; height: 1; color: $text-muted; }
    """

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(self.markdown)
        yield Static("↑↓ PgUp PgDn scroll · Esc closes", classes="hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class TableScreen(ModalScreen[bool]):
    """A table (round scoring, scoreboard) with a title and a line of keys.
    Returns True for Enter (continue), False for Escape / q."""

    BINDINGS = [
        Binding("enter,space,n", "go", "Continue"),
        Binding("escape,q", "leave", "Close"),
    ]
    DEFAULT_CSS = """
    TableScreen { align: center middle; }
    TableScreen > VerticalScroll {
        width: 100%; max-width: 110; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    TableScreen .title { text-style: bold; }
    TableScreen .hint { color: $text-muted; }
    TableScreen Button { margin-top: 1; }
    """

    def __init__(self, title: str, body: Any, hint: str, button: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.hint = hint
        self.button = button

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.title_text, classes="title", markup=False)
            yield Static(self.body, id="body")
            if self.button:
                yield Button(self.button, id="go", variant="primary", compact=True)
            yield Static(self.hint, classes="hint", markup=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(True)

    def action_go(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)


class CoverScreen(Screen[None]):
    """Hot seat: an opaque screen while the terminal passes to the next person."""

    BINDINGS = [Binding("enter,space", "ready", "Ready")]
    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $background; }
    CoverScreen > Vertical { width: auto; height: auto; border: thick $accent; padding: 1 2; }
    CoverScreen Static { width: auto; }
    CoverScreen Button { margin-top: 1; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Pass the terminal to {self.person}.", Style(bold=True)))
            yield Static(
                f"{self.person}, press Enter when you are ready to see your hand.", markup=False
            )
            yield Button("I am ready", id="ready", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


def hand_chips(cards: Sequence[Any], side: int, width: int = 48) -> Text:
    """Cards of a hand as chips, wrapped between chips at ``width`` cells."""
    out = Text(no_wrap=True)
    used = 0
    for i, c in enumerate(cards):
        piece = chip(c.face(side))
        if i and used + 1 + piece.cell_len > width:
            out.append("\n")
            used = 0
        elif i:
            out.append(" ")
            used += 1
        out.append_text(piece)
        used += piece.cell_len
    return out


def score_table(
    names: Sequence[str],
    final_hands: Sequence[Sequence[Any]] | None,
    side: int,
    hand_values: Sequence[int] | None,
    scores: Sequence[int],
    winner: int | None,
    points: int,
    chips_width: int = 48,
) -> Table:
    t = Table(show_edge=False, pad_edge=False, expand=False)
    t.add_column("Player", no_wrap=True)
    if final_hands is not None:
        t.add_column("Cards left", no_wrap=True)
    t.add_column("Value", justify="right")
    t.add_column("Round", justify="right")
    t.add_column("Total", justify="right", style="bold")
    for s, name in enumerate(names):
        row: list[Any] = [Text(name, "bold yellow" if s == winner else "")]
        if final_hands is not None:
            row.append(
                hand_chips(final_hands[s], side, chips_width)
                if final_hands[s]
                else Text("—", "dim")
            )
        row.append(str(hand_values[s]) if hand_values is not None else "")
        row.append(f"+{points}" if s == winner and points else "")
        row.append(str(scores[s]))
        t.add_row(*row)
    return t
