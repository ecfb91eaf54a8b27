"""Textual widgets of the game screen: the hand, the table and the players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from unokit.engine.cards import Card, Face
from unokit.engine.narration import seat_label
from unokit.engine.observation import Observation
from unokit.tui.cardart import (
    CARD_W,
    CHIP_W,
    State,
    back_chip,
    card_lines,
    chip,
    color_badge,
    fan_strip,
)

__all__ = ["HandView", "TableView", "PlayersView", "SeatInfo"]

_GAP = 1


class HandView(Widget, can_focus=True):
    """A hand of cards that wraps over rows. Playable cards are bright, the others
    dim (on your turn); the selected card is drawn inverted. Cards are 6×3 blocks
    while they fit in ``max_card_rows`` rows, else one-line chips."""

    DEFAULT_CSS = """
    HandView { height: auto; }
    """

    selected: reactive[int] = reactive(0)

    class Selected(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class PlayRequested(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.side = 0
        self.playable: set[int] = set()
        self.dim_unplayable = False
        self.hidden_text: str | None = None
        self.max_card_rows = 2
        self.big_cards = False

    def set_hand(
        self,
        cards: Sequence[Card],
        side: int,
        playable: set[int],
        dim_unplayable: bool,
        hidden_text: str | None = None,
    ) -> None:
        self.cards = list(cards)
        self.side = side
        self.playable = playable
        self.dim_unplayable = dim_unplayable
        self.hidden_text = hidden_text
        if self.cards:
            self.selected = min(max(self.selected, 0), len(self.cards) - 1)
        else:
            self.selected = 0
        self.refresh(layout=True)

    # ---------------------------------------------------------------- geometry

    def _mode(self, width: int) -> tuple[int, int, int]:
        """(card width, card height, cards per row) for a content ``width``:
        8×5 cards on tall screens, 6×3 cards, or one-line chips (height 1)."""
        n = max(1, len(self.cards))
        sizes = [(CARD_W, 3)]
        if self.big_cards:
            sizes.insert(0, (8, 5))
        for w, h in sizes:
            per = max(1, (width + _GAP) // (w + _GAP))
            if -(-n // per) <= self.max_card_rows:
                return w, h, per
        return CHIP_W, 1, max(1, (width + _GAP) // (CHIP_W + _GAP))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.hidden_text is not None or not self.cards:
            return 1
        _, h, per = self._mode(width)
        return -(-len(self.cards) // per) * h

    def render(self) -> RenderableType:
        if self.hidden_text is not None:
            return Text(self.hidden_text, Style(italic=True, dim=True))
        if not self.cards:
            return Text("(no cards)", Style(dim=True))
        width = self.content_region.width or self.size.width
        w, h, per = self._mode(width)
        out = Text(no_wrap=True, overflow="crop")
        focused = self.has_focus
        rows = [self.cards[i : i + per] for i in range(0, len(self.cards), per)]
        for r, row in enumerate(rows):
            if h > 1:
                arts = [
                    card_lines(self._face(c), self._state(r * per + k, focused), w, h)
                    for k, c in enumerate(row)
                ]
                for line in range(h):
                    for k, art in enumerate(arts):
                        if k:
                            out.append(" " * _GAP)
                        out.append_text(art[line])
                    if line < h - 1 or r < len(rows) - 1:
                        out.append("\n")
            else:
                for k, c in enumerate(row):
                    if k:
                        out.append(" " * _GAP)
                    piece = chip(self._face(c), self._state(r * per + k, focused))
                    piece.pad_right(CHIP_W - piece.cell_len)
                    out.append_text(piece)
                if r < len(rows) - 1:
                    out.append("\n")
        return out

    def _face(self, card: Card) -> Face:
        return card.face(self.side)

    def _state(self, index: int, focused: bool) -> State:
        if index == self.selected:
            return "selected"
        if self.dim_unplayable and index not in self.playable:
            return "dim"
        return "normal"

    def index_at(self, x: int, y: int) -> int | None:
        """The card at content offset (x, y), if any."""
        if self.hidden_text is not None or not self.cards:
            return None
        w, h, per = self._mode(self.content_region.width or self.size.width)
        cell = w + _GAP
        col, row = x // cell, y // h
        if x % cell >= cell - _GAP or col >= per:
            return None
        i = row * per + col
        return i if 0 <= i < len(self.cards) else None

    # ---------------------------------------------------------------- input

    def move(self, delta: int) -> None:
        if self.cards:
            self.selected = (self.selected + delta) % len(self.cards)
            self.post_message(self.Selected(self.selected))

    def move_row(self, delta: int) -> None:
        if not self.cards:
            return
        _, _, per = self._mode(self.content_region.width or self.size.width)
        target = self.selected + delta * per
        if 0 <= target < len(self.cards):
            self.selected = target
            self.post_message(self.Selected(self.selected))

    def select(self, index: int) -> None:
        if self.cards:
            self.selected = min(max(index, 0), len(self.cards) - 1)
            self.post_message(self.Selected(self.selected))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        i = self.index_at(offset.x, offset.y)
        if i is None:
            return
        self.focus()
        if i == self.selected or event.chain >= 2:
            self.selected = i
            self.post_message(self.PlayRequested(i))
        else:
            self.select(i)

    def watch_selected(self) -> None:
        self.refresh()


@dataclass(frozen=True)
class SeatInfo:
    names: Sequence[str]
    bots: Sequence[bool]
    viewer: int | None


class TableView(Widget):
    """The discard pile's top card, the draw pile and the state of play. It
    fills its box; cards grow with the space (3, 5 or 7 lines)."""

    DEFAULT_CSS = """
    TableView { height: 1fr; min-height: 3; }
    """

    class DrawRequested(Message):
        pass

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.obs: Observation | None = None
        self.info: SeatInfo | None = None
        self._deck_x = (0, 0)

    def show(self, obs: Observation, info: SeatInfo) -> None:
        self.obs = obs
        self.info = info
        self.refresh()

    def card_size(self) -> tuple[int, int]:
        h = self.size.height
        if h >= 7 and self.size.width >= 60:
            return 10, 7
        if h >= 5:
            return 8, 5
        return 8, 3

    def render(self) -> RenderableType:
        obs, info = self.obs, self.info
        if obs is None or info is None:
            return Text("")
        side = obs.side
        cw, ch = self.card_size()
        top = (
            card_lines(obs.top.face(side), "normal", cw, ch)
            if obs.top is not None
            else [Text(" " * cw) for _ in range(ch)]
        )
        # the last cards played show under the top card, fanned to the left
        room = max(0, (self.size.width - 2 * cw - 40) // 3)
        previous = list(obs.discard[-1 - min(4, room) : -1]) if room else []
        fan_w = 3 * len(previous)
        for card in reversed(previous):
            top = [strip + t for strip, t in zip(fan_strip(card.face(side), ch), top, strict=True)]
        cw_top = cw + fan_w
        deck = self._deck(obs, cw, ch)
        right = self._info_lines(obs, info)
        pad = max(0, (ch - len(right)) // 2)
        right = [Text("")] * pad + right + [Text("")] * (ch - pad - len(right))
        self._deck_x = (cw_top + 1, cw_top + 1 + cw)
        width = self.size.width
        rows = []
        for i in range(ch):
            row = Text.assemble(top[i], " ", deck[i], " ", right[i], no_wrap=True)
            row.truncate(width, overflow="ellipsis")
            rows.append(row)
        above = max(0, (self.size.height - ch) // 2)
        return Group(*([Text("")] * above), *rows)

    def _deck(self, obs: Observation, cw: int, ch: int) -> list[Text]:
        count = f"{obs.draw_size}"
        if obs.draw_top_back is not None:
            # Flip: the draw pile's top shows its other face to everyone
            lines = card_lines(obs.draw_top_back, "dim", cw, ch)
            lines[-1] = Text(count.center(cw), Style(bgcolor="#3a3a3a", color="white", bold=True))
            return lines
        st = Style(bgcolor="#1c1c1c", color="#ff5252", bold=True)
        inner = cw - 2
        lines = [Text("╭" + "─" * inner + "╮", st)]
        for i in range(1, ch - 1):
            lines.append(Text("│" + ("UNO" if i == ch // 2 else "").center(inner) + "│", st))
        lines.append(Text("╰" + count.center(inner, "─") + "╯", st))
        return lines

    def _info_lines(self, obs: Observation, info: SeatInfo) -> list[Text]:
        side = obs.side
        top = obs.top.face(side).long_name if obs.top is not None else "none"
        line1 = Text.assemble(("Top ", "dim"), (top, "bold"))
        line2 = Text.assemble(("Colour ", "dim"))
        line2.append_text(color_badge(obs.color))
        way = "↻ clockwise" if obs.direction == 1 else "↺ counter-clockwise"
        line3 = Text.assemble((way, "bold"))
        if obs.variant == "flip" and self.size.width >= 60:
            line3.append(
                "  " + ("dark side" if side else "light side"), "bold magenta" if side else "bold"
            )
        if obs.pending_draw:
            line3.append(f"  stacked: draw {obs.pending_draw}", "bold red")
        cur = obs.current
        if obs.phase in ("ROUND_OVER", "MATCH_OVER"):
            line4 = Text("Round over", "bold")
        else:
            name = seat_label(cur, info.names)
            who = "Your" if cur == info.viewer or name == "You" else name + "'s"
            line4 = Text.assemble((f"{who} turn", "bold yellow" if cur == info.viewer else "bold"))
        line4.append(f" · {obs.draw_size} to draw", "dim")
        if self.card_size()[1] <= 3:
            line1.append("  ")
            line1.append_text(line2)
            return [line1, line3, line4]
        return [line1, line2, line3, line4]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and self._deck_x[0] <= offset.x < self._deck_x[1]:
            self.post_message(self.DrawRequested())


class PlayersView(Widget):
    """One line per other player: name, hand size, score, Power Card (Flex),
    dealer, UNO state; in Flip the backs you can see, on a second line when
    there is room (``max_lines``), else after the name, cut with ``+k``."""

    DEFAULT_CSS = """
    PlayersView { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.obs: Observation | None = None
        self.info: SeatInfo | None = None
        self.max_lines = 99

    def show(self, obs: Observation, info: SeatInfo, max_lines: int = 99) -> None:
        self.obs = obs
        self.info = info
        self.max_lines = max_lines
        self.refresh(layout=True)

    def _seats(self) -> list[int]:
        obs, info = self.obs, self.info
        if obs is None or info is None:
            return []
        return [s for s in range(obs.players) if s != info.viewer]

    def _two_lines(self) -> bool:
        obs = self.obs
        if obs is None or not obs.backs:
            return False
        seats = self._seats()
        with_backs = sum(1 for s in seats if obs.backs[s])
        return len(seats) + with_backs <= self.max_lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        obs = self.obs
        if obs is None:
            return 1
        seats = self._seats()
        extra = sum(1 for s in seats if obs.backs and obs.backs[s]) if self._two_lines() else 0
        return max(1, len(seats) + extra)

    def render(self) -> RenderableType:
        obs, info = self.obs, self.info
        if obs is None or info is None:
            return Text("")
        width = self.content_region.width or self.size.width
        name_w = max(4, min(12, max(len(n) for n in info.names)))
        out = Text(no_wrap=True, overflow="ellipsis")
        seats = self._seats()
        two = self._two_lines()
        over = obs.phase in ("ROUND_OVER", "MATCH_OVER")
        for k, s in enumerate(seats):
            turn = s == obs.current and not over
            line = Text()
            line.append("▶ " if turn else "  ", "bold yellow")
            name = seat_label(s, info.names)[:name_w].ljust(name_w)
            line.append(name, "bold" if turn else "")
            line.append(" bot" if info.bots[s] else "    ", "dim")
            size = obs.hand_sizes[s]
            line.append(f" {size:>2} card{'s' if size != 1 else ' '}", "bold" if size <= 2 else "")
            line.append(f" {obs.scores[s]:>4} pts", "dim" if not obs.scores[s] else "")
            if obs.powers:
                line.append(
                    " ✓" if obs.powers[s] else " ✗", "bold green" if obs.powers[s] else "bold red"
                )
            line.append(" D" if s == obs.dealer else "  ", "dim")
            line.append(_team_mark(obs, s, info.viewer), "bold cyan")
            if obs.uno[s] == "safe":
                line.append(" UNO!", "bold yellow")
            elif obs.uno[s] == "vulnerable":
                line.append(" no UNO! (c)", "bold red reverse")
            faces = obs.backs[s] if obs.backs else ()
            if faces:
                if two:
                    out.append_text(line)
                    line = Text("\n    ")
                    used = 4
                else:
                    line.append("  ")
                    used = line.cell_len
                for i, f in enumerate(faces):
                    piece = back_chip(f)
                    if used + piece.cell_len + 4 > width and i < len(faces) - 1:
                        line.append(f"+{len(faces) - i}", "dim")
                        break
                    line.append_text(piece)
                    line.append(" ")
                    used += piece.cell_len + 1
            out.append_text(line)
            if k < len(seats) - 1:
                out.append("\n")
        return out


def _team_mark(obs: Observation, seat: int, viewer: int | None) -> str:
    """`` partner`` or `` T2`` beside a seat under ``teams=pairs`` ("" without teams)."""
    from unokit.engine.house_view import teams

    for i, team in enumerate(teams(obs)):
        if seat in team:
            return " partner" if viewer is not None and viewer in team else f" T{i + 1}"
    return ""
