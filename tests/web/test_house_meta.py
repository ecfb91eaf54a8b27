"""/api/meta's rules registry for the lobby (presets with whether the engine
plays them), and the server staying the authority on the options a lobby or a
share link sends."""

from __future__ import annotations

from fastapi.testclient import TestClient

from unokit.engine.errors import OptionError
from unokit.engine.options import NOT_YET_PLAYED, PRESETS, Options


def test_meta_lists_every_preset_with_whether_it_is_played(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [p["name"] for p in meta["presets"]] == list(PRESETS)
    assert meta["not_yet_played"] == sorted(NOT_YET_PLAYED)
    for p in meta["presets"]:
        assert p["options"] == PRESETS[p["name"]]
        try:
            Options.from_dict(p["options"])
        except OptionError as e:
            assert not p["playable"] and p["why"] == str(e)
        else:
            assert p["playable"] and p["why"] is None
            # a playable preset names only rules the lobby offers
            assert set(p["options"]) <= set(meta["options"])
    # a rule the engine does not play is neither offered nor a house rule of the lobby
    for key in NOT_YET_PLAYED:
        assert key not in meta["options"] and key not in meta["house_rules"]


def test_the_server_refuses_what_a_lobby_or_link_must_not_create(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}] * 2
    for options, words in [
        ({"handLimit": 5}, "option handLimit: 5 is below handSize + 1"),
        ({"teams": "pairs", "deflect": "sideways"}, "option deflect: 'sideways' is not one of"),
        ({"noBluff": True, "wildDrawChallenge": "off"}, "do not go together"),
    ]:
        r = client.post(
            "/api/rooms",
            json={"variant": "classic", "seats": seats, "name": "A", "options": options},
        )
        assert r.status_code == 422 and words in r.text, r.text
    for p in client.get("/api/meta").json()["presets"]:
        body = {"variant": "classic", "seats": seats, "name": "A", "options": p["options"]}
        r = client.post("/api/rooms", json=body)
        assert r.status_code == (201 if p["playable"] else 422), (p["name"], r.text)
