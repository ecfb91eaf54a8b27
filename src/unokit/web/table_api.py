"""Request bodies of the table's extra REST calls (docs/web.md): quick
reactions, public rooms and quick play, quiet seats, game history and replay.

Strict like :mod:`unokit.web.messages`: unknown fields and wrong types are
errors, never coerced.

>>> ReactBody.model_validate({"token": "t", "emoji": "👍"}).emoji
'👍'
>>> QuickPlayBody.model_validate({"name": "  Zoé  "}).name
'Zoé'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from unokit.web.messages import clean_name

__all__ = [
    "TokenBody",
    "ReactBody",
    "PublicBody",
    "SeatBody",
    "QuickPlayBody",
    "HistoryRoom",
    "HistoryBody",
    "RecordBody",
    "ReplayBody",
]

Token = Annotated[StrictStr, Field(min_length=1, max_length=200)]
Code = Annotated[StrictStr, Field(min_length=1, max_length=40)]
Name = Annotated[StrictStr, Field(max_length=200), AfterValidator(clean_name)]


class StrictBody(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TokenBody(StrictBody):
    token: Token


class ReactBody(StrictBody):
    token: Token
    emoji: Annotated[StrictStr, Field(min_length=1, max_length=16)]


class PublicBody(StrictBody):
    token: Token
    public: StrictBool


class SeatBody(StrictBody):
    token: Token
    to: Literal["bot", "open"]


class QuickPlayBody(StrictBody):
    name: Name
    variant: Literal["classic", "flip", "flex"] | None = None


class HistoryRoom(StrictBody):
    room: Code
    token: Token


class HistoryBody(StrictBody):
    rooms: Annotated[list[HistoryRoom], Field(max_length=20)]


class RecordBody(StrictBody):
    token: Token
    match: Annotated[StrictInt, Field(ge=1, le=1_000_000)]


class ReplayBody(StrictBody):
    record: Annotated[StrictStr, Field(min_length=1, max_length=1_000_000)]
    seat: Annotated[StrictInt, Field(ge=0, le=9)] | None = None
