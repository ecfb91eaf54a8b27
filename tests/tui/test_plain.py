"""``unokit play --plain``: whole games through standard input, and bad input."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from policy import choose

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
from unokit.engine.observation import Observation
from unokit.records.record import load
from unokit.tui.plain import run_plain
from unokit.tui.session import Session

# the command line as installed (``python -m unokit.cli`` would run cli.py as
# __main__, a second module that the adapters' commands do not register on)
UNOKIT = [sys.executable, "-c", "from unokit.cli import main; main()"]


def plain_command(action: Action, obs: Observation) -> str:
    """The plain-mode command of ``action`` (a Flip card in full, light|dark)."""
    if isinstance(action, Play):
        card = str(action.card) if obs.variant == "flip" else str(action.card.face(obs.side))
        words = ["play", card]
        if action.color is not None:
            words.append(f"color={action.color.name}")
        if action.flex:
            words.append("flex")
        if action.target is not None:
            words.append(f"target=P{action.target}")
        if action.swap is not None:
            words.append(f"swap=P{action.swap}")
        return " ".join(words)
    if isinstance(action, ChooseColor):
        return f"color {action.color.name}"
    if isinstance(action, Catch):
        return f"catch P{action.target}"
    simple = {Draw: "draw", Pass: "pass", CallUno: "uno", Challenge: "challenge", Accept: "accept"}
    return simple[type(action)]


def script_match(session: Session) -> list[str]:
    """Play the whole match offline with the test player; return its input lines."""
    lines: list[str] = []
    while not session.match_over:
        if session.round_over:
            lines.append("")  # Enter: next round
            session.next_round()
            continue
        if session.bot_to_act() is not None:
            session.bot_step()
            continue
        seat = session.human_to_act()
        assert seat is not None
        obs = session.observe(seat)
        action = choose(obs)
        lines.append(plain_command(action, obs))
        session.apply(action)
    return lines


MATCHES = [
    ("classic", 3, "random", 9, "targetScore=200"),
    ("flip", 3, "heuristic", 12, "targetScore=200"),
    ("flex", 3, "heuristic", 0, "targetScore=200"),
]


@pytest.mark.parametrize(("variant", "players", "bots", "seed", "option"), MATCHES)
def test_full_match_through_stdin(
    tmp_path: Path, variant: str, players: int, bots: str, seed: int, option: str
) -> None:
    key, _, value = option.partition("=")
    offline = Session(variant, players, seed=seed, bots=bots, options={key: value})
    lines = script_match(offline)
    assert offline.game.round_no >= 2, "the seed should give a match of several rounds"
    record = tmp_path / "match.unorec"
    args = [
        *UNOKIT, "play", "--plain", "--variant", variant,
        "--players", str(players), "--seed", str(seed), "--bots", bots, "-o", option,
        "--save", str(record),
    ]  # fmt: skip
    done = subprocess.run(
        args, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Not understood" not in out and "Not allowed" not in out
    assert "The match is over. Goodbye." in out
    winners = " and ".join(offline.names[w] for w in offline.game.match_winners)
    assert f"Winner: {winners}." in out
    assert "You called UNO!" in out
    # the saved record replays to exactly the match played offline
    assert load(record).replay() == offline.game


def _run(session: Session, text: str) -> str:
    out = io.StringIO()
    assert run_plain(session, io.StringIO(text), out) == 0
    return out.getvalue()


def test_wrong_commands_are_explained_and_change_nothing() -> None:
    session = Session("classic", 3, seed=1, bots="heuristic")
    while session.bot_to_act() is not None:
        session.bot_step()
    before = session.game.state_tuple()
    text = "\n".join(
        [
            "foo",
            "play R99",
            "play",
            "play W4",  # not in this hand
            "pass",
            "color G",
            "catch P7",
            "catch P1",
            "uno",
            "draw now",
            "",
        ]
    )
    out = _run(session, text)
    assert "Not understood: unknown command 'foo'" in out
    assert "Not understood: unknown classic card 'R99'" in out
    assert "Not understood: play needs a card" in out
    assert "Not understood: you do not hold W4; your hand: G2 R0 G0 BS YR R5 R9" in out
    assert "Not allowed: you may pass only after drawing" in out
    assert "Not allowed: you cannot choose a colour now: waiting for you to play or draw" in out
    assert "Not understood: there is no player P7" in out
    assert "No effect: UNO can be called" in out
    assert "No effect: a catch works only on a player who has one card" in out
    assert "Not understood: draw takes no arguments" in out
    assert out.rstrip().endswith("End of input: the game stops here.")
    assert session.game.state_tuple() == before


def test_end_of_input_and_quit_end_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "r.txt"
    args = [
        *UNOKIT, "play", "--plain", "--players", "2",
        "--seed", "3", "--save", str(record),
    ]  # fmt: skip
    offline = Session("classic", 2, seed=3)
    while offline.bot_to_act() is not None:
        offline.bot_step()
    first = choose(offline.observe(0))
    command = plain_command(first, offline.observe(0))
    done = subprocess.run(args, input=command + "\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "End of input: the game stops here." in done.stdout
    assert f"Record saved to {record}" in done.stdout
    rec = load(record)
    assert str(first) in rec.commands  # what was played before the end is kept
    again = subprocess.run(args, input="quit\n", capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "exists: pass --force" in again.stderr  # never overwritten
    assert load(record).commands == rec.commands
    done = subprocess.run(
        [*args, "--force"], input="quit\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "Goodbye." in done.stdout


def test_flip_card_by_its_visible_face_and_help() -> None:
    session = Session("flip", 2, seed=5, bots="heuristic")
    while session.bot_to_act() is not None:
        session.bot_step()
    obs = session.observe(0)
    play = next(a for a in obs.legal if isinstance(a, Play) and a.color is None)
    face = str(play.card.face(obs.side))
    out = _run(session, f"help\nplay {face.lower()}\n")
    assert "Wild Draw Color" in out and "**" not in out  # the rules, without Markdown marks
    assert f"You played {play.card.face(obs.side).long_name}" in out
    # the hand lists only the faces the player sees, never the backs of their own cards
    hand_line = next(line for line in out.splitlines() if line.startswith("Your hand"))
    assert "|" not in hand_line


def test_bad_options_are_refused_before_playing() -> None:
    args = [*UNOKIT, "play", "--plain", "-o", "stacking=always"]
    done = subprocess.run(args, input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "stacking" in done.stderr and "Traceback" not in done.stderr
    args = [*UNOKIT, "play", "--plain", "--bots", "genius"]
    done = subprocess.run(args, input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unknown bot 'genius'" in done.stderr


def test_a_bots_uno_call_is_told() -> None:
    """issue 30: Ada (a bot) goes down to one card calling UNO with the play."""
    from unokit import Game

    game = Game.setup(
        "classic",
        3,
        hands=[["R3", "G4", "B9"], ["R1", "Y2"], ["B1", "B2", "B3"]],
        draw=["R6", "G2", "B7", "Y6", "R7", "G7"],
        discard=["R5"],
        current=1,
    )
    out = _run(Session("classic", 3, game=game, bots="heuristic"), "quit\n")
    assert "Ada played Red 1.\nAda called UNO!\n" in out
    assert "Ada (P1, bot): 1 card, 0 points, UNO called." in out
