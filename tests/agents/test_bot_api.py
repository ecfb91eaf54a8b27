"""External bots in web rooms, over a real `unokit serve` on 127.0.0.1: the
example client plays a whole match against the server's bots; `unokit bot
connect` runs our levels and an engine remotely; a bot that sends a wrong
token, illegal moves, a flood and then times out does not disturb the others."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.timeout(240)
ROOT = Path(__file__).resolve().parents[2]
UNOKIT = [sys.executable, "-m", "unokit"]
LOGS: list[Path] = []  # the server's log file


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    where = tmp_path_factory.mktemp("serve")
    log = (where / "server.log").open("w")
    LOGS.append(where / "server.log")
    proc = subprocess.Popen(
        [*UNOKIT, "serve", "--port", str(port), "--db", f"sqlite:///{where / 'rooms.sqlite3'}",
         "--bot-delay", "0",
         # every client here shares 127.0.0.1, as players on different machines would
         # not: the flooding bot must meet its connection's limit, not eat the
         # address's budget of the bot beside it
         "--ws-addr-rate", "1000"],
        stdout=log, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # at most 30 s to start
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, (where / "server.log").read_text()
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def create(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"variant": "classic", "seats": seats, "options": {"targetScore": 40}, "name": "Host",
            **extra}  # fmt: skip
    r = httpx.post(base + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_the_example_client_plays_a_whole_match(server: str) -> None:
    room = create(
        server,
        [
            {"kind": "human", "external": True},
            {"kind": "bot", "level": "heuristic"},
            {"kind": "bot", "level": "random"},
        ],
    )
    assert room["external"] == [{"seat": 0, "token": room["token"]}]
    assert room["info"]["status"] == "playing"  # every seat is taken: the match is on
    link = server + room["invite"]
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "bot_client.py"), link,
                          room["token"]], capture_output=True, text=True, timeout=200)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "match over; winners:" in out.stdout
    scores = json.loads(out.stdout.split("scores:")[1].strip())
    assert max(scores) >= 40  # the match was played to its target score


def test_bot_connect_with_a_level_and_with_an_engine(server: str, tmp_path: Path) -> None:
    exe = tmp_path / "firstplay"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(ROOT / "examples/engine/firstplay.c")],
                   check=True)  # fmt: skip
    room = create(server, [{"kind": "human"}, {"kind": "human", "external": True, "name": "Hard"},
                           {"kind": "human", "external": True, "name": "Engine"}],
                  variant="flip")  # fmt: skip
    # the host keeps seat 0 and gets one token per reserved seat
    assert room["seat"] == 0 and [e["seat"] for e in room["external"]] == [1, 2]
    names = [s["name"] for s in room["info"]["seats"]]
    assert names == ["Host", "Hard", "Engine"]
    link = server + room["invite"]
    bots = [
        subprocess.Popen([*UNOKIT, "bot", "connect", link, "--token", room["external"][0]["token"],
                          "--level", "hard", "--think-ms", "20", "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
        subprocess.Popen([*UNOKIT, "bot", "connect", link, "--token", room["external"][1]["token"],
                          "--engine", str(exe), "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
    ]  # fmt: skip
    # the host plays its own seat with the level normal, through the same command
    host = subprocess.run([*UNOKIT, "bot", "connect", link, "--token", room["token"], "-q"],
                          capture_output=True, text=True, timeout=200)  # fmt: skip
    assert host.returncode == 0, host.stderr
    for p in bots:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert "1 match(es) over" in out and "; 0 errors" in out
    assert "as P0; 1 match(es) over" in host.stdout


def test_bad_arguments_are_refused_before_connecting(server: str) -> None:
    cases = [
        (["bot", "connect", "http://127.0.0.1:1/x", "--token", "t"], "is not a room link"),
        (["bot", "connect", server + "/r/abc", "--level", "normal"], "seat token"),
        (
            ["bot", "connect", server + "/r/abc", "--token", "t", "--level", "grandmaster"],
            "unknown bot 'grandmaster'",
        ),
        (
            ["bot", "connect", server + "/r/abc", "--token", "t", "--engine", "/no/such/engine"],
            "not found",
        ),
        (["bot", "connect", server + "/r/abc", "--token", "t", "--matches", "0"], "at least 1"),
    ]
    for args, message in cases:
        out = subprocess.run([*UNOKIT, *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert message in out.stderr.replace("\n", " "), (args, out.stderr)


async def test_a_misbehaving_bot_does_not_disturb_the_others(server: str) -> None:
    import asyncio

    import websockets

    room = create(server, [{"kind": "human", "external": True, "name": "Good"},
                           {"kind": "human", "external": True, "name": "Bad"},
                           {"kind": "bot", "level": "heuristic"}],
                  turn_timer=5)  # fmt: skip
    good, bad = room["external"][0]["token"], room["external"][1]["token"]
    link = server + room["invite"]
    url = link.replace("http", "ws", 1).replace("/r/", "/ws/")
    proc = await asyncio.create_subprocess_exec(
        *UNOKIT, "bot", "connect", link, "--token", good,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)  # fmt: skip
    codes: list[str] = []
    timed_out = False
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        await ws.send(json.dumps({"type": "hello", "token": bad}))
        await ws.send(json.dumps({"type": "command", "text": "PLAY R99"}))  # no such card
        for _ in range(40):  # a flood of illegal moves, not even waiting for answers
            await ws.send(json.dumps({"type": "command", "text": "CATCH P1"}))
        seat = None
        silent = True  # first it lets its turn time out, then it plays
        answered = None
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "error":
                codes.append(msg["code"])
            elif msg["type"] == "welcome":
                seat = msg["seat"]
            elif msg["type"] == "state" and msg["observation"]:
                obs = msg["observation"]
                if obs["phase"] not in ("ROUND_OVER", "MATCH_OVER"):  # its own view only
                    assert obs["final_hands"] is None and obs["seat"] == seat
                    assert len(obs["hand"]) == obs["hand_sizes"][seat]
                last = msg.get("last") or {}
                if last.get("by") == "timer" and last.get("seat") == seat:
                    timed_out, silent = True, False
                if obs["phase"] == "MATCH_OVER":
                    break
                if silent or msg["version"] == answered:
                    continue
                if obs["phase"] == "ROUND_OVER":
                    answered = msg["version"]
                    await ws.send(json.dumps({"type": "next_round"}))
                elif obs["current"] == seat and obs["legal"]:
                    answered = msg["version"]
                    await ws.send(json.dumps({"type": "command", "text": obs["legal"][0]}))
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert "1 match(es) over" in out.decode() and "; 0 errors" in out.decode(), out.decode()[-2500:]
    assert seat == 1 and "bad_token" in codes  # a wrong token is refused, the right one works
    assert "bad_command" in codes and "illegal" in codes  # each answered with its reason
    assert "rate_limited" in codes  # the flood was cut
    assert timed_out  # the room played for the silent bot when its time ran out
    assert "P1 ran out of time; the server played P1 " in LOGS[-1].read_text()  # and logged it


async def test_a_move_overtaken_by_the_turn_timer_is_not_applied(server: str) -> None:
    """The bot client names the version it decided on: when the turn timer
    plays for its seat while it is still deciding, its late move is refused as
    ``stale`` (or, if the timer made that very move, acknowledged as a replay),
    nothing is applied twice, no error is counted, and it plays on from the
    new state. (Without the version the late move was applied to whatever
    state the room had reached, or refused as illegal, depending on timing.)"""
    import asyncio
    import threading

    import websockets

    from unokit.agents.botclient import BotClient
    from unokit.bots import make_bot
    from unokit.engine.observation import Observation

    room = create(server, [{"kind": "human", "external": True, "name": "Slow"},
                           {"kind": "human", "external": True, "name": "Watcher"}],
                  turn_timer=5)  # fmt: skip
    slow, watcher = room["external"][0]["token"], room["external"][1]["token"]
    overtaken = threading.Event()  # set once the timer has played for the slow seat
    decided: list[int] = []

    class Slow:
        """``heuristic``, but its first decision waits until the timer has played for it."""

        name = "slow"

        def __init__(self) -> None:
            self.inner = make_bot("heuristic", seed=1)

        def act(self, obs: Observation) -> Any:
            decided.append(obs.seat if obs.seat is not None else -1)
            if len(decided) == 1:
                assert overtaken.wait(60), "the turn timer never played for the slow seat"
            return self.inner.act(obs)

    client = BotClient(server + room["invite"], slow, Slow())  # type: ignore[arg-type]
    task = asyncio.create_task(client.run())
    url = (server + room["invite"]).replace("http", "ws", 1).replace("/r/", "/ws/")
    seat = None
    async with websockets.connect(url) as ws:  # the other seat: watches, never plays
        await ws.send(json.dumps({"type": "hello", "token": watcher}))
        async with asyncio.timeout(90):
            while not (client.result.stale + client.result.replays and client.result.moves):
                msg = json.loads(await ws.recv())
                if msg["type"] == "welcome":
                    seat = msg["seat"]
                last = msg.get("last") or {} if msg["type"] == "state" else {}
                if last.get("by") == "timer" and last.get("seat") != seat and decided:
                    overtaken.set()
                assert not task.done(), task.exception() or task.result()
    task.cancel()
    res = client.result
    assert res.stale + res.replays >= 1 and res.errors == []  # refused, not an error
    assert res.moves >= 1  # and it played on from a later state
