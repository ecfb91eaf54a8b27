"""The new commands check their arguments before doing any work, and a missing
optional package is one line with its install command (exit 2)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from unokit.agents.cli import need
from unokit.cli import app

runner = CliRunner()


def test_a_missing_extra_is_one_line_with_the_install_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(typer.Exit) as e:
        need("unokit_no_such_package", "mcp")
    assert e.value.exit_code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err == "error: this command needs the 'mcp' extra: pip install 'unokit[mcp]'"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mcp", "--transport", "carrier-pigeon"], "is not stdio or http"),
        (["mcp", "--transport", "http", "--port", "0"], "must be 1 to 65535"),
        (["bot", "connect", "http://127.0.0.1:8000/r/abc"], "seat token"),
        (["bot", "connect", "ftp://x/r/abc", "--token", "t"], "is not a room link"),
        (["tournament", "--engine", "/no/such/engine", "--games", "1"], "not found"),
        (
            ["play", "--plain", "--players", "2", "--hotseat", "2", "--engine", "sh"],
            "--engine needs a bot seat",
        ),
    ],
)
def test_bad_arguments_are_refused_at_once(args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())
