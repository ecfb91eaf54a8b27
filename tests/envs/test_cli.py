"""``unokit envs table`` and ``unokit envs layout``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from unokit.cli import app
from unokit.envs.actions import action_table
from unokit.envs.observation import (
    ActionLayout,
    FavouriteLayout,
    FeatureLayout,
    ObservationEncoder,
)

runner = CliRunner()


def test_table_json_is_the_action_table() -> None:
    result = runner.invoke(app, ["envs", "table", "flip", "--players", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["actions"] == list(action_table("flip", 3).names)
    assert data["size"] == 190


def test_layout_json_is_the_encoder_layout() -> None:
    result = runner.invoke(app, ["envs", "layout", "flex", "-o", "sevenZero=true", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    enc = ObservationEncoder("flex", 2, {"sevenZero": True})
    compact = FavouriteLayout(enc, action_table("flex", 2, {"sevenZero": True}))
    assert data["obs_layout"] == 5 and data["size"] == compact.size  # the default
    assert [(s["name"], s["offset"], s["length"]) for s in data["segments"]] == compact.describe()
    result = runner.invoke(
        app, ["envs", "layout", "flex", "-o", "sevenZero=true", "--json", "--obs-layout", "2"]
    )
    data = json.loads(result.output)
    layout = FeatureLayout(enc, action_table("flex", 2, {"sevenZero": True}))
    assert data["obs_layout"] == 2 and data["size"] == layout.size
    assert [(s["name"], s["offset"], s["length"]) for s in data["segments"]] == layout.describe()
    assert layout.describe()[: len(enc.describe())] == enc.describe()  # layout 1 comes first
    result = runner.invoke(
        app, ["envs", "layout", "flex", "-o", "sevenZero=true", "--json", "--obs-layout", "1"]
    )
    data = json.loads(result.output)
    assert [(s["name"], s["offset"], s["length"]) for s in data["segments"]] == enc.describe()
    result = runner.invoke(app, ["envs", "layout", "flex", "--json", "--obs-layout", "3"])
    data = json.loads(result.output)
    lay3 = ActionLayout(ObservationEncoder("flex", 2), action_table("flex", 2))
    assert data["size"] == lay3.size and data["segments"][-1]["name"] == "actions"
    result = runner.invoke(app, ["envs", "layout", "flex", "--json", "--obs-layout", "4"])
    data = json.loads(result.output)
    assert data["size"] == compact.size - 4 and "favourite" not in [
        s["name"] for s in data["segments"]
    ]
    result = runner.invoke(app, ["envs", "layout", "flex", "--obs-layout", "6"])
    assert result.exit_code == 2 and "obs_layout must be one of 1, 2, 3, 4, 5" in result.output


def test_table_is_printed_for_people() -> None:
    result = runner.invoke(app, ["envs", "table", "classic"])
    assert result.exit_code == 0
    assert "PLAY W color=G" in result.output and "CATCH +1" in result.output


def test_bad_input_is_a_clear_error() -> None:
    result = runner.invoke(app, ["envs", "table", "classic", "-o", "sevenZero=maybe"])
    assert result.exit_code == 2
    assert "not a boolean" in result.output
    result = runner.invoke(app, ["envs", "layout", "uno4", "--json"])
    assert result.exit_code == 2
    assert "uno4" in result.output and "classic" in result.output  # the choices
