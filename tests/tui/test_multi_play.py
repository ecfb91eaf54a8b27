"""The Textual game and the house rule multiPlay (RULES.md §6.9): Enter on a
card that can start a play of several cards of its number asks which cards
and in which order (the last sets the colour); a card that can only follow
says which card goes first; the plain mode already types ``play R5+B5``."""

from __future__ import annotations

from pilot import dialog_shown, human_ready, wait_until
from textual.pilot import Pilot

from unokit import Game
from unokit.tui.app import UnoApp
from unokit.tui.dialogs import ChoiceDialog
from unokit.tui.session import Session


def _fives() -> Session:
    game = Game.setup(
        "classic",
        3,
        {"multiPlay": "same_number"},
        hands=[["R5", "B5", "G5", "Y1"], ["Y2", "Y3"], ["B1", "B2", "B3"]],
        draw=["R1", "G2", "B7", "Y6", "R6", "G7"],
        discard=["R3"],
        current=0,
    )
    return Session("classic", 3, game=game, bots="heuristic")


async def _ready(pilot: Pilot[None], app: UnoApp) -> None:
    await wait_until(pilot, lambda: human_ready(app, 0), "the person's turn")


async def test_enter_offers_the_fives_together_and_their_order() -> None:
    session = _fives()
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert str(app._selected_card()) == "R5"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the multi-play dialog")
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        labels = {str(c.label): c.key for c in dialog.choices}
        assert list(labels)[0] == "Red 5"  # alone first
        assert "Red 5 + Blue 5 → Blue" in labels
        assert "Red 5 + Blue 5 + Green 5 → Green" in labels
        assert "Red 5 + Green 5 + Blue 5 → Blue" in labels
        await pilot.press(labels["Red 5 + Green 5 + Blue 5 → Blue"])
        await wait_until(pilot, lambda: bool(session.game.commands), "the play")
        assert session.game.commands[0] == "P0 PLAY R5+G5+B5"
        assert session.observe(0).color is not None
        assert session.observe(0).color.name == "B"


async def test_a_card_that_can_only_follow_says_which_goes_first() -> None:
    session = _fives()
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        before = session.game.state_tuple()
        index = app._hand_cards.index(next(c for c in app._hand_cards if str(c) == "B5"))
        await pilot.press("home", *["right"] * index)
        assert str(app._selected_card()) == "B5"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app._flow, "the refusal")
        status = str(app.query_one("#status").render())
        assert "Blue 5 cannot go first: play Red 5" in status, status
        assert session.game.state_tuple() == before


async def test_escape_in_the_multi_play_dialog_plays_nothing() -> None:
    session = _fives()
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        before = session.game.state_tuple()
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the multi-play dialog")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app._flow, "the cancel")
        assert session.game.state_tuple() == before
