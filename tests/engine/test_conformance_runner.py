"""The conformance runner: every shared scenario passes; bad files are failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokit.cli import app
from unokit.conformance import run_paths, run_scenario

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
