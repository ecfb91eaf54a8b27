"""A bot in a seat of a web room (docs/bot-api.md): ``unokit bot connect``.

The client speaks the page's WebSocket protocol (docs/protocol.md): it says
``hello`` with the seat token, reads each ``state``, and when its seat has a
decision it answers one ``command`` chosen by one of our levels (from the
seat's observation, read back into an :class:`~unokit.engine.observation.Observation`
by :func:`observation_from_dict`) or by an engine program (docs/engine-protocol.md).
It deals the next round and starts the next match like a person would, and
stops when the match is over (or after ``matches`` matches).
"""

from __future__ import annotations

import asyncio
import json
import typing
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from unokit.bots import Bot
from unokit.engine import events as ev
from unokit.engine.actions import Action, parse_action
from unokit.engine.cards import Card, CardSet, Color, Face, parse_color
from unokit.engine.errors import OptionError, ParseError
from unokit.engine.observation import Observation
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

__all__ = ["observation_from_dict", "ws_url", "BotClient", "ClientResult"]


def ws_url(url: str) -> str:
    """The room's WebSocket URL from its invite link or WebSocket URL.

    >>> ws_url("http://127.0.0.1:8000/r/k7m2xq9wdt")
    'ws://127.0.0.1:8000/ws/k7m2xq9wdt'
    >>> ws_url("wss://uno.example/ws/k7m2xq9wdt")
    'wss://uno.example/ws/k7m2xq9wdt'
    """
    parts = urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    segs = [s for s in parts.path.split("/") if s]
    if scheme is None or not parts.netloc or len(segs) != 2 or segs[0] not in ("r", "ws"):
        raise OptionError(
            f"{url!r} is not a room link: expected http://HOST:PORT/r/CODE (the invite link) "
            "or ws://HOST:PORT/ws/CODE"
        )
    return urlunsplit((scheme, parts.netloc, f"/ws/{segs[1]}", "", ""))


# -- reading an observation back ------------------------------------------------


def _value(kind: Any, value: Any, cards: CardSet) -> Any:
    """``value`` (JSON) as the type ``kind`` of an event or observation field."""
    if value is None:
        return None
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        inner = [a for a in args if a is not type(None)]
        return _value(inner[0], value, cards)
    if origin is tuple:
        return tuple(_value(args[0], v, cards) for v in value)
    if kind is Card:
        return cards.parse(value)
    if kind is Face:
        return cards.parse_face(value)
    if kind is Color:
        return parse_color(value)
    return value


_EVENTS = {name: getattr(ev, name) for name in dir(ev) if isinstance(getattr(ev, name), type)}


def _event(d: dict[str, Any], cards: CardSet) -> ev.Event:
    cls = _EVENTS.get(str(d.get("type")))
    if cls is None:
        raise ParseError(f"unknown event type {d.get('type')!r}")
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _value(hints[f.name], d.get(f.name), cards) for f in fields(cls)}
    return typing.cast(ev.Event, cls(**kwargs))


def observation_from_dict(d: dict[str, Any]) -> Observation:
    """The :class:`Observation` whose ``to_dict()`` is ``d`` (what the server
    sends a seat), so that our bots can decide from it.

    >>> from unokit import Game
    >>> g = Game.new("flip", 3, seed=2)
    >>> observation_from_dict(g.observe(1).to_dict()) == g.observe(1)
    True
    """
    v = get_variant(d["variant"])
    cards = v.cards
    seat = d["seat"]
    revealed = d.get("revealed")
    return Observation(
        variant=v.name,
        players=int(d["players"]),
        seat=seat,
        options=Options.from_dict(d.get("options") or {}),
        round=int(d["round"]),
        phase=str(d["phase"]),
        current=int(d["current"]),
        direction=1 if d["direction"] == "cw" else -1,
        side=0 if d["side"] == "light" else 1,
        color=None if d["color"] is None else parse_color(d["color"]),
        dealer=int(d["dealer"]),
        top=None if d["top"] is None else cards.parse(d["top"]),
        discard=tuple(cards.parse(c) for c in d["discard"]),
        hand=tuple(cards.parse(c) for c in d["hand"]),
        hand_sizes=tuple(d["hand_sizes"]),
        draw_size=int(d["draw_size"]),
        draw_top_back=None if d["draw_top_back"] is None else cards.parse_face(d["draw_top_back"]),
        backs=tuple(tuple(cards.parse_face(f) for f in b) for b in d["backs"]),
        powers=tuple(p == "G" for p in d["powers"]),
        uno=tuple(d["uno"]),
        scores=tuple(d["scores"]),
        drawn=None if d["drawn"] is None else cards.parse(d["drawn"]),
        pending_draw=int(d["pending_draw"]),
        challenge_offender=d["challenge_offender"],
        color_reason=str(d["color_reason"]),
        revealed=None
        if revealed is None
        else (int(revealed["seat"]), tuple(cards.parse(c) for c in revealed["hand"])),
        winner=d["winner"],
        round_points=int(d["round_points"]),
        match_winners=tuple(d["match_winners"]),
        final_hands=None
        if d["final_hands"] is None
        else tuple(tuple(cards.parse(c) for c in h) for h in d["final_hands"]),
        legal=tuple(parse_action(a, cards) for a in d["legal"]),
        history=tuple(_event(e, cards) for e in d["history"]),
    )


