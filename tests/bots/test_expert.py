"""The expert level: a value network evaluated with NumPy, search guided by it,
and its training (a smoke run of ``unokit train``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.expert import ExpertBot
from unokit.bots.net import (
    FEATURES_VERSION,
    StateFeatures,
    ValueNet,
    calibrate,
    load_value_net,
)
from unokit.cli import app
from unokit.engine.actions import Play
from unokit.engine.errors import OptionError

runner = CliRunner()
DATA = Path(__file__).resolve().parents[2] / "src" / "unokit" / "data"


def test_value_net_round_trip(tmp_path: Path) -> None:
    f = StateFeatures("flip", 3)
    net = ValueNet.random(f.size, (16, 8), seed=2, meta={"variant": "flip", "players": 3})
    g = Game.new("flip", 3, seed=5)
    x = np.stack([f.vector(g, s) for s in range(3)])
    path = tmp_path / "v.npz"
    net.save(path)
    back = ValueNet.load(path)
    assert back.meta == net.meta and back.inputs == f.size
    assert np.allclose(back.predict(x), net.predict(x), atol=2e-2)  # float16 weights
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(OptionError):
        ValueNet.load(tmp_path / "bad.npz")


def test_features_see_the_sampled_state_from_one_seat() -> None:
    """The features of a state from seat 0 and seat 1 differ (hands swap
    places), and a card moving between the other hands changes them."""
    f = StateFeatures("classic", 2)
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "B2"], ["G1", "G2", "Y3"]],
        draw=["Y1", "Y2"],
        discard=["R3"],
        current=0,
    )
    a, b = f.vector(g, 0), f.vector(g, 1)
    assert a.shape == b.shape == (f.size,) and not np.array_equal(a, b)
    assert float(a.max()) <= 1.0


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_shipped_networks(variant: str) -> None:
    """A network per variant ships in the package (2 players), small, for the
    current feature layout, and the expert uses it."""
    path = DATA / f"value-{variant}-2p.npz"
    assert path.is_file() and path.stat().st_size <= 5_000_000
    net = load_value_net(variant, 2)
    assert net is not None and net.meta["features"] in (1, FEATURES_VERSION)
    g = Game.new(variant, 2, {"matchMode": "single_round"}, seed=4)
    bot = ExpertBot(seed=1, sims=60)
    moves = 0
    while g.phase < 4 and moves < 40:
        obs = g.observe(g.current)
        a = bot.act(obs)
        assert g.is_legal(a)
        g.apply(a)
        moves += 1
    assert bot.used_net or moves < 3


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_shipped_networks_see_their_training_layout(variant: str) -> None:
    """Each shipped network gets the inputs of the layout it was trained on: one
    card of the own hand weighs 1/deck in layout 1 (the encoder's bound when
    the Flip and Flex networks were trained; the encoder's later per-card
    bound made their inputs 27-108 times too large and their chances 1% or
    99%), 1/2 in layout 2; and at the deal, over a few deals, the chances are
    moderate, as in a real game."""
    net = load_value_net(variant, 2)
    assert net is not None
    version = int(net.meta["features"])
    f = StateFeatures(variant, 2, version=version)
    x = f.vector(Game.new(variant, 2, seed=1), 0)[f.encoder.slice("hand")]
    deck = float(f.encoder.high[f.encoder.slice("hand_sizes")][0])
    assert float(x[x > 0].min()) == pytest.approx(1.0 / deck if version == 1 else 0.5)
    chances = []
    for seed in range(8):
        d = Game.new(variant, 2, {"matchMode": "single_round"}, seed=seed)
        chances += net.predict(np.stack([f.vector(d, 0), f.vector(d, 1)])).tolist()
    assert 0.3 < float(np.mean(chances)) < 0.7 and max(chances) < 0.95 and min(chances) > 0.05


def test_calibration_maps(tmp_path: Path) -> None:
    """``calibrate``: no map is the identity, ``[a, b]`` alone is Platt scaling
    (files written before the monotone map keep their chances), the identity
    map changes nothing, a fitted map is monotone (also beyond its end knots),
    is preferred to ``[a, b]`` when a file has both, and loads from the npz."""
    z = np.linspace(-12.0, 12.0, 241, dtype=np.float32)
    assert np.array_equal(calibrate(z, {}), z)
    assert np.allclose(calibrate(z, {"calibration": [1.1, 0.25]}), 1.1 * z + 0.25, atol=1e-5)
    ident = {"calibration_map": [[-2.0, 0.0, 3.0], [-2.0, 0.0, 3.0]]}
    assert np.allclose(calibrate(z, ident), z, atol=1e-5)
    cmap = [[-3.0, -1.0, 0.0, 1.5, 4.0], [-4.0, -1.2, 0.1, 1.5, 3.0]]
    out = calibrate(z, {"calibration_map": cmap, "calibration": [5.0, 5.0]})
    assert out.dtype == np.float32 and bool(np.all(np.diff(out) > 0))
    assert np.allclose(
        calibrate(np.array(cmap[0], dtype=np.float32), {"calibration_map": cmap}),
        cmap[1],
        atol=1e-5,
    )
    f = StateFeatures("classic", 2)
    net = ValueNet.random(f.size, (8,), seed=1, meta={"variant": "classic", "players": 2})
    x = np.stack([f.vector(Game.new("classic", 2, seed=s), 0) for s in range(20)])
    raw = net.predict(x)
    net.meta["calibration"] = [1.3, 0.1]
    platt = net.predict(x)
    net.meta["calibration_map"] = cmap
    net.save(tmp_path / "cal.npz")
    back = ValueNet.load(tmp_path / "cal.npz")
    assert back.meta["calibration_map"] == cmap and back.meta["calibration"] == [1.3, 0.1]
    mapped = back.predict(x)
    z0 = back.logits(x)
    assert np.allclose(
        mapped, 1 / (1 + np.exp(-calibrate(z0, {"calibration_map": cmap}))), atol=1e-5
    )
    order = np.argsort(z0)  # the map keeps the order of the positions
    assert bool(np.all(np.diff(mapped[order]) >= 0)) and bool(np.all(np.diff(raw[order]) >= 0))
    assert not np.allclose(platt, raw)


def test_total_data_shipped_is_small() -> None:
    assert sum(p.stat().st_size for p in DATA.glob("*.npz")) <= 5_000_000


def test_expert_without_a_network_searches_like_hard() -> None:
    """No network for 3 players: the expert's decisions are hard's."""
    g = Game.new("classic", 3, {"matchMode": "single_round"}, seed=2)
    for _ in range(12):
        if g.phase >= 4:
            break
        obs = g.observe(g.current)
        e = ExpertBot(seed=3, sims=50)
        h = make_bot("hard", seed=3, sims=50)
        a = e.act(obs)
        assert a == h.act(obs)
        assert not e.used_net
        g.apply(a)


def test_expert_is_reproducible_and_takes_a_forced_win() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["RS", "R5"], ["G1", "G2", "G3", "Y4", "B6"]],
        draw=["G7", "Y8", "B9", "G5", "Y6", "B1"],
        discard=["R3"],
        current=0,
    )
    acts = [ExpertBot(seed=4, sims=100).act(g.observe(0)) for _ in range(2)]
    assert acts[0] == acts[1]
    assert isinstance(acts[0], Play) and str(acts[0].card) == "RS" and acts[0].uno


def test_bad_expert_options_are_refused(tmp_path: Path) -> None:
    for bad in (
        {"leaf": "oracle"},
        {"depth": -1},
        {"depth": "deep"},
        {"sims": 0},
        {"net": str(tmp_path / "missing.npz")},
    ):
        with pytest.raises(OptionError):
            make_bot("expert", **bad)


def test_training_smoke_run(tmp_path: Path) -> None:
    """``unokit train`` end to end in well under two minutes: self-play, a few
    epochs, the weights for NumPy, the log and the learning curve; the expert
    plays with the weights it wrote."""
    cfg = tmp_path / "smoke.toml"
    cfg.write_text(
        "games = 400\nepochs = 4\nhidden = [32]\nlr = 0.003\n"
        "data_seconds = 40\ntrain_seconds = 40\n"
    )
    out = tmp_path / "run"
    r = runner.invoke(
        app,
        ["train", "--variant", "classic", "--config", str(cfg), "--seed", "3", "--out", str(out)],
    )
    assert r.exit_code == 0, r.output
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert [row["epoch"] for row in log] == [1, 2, 3, 4]
    assert log[-1]["train_loss"] < log[0]["train_loss"]
    assert log[-1]["val_loss"] < 0.6932  # better than a coin (ln 2)
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rounds"] == 400 and summary["positions"] > 1000
    # the exported weights are those of the epoch with the lowest validation loss
    best = min(log, key=lambda row: row["val_loss"])
    assert summary["best_epoch"] == best["epoch"]
    weights = out / "value-classic-2p.npz"
    net = ValueNet.load(weights)
    assert net.meta["variant"] == "classic" and net.meta["players"] == 2
    assert net.meta["val_loss"] == pytest.approx(best["val_loss"], abs=1e-4)
    bot = ExpertBot(seed=0, sims=40, net=str(weights))
    g = Game.new("classic", 2, seed=8)
    while not bot.used_net and g.phase < 4:
        a = bot.act(g.observe(g.current))
        assert g.is_legal(a)
        g.apply(a)
    assert bot.used_net


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("games = 'many'\n", "bad value"),
        ("colour = 3\n", "unknown settings"),
        ("epochs = 0\n", "positive"),
        ("hidden = [\n", "not valid"),
    ],
)
def test_train_refuses_bad_configs(tmp_path: Path, text: str, message: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    out = tmp_path / "out"
    r = runner.invoke(app, ["train", "--config", str(cfg), "--out", str(out)])
    assert r.exit_code == 2 and message in " ".join(r.output.split())
    assert not out.exists()
