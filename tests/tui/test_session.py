"""The session: seats, names, bot levels, and the record written as it goes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from policy import choose

from unokit import Game
from unokit.engine.errors import OptionError
from unokit.records.record import load
from unokit.tui.session import Session


def test_seats_names_and_levels() -> None:
    s = Session("classic", 4, humans=2, names=["Ann", "Ada"], bots="easy,hard", seed=1)
    assert s.names[:2] == ["Ann", "Ada"]
    assert "Ada" not in s.names[2:]  # bots take names that nobody has
    assert s.levels == ["human", "human", "easy", "hard"]
    assert s.bot_flags == [False, False, True, True]
    assert s.record_names()[2] == f"{s.names[2]} (easy)"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"humans": 5}, "5 people cannot share a 4-player game"),
        ({"names": ["a", "b"]}, "2 names given for 1 people"),
        ({"bots": "easy,hard"}, "2 bot levels given for 3 bot seats"),
        ({"bots": "genius"}, "unknown bot 'genius'"),
        ({"names": ["a,b"]}, "no commas"),
        ({"options": {"stacking": "always"}}, "stacking"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Session("classic", 4, seed=1, **kwargs)  # type: ignore[arg-type]


def test_record_survives_a_failed_save(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "m.rec"
    s = Session("flip", 3, seed=12, bots="normal", save=path)
    shutil.rmtree(folder)  # the disk goes away for a while
    for _ in range(3):
        if s.bot_to_act() is not None:
            s.bot_step()
        else:
            seat = s.human_to_act()
            assert seat is not None
            s.apply(choose(s.observe(seat)))
    assert s.save_error is not None and "could not save" in s.save_error
    folder.mkdir()  # back: the next command writes the whole record
    seat = s.human_to_act()
    if seat is None:
        s.bot_step()
    else:
        s.apply(choose(s.observe(seat)))
    assert s.save_error is None
    assert load(path).replay() == s.game


def test_narration_speaks_to_the_viewer() -> None:
    from unokit.engine.cards import CLASSIC
    from unokit.engine.events import Challenged, Drew, Played, UnoCalled
    from unokit.engine.narration import Narrator

    n = Narrator(["You", "Ada", "Bo"], viewer=0)
    w4 = CLASSIC.parse("W4")
    assert n.line(Played(0, w4, None)) == "You played Wild Draw Four."
    assert n.line(Challenged(1, 0, False, None)) == (
        "Ada challenged your Wild Draw Four: it was legal, Ada draws more."
    )
    assert n.line(Played(2, w4, None)) == "Bo played Wild Draw Four."
    assert n.line(Challenged(0, 2, True, (CLASSIC.parse("R5"),))) == (
        "You challenged Bo's Wild Draw Four: it was an illegal play, Bo draws instead. "
        "Bo's hand: R5."
    )
    assert n.line(Drew(0, 2, (CLASSIC.parse("R5"), w4), None, "catch")) == (
        "You drew Red 5 and Wild Draw Four for not calling UNO."
    )
    assert n.line(Drew(1, 2, None, None, "penalty")) == "Ada drew 2 cards (penalty)."
    assert n.line(UnoCalled(0)) == "You called UNO!"


def test_a_replayed_terminal_game_says_you_in_good_english() -> None:
    """issue 30 item 17: the terminal's own seat is named "You" in its record; a
    replay (no viewer) says "You deal", "You were skipped", "1 point"."""
    from unokit.engine.events import MatchEnded, RoundEnded, RoundStarted, Skipped
    from unokit.engine.narration import Narrator

    n = Narrator(["You", "Ada", "Bo"], viewer=None)
    assert n.line(RoundStarted(1, 0, (7, 7, 7))) == "Round 1: You deal 7 cards to each player."
    assert n.line(Skipped(0)) == "You were skipped."
    assert n.line(Skipped(1)) == "Ada was skipped."
    assert n.line(RoundEnded(0, 1, (0, 1, 0), (1, 0, 0))) == (
        "You win the round and score 1 point."
    )
    assert n.line(MatchEnded((1,), (0, 1, 0))) == "Ada wins the match (1 point)!"


def test_a_flex_wild_draw_on_its_regular_side_says_nobody_draws() -> None:
    """issue 30 item 9: "Dev played Flex Wild Target Draw 2 and chose Blue." and
    then nobody drew, with no word why."""
    from unokit.engine.cards import Color
    from unokit.engine.events import Played
    from unokit.engine.narration import Narrator
    from unokit.engine.variants import get_variant

    wtd = get_variant("flex").cards.parse("WTD")
    n = Narrator(["You", "Ada", "Dev"], viewer=0)
    assert n.line(Played(2, wtd, Color.B)) == (
        "Dev played Flex Wild Target Draw 2 on its regular side, as a plain Wild "
        "(nobody draws) and chose Blue."
    )


def test_the_plain_mode_lists_typeable_commands() -> None:
    from unokit.engine.narration import legal_summary

    g = Game.setup("classic", 2, hands=[["W4", "R5"], ["B1", "B2"]], draw=["Y9", "G1"],
                   discard=["R1"], color="R", current=0)  # fmt: skip
    summary = legal_summary(g.observe(0))
    assert "play W4 color=R (or color=Y, G, B)" in summary, summary


def _forgot_uno_after_skip() -> Game:
    """P0 (a person) plays a Skip down to one card without calling UNO: at two
    players it acts again at once, so a bot may catch it only if offered."""
    g = Game.setup(
        "classic",
        2,
        hands=[["RS", "G7"], ["B2", "B3", "Y4"]],
        draw=["Y9", "G1", "G2", "G3"],
        discard=["R5"],
        current=0,
    )
    g.apply("P0 PLAY RS")
    return g


def test_a_bot_is_offered_the_catch_before_the_person_acts_again() -> None:
    s = Session("classic", 2, game=_forgot_uno_after_skip(), bots="normal", seed=1)
    assert s.game.current == 0 and s.game.vulnerable == 0
    assert s.bot_to_act() == 1  # the bot, although P0 is to act
    s.bot_step()
    assert s.game.vulnerable == -1 and len(s.game.hands[0]) == 3
    assert s.bot_to_act() is None  # now the person's turn


def test_easy_lets_the_catch_go() -> None:
    s = Session("classic", 2, game=_forgot_uno_after_skip(), bots="easy", seed=1)
    assert s.bot_to_act() is None
    assert s.game.vulnerable == 0
