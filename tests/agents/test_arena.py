"""``unokit arena``: prompts, the answer parser, retries, forfeits, votes,
timeouts, costs, an OpenAI-compatible endpoint (mocked: no network) and the
Elo table, all offline."""

from __future__ import annotations

import json
from collections.abc import Sequence

import httpx
import pytest
from typer.testing import CliRunner

from unokit import Game
from unokit.agents.arena import (
    ArenaPolicy,
    Message,
    ModelPlayer,
    OpenAIModel,
    Reply,
    ScriptedModel,
    Usage,
    parse_answer,
    parse_players,
    prompt_messages,
    run_arena,
)
from unokit.cli import app
from unokit.engine.actions import Draw, Play
from unokit.engine.errors import BotFailure, OptionError
from unokit.engine.narration import move_commands

runner = CliRunner()


class Recorder:
    """A model that answers from a script and keeps every conversation it saw."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.name = "recorder"
        self.inner = ScriptedModel(script=answers)
        self.seen: list[list[Message]] = []

    def complete(self, messages: Sequence[Message], timeout: float) -> Reply:
        self.seen.append(list(messages))
        return self.inner.complete(messages, timeout)


def _turn() -> tuple[Game, int]:
    """A classic position where the seat to act may draw or play."""
    g = Game.new("classic", 2, seed=3)
    return g, g.current


def test_cli_scripted_against_heuristic_gives_an_elo_table() -> None:
    res = runner.invoke(
        app, ["arena", "--players", "scripted,heuristic", "--games", "20", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["games"] == 20
    assert set(out["bots"]) == {"scripted", "heuristic"}
    for stats in out["bots"].values():
        assert stats["games"] == 20  # every game has both, each seat in turn
        lo, hi = stats["elo_ci95"]
        assert lo <= stats["elo"] <= hi
    assert out["bots"]["scripted"]["elo"] + out["bots"]["heuristic"]["elo"] == pytest.approx(3000)
    usage = out["usage"]["scripted"]
    assert usage["decisions"] > 20 and usage["requests"] == usage["decisions"]
    assert usage["prompt_tokens"] > 0 and usage["illegal_answers"] == 0
    # the table, not JSON
    res = runner.invoke(app, ["arena", "--players", "scripted,heuristic", "--games", "4"])
    assert res.exit_code == 0 and "Elo (95% CI)" in res.stdout and "scripted" in res.stdout


def test_duplicate_deals_seat_both_players_on_each_deal() -> None:
    r = run_arena("classic", 2, parse_players("scripted,random"), games=6, seed=5)
    deals: dict[int, list[tuple[int, ...]]] = {}
    for g in r.result.results:
        deals.setdefault(g.deal, []).append(g.lineup)
    assert sorted(deals) == [5, 6, 7]
    assert all(sorted(ups) == [(0, 1), (1, 0)] for ups in deals.values())


def test_the_prompt_has_the_rules_the_observation_and_every_legal_move() -> None:
    g, seat = _turn()
    obs = g.observe(seat)
    system, user = prompt_messages(obs)
    assert system["role"] == "system" and "Wild Draw Four" in system["content"]
    assert "Move:" in system["content"]
    assert obs.to_text() in user["content"]
    for i, cmd in enumerate(move_commands(obs), 1):
        assert f"\n{i}. {cmd}\n" in user["content"] + "\n"


def test_parser_reads_commands_numbers_and_engine_notation() -> None:
    g, seat = _turn()
    obs = g.observe(seat)
    draw = Draw(seat)
    assert parse_answer("I think drawing is best.\nMove: draw", obs) == draw
    assert parse_answer("**Move:** `[draw]`.", obs) == draw
    k = obs.legal.index(draw) + 1
    assert parse_answer(f"Final answer: {k}", obs) == draw
    assert parse_answer(f"P{seat} DRAW", obs) == draw
    play = next(a for a in obs.legal if isinstance(a, Play))
    cmd = move_commands(obs)[obs.legal.index(play)]
    assert parse_answer(f"Let me see...\n\nMove: {cmd}\n", obs) == play
    # reasons, not moves
    assert "empty" in str(parse_answer("  ", obs))
    assert "you do not hold X11" not in str(parse_answer("Move: play X11", obs))
    assert "cannot be read" in str(parse_answer("Move: play X11", obs))
    assert "no move number 99" in str(parse_answer("Move: 99", obs))
    assert "not one of your legal moves" in str(parse_answer(f"P{seat} PASS", obs))
    assert "cannot be read" in str(parse_answer("Hmm, hard to say.", obs))


def test_an_illegal_answer_is_retried_with_the_reason_then_forfeited() -> None:
    g, seat = _turn()
    obs = g.observe(seat)
    model = Recorder(["Move: play X11", "I pass.\nMove: pass", "Move: 42"])
    usage = Usage()
    player = ModelPlayer(model, ArenaPolicy(retries=2), usage)
    with pytest.raises(BotFailure) as err:
        player.act(obs)
    assert err.value.seat == seat
    assert "after 3 attempt(s)" in str(err.value) and "no move number 42" in str(err.value)
    assert len(model.seen) == 3  # the first try and two retries, then no more
    second = model.seen[1]
    assert second[-2] == {"role": "assistant", "content": "Move: play X11"}
    assert (
        second[-1]["role"] == "user"
        and "not accepted: 'play X11' cannot be read" in second[-1]["content"]
    )
    assert "'pass' is not one of your legal moves" in model.seen[2][-1]["content"]
    assert (usage.decisions, usage.requests, usage.illegal, usage.retries, usage.forfeits) == (
        1, 3, 3, 1, 1,
    )  # fmt: skip


def test_a_retry_that_names_a_legal_move_is_played() -> None:
    g, seat = _turn()
    model = Recorder(["Move: play X11", "Move: draw"])
    usage = Usage()
    action = ModelPlayer(model, ArenaPolicy(retries=1), usage).act(g.observe(seat))
    assert action == Draw(seat)
    assert (usage.illegal, usage.retries, usage.forfeits) == (1, 1, 0)


def test_forfeit_fallback_plays_draw_and_the_game_goes_on() -> None:
    g, seat = _turn()
    usage = Usage()
    model = ScriptedModel(script=["nothing", "nothing"])
    action = ModelPlayer(model, ArenaPolicy(retries=1, forfeit="fallback"), usage).act(
        g.observe(seat)
    )
    assert action == Draw(seat) and usage.fallbacks == 1 and usage.forfeits == 1


def test_a_player_that_always_answers_illegally_loses_by_forfeit() -> None:
    specs = parse_players("scripted:illegal=1,random", ArenaPolicy(retries=1))
    r = run_arena("classic", 2, specs, games=4, seed=2)
    stats = r.result.bots["scripted:illegal=1"]
    assert stats.forfeits == 4 and stats.wins == 0
    assert all("named no legal move after 2 attempt(s)" in f["reason"] for f in r.result.forfeits())
    assert r.usage["scripted:illegal=1"].requests == 8  # two per game, then the loss


def test_timeouts_count_as_failed_attempts_and_the_clock_bounds_a_decision() -> None:
    g, seat = _turn()
    obs = g.observe(seat)
    usage = Usage()
    model = Recorder(["<timeout>", "Move: draw"])
    assert ModelPlayer(model, ArenaPolicy(retries=1), usage).act(obs) == Draw(seat)
    assert usage.timeouts == 1 and usage.forfeits == 0
    # a decision whose time is used up asks no more, whatever the retries left
    now = [0.0]

    def clock() -> float:
        now[0] += 40.0  # every look at the clock: 40 s later
        return now[0]

    usage = Usage()
    slow = Recorder(["Move: play X11"] * 10)
    player = ModelPlayer(slow, ArenaPolicy(retries=5, move_timeout=60), usage, clock=clock)
    with pytest.raises(BotFailure, match=r"no time left for another attempt \(60 s a move\)"):
        player.act(obs)
    assert len(slow.seen) == 1 and usage.forfeits == 1


def test_majority_vote_plays_the_move_named_most() -> None:
    g, seat = _turn()
    obs = g.observe(seat)
    play = next(a for a in obs.legal if isinstance(a, Play))
    cmd = move_commands(obs)[obs.legal.index(play)]
    usage = Usage()
    model = Recorder(["Move: draw", f"Move: {cmd}", f"Move: {cmd}"])
    assert ModelPlayer(model, ArenaPolicy(votes=3), usage).act(obs) == play
    assert usage.requests == 3


def test_openai_compatible_endpoint_with_key_tokens_and_cost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("UNOKIT_ARENA_API_KEY", "sk-test")
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = json.loads(request.content)
        prompt = body["messages"][-1]["content"]
        move = "draw" if "\n" in prompt else "draw"
        return httpx.Response(200, json={
            "choices": [{"message": {"role": "assistant", "content": f"Move: {move}"}}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 10},
        })  # fmt: skip

    specs = parse_players(
        "openai:test-model:url=http://llm.invalid/v1,random",
        ArenaPolicy(retries=0),
        price_in=2.0,
        price_out=8.0,
        transport=httpx.MockTransport(handler),
    )
    r = run_arena("classic", 2, specs, games=2, seed=1)
    u = r.usage["openai:test-model:url=http://llm.invalid/v1"]
    assert u.requests == u.decisions == len(seen) > 0
    assert u.prompt_tokens == 1000 * u.requests and u.completion_tokens == 10 * u.requests
    assert u.cost == pytest.approx(u.requests * (1000 * 2.0 + 10 * 8.0) / 1e6)
    req = seen[0]
    assert str(req.url) == "http://llm.invalid/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-test"
    body = json.loads(req.content)
    assert body["model"] == "test-model" and body["messages"][0]["role"] == "system"


def test_an_endpoint_error_is_a_forfeit_with_the_status() -> None:
    model = OpenAIModel(
        "m", base_url="http://llm.invalid/v1", api_key="k",
        transport=httpx.MockTransport(lambda request: httpx.Response(500, text="overloaded")),
    )  # fmt: skip
    g, seat = _turn()
    with pytest.raises(BotFailure, match="HTTP 500: overloaded"):
        ModelPlayer(model, ArenaPolicy(), Usage()).act(g.observe(seat))


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("openai", "name the model"),
        ("scripted:colour=1", "bad option"),
        ("scripted:illegal=2", "share in 0..1"),
        ("nobody", "unknown bot"),
    ],
)
def test_bad_players_are_refused(players: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse_players(players)


def test_bad_policies_are_refused_by_the_cli() -> None:
    res = runner.invoke(app, ["arena", "--forfeit", "shrug", "--games", "1"])
    assert res.exit_code == 2 and "forfeit must be one of loss, fallback" in res.output
    res = runner.invoke(app, ["arena", "--players", "scripted", "--games", "1"])
    assert res.exit_code == 2 and "at least two players" in res.output


@pytest.mark.parametrize("variant", ["flip", "flex"])
def test_scripted_plays_every_variant(variant: str) -> None:
    specs = parse_players("scripted:illegal=0.2:garbage=0.1:timeout=0.1,heuristic")
    r = run_arena(variant, 3, specs, games=4, seed=1)
    u = r.usage["scripted:illegal=0.2:garbage=0.1:timeout=0.1"]
    assert u.illegal > 0 and u.timeouts > 0 and u.retries > 0
    assert r.result.games == 4
