"""``unokit replay RECORD``: step through a game record.

A record holds the start of a match (seed or position) and every command, so
the replay knows every hand at every step and shows them all. Step 0 is the
deal; step ``i`` is the game after command ``i``.

>>> from unokit import Game
>>> from unokit.records.record import loads, dumps
>>> g = Game.new("classic", 2, seed=4)
>>> for _ in range(3):
...     _ = g.apply(g.legal_actions()[0])
>>> rp = Replay(loads(dumps(g, ["Ann", "Ben"])))
>>> rp.last, rp.command(1)
(3, 'P1 PLAY R7')
>>> rp.step_lines(1)[0]
'Ben played Red 7.'
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from unokit.engine.events import RoundEnded
from unokit.engine.narration import VARIANT_TITLE
from unokit.tui.cardart import chip
from unokit.tui.replay_plain import REPLAY_LIMIT, Replay, new_events, run_plain_replay
from unokit.tui.widgets import SeatInfo, TableView

__all__ = ["Replay", "ReplayApp", "run_plain_replay", "REPLAY_LIMIT", "new_events"]


class JumpDialog(ModalScreen[int | None]):
    DEFAULT_CSS = """
    JumpDialog { align: center middle; }
    JumpDialog > Vertical { width: 44; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last_step = last

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Jump to step (0-{self.last_step}):", markup=False)
            yield Input(placeholder="step number", type="integer", id="step")
            yield Static("Enter jumps, Esc cancels", classes="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            value = int(event.value)
        except ValueError:
            self.query_one(".hint", Static).update("Type a whole number.")
            return
        if not 0 <= value <= self.last_step:
            self.query_one(".hint", Static).update(f"Steps are 0 to {self.last_step}.")
            return
        self.dismiss(value)

    def key_escape(self) -> None:
        self.dismiss(None)


class ReplayApp(App[None]):
    """Replay viewer: every hand, the table, what happened, and the command list."""

    TITLE = "unokit replay"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #hands { height: auto; max-height: 60%; border: round $secondary; padding: 0 1; }
    #table-box { height: 1fr; min-height: 5; border: round $secondary; padding: 0 1; }
    #happened { height: auto; max-height: 9; border: round $secondary; padding: 0 1; }
    #moves {
        width: 34%; min-width: 24; border: round $secondary;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    #buttons { height: 1; }
    #buttons Button { margin: 0 1 0 0; min-width: 8; }
    """
    BINDINGS = [
        Binding("right,n,space", "step(1)", "Next"),
        Binding("left,b", "step(-1)", "Back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "goto(0)", "Start", show=False),
        Binding("end", "goto(-1)", "End", show=False),
        Binding("r", "next_round", "Next round"),
        Binding("g", "jump", "Jump to"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, replay: Replay, start: int = 0) -> None:
        super().__init__()
        self.rp = replay
        self.step = start

    def compose(self) -> ComposeResult:
        yield Static(id="title", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with VerticalScroll(id="hands"):
                    yield Static(id="hands-body")
                with Vertical(id="table-box"):
                    yield TableView(id="table")
                yield Static(id="happened")
                with Horizontal(id="buttons"):
                    yield Button("◀◀ start", id="first", compact=True)
                    yield Button("◀ back", id="back", compact=True)
                    yield Button("next ▶", id="next", compact=True)
                    yield Button("end ▶▶", id="last", compact=True)
            yield OptionList(
                *[
                    Option(
                        Text(f"{i:>4} {self.rp.command(i)}", no_wrap=True, overflow="ellipsis"),
                        id=str(i),
                    )
                    for i in range(self.rp.last + 1)
                ],
                id="moves",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hands").border_title = "Hands"
        self.query_one("#table-box").border_title = "Table"
        self.query_one("#happened").border_title = "What happened"
        self.query_one("#moves").border_title = "Commands"
        for b in self.query(Button):
            b.can_focus = False
        self.show_step()

    def show_step(self) -> None:
        rp = self.rp
        g = rp.game(self.step)
        side = g.side
        obs = g.observe(None)
        title = (
            f"Replay · {VARIANT_TITLE.get(rp.variant, rp.variant)} · round {g.round_no} · "
            f"step {self.step}/{rp.last}: {rp.command(self.step)}"
        )
        self.query_one("#title", Static).update(Text(title, Style(bold=True)))
        body = Text()
        for s in range(g.n):
            turn = g.to_act == s
            body.append("▶ " if turn else "  ", "bold yellow")
            body.append(f"{rp.names[s]}", "bold" if turn else "")
            size = len(g.hands[s])
            body.append(f"  {size} card{'' if size == 1 else 's'} · {g.scores[s]} pts", "dim")
            if g.powers:
                body.append(" ✓" if g.powers[s] else " ✗", "green" if g.powers[s] else "red")
            u = g.uno_state(s).name
            if u == "SAFE":
                body.append(" UNO!", "bold yellow")
            elif u == "VULNERABLE":
                body.append(" no UNO!", "bold red")
            body.append("\n    ")
            for k, c in enumerate(g.hand(s)):
                if k:
                    body.append(" ")
                body.append_text(chip(c.face(side)))
            if s < g.n - 1:
                body.append("\n")
        self.query_one("#hands-body", Static).update(body)
        self.query_one(TableView).show(obs, SeatInfo(rp.names, [False] * g.n, None))
        # this step's events in bold, after the two steps before it
        happened = Text()
        for k in range(max(0, self.step - 2), self.step + 1):
            for line in rp.step_lines(k):
                if happened:
                    happened.append("\n")
                happened.append(line, Style(bold=True) if k == self.step else Style(dim=True))
        if self.step == rp.last and rp.error:
            happened.append(f"\nThe record stops here: {rp.error}", Style(color="red", bold=True))
        ended = [e for e in rp.events[self.step] if isinstance(e, RoundEnded)]
        if ended:
            scores = ", ".join(f"{rp.names[s]} {v}" for s, v in enumerate(ended[-1].scores))
            happened.append(f"\nScores: {scores}", Style(bold=True))
        self.query_one("#happened", Static).update(happened or Text("—"))
        moves = self.query_one(OptionList)
        moves.highlighted = self.step

    def action_step(self, delta: int) -> None:
        self.goto(self.step + delta)

    def action_goto(self, step: int) -> None:
        self.goto(self.rp.last if step < 0 else step)

    def goto(self, step: int) -> None:
        self.step = min(max(step, 0), self.rp.last)
        self.show_step()

    def action_next_round(self) -> None:
        later = [s for s in self.rp.round_starts() if s > self.step]
        self.goto(later[0] if later else self.rp.last)

    def action_jump(self) -> None:
        self.push_screen(
            JumpDialog(self.rp.last), lambda v: self.goto(v) if v is not None else None
        )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.goto(int(event.option.id))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        target = {"first": 0, "back": self.step - 1, "next": self.step + 1, "last": self.rp.last}
        if event.button.id in target:
            self.goto(target[event.button.id])
