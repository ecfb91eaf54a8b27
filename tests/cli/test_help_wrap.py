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


def _commands() -> list[list[str]]:
    """Every command path of ``unokit`` (the groups' commands too)."""
    import typer

    from unokit.cli import app

    out: list[list[str]] = []

    def walk(t: typer.Typer, prefix: list[str]) -> None:
        for info in t.registered_commands:
            name = info.name or (info.callback.__name__ if info.callback else "")
            out.append([*prefix, name.replace("_command", "").replace("_", "-")])
        for group in t.registered_groups:
            if group.typer_instance is not None and group.name:
                out.append([*prefix, group.name])
                walk(group.typer_instance, [*prefix, group.name])

    walk(app, [])
    return out


def test_every_commands_help_fits_80_columns_with_the_help_beside_the_options() -> None:
    """Each command's ``--help`` at 80 columns: no line wider, nothing cut
    ('…'), the help text of an option in one wide column (Rich's table gave
    serve's options a column 17 characters wide), and bracketed words such as
    the extras' names kept (Rich markup ate ``[ray]`` and ``[web]``)."""
    env = {**os.environ, "COLUMNS": "80"}
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom unokit.cli import app\n"
        "for line in sys.stdin.read().splitlines():\n"
        "    r = CliRunner().invoke(app, [*line.split(), '--help'], env={'COLUMNS': '80'})\n"
        "    print('=== ' + line + ' ' + str(r.exit_code))\n"
        "    print(r.output)\n"
    )
    commands = [" ".join(c) for c in _commands()]
    assert "serve" in commands and "record convert" in commands and len(commands) >= 15
    out = subprocess.run(
        [sys.executable, "-c", code],
        input="\n".join(commands),
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    ).stdout
    parts = [part.split("\n", 1) for part in out.split("=== ")[1:]]
    helps = {head: text for head, text in parts}
    assert len(helps) == len(commands), out[-2000:]
    for head, text in helps.items():
        name, exit_code = head.rsplit(" ", 1)
        assert exit_code == "0", (name, text)
        for line in text.splitlines():
            assert len(line) <= 80, (name, line)
            assert "…" not in line, (name, line)
    serve = helps["serve 0"]
    deflate = serve[serve.index("--ws-deflate") :].split("\n  --", 1)[0]
    assert len(deflate.splitlines()) <= 5, deflate  # 11 lines in a squeezed column
    assert "[web]" in serve
    for name in ("sim 0", "tournament 0"):
        assert "unokit[ray]" in " ".join(helps[name].split()), name
