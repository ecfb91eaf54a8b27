"""Leak test: whole matches with bots, human clients and a spectator; every
message any client received is checked against the server's true state.

For each ``state`` message of version ``v`` sent to seat ``s``:

* its observation equals ``game_v.observe(s).to_dict()`` exactly, where
  ``game_v`` is the game rebuilt from the room's stored log up to ``v`` (the
  server adds nothing of its own to a seat's view);
* independently of the engine's ``observe``: no card of another hand or of the
  draw pile appears anywhere in the message text, unless seat ``s`` has
  legitimately seen a card of the same notation (its own hand, the discard
  pile, cards played or turned this round, its own draws, a hand revealed to it
  by a challenge, all hands once the round is over);
* other seats' draws and revealed hands are redacted in the history.

No message ever carries a seat token or a match seed.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit import Game
from unokit.engine.cards import Card
from unokit.engine.events import CardTurned, Challenged, Drew, Flipped, Misplayed, Played
from unokit.web.app import create_app
from unokit.web.config import Settings
from unokit.web.room import Room

pytestmark = pytest.mark.timeout(300)

OPTIONS = {
    "classic": {"sevenZero": True, "stacking": "same_symbol"},
    "flip": {},
    "flex": {"drawUntilPlayable": True},
}


def play_human(ws: Any, seat: int, rnd: random.Random, leader: bool, errors: list[str]) -> None:
    """A client that plays random legal actions on its turn, sometimes catches
    out of turn, says ready at a round's end and stops at the end of the match."""
    acted = -1
    try:
        ws.send({"type": "hello", "token": ws.token})
        msg_id = 0
        while True:
            m = ws.recv()
            if m["type"] != "state" or m["observation"] is None:
                continue
            obs, version = m["observation"], m["version"]
            if obs["phase"] == "MATCH_OVER":
                return
            if version == acted:
                continue
            msg_id += 1
            if obs["phase"] == "ROUND_OVER":
                # the ready check: every person says ready, the last one's deals
                ws.send({"type": "ready", "id": msg_id})
                acted = version
                continue
            legal = obs["legal"]
            catches = [a for a in legal if " CATCH " in a]
            if obs["current"] == seat and legal:
                ws.send({"type": "command", "id": msg_id, "text": rnd.choice(legal)})
                acted = version
            elif catches and rnd.random() < 0.7:
                ws.send({"type": "command", "id": msg_id, "text": catches[0]})
                acted = version
    except Exception as e:  # reported by the test thread
        errors.append(f"seat {seat}: {type(e).__name__}: {e}")


def watch(ws: Any, errors: list[str]) -> None:
    try:
        ws.send({"type": "hello", "spectate": True})
        while True:
            m = ws.recv()
            if (
                m["type"] == "state"
                and m["observation"]
                and m["observation"]["phase"] == "MATCH_OVER"
            ):
                return
    except Exception as e:
        errors.append(f"spectator: {type(e).__name__}: {e}")


def known_cards(g: Game, seat: int | None) -> list[Card]:
    """Cards ``seat`` has legitimately seen (by the rules, not by ``observe``)."""
    out: list[Card] = list(g.discard_pile)
    if seat is not None:
        out += g.hand(seat)
    if g.is_over or g.state.name == "ROUND_OVER":
        for s in range(g.players):
            out += g.hand(s)
    for e in g.log or []:
        if isinstance(e, (Played, Misplayed, CardTurned)):
            out.append(e.card)
        elif isinstance(e, Flipped):
            out.append(e.top)
        elif isinstance(e, Drew) and e.seat == seat and e.cards:
            out += e.cards
        elif isinstance(e, Challenged) and e.seat == seat and e.revealed:
            out += e.revealed
    return out


def hidden_cards(g: Game, seat: int | None) -> list[Card]:
    out: list[Card] = list(g.draw_pile)
    for s in range(g.players):
        if s != seat:
            out += g.hand(s)
    return out


def rebuild(
    log: list[str], variant: str, players: int, options: dict[str, Any]
) -> list[Game | None]:
    """``games[v]``: the game after the first ``v`` lines of the room's log."""
    games: list[Game | None] = [None]
    g: Game | None = None
    for line in log:
        if line.startswith("#MATCH "):
            g = Game.new(variant, players, options, int(line[7:]))
        else:
            assert g is not None
            g = g.copy(events=True)
            g.apply(line)
        games.append(g)
    return games


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_no_hidden_card_ever_reaches_a_client(
    tmp_path: Any, room_helpers: Any, variant: str
) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'leak.sqlite3'}", bot_delay=0, burst=10_000, rate=10_000
    )
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "heuristic"},
        {"kind": "human"},
        {"kind": "bot", "level": "random"},
    ]
    with TestClient(create_app(settings)) as client:
        out = room_helpers.create(client, variant, seats, options=OPTIONS[variant])
        code = out["room"]
        joined = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
        tokens = {0: out["token"], 2: joined["token"]}
        errors: list[str] = []
        clients: dict[int | None, Any] = {}
        threads = []
        sessions = [room_helpers.connect(client, code) for _ in range(3)]
        entered = [s.__enter__() for s in sessions]
        try:
            for seat, session in zip((0, 2, None), entered, strict=True):
                ws = room_helpers.wrap(session)
                clients[seat] = ws
                if seat is None:
                    t = threading.Thread(target=watch, args=(ws, errors))
                else:
                    ws.token = tokens[seat]
                    t = threading.Thread(
                        target=play_human, args=(ws, seat, random.Random(seat), seat == 0, errors)
                    )
                threads.append(t)
                t.start()
            for t in threads:
                t.join(timeout=240)
                assert not t.is_alive(), "the match did not finish"
        finally:
            for s in sessions:
                s.__exit__(None, None, None)
        assert not errors, errors
        room: Room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
        log = list(room.log)
    assert room.game is not None and room.game.is_over
    assert max(room.game.scores) >= 500 or room.game.match_winners

    games = rebuild(log, variant, 4, OPTIONS[variant])
    assert games[-1] == room.game
    seeds = [line[7:] for line in log if line.startswith("#MATCH ")]
    checked = 0
    kinds: set[str] = set()
    for seat, ws in clients.items():
        assert ws.seen and len(ws.seen) == len(ws.raw)
        for raw, msg in zip(ws.raw, ws.seen, strict=True):
            for token in tokens.values():
                assert token not in raw
            for seed in seeds:
                assert seed not in raw
            if msg["type"] != "state" or msg["observation"] is None:
                continue
            g = games[msg["version"]]
            assert g is not None
            obs = msg["observation"]
            assert obs == json.loads(json.dumps(g.observe(seat).to_dict()))
            # independent of observe(): nothing hidden is named anywhere in the text
            known = {str(c) for c in known_cards(g, seat)}
            secret = {str(c) for c in hidden_cards(g, seat)} - known
            for name in secret:
                assert f'"{name}"' not in raw, (seat, msg["version"], name)
            for ev in obs["history"]:
                kinds.add(ev["type"])
                if ev["type"] == "Drew" and ev["seat"] != seat:
                    assert ev["cards"] is None
                if ev["type"] == "Challenged" and ev["seat"] != seat:
                    assert ev["revealed"] is None
            if seat is None:
                assert obs["hand"] == [] and obs["legal"] == []
            checked += 1
    assert checked > 100
    assert {"Played", "Drew"} <= kinds
