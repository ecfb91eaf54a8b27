"""The C rules core (unokit._core, unokit.engine.core.CoreGame) against the Python
engine, the reference: same states, same legal moves, same refusals, same
randomness; the scenarios, playouts and simulations on the core."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unokit import Game, _core
from unokit.bots.sim import SimResult, _tally, simulate
from unokit.engine.core import CoreGame, core_options, simulate_random
from unokit.engine.errors import IllegalActionError, InvalidPositionError, OptionError
from unokit.engine.options import Options
from unokit.engine.playout import playout
from unokit.engine.variants import get_variant
from unokit.testing import fuzz
from unokit.testing.conformance import run_on_core, run_scenario
from unokit.testing.reference import ReferenceGame, playout_python

from .conftest import OPTION_SETS

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIRS = [
    d for d in (ROOT / "tests" / "scenarios", ROOT.parent / "shared" / "rules" / "scenarios")
    if d.is_dir()
]  # fmt: skip


def _scenarios() -> list[Path]:
    by_name = {p.name: p for d in SCENARIO_DIRS for p in d.glob("*.json")}
    return sorted(by_name.values(), key=lambda p: p.name)


def test_bounded_differential_pass_finds_no_disagreement() -> None:
    stats = fuzz.run_core(matches=90, seed=20261125)
    assert [f.line() for f in stats.failures] == []
    assert stats.commands > 20_000
    assert set(stats.variants) == {"classic", "flip", "flex"}
    # the draw covers every option value of Appendix C the fuzzer knows
    for name, values in fuzz._option_values("flex", 4).items():
        if name == "dealerSelection":
            values = ["cut", "random", "fixed"]
        for value in values:
            assert stats.options_seen[f"{name}={value}"] > 0, f"{name}={value} never compared"


def test_the_differential_check_bites(monkeypatch: pytest.MonkeyPatch) -> None:
    # a core that hands out one card fewer on a catch (unoPenalty) is caught
    def lenient(o: Options) -> tuple[int, ...]:
        t = list(core_options(o))
        t[8] = max(0, t[8] - 1)  # unoPenalty
        return tuple(t)

    monkeypatch.setattr("unokit.engine.coredata.core_options", lenient)
    monkeypatch.setattr("unokit.engine.coredata._MADE", {})  # no cached option integers
    stats = fuzz.run_core(matches=40, seed=7)
    assert stats.failures, "a wrong unoPenalty went unnoticed"
    assert all(
        any(word in f.message for word in ("differs", "differ:", "lists")) for f in stats.failures
    ), [f.message[:80] for f in stats.failures]


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: p.stem)
def test_every_scenario_passes_on_the_core(path: Path) -> None:
    result = run_on_core(json.loads(path.read_text(encoding="utf-8")), path.stem)
    assert result.passed, result.line()


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: p.stem)
def test_every_scenario_passes_on_the_python_reference(path: Path) -> None:
    # Game runs on the core; the oracle the fuzzer compares it with must be
    # right on its own too
    result = run_scenario(json.loads(path.read_text(encoding="utf-8")), path.stem, ReferenceGame)
    assert result.passed, result.line()


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("opt", range(len(OPTION_SETS)))
def test_playout_on_the_core_equals_the_python_playout(variant: str, opt: int) -> None:
    options = {**OPTION_SETS[opt], "matchMode": "single_round"}
    for seed in range(3):
        for players in (2, 5):
            core_side = Game.new(variant, players, options, seed=seed, events=False)
            ref = ReferenceGame.new(variant, players, options, seed=seed, events=False)
            ra, rb = random.Random(seed), random.Random(seed)
            assert playout(core_side, ra.random) == playout_python(ref, rb.random)
            assert core_side.state_tuple() == ref.state_tuple()
            assert ra.random() == rb.random()  # the stream was consumed alike
            # the generator's state can also be moved into C and back
            c1 = Game.new(variant, players, options, seed=seed, events=False)
            core = CoreGame.from_game(c1)
            r1 = random.Random(seed)
            core.playout_random(r1)
            assert core.state_tuple() == ref.state_tuple()
            r2 = random.Random(seed)
            playout_python(
                ReferenceGame.new(variant, players, options, seed=seed, events=False), r2.random
            )
            assert r1.getstate() == r2.getstate()
            # any callable works too (one call per random choice)
            c2 = Game.new(variant, players, options, seed=seed, events=False)
            r3 = random.Random(seed)
            playout(c2, lambda r=r3: r.random())
            assert c2.state_tuple() == ref.state_tuple()


@pytest.mark.parametrize("match", [False, True])
def test_simulation_on_the_core_equals_the_python_loop(match: bool) -> None:
    for variant in ("classic", "flip", "flex"):
        games = 12 if match else 60
        got = simulate(variant, 3, games, seed=11, bots=["random"], match=match)
        opts = Options() if match else Options(matchMode="single_round")
        want = SimResult(variant, 3, ["random"] * 3, games, match, 11)
        want.wins, want.points = [0] * 3, [0] * 3
        for i in range(games):
            g = ReferenceGame.new(variant, 3, opts, seed=11 + i, events=False)
            rnd = random.Random(11 + i).random
            while True:
                want.turns += playout_python(g, rnd)
                _tally(want, g)
                if g.is_over:
                    break
                g.next_round()
            if match:
                for w in g.match_winners:
                    want.wins[w] += 1
        assert (got.rounds, got.turns, got.blocked, got.wins, got.points) == (
            want.rounds, want.turns, want.blocked, want.wins, want.points,
        )  # fmt: skip


def test_positions_move_between_game_and_core() -> None:
    g = Game.new("flip", 4, {"stacking": "escalate", "sevenZero": True}, seed=3, events=False)
    r = random.Random(3)
    for _ in range(120):
        if g.phase >= 4:
            break
        g.apply_move(r.choice(g.legal_moves()), uno=r.random() < 0.5)
        core = CoreGame.from_game(g)
        assert core.state_tuple() == g.state_tuple()
        back = core.to_game()
        assert back.state_tuple() == g.state_tuple()
        assert core.legal_moves() == g.legal_moves()


def test_refusals_change_nothing_and_say_why() -> None:
    core = CoreGame.new("classic", 3, seed=5)
    before = core.state_tuple()
    other = (core.current + 1) % 3
    with pytest.raises(IllegalActionError, match=f"it is P{core.current}'s decision"):
        core.apply_move(1, other)  # DRAW out of turn
    with pytest.raises(IllegalActionError, match="not a move code"):
        core.apply_move(15)
    with pytest.raises(IllegalActionError, match="not a seat"):
        core.apply_move(1, 7)
    with pytest.raises(IllegalActionError):
        core.next_round()
    assert core.state_tuple() == before
    copy = core.copy()
    copy.apply_move(copy.legal_moves()[-1])
    assert core.state_tuple() == before and copy.state_tuple() != before


def test_bad_configurations_are_refused_like_game() -> None:
    with pytest.raises(InvalidPositionError, match="2 to 8 players"):
        CoreGame.new("flex", 9)
    with pytest.raises(OptionError, match="handSize"):
        CoreGame.new("classic", 10, {"handSize": 11})
    with pytest.raises(OptionError):
        CoreGame.new("classic", 2, {"stacking": "always"})
    v = get_variant("classic")
    with pytest.raises(ValueError, match="deck"):
        _core.Tables(
            len(v.cards), False, False, [999] * 10, v.color, v.kind, v.number, v.mask,
            v.topkey, v.points, v.draw_amount, [[0] * 54] * 2, v.stack_class, v.ident,
            v.flexmask, v.cut_value, [0] * 54, [-1] * 54,
        )  # fmt: skip
    t = _core.Tables(
        len(v.cards), False, False, v.deck_ids(Options(), 0), v.color, v.kind, v.number, v.mask,
        v.topkey, v.points, v.draw_amount, [[0] * 54] * 2, v.stack_class, v.ident,
        v.flexmask, v.cut_value, [0] * 54, [-1] * 54,
    )  # fmt: skip
    with pytest.raises(ValueError, match="options"):
        _core.Game(t, (0,) * 3, 2, 0)
    with pytest.raises(ValueError, match="players"):
        _core.Game(t, core_options(Options()), 11, 0)


def test_simulate_random_leaves_unusual_seeds_to_the_caller() -> None:
    v = get_variant("classic")
    assert simulate_random(v, 2, Options(), 2**70, 3, False) is None
    tally = simulate_random(v, 2, Options(matchMode="single_round"), -5, 3, False)
    assert tally is not None and tally[0] == 3


def test_conformance_on_the_core_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from unokit.cli import app

    folder = str(ROOT / "tests" / "scenarios")
    out = CliRunner().invoke(app, ["conformance", "--core", "-q", folder])
    assert out.exit_code == 0, out.output
    assert " passed, 0 failed" in out.output
    # a reference that ignores commands fails the replay, naming the step
    from unokit.testing.reference import ReferenceGame

    monkeypatch.setattr(ReferenceGame, "apply", lambda self, action: None)
    out = CliRunner().invoke(app, ["conformance", "--core", "-q", folder])
    assert out.exit_code == 1
    assert "states differ" in out.output or "the reference accepted it" in out.output


def test_a_bad_position_is_refused_and_changes_nothing() -> None:
    core = CoreGame.new("classic", 2, seed=1)
    before = core.state_tuple()
    raw = core._g.state()
    bad = [
        raw[:9] + (1,) + (-1,) + raw[11:],  # AWAIT_DRAWN without a drawn card
        raw[:9] + (2,) + raw[10:11] + (-1,) + raw[12:],  # AWAIT_COLOR: nobody to declare
        raw[:9] + (3,) + raw[10:],  # AWAIT_CHALLENGE without a challenged card
        raw[:1] + (((9999,),) + raw[1][1:],) + raw[2:],  # not a card id
        raw[:21] + ((0, 7),) + raw[22:],  # not a UNO state
        raw[:6] + (5,) + raw[7:],  # current is not a seat
        raw[:-1],  # a field missing
    ]
    for position in bad:
        with pytest.raises(ValueError):
            core._g.set_state(position)
        assert core.state_tuple() == before


def test_events_from_the_core_equal_games_and_the_check_bites(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variant in ("classic", "flip", "flex"):
        ref = ReferenceGame.new(variant, 3, {"sevenZero": True, "stacking": "same_symbol"}, seed=8)
        core = CoreGame.new(variant, 3, {"sevenZero": True, "stacking": "same_symbol"}, seed=8,
                            events=True)  # fmt: skip
        assert core.take_events() == ref.log
        r = random.Random(8)
        while not ref.is_over and ref.round_no < 3:
            if ref.phase == 4:
                assert core.apply("NEXT") == ref.apply("NEXT")
                continue
            action = r.choice(ref.legal_actions())
            assert core.apply(action) == ref.apply(action)
        assert core.copy().take_events() == []  # a copy records nothing until asked
    # a core that loses an event kind is caught by the fuzzer
    import unokit.engine.game

    real = unokit.engine.game.decode_events
    monkeypatch.setattr(
        unokit.engine.game, "decode_events",
        lambda v, flat: [e for e in real(v, flat) if type(e).__name__ != "Skipped"],
    )  # fmt: skip
    stats = fuzz.run_core(matches=20, seed=3)
    assert any("events differ" in f.message for f in stats.failures)


def test_game_on_the_core_pickles_and_deepcopies() -> None:
    import copy
    import pickle

    for cls in (Game, ReferenceGame):
        g = cls.new("flip", 3, {"stacking": "escalate"}, seed=4)
        g.apply_move(g.legal_moves()[0])
        for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
            assert type(h) is cls and h == g and h.log == g.log
            h.apply_move(h.legal_moves()[-1])
            assert h != g  # independent of the original
            g2 = copy.deepcopy(g)
            g2.apply_move(g2.legal_moves()[-1])
            assert g2 == h


def test_refusals_keep_their_messages_and_change_nothing() -> None:
    g = Game.setup("classic", 2, hands=[["R5", "G7"], ["Y2", "B3"]], draw=["Y9"],
                   discard=["R1"], color="R", current=0)  # fmt: skip
    before = g.state_tuple()
    with pytest.raises(IllegalActionError, match=r"P0 cannot play G7 on R1: colour R, number 1"):
        g.apply("P0 PLAY G7")
    with pytest.raises(IllegalActionError, match=r"it is P0's decision, not P1's"):
        g.apply("P1 DRAW")
    with pytest.raises(IllegalActionError, match="P0 may pass only after drawing"):
        g.apply("P0 PASS")
    assert g.state_tuple() == before and g.log == [] and g.commands == []
    # two cards on one's own turn: a pre-announcement, with its event
    assert [type(e).__name__ for e in g.apply("P0 UNO")] == ["UnoCalled"]
    assert g.apply("P1 UNO") == []  # accepted with no effect (D65): nothing recorded
    assert g.commands == ["P0 UNO"]


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_core_readers_agree_with_the_game(variant: str) -> None:
    """The readers the rollout policies use (hand, hand sizes, accept mask,
    power, challenge offender, revealed seat) read the same position as Game."""
    r = random.Random(4)
    for seed in range(3):
        opts = {"matchMode": "single_round", "sevenZero": True, "noBluff": seed == 1}
        g = Game.new(variant, 3, opts, seed=seed, events=False)
        while g.phase < 4:
            c = CoreGame.from_game(g)
            assert [c.hand_ids(s) for s in range(3)] == g.hands
            assert c.hand_sizes() == [len(h) for h in g.hands]
            assert [c.power(s) for s in range(3)] == (g.powers or [False] * 3)
            assert c.ch_offender == g.ch_offender
            assert c.reveal_seat == (-1 if g.reveal is None else g.reveal[0])
            if g.discard and g.color >= 0:
                assert c.accept_mask == g.accept_mask
            moves = g.legal_moves()
            g.apply_move(moves[int(r.random() * len(moves))], uno=True)
    c = CoreGame.new(variant, 3, seed=1)
    for bad in (-1, 3):
        with pytest.raises(IndexError):
            c.hand_ids(bad)
        with pytest.raises(IndexError):
            c.power(bad)


@pytest.mark.parametrize("engine", [Game, ReferenceGame])
def test_a_call_made_with_the_play_is_an_event(engine: type[Game]) -> None:
    """issue 30: "P1 PLAY R5 uno=true" is a call like "P1 UNO"; the event stream
    (and so the table, the terminal and the records) announces it after the play.
    A pre-announced call is announced once, when it is made."""

    def game() -> Game:
        return engine.setup("classic", 2, hands=[["R5", "R6"], ["Y2", "B3"]], draw=["Y9"],
                            discard=["R1"], color="R", current=0)  # fmt: skip

    g = game()
    got = [(type(e).__name__, getattr(e, "seat", None)) for e in g.apply("P0 PLAY R5 uno=true")]
    assert got == [("Played", 0), ("UnoCalled", 0)]
    g = game()
    assert [type(e).__name__ for e in g.apply("P0 PLAY R5")] == ["Played"]
    g = game()
    assert [type(e).__name__ for e in g.apply("P0 UNO")] == ["UnoCalled"]
    assert [type(e).__name__ for e in g.apply("P0 PLAY R5 uno=true")] == ["Played"]
