"""The conformance runner: every shared scenario passes; bad files are failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokit.cli import app
from unokit.testing.conformance import run_paths, run_scenario

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "rules" / "scenarios"
SCENARIO_DIRS = [d for d in (ROOT / "tests" / "scenarios", SHARED) if d.is_dir()]


def _files() -> list[Path]:
    # tests/scenarios is a copy of the shared scenarios: each one runs once
    # (the shared file when the two differ)
    by_name = {p.name: p for d in SCENARIO_DIRS for p in d.glob("*.json")}
    return sorted(by_name.values(), key=lambda p: p.name)


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_every_scenario_passes(path: Path) -> None:
    (result,) = run_paths([path])
    assert result.passed, result.line()


def test_cli_summary_and_exit_status(tmp_path: Path) -> None:
    good = json.loads((SCENARIO_DIRS[0] / "S-C01.json").read_text())
    (tmp_path / "good.json").write_text(json.dumps(good))
    runner = CliRunner()
    ok = runner.invoke(app, ["conformance", str(tmp_path)])
    assert ok.exit_code == 0
    assert ok.output.strip().splitlines()[-1] == "1 passed, 0 failed"
    (tmp_path / "bad.json").write_text("{not json")
    bad = runner.invoke(app, ["conformance", str(tmp_path)])
    assert bad.exit_code == 1
    lines = bad.output.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert any(line.startswith("FAIL bad") and "cannot read" in line for line in lines)


def _doc(**changes: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "format": 1,
        "id": "T",
        "title": "t",
        "variant": "classic",
        "players": 2,
        "options": {},
        "given": {"hands": [["R1", "B2"], ["R7", "G2"]], "discard": ["R5"], "current": 1},
        "steps": [{"do": "P1 PLAY R7", "expect": {"current": 0}}],
    }
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_doc(extra=1), "unknown key(s): extra"),
        (
            _doc(given={"hands": [["R1"], ["R2"]], "discard": ["R5"], "colour": "R"}),
            "unknown key(s) in given",
        ),
        (_doc(steps=[{"do": "P1 PLAY R7", "expect": {"colour": "R"}}]), "unknown expect key"),
        (_doc(steps=[{"do": "P1 PLAY R7", "when": 1}]), "unknown key(s) when"),
        (_doc(format=2), "unsupported format"),
        (_doc(players=11), "invalid position"),
        (_doc(variant="uno-attack"), "unknown variant"),
        (_doc(given={"hands": [["R1"], ["X9"]], "discard": ["R5"]}), "unknown classic card"),
        (_doc(options={"stacking": "yes"}), "stacking"),
        (_doc(steps=[{"do": "P1 PLAY G2"}]), "rejected"),
        (_doc(steps=[{"do": "P1 PLAY R7", "reject": True}]), "expected a rejection"),
        (
            _doc(steps=[{"do": "P1 PLAY R7", "expect": {"current": 1}}]),
            "current: expected 1, got 0",
        ),
        (_doc(steps=[{"do": "NEW", "reject": True}]), "expected to be rejected"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_scenarios_fail_with_a_message(doc: object, message: str) -> None:
    result = run_scenario(doc)
    assert not result.passed
    assert message in result.message


def test_a_rejected_step_must_leave_the_state_unchanged() -> None:
    doc = _doc(
        steps=[{"do": "P1 PLAY G2", "reject": True}, {"do": "P1 PLAY R7", "expect": {"top": "R7"}}]
    )
    assert run_scenario(doc).passed


def test_missing_path_is_a_failure() -> None:
    (result,) = run_paths(["/nonexistent/scenarios"])
    assert not result.passed and "no such file" in result.message


def _challenge_doc(**given: object) -> dict[str, object]:
    base: dict[str, object] = {
        "hands": [["B7"], ["B5", "B6"], ["Y5", "Y6"]],
        "draw": ["B1", "B2", "B3", "B4", "R1", "R2"],
        "discard": ["G3", "W4"],
        "color": "Y",
        "current": 1,
        "state": "AWAIT_CHALLENGE",
    }
    return {
        "format": 1,
        "id": "T-PC",
        "variant": "classic",
        "players": 3,
        "options": {},
        "given": base | given,
        "steps": [{"do": "P1 CHALLENGE", "expect": {"current": 1}}],
    }


def test_prior_color_is_required_with_await_challenge_and_decides_legality() -> None:
    missing = run_scenario(_challenge_doc())
    assert not missing.passed and "prior_color is required" in missing.message
    assert run_scenario(_challenge_doc(prior_color="B")).passed  # P0 held blue: guilty
    legal = run_scenario(_challenge_doc(prior_color="R"))  # nothing red: the challenge fails
    assert not legal.passed and "current: expected 1, got 2" in legal.message
    bad = run_scenario(_challenge_doc(prior_color="Pk"))
    assert not bad.passed and "prior_color" in bad.message


def _stack_doc(pending: object, options: dict[str, object]) -> dict[str, object]:
    return {
        "format": 1,
        "id": "T-PD",
        "variant": "classic",
        "players": 3,
        "options": options,
        "given": {
            "hands": [["G1"], ["GD2", "B5"], ["Y5"]],
            "draw": ["B1", "B2", "B3", "B4", "B6"],
            "discard": ["R3", "RD2"],
            "current": 1,
            "pending_draw": pending,
        },
        "steps": [{"do": "P1 PLAY GD2", "expect": {"pending_draw": 4, "current": 2}}],
    }


def test_pending_draw_given_and_expected() -> None:
    assert run_scenario(_stack_doc(2, {"stacking": "same_symbol"})).passed
    off = run_scenario(_stack_doc(2, {}))
    assert not off.passed and "stacking" in off.message
    assert not run_scenario(_stack_doc("2", {"stacking": "same_symbol"})).passed
    too_small = run_scenario(_stack_doc(1, {"stacking": "same_symbol"}))
    assert not too_small.passed and "pending_draw 1" in too_small.message
