"""The jump-in window (issue 30): a bot waits ``--jump-in-beat`` seconds more
while a person at the table holds a card that could jump in."""

from __future__ import annotations

from typing import Any

from unokit import Game


def _position(jump_in: bool, person_hand: list[str]) -> Game:
    # the bot (seat 1) is to play on R5; the person (seat 0) holds person_hand
    return Game.setup(
        "classic",
        3,
        {"jumpIn": jump_in},
        hands=[person_hand, ["R7", "B2", "Y4"], ["G5", "G6", "B9"]],
        draw=["Y9", "G1", "G2"],
        discard=["R5"],
        color="R",
        current=1,
    )


def test_a_bot_waits_the_beat_only_while_a_person_could_jump_in(
    client: Any, room_helpers: Any
) -> None:
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "normal"},
        {"kind": "bot", "level": "normal"},
    ]
    out = room_helpers.create(client, "classic", seats, options={"jumpIn": True})
    room = client.app.state.hub.rooms[out["room"]]
    beat = client.app.state.hub.settings.jump_in_beat
    assert beat == 2.5  # the documented default (docs/web.md)
    # the person holds R5, the very card on the pile: a jump-in
    assert room.jump_in_beat(_position(True, ["R5", "G7"]), 1) == beat
    # no card that could jump in, or no jump-in rule: no wait
    assert room.jump_in_beat(_position(True, ["R6", "G7"]), 1) == 0.0
    assert room.jump_in_beat(_position(False, ["R5", "G7"]), 1) == 0.0
    # a bot holding such a card does not slow the others down
    assert room.jump_in_beat(Game.setup(
        "classic", 3, {"jumpIn": True}, hands=[["R6", "G7"], ["R7", "B2"], ["R5", "G6"]],
        draw=["Y9", "G1", "G2"], discard=["R5"], color="R", current=1,
    ), 1) == 0.0  # fmt: skip
