"""The Textual game's controls: mouse, dialogs, refusals, hot seat, help."""

from __future__ import annotations

from pilot import dialog_shown, human_ready, wait_until
from textual.pilot import Pilot

from unokit import Game
from unokit.tui.app import UnoApp
from unokit.tui.dialogs import ChoiceDialog, CoverScreen, HelpScreen, TableScreen
from unokit.tui.session import Session
from unokit.tui.widgets import HandView


def _position(variant: str, hands: list[list[str]], top: str, **kw: object) -> Session:
    game = Game.setup(
        variant,
        len(hands),
        hands=hands,
        draw=kw.pop("draw", ["R1", "G2", "B7", "Y6", "R6", "G7"] if variant != "flip" else []),  # type: ignore[arg-type]
        discard=[top],
        current=kw.pop("current", 0),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )
    return Session(variant, len(hands), game=game, bots="heuristic")


def _card_offset(app: UnoApp, index: int) -> tuple[int, int]:
    hand = app.query_one(HandView)
    w, h, per = hand._mode(hand.content_region.width)
    return (index % per) * (w + 1) + 1, (index // per) * h + 1


def _commands(session: Session) -> list[str]:
    return list(session.game.commands or [])


async def _ready(pilot: Pilot[None], app: UnoApp) -> None:
    await wait_until(pilot, lambda: human_ready(app, 0), "the person's turn")


async def test_click_selects_then_plays_and_deck_draws() -> None:
    session = _position("classic", [["R3", "G4", "B9"], ["Y1", "Y2"], ["B1", "B2"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert [str(c) for c in app._hand_cards] == ["R3", "G4", "B9"]
        assert str(app._selected_card()) == "R3"  # the first playable card
        await pilot.click(HandView, offset=_card_offset(app, 2))
        assert str(app._selected_card()) == "B9"
        index = 0
        await pilot.click(HandView, offset=_card_offset(app, index))
        assert str(app._selected_card()) == "R3"
        assert _commands(session) == []  # a click on another card only selects it
        await pilot.click(HandView, offset=_card_offset(app, index))
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the click to play")
        assert _commands(session)[0] == "P0 PLAY R3"


async def test_click_on_draw_pile_draws() -> None:
    session = _position("classic", [["G4", "B9"], ["Y1", "Y2"], ["B1", "B2"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        table = app.query_one("#table")
        x0, _ = table._deck_x  # type: ignore[attr-defined]
        y = table.content_region.height // 2  # the cards are centred
        await pilot.click("#table", offset=(x0 + 2, y))
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the draw")
        assert _commands(session)[0] == "P0 DRAW"


async def test_unplayable_card_is_explained_and_changes_nothing() -> None:
    session = _position("classic", [["G4", "B9", "R7"], ["Y1", "Y2"], ["B1", "B2"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        before = session.game.state_tuple()
        await pilot.press("home")  # sorted: R7 G4 B9 -> select G4
        await pilot.press("right")
        assert str(app._selected_card()) == "G4"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app._flow, "the refusal")
        status = str(app.query_one("#status").render())
        assert "cannot play G4 on R5" in status
        assert session.game.state_tuple() == before
        await pilot.press("p")  # no card drawn: pass is refused with a reason
        assert "only right after drawing" in str(app.query_one("#status").render())
        assert session.game.state_tuple() == before


async def test_escape_in_colour_dialog_cancels_the_wild() -> None:
    session = _position("classic", [["W", "B9"], ["Y1", "Y2"], ["B1", "B2"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        before = session.game.state_tuple()
        await pilot.press("end")  # wilds sort last
        assert str(app._selected_card()) == "W"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the colour dialog")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")
        await wait_until(pilot, lambda: len(app.screen_stack) == 1 and not app._flow, "close")
        assert session.game.state_tuple() == before
        # and choosing a colour plays it
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the colour dialog")
        await pilot.press("g")
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the wild")
        assert _commands(session)[0] == "P0 PLAY W color=G"


async def test_flex_target_dialog() -> None:
    session = _position("flex", [["WTD", "B5", "B6"], ["Y1", "Y2"], ["B1", "B2", "B3"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        await pilot.press("end")
        assert str(app._selected_card()) == "WTD"
        await pilot.press("f")  # the flex side directly: colour, then target
        await wait_until(pilot, lambda: dialog_shown(app), "the colour dialog")
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: dialog_shown(app) and "who draws" in app.screen.title_text,  # type: ignore[attr-defined]
            "the target dialog",
        )
        await pilot.press("2")  # the second choice: P2
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the flex play")
        assert _commands(session)[0] == "P0 PLAY WTD color=Y side=flex target=P2"
        assert any(line.startswith("Bo drew 2 cards") for line in app.log_lines)


async def test_flex_side_dialog_regular_choice() -> None:
    session = _position("flex", [["RFS", "B5"], ["Y1", "Y2"], ["B1", "B2", "B3"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        await pilot.press("home")
        assert str(app._selected_card()) == "RFS"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the side dialog")
        await pilot.press("r")
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the play")
        assert _commands(session)[0] == "P0 PLAY RFS"


async def test_catch_a_player_without_uno() -> None:
    session = _position(
        "classic", [["R3", "G4", "B9"], ["Y1"], ["B1", "B2"]], "R5", uno={1: "vulnerable"}
    )
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert "no UNO!" in str(app.query_one("#players").render())
        await pilot.press("c")
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the catch")
        assert _commands(session)[0] == "P0 CATCH P1"
        assert "You caught Ada without UNO!" in app.log_lines
        assert any(
            line.startswith("Ada drew 2 cards for not calling UNO") for line in app.log_lines
        )


async def test_uno_key_when_it_has_no_effect_says_so() -> None:
    session = _position("classic", [["R3", "G4", "B9"], ["Y1", "Y2"], ["B1", "B2"]], "R5")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        await pilot.press("u")
        assert "two cards" in str(app.query_one("#status").render())
        assert _commands(session) == []


async def test_hot_seat_hides_each_hand() -> None:
    session = Session("classic", 3, humans=2, names=["Ann", "Ben"], seed=4, bots="random")
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.query_one(HandView)
        seen = set()
        for _ in range(12):
            await wait_until(
                pilot,
                lambda: (
                    isinstance(app.screen, CoverScreen | ChoiceDialog | TableScreen)
                    or (
                        session.human_to_act() is not None
                        and human_ready(app, session.human_to_act() or 0)
                    )
                ),
                "a person's turn or the cover",
            )
            if isinstance(app.screen, TableScreen):
                break
            if isinstance(app.screen, CoverScreen):
                actor = session.human_to_act()
                assert actor is not None
                assert app.screen.person == session.names[actor]
                # under the cover nothing of the next person's hand is drawn
                assert hand.hidden_text is not None or app.viewer != actor
                await pilot.press("enter")
                await wait_until(pilot, lambda a=actor: app.viewer == a, "the seat change")
                continue
            if isinstance(app.screen, ChoiceDialog):
                await pilot.press("1")
                continue
            seat = app.viewer
            assert seat is not None and seat == session.human_to_act()
            seen.add(seat)
            shown = sorted(map(str, hand.cards))
            assert shown == sorted(map(str, session.game.hand(seat)))
            assert hand.hidden_text is None
            before = len(_commands(session))
            await pilot.press("d")
            await wait_until(pilot, lambda b=before: len(_commands(session)) > b, "the draw")
            if session.observe(seat).phase == "AWAIT_DRAWN" and session.human_to_act() == seat:
                await pilot.press("p")
                await wait_until(pilot, lambda b=before: len(_commands(session)) > b + 1, "pass")
            # once the turn is over, the hand is hidden until the next person is ready
            if session.human_to_act() not in (None, seat):
                assert hand.hidden_text is not None
        assert seen == {0, 1}


async def test_help_shows_the_variant_rules_and_keys() -> None:
    session = Session("flip", 3, seed=1)
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.markdown
        assert "Wild Draw Color" in text and "Skip Everyone" in text
        assert "**d**: draw" in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: len(app.screen_stack) == 1, "help to close")


async def test_first_card_wild_asks_the_colour_at_once() -> None:
    game = Game.setup(
        "flip",
        3,
        hands=[["R3|Pk7", "G4|Tl9"], ["Y8|Or2", "Y9|Pu4"], ["B5|Pk9", "B3|Tl2"]],
        draw=["R5|Pk2", "G6|Pk5"],
        discard=["W|PkF"],
        current=0,
        phase="AWAIT_COLOR",
    )
    session = Session("flip", 3, game=game)
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: dialog_shown(app), "the colour dialog")
        assert "first card is a wild" in str(app.screen.query_one(".message").render())
        await pilot.press("b")
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the colour")
        assert _commands(session)[0] == "P0 COLOR B"


async def test_seven_zero_swap_dialog() -> None:
    session = _position(
        "classic",
        [["R7", "G4", "B9"], ["Y1", "Y2"], ["B1", "B2", "B3", "B4"]],
        "R5",
        options={"sevenZero": True},
    )
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert str(app._selected_card()) == "R7"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog_shown(app), "the swap dialog")
        assert "swap hands" in app.screen.title_text  # type: ignore[attr-defined]
        await pilot.press("1")  # Ada
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the swap")
        assert _commands(session)[0] == "P0 PLAY R7 swap=P1"


async def test_stacked_penalty_is_drawn_with_d() -> None:
    # P2 (a bot) can only play its Draw Two: the penalty then waits for P0
    session = _position(
        "classic",
        [["RD2", "G4", "B9"], ["Y1", "Y2"], ["GD2", "Y9"]],
        "G5",
        options={"stacking": "same_symbol"},
        current=2,
    )
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert _commands(session)[0].startswith("P2 PLAY GD2")
        status = str(app.query_one("#status").render())
        assert "Stack a draw card or draw 2" in status
        hand = app.query_one(HandView)
        assert [str(app._hand_cards[i]) for i in sorted(hand.playable)] == ["RD2"]
        await pilot.press("d")
        await wait_until(pilot, lambda: len(_commands(session)) >= 2, "the draw")
        assert _commands(session)[1] == "P0 DRAW"
        assert any(line.startswith("You drew") and "stacked" in line for line in app.log_lines)


async def test_jump_in_out_of_turn() -> None:
    session = _position(
        "classic",
        [["G4", "R5", "B9"], ["Y1", "Y2"], ["B1", "B2", "B3"]],
        "R5",
        options={"jumpIn": True},
        current=1,
    )
    app = UnoApp(session, delay=600)  # the bot waits: time enough to jump in
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Jump in" in str(app.query_one("#status").render()), "hint")
        assert str(app._selected_card()) == "R5"
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(_commands(session)) >= 1, "the jump-in")
        assert _commands(session)[0] == "P0 PLAY R5"
        assert "You jumped in with Red 5." in app.log_lines


async def test_a_bots_uno_call_is_a_red_log_line_and_a_toast() -> None:
    """issue 30: Ada (a bot) goes down to one card calling UNO with the play."""
    session = _position(
        "classic", [["R3", "G4", "B9"], ["R1", "Y2"], ["B1", "B2", "B3"]], "R5", current=1
    )
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        assert "Ada called UNO!" in app.log_lines
        assert any(n.title == "UNO!" and n.message == "Ada called UNO!" for n in app._notifications)
