"""Bots in a room are offered the catch of a vulnerable seat that acts again."""

from __future__ import annotations

import time
from typing import Any

from unokit import Game
from unokit.bots import make_bot
from unokit.web.room import Seat
from unokit.web.tablebots import bot_catcher


def _forgot_uno_after_skip(players: int = 2) -> Game:
    hands = [["RS", "G7"], ["B2", "B3", "Y4"], ["Y5", "Y6"]][:players]
    g = Game.setup("classic", players, hands=hands, draw=["Y9", "G1", "G2"], discard=["R5"],
                   current=0)  # fmt: skip
    g.apply("P0 PLAY RS")
    return g


def _seat(seat: int, level: str | None) -> Seat:
    if level is None:
        return Seat(seat, "human", None, "Ann", "hash")
    return Seat(seat, "bot", level, None, None, bot=make_bot(level, seed=seat))


def test_a_catching_bot_is_asked_before_the_vulnerable_seat_acts_again() -> None:
    g = _forgot_uno_after_skip()
    assert g.current == 0 and g.vulnerable == 0
    assert bot_catcher(g, [_seat(0, None), _seat(1, "normal")]) == 1
    assert bot_catcher(g, [_seat(0, None), _seat(1, "hard")]) == 1


def test_no_offer_to_easy_bots_people_or_when_nobody_is_vulnerable() -> None:
    g = _forgot_uno_after_skip()
    assert bot_catcher(g, [_seat(0, None), _seat(1, "easy")]) is None
    assert bot_catcher(g, [_seat(0, "normal"), _seat(1, None)]) is None
    g.apply("P0 UNO")
    assert bot_catcher(g, [_seat(0, None), _seat(1, "normal")]) is None
    # three players: the seat after the skipped one acts next and catches itself
    g3 = _forgot_uno_after_skip(3)
    assert g3.current == 2
    assert bot_catcher(g3, [_seat(0, None), _seat(1, "normal"), _seat(2, "normal")]) is None


def test_a_room_bot_catches_a_person_who_forgot_uno_after_a_skip(
    client: Any, room_helpers: Any
) -> None:
    # a room of a person and a heuristic bot; the test puts the game at the
    # moment after the person's Skip down to one card, then lets the room
    # schedule: the bot must catch before the person acts again
    out = room_helpers.create(
        client, "classic", [{"kind": "human"}, {"kind": "bot", "level": "normal"}]
    )
    hub = client.app.state.hub
    room = hub.rooms[out["room"]]

    async def place() -> None:
        async with room.lock:
            room.game = _forgot_uno_after_skip()
            room._schedule()

    client.portal.call(place)

    def settled() -> bool:
        return room.bot_task is None or room.bot_task.done()

    for _ in range(500):
        if client.portal.call(settled):
            break
        time.sleep(0.01)  # waiting for a condition, bounded
    game = room.game
    assert game.vulnerable == -1 and len(game.hands[0]) == 3  # caught: two cards
    assert room.log[-1] == "P1 CATCH P0"
    assert game.current == 0  # and the person is to act, with the turn timer if any
