"""Events in an observation's JSON form carry every field, a base class's too,
and the bot client reads them back as the same events (a ``seat`` lost on the
way broke ``unokit bot connect`` when the events got a common base)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from unokit import Game
from unokit.agents.botclient import observation_from_dict


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_every_event_field_goes_to_json_and_back(variant: str) -> None:
    r = random.Random(3)
    g = Game.new(variant, 3, seed=5)
    kinds: set[str] = set()
    for _ in range(400):
        if g.is_over:
            break
        if g.state.name == "ROUND_OVER":
            g.next_round()
            continue
        g.apply(r.choice(g.legal_actions()))
        if r.random() < 0.1:
            for seat in range(3):
                obs = g.observe(seat)
                d = json.loads(json.dumps(obs.to_dict()))
                for event, j in zip(obs.history, d["history"], strict=True):
                    fields = {f.name for f in dataclasses.fields(event)}
                    assert set(j) == fields | {"type"}, j
                    kinds.add(j["type"])
                assert observation_from_dict(d).history == obs.history
    assert {"Played", "Drew", "RoundStarted", "CardTurned"} <= kinds
