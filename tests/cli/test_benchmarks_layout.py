"""benchmarks/ is sorted by kind and says what is in it: every script sits in a
folder whose README names it (what it measures, its anchor, its command),
the top README names every folder, and every script a make target runs exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


def _kinds() -> list[Path]:
    return sorted(p for p in BENCH.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def test_no_loose_script_at_the_top() -> None:
    loose = [p.name for p in BENCH.iterdir() if p.is_file() and p.name != "README.md"]
    assert loose == [], "put each benchmark in the folder of its kind (benchmarks/README.md)"


def test_every_script_is_described_in_its_folders_readme() -> None:
    top = (BENCH / "README.md").read_text()
    kinds = _kinds()
    assert {k.name for k in kinds} >= {"speed", "server", "bots", "strength"}
    for kind in kinds:
        assert f"`{kind.name}/`" in top, kind.name
        readme = (kind / "README.md").read_text()
        for script in sorted(kind.iterdir()):
            if script.suffix in (".py", ".c"):
                assert f"`{script.name}`" in readme, f"the README of {kind.name}: {script.name}"
                assert f"benchmarks/{kind.name}/{script.name}" in readme, script.name


def test_make_targets_run_scripts_that_exist() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in ("bench-speed", "bench-server", "bench-bots", "bench-strength"):
        assert re.search(rf"^{target}:", makefile, re.M), target
    scripts = re.findall(r"(benchmarks/[\w/.-]+\.py)", makefile)
    assert scripts
    for script in scripts:
        assert (ROOT / script).is_file(), script