# -- the client -----------------------------------------------------------------


@dataclass
class ClientResult:
    seat: int | None = None
    moves: int = 0  # commands accepted
    errors: list[str] = field(default_factory=list)  # error replies of the server
    stale: int = 0  # commands refused because the room moved on while the bot decided
    replays: int = 0  # commands the room had already applied (acknowledged, not applied again)
    matches: int = 0  # matches finished
    winners: list[int] = field(default_factory=list)  # of the last match
    scores: list[int] = field(default_factory=list)


class BotClient:
    """Plays the seat of ``token`` in the room at ``url`` with ``bot``."""

    def __init__(self, url: str, token: str, bot: Bot, matches: int = 1, say: Any = None) -> None:
        if not token.strip():
            raise OptionError("a seat token is needed (--token): the room gives it to the host")
        if matches < 1:
            raise OptionError("matches must be at least 1")
        self.url = ws_url(url)
        self.token = token.strip()
        self.bot = bot
        self.matches = matches
        self.say = say or (lambda _text: None)
        self.result = ClientResult()
        self._id = 0
        self._kinds: dict[int, str] = {}  # request id -> message type

    async def _send(self, ws: Any, msg: dict[str, Any], version: int) -> None:
        """Send ``msg`` as decided on the room's ``version`` (docs/protocol.md,
        "Exactly once"): if the room has moved on meanwhile (a turn timer
        played for this seat, another player dealt the next round), the
        server refuses it as ``stale`` and applies nothing."""
        self._id += 1
        msg["id"] = self._id
        msg["version"] = version
        self._kinds[self._id] = msg["type"]
        await ws.send(json.dumps(msg))

    async def _ready(self, ws: Any) -> None:
        """Say ``ready`` (docs/protocol.md, the ready check): the server deals
        the next round (or starts the rematch) once every person at the table
        is ready, at once when the bot is the only one. (``next_round`` would
        be refused while people at the table have not said it.)"""
        self._id += 1
        self._kinds[self._id] = "ready"
        await ws.send(json.dumps({"type": "ready", "id": self._id}))

    async def run(self) -> ClientResult:
        import websockets

        res = self.result
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            asked = -1  # the version we answered last
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "welcome":
                    res.seat = msg["seat"]
                    self.say(f"seat P{res.seat} of room {msg['room']}")
                elif (
                    kind == "error"
                    and msg.get("code") == "bad_state"
                    and self._kinds.get(msg.get("id", -1)) in ("next_round", "new_match", "ready")
                ):
                    pass  # another player dealt the next round (or match) first
                elif kind == "error" and msg.get("code") == "stale":
                    # the room moved on while the bot decided (say a turn timer
                    # played for it): nothing was applied. The state of the
                    # room's version came before this reply and was answered if
                    # it was the bot's turn, so there is nothing to ask again.
                    res.stale += 1
                    self.say(f"server: {msg.get('message')}")
                elif kind == "error":
                    res.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                    self.say(f"server: {msg.get('code')}: {msg.get('message')}")
                    if msg.get("code") in ("bad_token", "no_room"):
                        raise OptionError(f"the server refused: {msg.get('message')}")
                    asked = -1  # ask the bot again on the next state
                elif kind == "ack":
                    if msg.get("replay"):  # the very command was applied already (say
                        res.replays += 1  # by a timer, or another player's NEXT)
                    else:
                        res.moves += 1
                elif kind == "state":
                    obs = msg.get("observation")
                    version = int(msg.get("version", 0))
                    if obs is None or version == asked:
                        continue
                    phase = obs["phase"]
                    if phase == "MATCH_OVER":
                        if version != asked:
                            res.matches += 1
                            res.winners = list(obs["match_winners"])
                            res.scores = list(obs["scores"])
                            self.say(f"match over: winners {res.winners}, scores {res.scores}")
                            asked = version
                            if res.matches >= self.matches:
                                return res
                            await self._ready(ws)
                        continue
                    if phase == "ROUND_OVER":
                        asked = version
                        await self._ready(ws)
                        continue
                    legal = obs.get("legal") or []
                    if obs["current"] != res.seat or not legal:
                        continue
                    asked = version
                    action = await asyncio.to_thread(self._decide, obs)
                    await self._send(ws, {"type": "command", "text": str(action)}, version)
        return res

    def _decide(self, obs: dict[str, Any]) -> Action:
        return self.bot.act(observation_from_dict(obs))
