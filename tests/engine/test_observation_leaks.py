"""``observe(seat)`` is a function of what the seat may know, and nothing else.

The test changes everything the seat may NOT know — the other hands and the
draw order — while keeping everything it may know (hand sizes; in Flip the
back faces of every other hand and of the draw pile's top), and requires the
observation to be identical."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from unokit import Game
from unokit.engine.observation import observe

from .conftest import random_game_states


def _rehide(game: Game, seat: int, r: random.Random) -> Game:
    """A copy of ``game`` whose hidden cards (other hands, draw pile) are
    re-dealt at random, preserving what ``seat`` can see."""
    g = game.copy(events=True)
    v = g.variant
    back = v.cards.cards
    other = 1 - g.side
    slots: list[tuple[str, int, int]] = []  # (zone, seat, index)
    for s in range(g.n):
        if s != seat:
            slots += [("hand", s, i) for i in range(len(g.hands[s]))]
    top_index = len(g.draw) - 1
    slots += [("draw", -1, i) for i in range(len(g.draw))]
    # group slots by what the seat sees of the card in them
    groups: dict[object, list[tuple[str, int, int]]] = defaultdict(list)
    for zone, s, i in slots:
        cid = g.hands[s][i] if zone == "hand" else g.draw[i]
        if v.two_sided and (zone == "hand" or i == top_index):
            key: object = str(back[cid].face(other))
        else:
            key = "hidden"
        groups[key].append((zone, s, i))
    if g.phase == 1:  # the drawn card is the current player's and public to nobody else
        pass
    hands = [h[:] for h in g.hands]
    draw = g.draw[:]
    for members in groups.values():
        cards = [hands[s][i] if z == "hand" else draw[i] for z, s, i in members]
        r.shuffle(cards)
        for (z, s, i), c in zip(members, cards, strict=True):
            if z == "hand":
                hands[s][i] = c
            else:
                draw[i] = c
    drawn = g.drawn
    if drawn >= 0 and g.current != seat:
        drawn = hands[g.current][-1]
    return g.replace(hands=hands, draw=draw, drawn=drawn, events=True)


def _public(game: Game, seat: int) -> str:
    obs = observe(game, seat).to_dict()
    obs.pop("history")  # events of others' draws carry no cards (checked below)
    return json.dumps(obs, sort_keys=True)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_observation_does_not_depend_on_hidden_cards(variant: str) -> None:
    r = random.Random(7)
    checked = 0
    for seed in range(25):
        for step, g in enumerate(random_game_states(seed, steps=250, variant=variant)):
            if step % 9 or g.state.name in ("ROUND_OVER", "MATCH_OVER"):
                continue
            seat = r.randrange(g.n)
            if g.reveal is not None and g.reveal[0] == seat:
                continue  # a revealed hand is legitimately known to its challenger
            other = _rehide(g, seat, r)
            assert _public(g, seat) == _public(other, seat)
            checked += 1
    assert checked > 100


def test_history_shows_no_card_drawn_by_another_seat() -> None:
    for seed in range(10):
        for g in random_game_states(seed, steps=200):
            for seat in range(g.n):
                for e in observe(g, seat).history:
                    if type(e).__name__ == "Drew" and e.seat != seat:  # type: ignore[union-attr]
                        assert e.cards is None  # type: ignore[union-attr]
                    if type(e).__name__ == "Challenged" and e.seat != seat:  # type: ignore[union-attr]
                        assert e.revealed is None  # type: ignore[union-attr]


def test_spectator_sees_no_hand_and_no_legal_actions() -> None:
    g = Game.new("flip", 4, seed=3)
    obs = observe(g, None)
    assert obs.hand == () and obs.legal == () and obs.revealed is None
    assert all(len(b) == 7 for b in obs.backs)  # a spectator sees every back face


def test_challenger_alone_sees_the_revealed_hand() -> None:
    g = Game.setup(
        "classic",
        3,
        hands=[["W4", "R8", "Y3"], ["B1", "B2"], ["G1", "G2"]],
        draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7"],
        discard=["R3"],
        current=0,
    )
    g.apply("P0 PLAY W4 color=G")
    g.apply("P1 CHALLENGE")
    assert observe(g, 1).revealed is not None
    assert observe(g, 1).revealed[1] == tuple(g.cards[c] for c in g.reveal[2])  # type: ignore[index]
    assert observe(g, 2).revealed is None and observe(g, 0).revealed is None
    assert observe(g, None).revealed is None


def test_observation_contains_no_hidden_state_fields() -> None:
    d = observe(Game.new("classic", 2, seed=1), 0).to_dict()
    text = json.dumps(d)
    for word in ("seed", "shuffles", "draw_pile", '"draw":'):
        assert word not in text
