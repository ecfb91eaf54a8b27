"""Whole rounds of each variant played through key presses in the Textual app."""

from __future__ import annotations

import io

import pytest
from pilot import human_ready, perform, round_end_shown, wait_until
from policy import choose, round_features
from rich.console import Console

from unokit.tui.app import UnoApp
from unokit.tui.dialogs import TableScreen
from unokit.tui.session import Session

# seeds where the test player's round holds the events each test needs
ROUNDS = [
    ("classic", 3, "random", 9, {"uno", "challenge", "wild"}),
    ("flip", 3, "heuristic", 12, {"flip", "uno"}),
    ("flex", 3, "heuristic", 0, {"flex", "uno"}),
]


@pytest.mark.parametrize(("variant", "players", "bots", "seed", "wanted"), ROUNDS)
async def test_whole_round_by_keys(
    variant: str, players: int, bots: str, seed: int, wanted: set[str]
) -> None:
    session = Session(variant, players, seed=seed, bots=bots)
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):
            await wait_until(
                pilot,
                lambda: human_ready(app, 0) or round_end_shown(app),
                "the person's turn or the round end",
            )
            if round_end_shown(app):
                break
            # the screen shows exactly the person's hand
            obs = session.observe(0)
            assert sorted(map(str, app._hand_cards)) == sorted(map(str, obs.hand))
            await perform(pilot, app, choose(obs))
        else:
            raise AssertionError("the round did not end")
        assert session.round_over or session.match_over
        assert wanted <= round_features(session)
        log = "\n".join(app.log_lines)
        assert "You called UNO!" in log
        assert "wins the round" in log or "win the round" in log
        if "challenge" in wanted:
            assert "You challenged" in log
        if "flip" in wanted:
            assert "Everything flips to the dark side" in log
        if "flex" in wanted:
            assert "on its flex side" in log
        if variant == "classic":
            # Esc closes the scoring table to look at the table; s shows the scores;
            # Enter opens the scoring table again
            await pilot.press("escape")
            await wait_until(pilot, lambda: len(app.screen_stack) == 1, "the table")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen), "scores")
            winner = session.game.winner
            console = Console(width=120, record=True, file=io.StringIO())
            console.print(app.screen.body)
            board = console.export_text()
            assert f"+{session.game.round_points}" in board and session.names[winner] in board
            await pilot.press("escape")
            await wait_until(pilot, lambda: len(app.screen_stack) == 1, "the table")
            assert session.game.round_no == 1
            await pilot.press("enter")
            await wait_until(pilot, lambda: round_end_shown(app), "the scoring table")
        # Enter on the scoring table deals the next round
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.game.round_no == 2, "the next round")
        assert len(app.screen_stack) == 1


async def test_match_end_table_then_leave() -> None:
    session = Session("classic", 2, seed=9, bots="random", options={"matchMode": "single_round"})
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):
            await wait_until(
                pilot, lambda: human_ready(app, 0) or round_end_shown(app), "turn or end"
            )
            if round_end_shown(app):
                break
            await perform(pilot, app, choose(session.observe(0)))
        assert session.match_over
        body = str(app.screen.query_one("Static.title").render())
        assert body == "Match over"
        winners = session.game.match_winners
        assert any(f"{session.names[winners[0]]} win" in line for line in app.log_lines)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.return_code is not None or not app.is_running, "exit")
