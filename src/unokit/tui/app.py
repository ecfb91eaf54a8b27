"""``unokit play``: the Textual game.

The screen, top to bottom: a title line; the other players (hand sizes, scores,
UNO state, Flex Power Cards, the Flip backs you can see) beside the log; the
table (top card, draw pile, colour, direction, whose turn); your hand; a status
line saying what the game waits for; the keys.

People act only through ``game.observe(seat)`` of their own seat; bots through
:mod:`unokit.bots`. The app never shows a hand that is not the viewer's: in hot
seat, a cover screen hides the table while the terminal changes hands.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, RichLog, Static

from unokit.engine.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unokit.engine.cards import Card, Color
from unokit.engine.errors import UnoError
from unokit.engine.events import RoundEnded, UnoCalled
from unokit.engine.narration import (
    FLEX_SIDE_EFFECT,
    VARIANT_TITLE,
    Narrator,
    match_goal,
    previous_color,
    seat_label,
    status_line,
)
from unokit.engine.observation import Observation
from unokit.tui.dialogs import (
    Choice,
    ChoiceDialog,
    CoverScreen,
    HelpScreen,
    TableScreen,
    color_choices,
    score_table,
)
from unokit.tui.rules_text import keys_text, rules_short, rules_text
from unokit.tui.session import Session
from unokit.tui.widgets import HandView, PlayersView, SeatInfo, TableView

__all__ = ["UnoApp", "sort_key"]


def sort_key(card: Card, side: int) -> tuple[int, int, int, str]:
    """Display order of a hand: by colour, then numbers before actions, wilds last."""
    f = card.face(side)
    color = 99 if f.color is None else int(f.color)
    return (color, int(f.kind), -1 if f.number is None else f.number, str(card))


class UnoApp(App[None]):
    """The game against bots (and other people, in hot seat)."""

    TITLE = "unokit"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #players-box { height: auto; max-height: 75%; border: round $secondary; padding: 0 1; }
    #table-box { height: 1fr; min-height: 5; border: round $secondary; padding: 0 1; }
    #log {
        width: 38%; min-width: 26; border: round $secondary; padding: 0 0 0 1;
        scrollbar-size-vertical: 1; scrollbar-background: $surface;
    }
    #hand-box { height: auto; max-height: 60%; border: round $accent; padding: 0 1; }
    #hand-box:focus-within { border: round $accent; }
    #status { height: 1; padding: 0 1; background: $boost; }
    """

    BINDINGS = [
        Binding("enter,space", "play", "Play", key_display="⏎"),
        Binding("f", "play_flex", "Flex"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("x", "challenge", "Challenge", show=False),
        Binding("s", "scores", "Scores"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "quit_game", "Quit"),
        Binding("left,h", "select(-1)", "Previous card", show=False),
        Binding("right,l", "select(1)", "Next card", show=False),
        Binding("up,k", "select_row(-1)", "Row up", show=False),
        Binding("down,j", "select_row(1)", "Row down", show=False),
        Binding("home", "select_at(0)", "First card", show=False),
        Binding("end", "select_at(-1)", "Last card", show=False),
    ]

    def __init__(
        self, session: Session, *, delay: float = 0.8, threaded: bool | None = None
    ) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        # Bots think in a worker thread (search bots may take a while) so that
        # the screen and the keys stay alive meanwhile.
        self.threaded = True if threaded is None else threaded
        self.viewer: int | None = 0 if session.humans == 1 else None
        self.message: str | None = None
        self._bot_scheduled = False
        self._bot_busy = False
        self._flow = False  # a dialog sequence is running
        self._asked_version = -1
        self._round_shown = 0
        self._match_shown = False
        self._log_key: tuple[int | None, int] | None = None
        self._log_shown = 0
        self._narrator = Narrator(session.names, self.viewer)
        self._hand_cards: list[Card] = []
        self.log_lines: list[str] = []  # the log's sentences, as written

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="title", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with VerticalScroll(id="players-box"):
                    yield PlayersView(id="players")
                with Vertical(id="table-box"):
                    yield TableView(id="table")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        with VerticalScroll(id="hand-box"):
            yield HandView(id="hand")
        yield Static(id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#players-box").border_title = "Players"
        self.query_one("#table-box").border_title = "Table"
        log = self.query_one("#log", RichLog)
        log.border_title = "Log"
        log.can_focus = False
        self.query_one("#players-box").can_focus = False
        self.query_one("#hand-box").can_focus = False
        self.query_one(HandView).focus()
        self.sync()

    def on_resize(self) -> None:
        hand = self.query_one(HandView)
        tall = self.size.height >= 34
        hand.max_card_rows = 3 if tall else 2
        hand.big_cards = tall
        hand.refresh(layout=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play_flex":
            return self.session.variant == "flex"
        return True

    # ------------------------------------------------------------------ state

    def _obs(self) -> Observation:
        return self.session.observe(self.viewer)

    def _info(self) -> SeatInfo:
        return SeatInfo(self.session.names, self.session.bot_flags, self.viewer)

    def _my_decision(self, obs: Observation) -> bool:
        return (
            obs.seat is not None
            and obs.current == obs.seat
            and bool(obs.legal)
            and (obs.phase not in ("ROUND_OVER", "MATCH_OVER"))
        )

    def sync(self) -> None:
        """Redraw everything, then start whatever comes next (a bot move, a
        dialog, the round-end table, the hot-seat cover)."""
        if not self.is_running:
            return
        self._render_all()
        if self._flow or len(self.screen_stack) > 1:
            return
        s = self.session
        if s.match_over:
            if not self._match_shown:
                self._match_shown = True
                self._show_round_end(final=True)
            return
        if s.round_over:
            if self._round_shown != s.game.round_no:
                self._round_shown = s.game.round_no
                self._show_round_end(final=False)
            return
        if s.bot_to_act() is not None:
            self._schedule_bot()
            return
        seat = s.human_to_act()
        if seat is None:
            return
        if seat != self.viewer:
            self.push_screen(CoverScreen(s.names[seat]), lambda _: self._take_seat(seat))
            return
        obs = s.observe(seat)
        if s.version != self._asked_version and obs.phase in ("AWAIT_COLOR", "AWAIT_CHALLENGE"):
            self._asked_version = s.version
            self._answer_flow()

    def _take_seat(self, seat: int) -> None:
        self.viewer = seat
        self.message = None
        self.sync()

    # ------------------------------------------------------------------ drawing

    def _render_all(self) -> None:
        s = self.session
        obs = self._obs()
        info = self._info()
        opts = obs.options
        goal = match_goal(opts, short=True)
        me = "" if self.viewer is None else f" · {s.names[self.viewer]}"
        title = (
            f"{VARIANT_TITLE[obs.variant]} · round {obs.round} · {goal} · {rules_short(opts)}{me}"
        )
        if obs.variant == "flip":
            title += " · " + ("DARK side" if obs.side else "light side")
        self.query_one("#title", Static).update(Text(title, Style(bold=True)))
        self._render_hand(obs)
        hand = self.query_one(HandView)
        hand_h = hand.get_content_height(self.size, self.size, max(10, self.size.width - 4)) + 2
        room = self.size.height - 3 - hand_h - 5 - 2
        self.query_one(PlayersView).show(obs, info, max_lines=max(1, room))
        self.query_one(TableView).show(obs, info)
        self._render_log(obs)
        self._render_status(obs)

    def _render_hand(self, obs: Observation) -> None:
        s = self.session
        hand = self.query_one(HandView)
        box = self.query_one("#hand-box")
        if obs.seat is None:
            hand.set_hand([], 0, set(), False, hidden_text="Waiting for the first player…")
            box.border_title = "Hand"
            return
        hidden = None
        if s.humans > 1 and not (s.round_over or s.match_over):
            actor = s.human_to_act()
            if actor is not None and actor != obs.seat:
                hidden = f"Hand hidden: {s.names[actor]} is next."
            elif actor is None:
                hidden = "Hand hidden while the bots play."
        side = obs.side
        cards = sorted(obs.hand, key=lambda c: sort_key(c, side))
        keep = self._selected_card()
        self._hand_cards = cards
        playable_cards = {a.card for a in obs.legal if isinstance(a, Play)}
        playable = {i for i, c in enumerate(cards) if c in playable_cards}
        mine = self._my_decision(obs) and obs.phase in ("AWAIT_TURN", "AWAIT_DRAWN")
        if keep is not None and keep in cards:
            hand.selected = cards.index(keep)
        if mine and playable and hand.selected not in playable and keep not in playable_cards:
            hand.selected = min(playable)
        if obs.phase == "AWAIT_DRAWN" and mine and obs.drawn is not None and obs.drawn in cards:
            hand.selected = cards.index(obs.drawn)
        if obs.current != obs.seat and playable and hand.selected not in playable:
            hand.selected = min(playable)  # a jump-in card (house rule): ready for Enter
        hand.set_hand(cards, side, playable, dim_unplayable=mine, hidden_text=hidden)
        title = f"{'Your' if s.humans == 1 else s.names[obs.seat] + '’s'} hand · {len(cards)} card{'s' if len(cards) != 1 else ''}"
        if obs.powers:
            title += " · Power " + ("✓ green" if obs.powers[obs.seat] else "✗ red")
        if obs.uno[obs.seat] == "safe":
            title += " · UNO!"
        elif obs.uno[obs.seat] == "vulnerable":
            title += " · call UNO (u)!"
        box.border_title = title
        box.border_subtitle = f"{obs.scores[obs.seat]} pts"

    def _selected_card(self) -> Card | None:
        hand = self.query_one(HandView)
        if 0 <= hand.selected < len(self._hand_cards):
            return self._hand_cards[hand.selected]
        return None

    def _render_log(self, obs: Observation) -> None:
        log = self.query_one("#log", RichLog)
        key = (self.viewer, obs.round)
        if key != self._log_key:
            if self._log_key is None or self._log_key[0] != self.viewer:
                log.clear()
                self.log_lines.clear()
            self._log_key = key
            self._log_shown = 0
            self._narrator = Narrator(self.session.names, self.viewer)
        history = obs.history
        for e in history[self._log_shown :]:
            line = self._narrator.line(e)
            if not line:
                continue
            style = Style()
            if isinstance(e, UnoCalled):
                # every call is a loud moment: white on red in the log, and a toast
                style = Style(bold=True, color="white", bgcolor="red")
                self.notify(line, title="UNO!", timeout=3)
            elif line.startswith("Round "):
                style = Style(bold=True, color="cyan")
            elif line.startswith("You"):
                style = Style(bold=True)
            elif "UNO" in line or "wins" in line:
                style = Style(color="yellow")
            log.write(Text(line, style))
            self.log_lines.append(line)
        self._log_shown = len(history)

    def _render_status(self, obs: Observation) -> None:
        s = self.session
        text = Text()
        if self.message:
            text.append(self.message, Style(color="yellow", bold=True))
        elif obs.seat is None:
            text.append(status_line(obs, s.names))
        else:
            line = status_line(obs, s.names)
            text.append(line, Style(bold=self._my_decision(obs)))
            card = self._selected_card()
            jump = [a for a in obs.legal if isinstance(a, Play)] if obs.current != obs.seat else []
            if jump:
                text.append(
                    f"  Jump in: ⏎ plays {jump[0].card.face(obs.side).long_name}!",
                    Style(bold=True, color="yellow"),
                )
            if self._my_decision(obs) and obs.phase in ("AWAIT_TURN", "AWAIT_DRAWN") and card:
                name = card.face(obs.side).long_name
                ok = any(isinstance(a, Play) and a.card == card for a in obs.legal)
                text.append(f"  {name}: ", Style(dim=True))
                text.append("⏎ to play" if ok else "not playable", Style(dim=not ok))
            if (
                self._my_decision(obs)
                and len(obs.hand) == 2
                and any(isinstance(a, CallUno) for a in obs.legal)
            ):
                text.append("  (u: UNO before you play)", Style(dim=True))
            if s.round_over or s.match_over:
                text.append("  ⏎ scores", Style(dim=True))
        self.query_one("#status", Static).update(text)

    def tell(self, message: str) -> None:
        """Show a message in the status line until the next change."""
        self.message = message
        self._render_status(self._obs())
        self.message = None

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self) -> None:
        if self._bot_scheduled or self._bot_busy:
            return
        self._bot_scheduled = True
        if self.delay > 0:
            self.set_timer(self.delay, self._bot_move, name="bot-move")
        else:
            self.call_later(self._bot_move)

    async def _bot_move(self) -> None:
        self._bot_scheduled = False
        s = self.session
        seat = s.bot_to_act()
        if seat is None or self._flow or len(self.screen_stack) > 1:
            return
        version = s.version
        self._bot_busy = True
        try:
            if self.threaded:
                action = await asyncio.to_thread(s.bot_decide, seat)
            else:
                action = s.bot_decide(seat)
        finally:
            self._bot_busy = False
        if s.version == version and s.bot_to_act() == seat:
            try:
                s.bot_answer(seat, action)
            except UnoError as e:  # a bot bug must not stop the game
                self.log_error(f"{s.names[seat]}'s bot chose {action}: {e}")
                legal = s.observe(seat).legal
                fallback = next((a for a in legal if not isinstance(a, CallUno | Catch)), None)
                if fallback is not None:
                    s.apply(fallback)
        self.sync()

    def log_error(self, text: str) -> None:
        self.query_one("#log", RichLog).write(Text(text, Style(color="red")))

    # ------------------------------------------------------------------ human actions

    def _apply(self, action: Action) -> bool:
        try:
            self.session.apply(action)
        except UnoError as e:
            self.tell(self._you(str(e)))
            return False
        self.message = None
        if self.session.save_error:
            self.log_error(self.session.save_error)
        if isinstance(action, Play) and self.viewer is not None:
            if self.session.game.uno_state(self.viewer).name == "VULNERABLE":
                self.message = "One card left and no UNO called: press u before you are caught!"
        self.sync()
        return True

    def _you(self, text: str) -> str:
        v = self.viewer
        if v is None:
            return text
        return text.replace(f"P{v}'s", "your").replace(f"P{v} ", "you ").replace(f"P{v}", "you")

    def _legal(self) -> tuple[Observation | None, tuple[Action, ...]]:
        if self.viewer is None:
            return None, ()
        obs = self.session.observe(self.viewer)
        return obs, obs.legal

    def _busy(self) -> bool:
        return self._flow or len(self.screen_stack) > 1

    def action_select(self, delta: int) -> None:
        self.query_one(HandView).move(delta)

    def action_select_row(self, delta: int) -> None:
        self.query_one(HandView).move_row(delta)

    def action_select_at(self, index: int) -> None:
        hand = self.query_one(HandView)
        hand.select(index if index >= 0 else len(self._hand_cards) - 1)

    def on_hand_view_selected(self, _: HandView.Selected) -> None:
        self._render_status(self._obs())

    def on_hand_view_play_requested(self, event: HandView.PlayRequested) -> None:
        self.query_one(HandView).selected = event.index
        self.action_play()

    def on_table_view_draw_requested(self, _: TableView.DrawRequested) -> None:
        self.action_draw()

    def action_play(self) -> None:
        if self._busy():
            return
        s = self.session
        if s.round_over or s.match_over:
            self._show_round_end(final=s.match_over)
            return
        obs, legal = self._legal()
        if obs is None:
            return
        if obs.current == obs.seat and obs.phase in ("AWAIT_COLOR", "AWAIT_CHALLENGE"):
            self._answer_flow()
            return
        self._play_flow(self.query_one(HandView).selected, False)

    def action_play_flex(self) -> None:
        if self._busy():
            return
        if self.session.variant != "flex":
            self.tell("Flex sides exist only in UNO Flex.")
            return
        self._play_flow(self.query_one(HandView).selected, True)

    def action_draw(self) -> None:
        if self._busy():
            return
        obs, legal = self._legal()
        if obs is None:
            return
        if obs.phase == "AWAIT_CHALLENGE" and obs.current == obs.seat:
            self._apply(Accept(obs.current))
            return
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        if draw is None:
            self.tell(self._why_not("draw", obs))
            return
        self._apply(draw)

    def action_pass_turn(self) -> None:
        if self._busy():
            return
        obs, legal = self._legal()
        if obs is None:
            return
        a = next((a for a in legal if isinstance(a, Pass)), None)
        if a is None:
            self.tell("You can pass only right after drawing a card you could play.")
            return
        self._apply(a)

    def action_uno(self) -> None:
        if self._busy():
            return
        obs, legal = self._legal()
        if obs is None:
            return
        a = next((a for a in legal if isinstance(a, CallUno)), None)
        if a is None:
            if obs.seat is not None and obs.uno[obs.seat] == "safe":
                self.tell("You already called UNO.")
            else:
                self.tell("Call UNO with two cards on your turn (before playing) or with one card.")
            return
        if self._apply(a) and obs.seat is not None and len(obs.hand) == 2:
            self.message = "UNO called: it counts for the card you play now."
            self._render_status(self._obs())
            self.message = None

    def action_catch(self) -> None:
        if self._busy():
            return
        obs, legal = self._legal()
        if obs is None:
            return
        a = next((a for a in legal if isinstance(a, Catch)), None)
        if a is None:
            self.tell(
                "Nobody can be caught: a catch needs a player with one card who did not call UNO."
            )
            return
        self._apply(a)

    def action_challenge(self) -> None:
        if self._busy():
            return
        obs, legal = self._legal()
        if obs is None:
            return
        a = next((a for a in legal if isinstance(a, Challenge)), None)
        if a is None:
            self.tell("There is nothing to challenge now.")
            return
        self._apply(a)

    def action_help(self) -> None:
        if len(self.screen_stack) > 1:
            return
        obs = self._obs()
        text = keys_text() + "\n" + rules_text(obs.variant, obs.options)
        self.push_screen(HelpScreen(text), lambda _: self.sync())

    def action_scores(self) -> None:
        if len(self.screen_stack) > 1:
            return
        self.push_screen(self._scoreboard(), lambda _: self.sync())

    def action_quit_game(self) -> None:
        if len(self.screen_stack) > 1:
            return
        s = self.session
        if s.match_over:
            self.exit()
            return
        saved = f" The record is saved in {s.save_path}." if s.save_path else ""
        dialog: ChoiceDialog[bool] = ChoiceDialog(
            "Quit?",
            f"Leave the match now?{saved}",
            [Choice("Quit (y)", True, "y"), Choice("Keep playing (n)", False, "n")],
        )
        self.push_screen(dialog, self._quit_answer)

    def _quit_answer(self, answer: bool | None) -> None:
        if answer:
            self.exit()
        else:
            self.sync()

    def _why_not(self, what: str, obs: Observation) -> str:
        if obs.phase in ("ROUND_OVER", "MATCH_OVER"):
            return "The round is over: ⏎ for the scores."
        if obs.current != obs.seat:
            return f"It is {seat_label(obs.current, self.session.names)}'s turn."
        if obs.phase == "AWAIT_DRAWN":
            return "You already drew: play that card (⏎) or keep it (p)."
        if obs.phase == "AWAIT_COLOR":
            return "Choose a colour first (⏎)."
        return f"You cannot {what} now."

    # ------------------------------------------------------------------ dialogs

    @work(exclusive=True, group="flow")
    async def _play_flow(self, index: int, flex_only: bool) -> None:
        self._flow = True
        action: Action | None = None
        try:
            action = await self._choose_play(index, flex_only)
        finally:
            self._flow = False
        if action is not None:
            self._apply(action)
        else:
            self.sync()

    async def _choose_play(self, index: int, flex_only: bool) -> Play | None:
        obs, legal = self._legal()
        if obs is None or not 0 <= index < len(self._hand_cards):
            return None
        side = obs.side
        card = self._hand_cards[index]
        name = card.face(side).long_name
        plays = [a for a in legal if isinstance(a, Play) and a.card == card]
        if not plays:
            self.message = self._why_card(card, obs)
            return None
        if flex_only:
            plays = [a for a in plays if a.flex]
            if not plays:
                self.message = (
                    f"{name} has no flex side."
                    if not card.has_flex_side
                    else f"{name} cannot be played on its flex side now."
                    if obs.powers and obs.powers[obs.seat or 0]
                    else "Your Power Card is red: no flex plays until it turns green."
                )
                return None
        if any(a.more for a in plays):
            # multiPlay: this card alone, or with other cards of its number; the
            # last card sets the colour, so each set is offered ending on each
            # of its colours (the engine takes the cards after the first in
            # any order)
            orders = _multi_orders(plays, side)
            label = card.face(side).long_name
            multi_dialog: ChoiceDialog[tuple[Card, ...]] = ChoiceDialog(
                f"Play {name}",
                f"{name} alone, or with other {label.split()[-1]}s in one play; "
                "the last card sets the colour.",
                [Choice(_order_label(o, side), o, _KEYS[i]) for i, o in enumerate(orders)],
                vertical=True,
            )
            chosen = await self.push_screen_wait(multi_dialog)
            if chosen is None:
                return None
            plays = [
                dataclasses.replace(a, more=chosen[1:])
                for a in plays
                if sorted(map(str, a.more)) == sorted(map(str, chosen[1:]))
            ]
        regular = [a for a in plays if not a.flex]
        flexed = [a for a in plays if a.flex]
        if regular and flexed:
            kind = card.face(side).kind
            effect = FLEX_SIDE_EFFECT.get(kind, "flex side")
            if card.light.flex_color is not None:
                effect = f"matches {card.light.flex_color.long_name}"
            side_dialog: ChoiceDialog[bool] = ChoiceDialog(
                f"Play {name}",
                "Which side? The flex side turns your Power Card red.",
                [
                    Choice("Regular side (r)", False, "r"),
                    Choice(f"Flex side: {effect} (f)", True, "f"),
                ],
                vertical=True,
            )
            use_flex = await self.push_screen_wait(side_dialog)
            if use_flex is None:
                return None
            plays = flexed if use_flex else regular
        colors = list(dict.fromkeys(a.color for a in plays if a.color is not None))
        if len(colors) > 1:
            color_dialog: ChoiceDialog[Color] = ChoiceDialog(
                f"{name}: choose a colour", "", color_choices(colors)
            )
            color = await self.push_screen_wait(color_dialog)
            if color is None:
                return None
            plays = [a for a in plays if a.color == color]
        targets = list(dict.fromkeys(a.target for a in plays if a.target is not None))
        if len(targets) > 1:
            target = await self._ask_seat(f"{name}: who draws?", targets, obs)
            if target is None:
                return None
            plays = [a for a in plays if a.target == target]
        swaps = list(dict.fromkeys(a.swap for a in plays if a.swap is not None))
        if len(swaps) > 1:
            swap = await self._ask_seat(f"{name}: swap hands with whom?", swaps, obs)
            if swap is None:
                return None
            plays = [a for a in plays if a.swap == swap]
        return plays[0]

    async def _ask_seat(self, title: str, seats: list[int], obs: Observation) -> int | None:
        names = self.session.names
        choices = [
            Choice(
                f"{names[t]} · {obs.hand_sizes[t]} card{'s' if obs.hand_sizes[t] != 1 else ''}",
                t,
                str(i + 1),
            )
            for i, t in enumerate(seats)
        ]
        dialog: ChoiceDialog[int] = ChoiceDialog(title, "", choices, vertical=True)
        return await self.push_screen_wait(dialog)

    def _why_card(self, card: Card, obs: Observation) -> str:
        name = card.face(obs.side).long_name
        firsts = list(
            dict.fromkeys(a.card for a in obs.legal if isinstance(a, Play) and card in a.more)
        )
        if firsts:
            first = " or ".join(c.face(obs.side).long_name for c in firsts)
            return f"{name} cannot go first: play {first} (⏎) and add {name} with it."
        if obs.current != obs.seat:
            return f"It is {seat_label(obs.current, self.session.names)}'s turn."
        if obs.phase == "AWAIT_DRAWN":
            return f"You just drew: only that card may be played, or keep it (p). {name} stays."
        try:
            assert obs.seat is not None
            self.session.game.copy().apply(Play(obs.seat, card))
        except UnoError as e:
            return self._you(str(e))
        return f"{name} cannot be played now."

    @work(exclusive=True, group="flow")
    async def _answer_flow(self) -> None:
        """Colour to declare (first card, Flip exposing a wild) or a challenge."""
        self._flow = True
        action: Action | None = None
        try:
            obs, legal = self._legal()
            if obs is None:
                return
            s = self.session
            if obs.phase == "AWAIT_COLOR":
                colors = [a.color for a in legal if isinstance(a, ChooseColor)]
                why = (
                    "The first card is a wild: choose the colour to play."
                    if obs.color_reason == "first_card"
                    else "The Flip turned up a wild: choose the colour."
                )
                color_dialog: ChoiceDialog[Color] = ChoiceDialog(
                    "Choose a colour", why, color_choices(colors)
                )
                color = await self.push_screen_wait(color_dialog)
                if color is not None and obs.seat is not None:
                    action = ChooseColor(obs.seat, color)
            elif obs.phase == "AWAIT_CHALLENGE" and obs.seat is not None:
                off = obs.challenge_offender
                who = seat_label(off, s.names) if off is not None else "The previous player"
                top = obs.top.face(obs.side).long_name if obs.top else "a wild draw"
                base, fail = _penalties(top)
                prev = previous_color(obs)
                colour = f"{prev.long_name} card" if prev else "card of the colour in play"
                message = (
                    f"{who} played {top} on you. It is legal only if {who} held no {colour}.\n"
                    f"Accept: you draw {base}.\n"
                    f"Challenge: if {who} held a {colour}, {who} draws {base} instead; "
                    f"if not, you draw {fail}."
                )
                dialog: ChoiceDialog[str] = ChoiceDialog(
                    "Challenge?",
                    message,
                    [
                        Choice("Challenge (x)", "challenge", "x"),
                        Choice("Accept (a)", "accept", "a"),
                    ],
                )
                answer = await self.push_screen_wait(dialog)
                if answer == "challenge":
                    action = Challenge(obs.seat)
                elif answer == "accept":
                    action = Accept(obs.seat)
        finally:
            self._flow = False
        if action is not None:
            self._apply(action)
        else:
            self.message = "⏎ opens the choice again."
            self.sync()

    def _show_round_end(self, final: bool) -> None:
        s = self.session
        obs = self._obs()
        ended = next((e for e in reversed(obs.history) if isinstance(e, RoundEnded)), None)
        winner = ended.winner if ended else None
        points = ended.points if ended else 0
        if winner is None:
            head = Text("The round is blocked: nobody scores.", Style(bold=True))
        else:
            head = Text(
                f"{s.names[winner]} {'win' if winner == self.viewer and s.humans == 1 else 'wins'} "
                f"the round and score{'' if winner == self.viewer and s.humans == 1 else 's'} {points} points.",
                Style(bold=True, color="yellow"),
            )
        table = score_table(
            s.names,
            obs.final_hands,
            obs.side,
            ended.hand_values if ended else None,
            obs.scores,
            winner,
            points,
            chips_width=max(16, min(60, self.size.width - 42)),
        )
        parts: list[Any] = [head, Text(""), table]
        if final:
            ws = " and ".join(s.names[w] for w in s.game.match_winners)
            parts += [
                Text(""),
                Text(
                    f"{ws} win{'s' if len(s.game.match_winners) == 1 else ''} the match!",
                    Style(bold=True, color="green"),
                ),
            ]
            screen = TableScreen("Match over", Group(*parts), "⏎ or q: leave", button="Leave")
            self.push_screen(screen, lambda _: self.exit())
        else:
            screen = TableScreen(
                f"Round {obs.round} over",
                Group(*parts),
                "⏎ next round · Esc look at the table",
                button="Next round",
            )
            self.push_screen(screen, self._round_answer)

    def _round_answer(self, go: bool | None) -> None:
        if go and self.session.round_over:
            self.session.next_round()
            self._asked_version = -1
        self.sync()

    def _scoreboard(self) -> TableScreen:
        from rich.table import Table

        s = self.session
        t = Table(show_edge=False)
        t.add_column("Round")
        for n in s.names:
            t.add_column(n, justify="right")
        for rnd, winner, points, _ in s.round_history:
            cells = ["" for _ in s.names]
            if winner is not None:
                cells[winner] = f"+{points}"
            t.add_row(str(rnd), *cells)
        if not s.round_history:
            t.add_row("—", *["" for _ in s.names])
        t.add_row("Total", *[str(x) for x in s.game.scores], style="bold")
        target = s.game.options.targetScore
        return TableScreen(f"Scores · target {target}", t, "Esc closes")


#: keys of the answers of the multi-play dialog
_KEYS = "123456789abcdeghijkmnostvwz"


def _multi_orders(plays: list[Play], side: int) -> list[tuple[Card, ...]]:
    """The card orders a multi-play dialog offers for ``plays`` (one first
    card): the card alone if it is legal alone, then each set of cards of the
    legal list once per colour it can end on (the last card sets the colour),
    at most as many as there are keys."""
    out: list[tuple[Card, ...]] = []
    for a in plays:
        if not a.more:
            if (a.card,) not in out:
                out.append((a.card,))
            continue
        ends: set[object] = set()
        for last in reversed(a.more):  # the legal order's own ending first
            color = last.face(side).color
            if color in ends:
                continue
            ends.add(color)
            rest = list(a.more)
            rest.remove(last)
            order = (a.card, *rest, last)
            if order not in out:
                out.append(order)
    return out[: len(_KEYS)]


def _order_label(order: tuple[Card, ...], side: int) -> str:
    """``Red 5 + Blue 5 → Blue``: the cards in play order, and the colour in force after."""
    text = " + ".join(c.face(side).long_name for c in order)
    color = order[-1].face(side).color
    return text + (f" → {color.long_name}" if len(order) > 1 and color is not None else "")


def _penalties(top: str) -> tuple[str, str]:
    """(accept, failed challenge) penalties of a restricted wild draw, in words."""
    if "Draw Color" in top:
        return "until you draw that colour", "until that colour, plus 2"
    if "Draw Two" in top:
        return "2", "4"
    return "4", "6"
