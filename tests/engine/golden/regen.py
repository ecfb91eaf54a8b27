"""Regenerate the golden playthroughs (only after checking a change is intended)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_determinism import CASES, GOLDEN, _match  # noqa: E402

from unokit.engine.notation import dumps as dump_position  # noqa: E402
from unokit.records.record import dumps as dump_record  # noqa: E402

for variant, players, seed, options in CASES:
    g = _match(variant, players, seed, options)
    path = GOLDEN / f"{variant}-{players}p-seed{seed}.txt"
    path.write_text(dump_record(g) + "\n" + dump_position(g))
    print("wrote", path, len(g.commands or []), "commands")
