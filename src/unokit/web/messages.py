"""Pydantic models of every message of the web protocol (docs/protocol.md).

Client messages are parsed with :data:`CLIENT_MESSAGE` (a discriminated union on
``type``); unknown fields and wrong types are errors, never coerced. Server
messages are built as plain dicts for speed; the models below describe them and
the tests validate what the server sends against them.

>>> msg = CLIENT_MESSAGE.validate_json('{"type": "command", "id": 7, "text": "DRAW"}')
>>> type(msg).__name__, msg.id, msg.text
('CommandMsg', 7, 'DRAW')
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
)

__all__ = [
    "PROTOCOL",
    "CLIENT_MESSAGE",
    "HelloMsg",
    "CommandMsg",
    "NextRoundMsg",
    "ReadyMsg",
    "NewMatchMsg",
    "StartMsg",
    "ChatMsg",
    "PingMsg",
    "ResyncMsg",
    "ClientMessage",
    "SeatSpec",
    "CreateRoom",
    "JoinRoom",
    "SeatInfo",
    "RoomInfo",
    "JoinReply",
    "StateMsg",
    "DeltaMsg",
    "WelcomeMsg",
    "AckMsg",
    "ErrorMsg",
    "ChatOut",
    "PongMsg",
    "ReactionOut",
    "SERVER_MESSAGE",
    "clean_name",
    "protocol_schema",
]

PROTOCOL = 1
MAX_ID = 2**53


def clean_name(value: str) -> str:
    """A display name: stripped, 1-24 characters, no control or format characters."""
    name = " ".join(value.split())
    if not 1 <= len(name) <= 24:
        raise ValueError("a name has 1 to 24 characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise ValueError("a name may not contain control characters")
    return name


def _clean_chat(value: str) -> str:
    text = value.strip()
    if not 1 <= len(text) <= 200:
        raise ValueError("a chat message has 1 to 200 characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise ValueError("a chat message may not contain control characters")
    return text


Name = Annotated[StrictStr, Field(max_length=200), AfterValidator(clean_name)]
MsgId = Annotated[StrictInt, Field(ge=0, le=MAX_ID)]
#: the room version a command was decided on (see "Exactly once" in docs/protocol.md)
Version = Annotated[StrictInt, Field(ge=0, le=MAX_ID)]
BotLevel = Annotated[StrictStr, Field(min_length=1, max_length=40)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------- client -> server


class HelloMsg(_Msg):
    type: Literal["hello"]
    id: MsgId | None = None
    token: Annotated[StrictStr, Field(min_length=1, max_length=200)] | None = None
    spectate: StrictBool = False
    deltas: StrictBool = False


class CommandMsg(_Msg):
    type: Literal["command"]
    id: MsgId | None = None
    version: Version | None = None
    text: Annotated[StrictStr, Field(min_length=1, max_length=200)]


class NextRoundMsg(_Msg):
    type: Literal["next_round"]
    id: MsgId | None = None
    version: Version | None = None


class NewMatchMsg(_Msg):
    type: Literal["new_match"]
    id: MsgId | None = None
    version: Version | None = None


class ReadyMsg(_Msg):
    """The person of this seat is ready for the next round or a rematch (the
    ready check, docs/protocol.md)."""

    type: Literal["ready"]
    id: MsgId | None = None


class StartMsg(_Msg):
    type: Literal["start"]
    id: MsgId | None = None
    version: Version | None = None
    level: BotLevel = "heuristic"


class ChatMsg(_Msg):
    type: Literal["chat"]
    id: MsgId | None = None
    text: Annotated[StrictStr, Field(max_length=1000), AfterValidator(_clean_chat)]


class PingMsg(_Msg):
    type: Literal["ping"]
    id: MsgId | None = None


class ResyncMsg(_Msg):
    type: Literal["resync"]
    id: MsgId | None = None


ClientMessage = Annotated[
    HelloMsg
    | CommandMsg
    | NextRoundMsg
    | NewMatchMsg
    | ReadyMsg
    | StartMsg
    | ChatMsg
    | PingMsg
    | ResyncMsg,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

# ---------------------------------------------------------------- REST bodies


class SeatSpec(_Msg):
    kind: Literal["human", "bot"]
    level: BotLevel | None = None
    # a human seat reserved for an external bot program (docs/bot-api.md): claimed
    # at creation under ``name``; its token is in the reply's ``external`` list
    external: StrictBool = False
    name: Name | None = None


OptionValue = StrictBool | StrictInt | StrictStr | None


class CreateRoom(_Msg):
    variant: Literal["classic", "flip", "flex"]
    seats: Annotated[list[SeatSpec], Field(min_length=2, max_length=10)]
    options: Annotated[
        dict[Annotated[str, Field(max_length=60)], OptionValue], Field(max_length=60)
    ] = Field(default_factory=dict)
    turn_timer: Annotated[StrictInt | StrictFloat, Field(ge=5, le=600)] | None = None
    name: Name


class JoinRoom(_Msg):
    name: Name
    seat: Annotated[StrictInt, Field(ge=0, le=9)] | None = None


# ---------------------------------------------------------------- server -> client


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str | None
    claimed: bool
    connected: bool


class RoomInfo(BaseModel):
    room: str
    invite: str
    variant: str
    players: int
    options: dict[str, Any]
    turn_timer: float | None
    status: Literal["lobby", "playing"]
    host: int
    match: int
    version: int
    spectators: int
    #: the seats whose people said Ready at this round's (or match's) end
    ready: list[int] = []
    seats: list[SeatInfo]


class JoinReply(BaseModel):
    room: str
    invite: str | None = None
    seat: int
    token: str
    info: RoomInfo


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LastCommand(_Out):
    seat: int | None
    text: str
    by: Literal["human", "bot", "timer"]


class StateMsg(_Out):
    type: Literal["state"]
    version: int
    seat: int | None
    info: RoomInfo
    observation: dict[str, Any] | None
    last: LastCommand | None
    deadline: float | None
    remaining: float | None


class DeltaMsg(_Out):
    """What changed since version ``from``: the observation's top-level fields
    in ``set`` (replace them), its history from index ``history_from`` on
    (replace the rest), the room info if it changed, and ``last``/``deadline``/
    ``remaining`` as in ``state``. With ``from == version``: only the info.
    ``ack``: the ``id`` of this client's command stored at ``version`` (its
    acknowledgement, sent inside the delta instead of a separate ``ack``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["delta"]
    from_: int = Field(alias="from")
    version: int
    seat: int | None = None
    set: dict[str, Any] | None = None
    history_from: int | None = None
    history: list[dict[str, Any]] | None = None
    info: RoomInfo | None = None
    last: LastCommand | None = None
    deadline: float | None = None
    remaining: float | None = None
    ack: int | None = None


