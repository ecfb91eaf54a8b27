"""Positions and records: written and read back identically; corrupt input is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit import Game, InvalidPositionError, ParseError, RecordError
from unokit.engine.notation import dumps, loads
from unokit.records.record import Record, load
from unokit.records.record import dumps as dump_record
from unokit.records.record import loads as load_record

from .conftest import random_game_states


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), stop=st.integers(0, 300))
def test_position_round_trip(seed: int, stop: int) -> None:
    g = Game.new("classic", 2, seed=seed)
    for i, g in enumerate(random_game_states(seed, steps=stop + 1)):  # noqa: B007
        if i == stop:
            break
    text = dumps(g)
    back = loads(text)
    assert back == g
    assert dumps(back) == text
    # the loaded game plays on exactly like the original
    a, b = g.copy(), back.copy()
    for x, y in zip(random_moves(a), random_moves(b), strict=True):
        assert x == y


def random_moves(g: Game) -> list[str]:
    import random

    r = random.Random(1)
    out = []
    for _ in range(30):
        if g.state.name in ("ROUND_OVER", "MATCH_OVER"):
            break
        act = r.choice(g.legal_actions())
        g.apply(act)
        out.append(str(act) + "|" + dumps(g))
    return out


def test_positions_in_every_state_round_trip() -> None:
    seen = set()
    for seed in range(40):
        for g in random_game_states(seed, steps=300):
            if g.state.name not in seen or seed % 7 == 0:
                seen.add(g.state.name)
                assert loads(dumps(g)) == g
    # a Flip exposing a wild face waits for a colour
    g = Game.setup(
        "flip",
        3,
        hands=[["RF|Pk8", "B2|Or8"], ["Y3|Pu1", "G5|Or7"], ["G3|Pu2", "B5|Pk9"]],
        draw=["G8|Tl9", "B4|Pu1"],
        discard=["RS|DW", "R4|OrF"],
        current=0,
    )
    g.apply("P0 PLAY RF|Pk8")
    assert g.state.name == "AWAIT_COLOR" and loads(dumps(g)) == g
    seen.add(g.state.name)
    assert {"AWAIT_TURN", "AWAIT_DRAWN", "AWAIT_COLOR", "AWAIT_CHALLENGE", "ROUND_OVER"} <= seen


@pytest.mark.parametrize(
    ("mutate", "error"),
    [
        (lambda t: "", ParseError),
        (lambda t: t.replace("unokit-position 1", "unokit-position 9"), ParseError),
        (lambda t: t + "bogus 1\n", ParseError),
        (lambda t: t.replace("variant classic", "variant chess"), Exception),
        (lambda t: t.replace("players 3", "players x"), ParseError),
        (lambda t: t.replace("hands P0 ", "hands P0 Z9 "), InvalidPositionError),
        (
            lambda t: "\n".join(ln for ln in t.splitlines() if not ln.startswith("hands P1")),
            InvalidPositionError,
        ),
        (
            lambda t: "\n".join(ln for ln in t.splitlines() if not ln.startswith("discard")),
            ParseError,
        ),
        (lambda t: t.replace("color ", "color Pk\nx", 1).replace("\nx", "\n#", 1), ParseError),
        (lambda t: t.replace("direction cw", "direction up"), ParseError),
        (lambda t: t.replace("scores 0 0 0", "scores 0 0"), InvalidPositionError),
    ],
)
def test_corrupt_positions_are_refused(mutate: object, error: type[Exception]) -> None:
    g = Game.new("classic", 3, seed=1)
    text = dumps(g)
    with pytest.raises(error):
        loads(mutate(text))  # type: ignore[operator]


def test_wrong_side_colour_is_an_invalid_position() -> None:
    g = Game.new("classic", 3, seed=1)
    text = dumps(g)
    bad = "\n".join("color Pk" if ln.startswith("color ") else ln for ln in text.splitlines())
    with pytest.raises(InvalidPositionError):
        loads(bad)


def test_record_round_trip_and_games(tmp_path: object) -> None:
    g = Game.new("flip", 3, {"stacking": "same_symbol"}, seed=8)
    for _ in range(40):
        if g.state.name != "AWAIT_TURN" and g.state.name not in (
            "AWAIT_DRAWN",
            "AWAIT_COLOR",
            "AWAIT_CHALLENGE",
        ):
            break
        g.apply(g.legal_actions()[0])
    text = dump_record(g, names=["Ann", "Ben", "bot:heuristic"])
    rec = load_record(text)
    assert rec.names == ["Ann", "Ben", "bot:heuristic"]
    assert rec.replay() == g
    states = list(rec.games())
    assert len(states) == len(rec.commands) + 1
    assert states[-1] == g and states[0] == Game.new("flip", 3, {"stacking": "same_symbol"}, seed=8)
    assert rec.dumps() == text


def test_record_with_explicit_position() -> None:
    g = Game.setup(
        "classic", 2, hands=[["R1", "R2"], ["R3", "G4"]], draw=["B1", "B2"], discard=["R9"]
    )
    rec = Record("classic", 2, seed=None, position=dumps(g), commands=["P1 PLAY R3", "P0 PLAY R1"])
    back = load_record(rec.dumps())
    end = back.replay()
    assert [str(c) for c in end.hand(0)] == ["R2"] and end.uno_state(0).name == "VULNERABLE"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a record"),
        ("unokit-record 1\nvariant classic\nplayers 2\nseed 1\n", "no '---'"),
        ("unokit-record 1\nvariant classic\nseed 1\n---\n", "no players"),
        ("unokit-record 1\nvariant classic\nplayers 2\n---\n", "either a seed"),
        ("unokit-record 1\nvariant classic\nplayers 2\nseed 1\nfoo 3\n---\n", "unknown header"),
        ("unokit-record 1\nvariant classic\nplayers 2\nseed x\n---\n", "integers"),
        (
            'unokit-record 1\nvariant classic\nplayers 2\nseed 1\noptions {"jumpIn": 3}\n---\n',
            "bad options",
        ),
        ("unokit-record 1\nvariant classic\nplayers 12\nseed 1\n---\n", "invalid"),
        ("unokit-record 1\nvariant classic\nplayers 2\nseed 1\nnames a,b,c\n---\n", "3 names"),
    ],
)
def test_corrupt_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        load_record(text)


def test_a_record_with_an_illegal_command_names_the_line() -> None:
    g = Game.new("classic", 2, seed=2)
    rec = load_record(dump_record(g))
    rec.commands += ["P0 PLAY W4 color=G", "P0 FLY"]
    with pytest.raises(RecordError, match=r"command [12] "):
        rec.replay()


def test_unreadable_record_file(tmp_path: object) -> None:
    import pathlib

    p = pathlib.Path(str(tmp_path)) / "r.txt"
    p.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(RecordError, match="cannot read"):
        load(p)
    with pytest.raises(RecordError, match="cannot read"):
        load(pathlib.Path(str(tmp_path)) / "missing.txt")
