"""The rules fuzzer (unokit.testing.fuzz) in CI: a bounded, deterministic pass over
every variant, player count and option, and proof that its checks bite."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from unokit import Game
from unokit.engine import events as ev
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import max_hand_size
from unokit.engine.options import Options
from unokit.testing import fuzz

MATCHES = 150  # about 35,000 commands, every variant and option value (< 1 min)


def test_bounded_fuzz_pass_finds_no_violation() -> None:
    stats = fuzz.run(matches=MATCHES, seed=20261125)
    assert [f.line() for f in stats.failures] == []
    assert stats.matches == MATCHES
    assert stats.commands > 25_000
    assert stats.legal_checked > 10_000 and stats.illegal_checked > 10_000
    assert stats.differential > 5_000
    assert set(stats.variants) == {"classic", "flip", "flex"}
    # every option of Appendix C appeared at every value the fuzzer draws
    for name, values in fuzz._option_values("flex", 4).items():
        if name == "dealerSelection":
            values = ["cut", "random", "fixed"]
        for value in values:
            assert stats.options_seen[f"{name}={value}"] > 0, f"{name}={value} never fuzzed"
    # mercy (RULES.md §6.12) is drawn with handSize, at a value that plays
    assert any(k.startswith("mercy=") and k != "mercy=0" for k in stats.options_seen)


def test_configurations_cover_player_counts_and_valid_hand_sizes() -> None:
    seen: set[tuple[str, int]] = set()
    largest = 0
    for seed in range(600):
        cfg = fuzz.random_config(seed)
        seen.add((cfg.variant, cfg.players))
        top = max_hand_size(cfg.variant, cfg.players, cfg.options)
        assert 1 <= cfg.options["handSize"] <= top
        largest += cfg.options["handSize"] == top
        Options.from_dict(cfg.options)  # every drawn configuration is valid
    assert seen == {(v, n) for v in ("classic", "flip") for n in range(2, 11)} | {
        ("flex", n) for n in range(2, 9)
    }
    assert largest > 50


def test_a_hang_is_a_failure_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def forever(self: Game) -> None:
        while True:
            pass

    monkeypatch.setattr(Game, "_new_match", forever)
    stats = fuzz.fuzz_match(3, command_seconds=0.2)
    assert len(stats.failures) == 1
    f = stats.failures[0]
    assert f.seed == 3 and "hung" in f.message
    assert "--replay 3" in f.line()


def test_an_endless_round_is_a_failure() -> None:
    stats = fuzz.fuzz_match(
        6, round_limit=3, differential=False
    )  # seed 5 deals a match mercy ends at once
    assert [f.message for f in stats.failures] == ["the round did not end in 3 commands"]


def test_a_lost_card_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game._done

    def lossy(self: Game) -> None:
        # a face that drops a card of every penalty draw after a command
        since = len(self.log) if self.log is not None else 0
        real(self)
        for e in (self.log or [])[since:]:
            if isinstance(e, ev.Drew) and e.reason == "penalty" and e.count:
                hands = [h[:] for h in self.hands]
                hands[e.seat].pop()
                self._load({"hands": hands})

    monkeypatch.setattr(Game, "_done", lossy)
    stats = fuzz.run(matches=30, seed=7, differential=False)
    assert stats.failures
    assert any("conservation" in f.message for f in stats.failures)


def test_an_accepted_illegal_command_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # an engine that accepts every play it should refuse (and does nothing)
    real = Game.play

    def no_check(self: Game, *args: Any, **kw: Any) -> None:
        try:
            real(self, *args, **kw)
        except IllegalActionError:
            pass

    monkeypatch.setattr(Game, "play", no_check)
    stats = fuzz.run(matches=10, seed=11, differential=False)
    assert any("accepted but is not legal" in f.message for f in stats.failures)


def test_a_fast_path_that_disagrees_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    import unokit.engine.playout as playout_module

    real = playout_module.playout

    def skewed(game: Game, rnd: object, max_turns: int = 1) -> int:
        turns = real(game, rnd, max_turns)  # type: ignore[arg-type]
        if game.phase == 0 and game.direction == 1:
            game._load({"direction": -1})  # a rules slip in the fast path
        return turns

    monkeypatch.setattr(playout_module, "playout", skewed)
    stats = fuzz.run(matches=6, seed=2)
    assert any("playout differs from Game" in f.message for f in stats.failures)


def test_failures_replay_from_their_seed() -> None:
    a = fuzz.fuzz_match(42, differential=False)
    b = fuzz.fuzz_match(42, differential=False)
    assert dataclasses.asdict(a) == dataclasses.asdict(b)


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--matches", "2", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "2 matches" in out and "commands checked" in out and "0 failure(s)" in out
    assert fuzz.main(["--replay", "9", "--no-differential"]) == 0
    assert "seed 9:" in capsys.readouterr().out
