"""Game records (docs/record-format.md): the schema and the validator against
every producer, and against tampered records — a wrong shuffle reveal, a
changed deal, a removed command — each refused with the line that fails."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from unokit import Game
from unokit.records.commitment import DealCommitments, commitment, deal_text
from unokit.records.record import (
    Record,
    command_lines,
    load,
    load_all,
    loads,
    record_for_seat,
    record_of,
    schema,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "records"


def _played(variant: str = "classic", players: int = 3, seed: int = 8, rounds: int = 2) -> Game:
    """A match of random legal commands over ``rounds`` rounds (or to its end)."""
    g = Game.new(variant, players, {"targetScore": 100}, seed=seed)
    r = random.Random(seed)
    while g.round_no <= rounds:
        if g.state.name == "MATCH_OVER":
            break
        if g.state.name == "ROUND_OVER":
            if g.round_no == rounds:
                break
            g.next_round()
            continue
        g.apply(r.choice(g.legal_actions()))
    return g


def _committed(g: Game) -> Record:
    return record_of(
        g, ["Ann", "Ben", "Cy"][: g.n], bots=[None, "random", "random"][: g.n], commit=True
    )


def _problems(text: str) -> list[str]:
    return [str(p) for p in validate(loads(text), text)]


# ---------------------------------------------------------------- producers


def test_the_schema_is_a_valid_json_schema_and_accepts_a_record() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    rec = _committed(_played())
    jsonschema.validate(rec.to_dict(), schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**rec.to_dict(), "unokit_record": 3}, schema())


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_a_recorded_match_validates_and_replays(variant: str) -> None:
    g = _played(variant, 3, seed=21)
    text = _committed(g).dumps()
    assert _problems(text) == []
    rec = loads(text)
    assert rec.replay() == g
    assert [d["round"] for d in rec.deals] == list(range(1, g.round_no + 1))
    # rounds that are over reveal their salt; the round in progress does not
    over = g.state.name in ("ROUND_OVER", "MATCH_OVER")
    assert ("salt" in rec.deals[-1]) == over
    assert all("salt" in d for d in rec.deals[:-1])


def test_every_cli_producer_writes_valid_records(tmp_path: Path) -> None:
    """sim --save, tournament --save, play --save (the session), the sample
    dataset: their records pass the schema and the full replay."""
    from unokit.bots.sim import simulate
    from unokit.bots.tournament import parse_bots, run_tournament
    from unokit.tui.session import Session

    lines: list[str] = []
    simulate("flip", 3, 3, seed=2, bots=["heuristic"], match=True, records=lines)
    t: list[str] = []
    run_tournament("flex", 2, parse_bots("heuristic,random"), games=4, seed=1, workers=1, records=t)
    assert len(lines) == 3 and len(t) == 4
    for line in lines + t:
        assert _problems(line) == []
        meta = json.loads(line)["meta"]
        assert meta["seats"][0]["bot"] in ("heuristic", "random") and "ended" in meta
    path = tmp_path / "m.json"
    s = Session("classic", 3, seed=4, bots="heuristic", save=path)
    while not s.match_over and s.game.round_no < 2:
        if s.round_over:
            s.next_round()
        elif s.bot_to_act() is not None:
            s.bot_step()
        else:
            seat = s.human_to_act()
            assert seat is not None
            s.apply(s.observe(seat).legal[0])
    text = path.read_text()
    assert _problems(text) == []
    saved = loads(text)
    assert saved.names is not None and saved.names[0] == "You"
    assert saved.bots is not None and saved.bots[0] is None and saved.bots[1] == "heuristic"
    # the commitment the player was shown is the one saved
    assert saved.deals[-1]["commitment"] == s.commitment
    for sample in sorted(SAMPLE.glob("*.jsonl")):
        records = list(load_all(sample))
        assert len(records) == 5
        for _, rec in records:
            assert not isinstance(rec, Exception), rec
            assert validate(rec) == []


@pytest.mark.parametrize("module", ["uno_classic_v0", "uno_flip_v0", "uno_flex_v0"])
def test_environments_write_records(module: str) -> None:
    import importlib

    env = importlib.import_module(f"unokit.envs.{module}").raw_env(players=3)
    env.reset(seed=11)
    r = random.Random(0)
    for _ in range(200):
        if not env.agents:
            break
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else r.choice(env.legal_actions()))
    rec = env.to_record()
    text = rec.dumps()
    assert _problems(text) == []
    assert loads(text).replay() == env.game


def test_version_1_records_are_still_read_and_converted(tmp_path: Path) -> None:
    g = _played("classic", 2, seed=3, rounds=1)
    v1 = 'unokit-record 1\nvariant classic\nplayers 2\noptions {"targetScore":100}\nseed 3\n'
    v1 += "names Ann,Ben\n---\n" + "\n".join(g.commands or []) + "\n"
    rec = loads(v1)
    assert rec.version == 1 and rec.replay() == g and validate(rec) == []
    again = loads(rec.dumps())
    assert again.version == 2 and again.names == ["Ann", "Ben"] and again.replay() == g


# ---------------------------------------------------------------- seat views


def test_a_seat_view_hides_the_seed_and_shows_only_its_own_cards() -> None:
    g = _played("flip", 3, seed=5)
    full = _committed(g)
    view = record_for_seat(full, 1)
    d = view.to_dict()
    assert "seed" not in d and "position" not in d and d["view"] == 1
    jsonschema.validate(d, schema())
    # its hand after each change is the seat's real hand at that point
    games = list(full.games())
    cs = g.variant.cards.cards
    for entry in view.hands:
        assert entry["cards"] == [str(cs[c]) for c in games[entry["after"]].hands[1]]
    # finished rounds reveal their deal, the round in progress does not
    for entry in view.deals:
        finished = entry["round"] < g.round_no or g.state.name in ("ROUND_OVER", "MATCH_OVER")
        assert ("deal" in entry) == finished
        if finished:
            assert commitment(entry["deal"], entry["salt"]) == entry["commitment"]
    assert validate(loads(view.dumps())) == []
    with pytest.raises(Exception, match="cannot be replayed"):
        view.replay()


def test_a_live_view_reveals_nothing_of_the_round_in_progress() -> None:
    g = Game.new("classic", 2, seed=9)
    deals = DealCommitments()
    shown = deals.on_deal(g)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    rec = record_of(g, deals=deals)
    assert rec.deals == [{"round": 1, "commitment": shown}]
    view = record_for_seat(rec, 0, g)
    assert view.deals == [{"round": 1, "commitment": shown}]
    cs = g.variant.cards.cards
    assert view.hands[-1]["cards"] == [str(cs[c]) for c in g.hands[0]]
    assert view.seed is None and view.position is None


# ---------------------------------------------------------------- tampering


def _finished_round_record() -> tuple[Record, str]:
    g = _played("classic", 3, seed=8, rounds=2)
    rec = _committed(g)
    assert "salt" in rec.deals[0]  # round 1 is over: its salt is revealed
    return rec, rec.dumps()


def test_a_wrong_shuffle_reveal_is_refused() -> None:
    rec, text = _finished_round_record()
    bad = text.replace(rec.deals[0]["salt"], "0" * 32)
    problems = _problems(bad)
    assert problems and "round 1" in problems[0] and "committed hash" in problems[0]


def test_a_changed_deal_is_refused() -> None:
    """Another seed deals other cards: the commitment shown at the deal does
    not match what the engine makes of the revealed seed."""
    rec, _ = _finished_round_record()
    other = Record(
        rec.variant,
        rec.players,
        rec.options,
        seed=(rec.seed or 0) + 1,
        deals=rec.deals[:1],
        meta={"producer": "tampered"},
    )
    problems = [str(p) for p in validate(other)]
    assert any("round 1" in p and "committed hash" in p for p in problems), problems
    # and a deal committed for one deck but made from another is caught even
    # when every command happens to replay
    g = Game.new("classic", 2, seed=1)
    forged = {
        "round": 1,
        "commitment": commitment(deal_text(Game.new("classic", 2, seed=2)), "ab" * 16),
        "salt": "ab" * 16,
    }
    assert g.state.name == "AWAIT_TURN"
    r = Record("classic", 2, seed=1, deals=[forged])
    assert any("committed hash" in str(p) for p in validate(r))


def test_a_removed_command_is_refused_with_its_line() -> None:
    rec, text = _finished_round_record()
    lines = text.splitlines()
    at = command_lines(text)
    k = 10  # remove command 10: command 11 is then played by the wrong seat or card
    del lines[at[k - 1] - 1]
    bad = "\n".join(lines) + "\n"
    problems = validate(loads(bad), bad)
    assert problems, "a removed command must be noticed"
    first = problems[0]
    assert first.line is not None and first.command is not None
    # the line named is the line of the failing command in the file
    assert (
        bad.splitlines()[first.line - 1].strip().strip(",").strip('"')
        == rec.commands[first.command]
    )
    # removing the last command is caught by the result
    short = Record(
        rec.variant,
        rec.players,
        rec.options,
        rec.seed,
        commands=rec.commands[:-1],
        meta=rec.meta,
        deals=rec.deals,
    )
    assert any("meta.result" in str(p) or "salt" in str(p) for p in validate(short))


def test_a_salt_revealed_before_the_round_is_over_is_refused() -> None:
    g = Game.new("classic", 2, seed=9)
    deals = DealCommitments()
    deals.on_deal(g)
    rec = record_of(g, deals=deals)
    rec.deals[0]["salt"] = deals.salts[1]
    assert any("not over" in str(p) for p in validate(rec))


def test_cli_validate_names_the_file_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from unokit.cli import app

    rec, text = _finished_round_record()
    lines = text.splitlines()
    at = command_lines(text)
    lines[at[4] - 1] = '  "P0 PLAY W4 color=Q",'
    path = tmp_path / "bad.json"
    path.write_text("\n".join(lines) + "\n")
    out = CliRunner().invoke(app, ["record", "validate", str(path)])
    assert out.exit_code == 1
    assert f"{path}:{at[4]}: command 5: 'P0 PLAY W4 color=Q' cannot be replayed" in out.output
    assert out.output.strip().endswith("0 valid, 1 invalid")
    jsonl = tmp_path / "set.jsonl"
    good = rec.dumps_line()
    jsonl.write_text(good + "\n" + good.replace('"P', '"Q', 1) + "\n")
    out = CliRunner().invoke(app, ["record", "validate", str(jsonl)])
    assert out.exit_code == 1 and f"{jsonl}:1: ok" in out.output and f"{jsonl}:2:" in out.output


def test_load_refuses_junk_clearly(tmp_path: Path) -> None:
    from unokit.engine.errors import RecordError

    for junk in ("", "{", '{"unokit_record": 2}', "hello", '{"unokit_record": 2, "variant": "x"}'):
        with pytest.raises(RecordError):
            loads(junk)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "none.json")
