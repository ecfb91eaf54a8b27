"""``unokit play --preset NAME --rules key=value,...``: the presets of the rules
registry and house rules on the command line, in plain mode (the Textual app
gets the same options through the same Session), and bad input refused.

The presets are read from the registry: a preset the engine plays is played
to the end of a match; one it does not play yet (Crazy and Merciless until
multiPlay and mercy are played) must be refused with one clear line."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_plain import UNOKIT, script_match

from unokit.engine.errors import OptionError
from unokit.engine.options import PRESETS, Options, preset_options
from unokit.records.record import load
from unokit.tui.session import Session


def _playable(name: str) -> str | None:
    """None if the engine plays preset ``name``, else the reason it refuses it."""
    try:
        Options.from_dict(preset_options(name))
    except OptionError as e:
        return str(e)
    return None


def _play(args: list[str], options: dict[str, Any], tmp_path: Path, seed: int) -> str:
    """Play a whole match with ``args`` through standard input, the moves
    scripted on an offline session with ``options``; check that the record
    saved is that match. Returns the output."""
    offline = Session("classic", 4, seed=seed, bots="heuristic", options=options)
    lines = script_match(offline)
    record = tmp_path / "match.unorec"
    cmd = [
        *UNOKIT, "play", "--plain", "--players", "4", "--seed", str(seed),
        "--bots", "heuristic", "--save", str(record), *args,
    ]  # fmt: skip
    done = subprocess.run(
        cmd, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Not understood" not in out and "Not allowed" not in out
    assert "The match is over. Goodbye." in out
    assert load(record).replay() == offline.game
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_plays_a_match_or_is_refused_clearly(name: str, tmp_path: Path) -> None:
    why = _playable(name)
    args = ["--preset", name.lower(), "-o", "targetScore=100"]
    if why is not None:
        done = subprocess.run(
            [*UNOKIT, "play", "--plain", *args], input="", capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 2
        assert done.stderr.strip() == f"error: --preset {name.lower()}: {why}"
        assert "not implemented by the engine yet" in why and done.stdout == ""
        return
    options = preset_options(name) | {"targetScore": 100}
    out = _play(args, options, tmp_path, seed=4)
    first = out.splitlines()[1]
    if PRESETS[name]:
        assert first.startswith(f"Rules: {name} -- ")
    else:
        assert first == "Rules: official (no house rules)."


def test_crazy_preset_plays_a_match_once_the_engine_plays_it(tmp_path: Path) -> None:
    """The issue's check, against the registry: a match with --preset Crazy,
    or, while multiPlay is not played, the clear refusal (never a skip)."""
    test_each_preset_plays_a_match_or_is_refused_clearly("Crazy", tmp_path)


def test_rules_on_top_of_a_preset_with_teams(tmp_path: Path) -> None:
    args = ["--preset", "Party", "--rules", "jumpIn=false,teams=pairs,deflect=both,shuffleSeats"]
    options = {
        **preset_options("Party"),
        "jumpIn": False,
        "teams": "pairs",
        "deflect": "both",
        "shuffleSeats": True,
        "targetScore": 100,
    }
    out = _play([*args, "-o", "targetScore=100"], options, tmp_path, seed=7)
    lines = out.splitlines()
    assert lines[1] == (
        "Rules: stacking=same_symbol, sevenZero, drawUntilPlayable, deflect=both, "
        "teams=pairs, shuffleSeats."
    )
    assert any(line.startswith("Seating (clockwise): ") for line in lines)
    assert any(line.startswith("Teams: You and ") for line in lines)
    # the scoreboard's team totals, and both partners named as winners
    team_rows = [line for line in lines if line.startswith("  Team ")]
    assert team_rows and all(": " in row for row in team_rows)
    assert " and " in next(line for line in lines if line.startswith("Winner: "))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--preset", "Boring"], "error: --preset Boring: unknown preset 'Boring'; presets: "),
        (["--rules", "deflect=sideways"], "error: --rules: option deflect: 'sideways' is not one"),
        (["--rules", "flying=1"], "error: --rules: unknown option 'flying'"),
        (["--rules", "=x"], "error: --rules: expected key=value, got '=x'"),
        (["--rules", "jumpIn="], "error: --rules: expected key=value, got 'jumpIn='"),
        (["--rules", ","], "error: --rules: no rule given"),
        (["--rules", "handLimit=5"], "error: --rules: option handLimit: 5 is below handSize + 1"),
        (["--rules", "teams=pairs", "--players", "3"], "error: teams=pairs needs an even number"),
        (["--rules", "noBluff,wildDrawChallenge=off"], "do not go together"),
    ],
)
def test_bad_rules_are_refused_in_one_line(args: list[str], words: str) -> None:
    done = subprocess.run(
        [*UNOKIT, "play", "--plain", *args], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


async def test_textual_title_and_seats_show_the_rules_and_teams() -> None:
    from pilot import human_ready, wait_until
    from textual.widgets import Static

    from unokit.tui.app import UnoApp
    from unokit.tui.widgets import PlayersView

    options = {**preset_options("Party"), "teams": "pairs"}
    session = Session("classic", 4, seed=2, bots="heuristic", options=options)
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: human_ready(app, 0), "the person's turn")
        title = str(app.query_one("#title", Static).render())
        assert "· 5 house rules" in title
        seats = str(app.query_one(PlayersView).render())
        partner = 2  # seats i and i + n/2 (no shuffled seats)
        lines = {line.strip("▶ ").split()[0]: line for line in seats.splitlines() if line.strip()}
        assert "partner" in lines[session.names[partner]]
        assert all(" T2" in lines[session.names[s]] for s in (1, 3))
    session = Session("classic", 4, seed=2, bots="heuristic", options=preset_options("Party"))
    app = UnoApp(session, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: human_ready(app, 0), "the person's turn")
        assert "· Party rules" in str(app.query_one("#title", Static).render())
