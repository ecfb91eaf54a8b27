"""Observation.to_text(): the text API shared by MCP, the arena, TextArena and plain mode."""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.agents.arena import parse_answer
from unokit.bots import make_bot
from unokit.engine.narration import TEXT_HISTORY, move_commands, read_command


def _play(game: Game, steps: int, seed: int = 0) -> None:
    bots = [make_bot("random", seed=seed + s) for s in range(game.n)]
    for _ in range(steps):
        if game.phase >= 4:  # ROUND_OVER / MATCH_OVER
            return
        game.apply(bots[game.current].act(game.observe(game.current)))


def test_text_names_the_table_the_hand_and_what_happens_now() -> None:
    g = Game.new("classic", 2, seed=3)
    text = g.observe(0).to_text(moves=True)
    lines = text.splitlines()
    assert lines[0] == "UNO, round 1, first to 500 points."
    assert "Your hand (7): Y8 G9 R9 B1 G7 R4 BD2." in lines
    assert "- First card: Blue 9." in lines
    assert lines[-1] == "Player 1's turn."  # P0 dealt; no legal moves to list
    mine = g.observe(1).to_text(moves=True).splitlines()
    assert mine[-2] == "Your turn."
    assert mine[-1].startswith("Legal moves: ") and "draw" in mine[-1]
    # the same observation always gives the same text
    assert g.observe(0).to_text(moves=True) == text


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_text_is_bounded_whatever_the_history(variant: str) -> None:
    g = Game.new(variant, 4, seed=11)
    sizes = []
    for _ in range(30):
        _play(g, 20, seed=len(sizes))
        obs = g.observe(0)
        text = obs.to_text()
        events = [line for line in text.splitlines() if line.startswith("- ")]
        assert len(events) <= TEXT_HISTORY
        sizes.append(len(text))
        if g.phase >= 4:
            break
    assert len(g.observe(0).history) > 3 * TEXT_HISTORY  # a long round was narrated
    assert "Earlier this round:" in g.observe(0).to_text()
    # every line is bounded: 4 seats, hands and backs bounded by the deck
    assert max(sizes) < 4000
    short = g.observe(0).to_text(history=2)
    assert len([ln for ln in short.splitlines() if ln.startswith("- ")]) == 2
    assert "- " not in g.observe(0).to_text(history=0)


def test_text_refuses_bad_arguments() -> None:
    obs = Game.new("classic", 2, seed=1).observe(0)
    with pytest.raises(ValueError):
        obs.to_text(history=-1)
    with pytest.raises(ValueError):
        obs.to_text(names=["only one"])


def test_spectator_text_shows_no_hand() -> None:
    g = Game.new("classic", 3, seed=4)
    text = g.observe(None).to_text()
    assert "Your hand" not in text
    assert "you" not in text.lower().replace("your turn", "")


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_every_move_command_reads_back_to_its_action(variant: str) -> None:
    rng = random.Random(7)
    opts = {"sevenZero": True} if variant == "classic" else {}
    for seed in range(6):
        g = Game.new(variant, 2 + seed % 2, opts, seed=seed)
        for _ in range(400):
            if g.phase >= 4:
                break
            seat = g.current
            obs = g.observe(seat)
            commands = move_commands(obs)
            assert len(commands) == len(obs.legal) == len(set(commands))
            for cmd, action in zip(commands, obs.legal, strict=True):
                assert read_command(cmd, obs) == action, cmd
                # what a model answers: the arena's and TextArena's parsers
                assert parse_answer(f"Thinking...\nMove: {cmd}", obs) == action, cmd
                assert parse_answer(f"[{cmd}]", obs) == action, cmd
            g.apply(obs.legal[rng.randrange(len(obs.legal))])
