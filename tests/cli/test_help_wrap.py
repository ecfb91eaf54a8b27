"""``unokit --help`` at 80 columns: each command's line in the list wraps only
where the next word would not fit, never in the middle of a phrase."""

from __future__ import annotations

import os
import re
import subprocess
import sys

UNOKIT = [sys.executable, "-c", "from unokit.cli import main; main()"]


def test_the_command_list_wraps_only_at_the_edge() -> None:
    env = {**os.environ, "COLUMNS": "80"}
    out = subprocess.run(
        [*UNOKIT, "--help"], capture_output=True, text=True, timeout=60, env=env
    ).stdout
    panel = out[out.index("Commands") :].splitlines()[1:]
    rows: list[list[str]] = []
    for line in panel:
        m = re.match(r"^│ (\S+)?(\s+)(.*?)\s*│$", line)
        if not m:
            continue
        if m.group(1):
            rows.append([m.group(3)])
            indent = 2 + len(m.group(1)) + len(m.group(2))
            width = len(line) - 2 - indent  # the help column, less the right border
        elif rows:
            rows[-1].append(m.group(3))
    assert len(rows) >= 10, out
    for row in rows:
        for here, after in zip(row, row[1:], strict=False):
            next_word = after.split()[0]
            # a line ends early only when the next word would not have fitted
            assert len(here) + 1 + len(next_word) > width - 1, (here, after)
