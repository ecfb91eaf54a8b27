"""``unokit replay``: stepping through a record, in the app and as plain text."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from pilot import wait_until
from test_plain import UNOKIT, script_match
from textual.widgets import Input, OptionList, Static

from unokit.engine.errors import RecordError
from unokit.records.record import load, loads
from unokit.tui.replay import Replay, ReplayApp, run_plain_replay
from unokit.tui.session import Session


@pytest.fixture(scope="module")
def flex_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "flex.rec"
    session = Session("flex", 3, seed=0, bots="heuristic", options={"targetScore": 200}, save=path)
    script_match(session)
    return path


def _hands_text(app: ReplayApp) -> str:
    return str(app.query_one("#hands-body", Static).render())


async def test_replay_app_steps_jumps_and_shows_every_hand(flex_record: Path) -> None:
    rp = Replay(load(flex_record))
    assert rp.error is None and rp.last == len(load(flex_record).commands)
    app = ReplayApp(rp)
    async with app.run_test(size=(100, 30)) as pilot:

        def shows_step(k: int) -> bool:
            return f"step {k}/{rp.last}:" in str(app.query_one("#title", Static).render())

        def all_hands_shown(k: int) -> None:
            g = rp.game(k)
            text = _hands_text(app)
            for seat in range(g.n):
                for card in g.hand(seat):
                    assert str(card.face(g.side)) in text

        assert shows_step(0)
        all_hands_shown(0)
        await pilot.press("right", "right", "right")
        assert shows_step(3)
        all_hands_shown(3)
        await pilot.press("left")
        assert shows_step(2)
        happened = str(app.query_one("#happened", Static).render())
        assert rp.step_lines(2)[0] in happened
        await pilot.press("end")
        assert shows_step(rp.last)
        assert "wins the match" in str(app.query_one("#happened", Static).render())
        await pilot.press("home", "r")  # the start of round 2
        second = rp.round_starts()[1]
        assert shows_step(second) and rp.command(second) == "NEXT"
        assert rp.game(second).round_no == 2
        await pilot.press("g")
        await wait_until(pilot, lambda: bool(app.screen.query(Input)), "the jump dialog")
        await pilot.press("9", "9", "9", "9", "enter")  # out of range: refused, stays open
        assert app.screen.query(Input)
        await pilot.press("ctrl+u", "backspace", "backspace", "backspace", "backspace")
        await pilot.press("1", "2", "enter")
        await wait_until(pilot, lambda: shows_step(12), "the jump")
        # a click on a command of the list jumps there
        moves = app.query_one(OptionList)
        moves.highlighted = 5
        moves.action_select()
        await wait_until(pilot, lambda: shows_step(5), "the list selection")


def test_plain_replay_through_stdin(flex_record: Path) -> None:
    rp = Replay(load(flex_record))
    out = io.StringIO()
    code = run_plain_replay(rp, io.StringIO("n\nn\nb\ngo 7\nfoo\n99999\nend\nquit\n"), out)
    text = out.getvalue()
    assert code == 0
    for k in (0, 1, 2, 7, rp.last):
        assert f"Step {k} of {rp.last}: {rp.command(k)}" in text
    assert "Not understood" in text and f"No step 99999: the steps are 0 to {rp.last}." in text
    # every seat's hand is printed at every step
    g = rp.game(7)
    block = text.split(f"Step 7 of {rp.last}")[1].split("replay>")[0]
    for seat in range(g.n):
        cards = " ".join(str(c.face(g.side)) for c in g.hand(seat)) or "no cards"
        assert cards in block


def test_a_corrupt_record_replays_up_to_the_bad_command(flex_record: Path) -> None:
    text = flex_record.read_text()
    rec = load(flex_record)
    bad = rec.commands[4]
    lines = text.splitlines()
    index = lines.index(' "commands": [') + 5
    assert lines[index] == f'  "{bad}",'
    lines[index] = '  "P0 PLAY W4 color=G",'  # a card that is not in the hand
    rp = Replay(loads("\n".join(lines) + "\n"))
    assert rp.last == 4
    assert rp.error is not None and "command 5" in rp.error
    out = io.StringIO()
    run_plain_replay(rp, io.StringIO("end\n"), out)
    assert "The record stops here: command 5" in out.getvalue()


def test_replay_command_line_refuses_bad_files(tmp_path: Path) -> None:
    missing = subprocess.run(
        [*UNOKIT, "replay", str(tmp_path / "nope.rec"), "--plain"],
        capture_output=True, text=True, timeout=60, input="",
    )  # fmt: skip
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    junk = tmp_path / "junk.rec"
    junk.write_bytes(b"\xff\xfe not a record")
    done = subprocess.run(
        [*UNOKIT, "replay", str(junk), "--plain"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    with pytest.raises(RecordError):
        loads("unokit-record 1\nvariant classic\nplayers 99\nseed 1\n---\n")


def test_replay_command_line_plain(flex_record: Path) -> None:
    done = subprocess.run(
        [*UNOKIT, "replay", str(flex_record), "--plain", "--at", "3"],
        input="n\nquit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Step 3 of" in done.stdout and "Step 4 of" in done.stdout
