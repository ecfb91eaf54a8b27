"""Drive the Textual game with key presses, as a person would."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

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
from unokit.engine.cards import Color
from unokit.tui.app import UnoApp
from unokit.tui.dialogs import ChoiceDialog, TableScreen

MAX_PAUSES = 400


async def wait_until(pilot: Pilot[None], cond: Callable[[], bool], what: str) -> None:
    """Let the app process messages until ``cond`` holds (bounded, no sleeping)."""
    for _ in range(MAX_PAUSES):
        if cond():
            return
        await pilot.pause()
    raise AssertionError(f"timed out waiting for {what}")


def human_ready(app: UnoApp, seat: int) -> bool:
    """The app waits for ``seat``: its turn with no dialog, or its answer in a dialog."""
    s = app.session
    if s.human_to_act() != seat or app.viewer != seat or app._bot_busy:
        return False
    phase = s.observe(seat).phase
    if phase in ("AWAIT_COLOR", "AWAIT_CHALLENGE"):
        return dialog_shown(app)
    return len(app.screen_stack) == 1 and not app._flow


def dialog_shown(app: UnoApp) -> bool:
    """A choice dialog is on screen with its buttons."""
    return isinstance(app.screen, ChoiceDialog) and bool(app.screen.query("#choice-0"))


def round_end_shown(app: UnoApp) -> bool:
    return isinstance(app.screen, TableScreen) and bool(app.screen.query("#go"))


def dialog_key(dialog: ChoiceDialog[object], action: Action) -> str:
    """The key that answers ``dialog`` the way ``action`` needs."""
    values = [c.value for c in dialog.choices]
    if isinstance(action, Challenge | Accept):
        want: object = "challenge" if isinstance(action, Challenge) else "accept"
    elif isinstance(action, ChooseColor):
        want = action.color
    elif isinstance(action, Play):
        if all(isinstance(v, tuple) for v in values):  # multiPlay: which cards, in which order
            want = (action.card, *action.more)
        elif all(isinstance(v, bool) for v in values):
            want = action.flex
        elif all(isinstance(v, Color) for v in values):
            want = action.color
        elif "swap" in dialog.title_text:
            want = action.swap
        else:
            want = action.target
    else:  # pragma: no cover - the tests ask only the above
        raise AssertionError(f"no dialog expected for {action}")
    choice = next(c for c in dialog.choices if c.value == want)
    return choice.key


async def perform(pilot: Pilot[None], app: UnoApp, action: Action) -> None:
    """Do ``action`` with keys; check that exactly that command was accepted."""
    s = app.session
    before = len(s.game.commands or [])
    if isinstance(action, CallUno):
        await pilot.press("u")
    elif isinstance(action, Draw):
        await pilot.press("d")
    elif isinstance(action, Pass):
        await pilot.press("p")
    elif isinstance(action, Catch):
        await pilot.press("c")
    elif isinstance(action, ChooseColor | Challenge | Accept):
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press(dialog_key(app.screen, action))
    elif isinstance(action, Play):
        index = app._hand_cards.index(action.card)
        await pilot.press("home", *["right"] * index)
        assert app._selected_card() == action.card
        await pilot.press("f" if action.flex else "enter")
        for _ in range(4):
            await wait_until(
                pilot,
                lambda: len(s.game.commands or []) > before or dialog_shown(app),
                f"{action} to be played or to ask something",
            )
            if len(s.game.commands or []) > before:
                break
            assert isinstance(app.screen, ChoiceDialog)
            await pilot.press(dialog_key(app.screen, action))
    await wait_until(pilot, lambda: len(s.game.commands or []) > before, f"{action} to be accepted")
    assert (s.game.commands or [])[before] == str(action)
