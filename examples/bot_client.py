"""A bot for a unokit web room, in one file: it needs only `websockets`.

    python examples/bot_client.py http://127.0.0.1:8000/r/ROOMCODE SEAT_TOKEN

The host reserves a seat for it (docs/bot-api.md) and gives it the token. It
plays the first legal card (calling UNO when it plays its second-last card),
else draws, deals the next round when one is over, and stops when the match
is over. Everything it sees is its own seat's view, as a person's page.
"""

import asyncio
import json
import sys

import websockets


async def play(link: str, token: str) -> None:
    url = link.replace("http", "ws", 1).replace("/r/", "/ws/")
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat, answered = None, None
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "welcome":
                seat = msg["seat"]
            elif msg["type"] == "error":
                print("server says:", msg["code"], msg["message"], file=sys.stderr)
                # The command was not taken (dropped by the rate limit, or the
                # state moved on): wait a moment, ask for the state again and
                # answer that; waiting for a state that may never come hangs.
                answered = None
                await asyncio.sleep(1.0 if msg["code"] == "rate_limited" else 0.1)
                await ws.send(json.dumps({"type": "resync"}))
            elif msg["type"] == "state" and msg["observation"]:
                obs, version = msg["observation"], msg["version"]
                if version == answered:
                    continue
                if obs["phase"] == "MATCH_OVER":
                    print("match over; winners:", obs["match_winners"], "scores:", obs["scores"])
                    return
                if obs["phase"] == "ROUND_OVER":
                    answered = version
                    # the ready check: dealt once every person at the table is ready
                    await ws.send(json.dumps({"type": "ready"}))
                elif obs["current"] == seat and obs["legal"]:
                    plays = [m for m in obs["legal"] if " PLAY " in m]
                    move = plays[0] if plays else obs["legal"][0]
                    if plays and len(obs["hand"]) == 2:
                        move += " uno=true"
                    answered = version
                    await ws.send(json.dumps({"type": "command", "text": move}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bot_client.py ROOM_LINK SEAT_TOKEN")
    asyncio.run(play(sys.argv[1], sys.argv[2]))