class WelcomeMsg(_Out):
    type: Literal["welcome"]
    protocol: int
    room: str
    seat: int | None
    spectator: bool
    host: bool


class AckMsg(_Out):
    type: Literal["ack"]
    id: int | None
    version: int
    replay: Literal[True] | None = None


class ErrorMsg(_Out):
    type: Literal["error"]
    id: int | None
    code: str
    message: str
    version: int | None = None
    #: ``illegal`` only: the core's reason code by name (``NO_MATCH``, ...;
    #: unokit.engine.codes.ERRORS), null for a refusal without one
    reason: str | None = None


class ChatOut(_Out):
    type: Literal["chat"]
    seat: int | None
    name: str
    text: str
    time: float


class PongMsg(_Out):
    type: Literal["pong"]
    id: int | None


class ReactionOut(_Out):
    """A quick reaction of a seat (POST /api/rooms/{code}/react), never stored."""

    type: Literal["reaction"]
    seat: int
    name: str
    emoji: str
    time: float


class ThinkingOut(_Out):
    """A bot of the table is still deciding about ``version`` after its delay
    (its decision waits for a worker or takes long); its move follows."""

    type: Literal["thinking"]
    seat: int
    version: int


SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(
    Annotated[
        StateMsg
        | DeltaMsg
        | WelcomeMsg
        | AckMsg
        | ErrorMsg
        | ChatOut
        | PongMsg
        | ReactionOut
        | ThinkingOut,
        Field(discriminator="type"),
    ]
)


REST_BODIES: dict[str, type[BaseModel]] = {
    "CreateRoom": CreateRoom,
    "JoinRoom": JoinRoom,
    "JoinReply": JoinReply,
    "RoomInfo": RoomInfo,
}


def protocol_schema() -> dict[str, Any]:
    """JSON Schemas (draft 2020-12) of every message of docs/protocol.md:
    ``client`` (client -> server WebSocket messages), ``server`` (server ->
    client) and the REST bodies. Shipped as docs/protocol.schema.json and
    served at ``GET /api/protocol.schema.json``; regenerate the file with
    ``python -m unokit.web.messages > docs/protocol.schema.json``."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"unokit web protocol {PROTOCOL}",
        "client": CLIENT_MESSAGE.json_schema(by_alias=True),
        "server": SERVER_MESSAGE.json_schema(by_alias=True),
        "rest": {name: m.model_json_schema(by_alias=True) for name, m in REST_BODIES.items()},
    }


if __name__ == "__main__":
    import json

    print(json.dumps(protocol_schema(), indent=1, ensure_ascii=False))
