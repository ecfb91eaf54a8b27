"""The batched Classic environment (unokit.envs.vector_classic) against uno_classic_v0.

The core test plays the AEC environment ``uno_classic_v0`` (from engine
positions, with ``reset_to``) and the vector environment side by side, with the
same random legal actions, and checks at every decision that both give the
same agent to act, observation, mask, rewards, termination and truncation --
catch windows included. Shuffles are the one thing both sides do with their
own generators: the engine games here record the result of each of their
shuffles and the vector environment takes it through its ``reshuffle_hook``,
so both keep the same draw order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pytest

from unokit import Game, IllegalActionError, OptionError, Phase
from unokit.envs import uno_classic_v0
from unokit.envs.actions import action_table
from unokit.envs.vector_classic import UnoClassicVectorEnv, VectorStep
from unokit.options import Options
from unokit.reference import ReferenceGame
from unokit.variants import get_variant

CLASSIC = get_variant("classic")
CARD = {str(c): i for i, c in enumerate(CLASSIC.cards.cards)}
KIND = CLASSIC.kind[0]
REVERSE = 2  # Kind.REVERSE
_ROUND_OVER = int(Phase.ROUND_OVER)


class _Recording(ReferenceGame):
    """An engine game that records the new order of each of its shuffles."""

    __slots__ = ()
    orders: ClassVar[dict[int, list[list[int]]]] = {}

    def _shuffle(self, cards: list[int]) -> None:
        super()._shuffle(cards)
        queue = _Recording.orders.get(id(self))
        if queue is not None:
            queue.append(list(cards))


Chooser = Callable[[int, Game, list[int], random.Random], int]


class Reference:
    """``uno_classic_v0`` playing one game, seen as the vector environment's
    row: the agent to act, its observation and mask, rewards and the round's
    end. Its engine game records its shuffles (:class:`_Recording`)."""

    def __init__(self, game: Game, reward: str, options: dict[str, Any]) -> None:
        self.env = uno_classic_v0.raw_env(
            players=game.n, reward=reward, max_steps=None, **options
        )
        self.env.reset_to(game)
        self.game = self.env.game  # a copy of ``game``
        self.game.__class__ = _Recording
        _Recording.orders[id(self.game)] = []
        self.agents = self.env.possible_agents

    @property
    def seat(self) -> int:
        return self.agents.index(self.env.agent_selection)

    @property
    def in_window(self) -> bool:
        """The agent to act is offered the catch of the vulnerable seat to act."""
        return self.seat != self.game.current

    def last(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], bool, bool]:
        obs, _, terminated, truncated, _ = self.env.last()
        return obs["observation"], obs["action_mask"], terminated, truncated

    def step(self, a: int) -> None:
        self.env.step(a)

    def rewards(self) -> list[float]:
        return [self.env.rewards[a] for a in self.agents]


def lockstep(
    games: list[Game],
    choose: Chooser,
    *,
    reward: str = "points",
    seed: int = 0,
    max_steps: int | None = None,
    options: dict[str, Any] | None = None,
) -> Counter[str]:
    """Play ``uno_classic_v0`` from each of ``games`` and a vector environment
    started from them with the same actions until every round ends (or
    ``max_steps`` batch steps); assert at every step that both agree (agent to
    act, observation, mask, rewards, termination, truncation). Games in phase
    DEAL have their first card turned by both. ``games[i]`` becomes the game
    played. Returns counts of what happened (actions, reshuffles, challenges,
    first cards, catch windows, ...)."""
    n = games[0].n
    env = UnoClassicVectorEnv(
        len(games), n, reward=reward, seed=seed, max_steps=None, **(options or {})
    )
    table = env.table
    names = table.names
    count: Counter[str] = Counter()
    _Recording.orders.clear()
    for g in games:
        g.__class__ = _Recording
        _Recording.orders[id(g)] = []
    spare = np.random.default_rng(seed)
    live = [True] * len(games)
    starting = True

    def hook(i: int, cards: npt.NDArray[np.int64]) -> list[int]:
        queue = _Recording.orders[id(games[i])]  # games[i]: the game being played
        if not queue:  # only a new round, dealt by the env itself, shuffles on its own
            assert not live[i] or games[i].phase >= _ROUND_OVER, (
                f"game {i}: the environment shuffles where the engine does not"
            )
            return spare.permutation(cards).tolist()
        order = queue.pop(0)
        assert sorted(order) == sorted(cards.tolist()), f"game {i}: other cards shuffled"
        count["first card redrawn" if starting else "reshuffle"] += 1
        return order

    env.reshuffle_hook = hook
    # a game in phase DEAL: the env turns the first card of a copy, the engine
    # turns its own first and records its shuffles for the env
    before = [g.copy() if g.phase == int(Phase.DEAL) else g for g in games]
    for g, b in zip(games, before, strict=True):
        if b is not g:
            g.start()
        if len(g.discard) == 1:
            count[f"first card kind {KIND[g.discard[0]]}"] += 1
    out = env.reset_from(before)
    starting = False
    for g in games:
        assert not _Recording.orders[id(g)], "a shuffle of the first card was not replayed"
    refs = [Reference(g, reward, options or {}) for g in games]
    games[:] = [ref.game for ref in refs]  # the AEC env plays a copy
    rnd = random.Random(seed)
    steps = 0
    while any(live) and (max_steps is None or steps < max_steps):
        actions = np.zeros(len(games), dtype=np.int64)
        for i, ref in enumerate(refs):
            legal = np.flatnonzero(out.action_mask[i]).tolist()
            assert legal, f"game {i}: nothing legal"
            if not live[i]:
                actions[i] = rnd.choice(legal)
                continue
            g, seat = ref.game, ref.seat
            assert out.current_player[i] == seat, f"game {i} step {steps}: seat to act"
            want, mask, _, _ = ref.last()
            if not np.array_equal(out.observation[i], want):
                diff = np.flatnonzero(out.observation[i] != want).tolist()
                raise AssertionError(f"game {i} step {steps}: observation differs at {diff}")
            assert np.array_equal(out.action_mask[i], mask), (
                f"game {i} step {steps}: mask {[names[j] for j in legal]} != "
                f"{[names[j] for j in np.flatnonzero(mask)]}"
            )
            a = choose(i, g, legal, rnd)
            actions[i] = a
            in_window = ref.in_window
            if in_window:
                count[f"window {names[a].split()[0]}"] += 1
            else:
                _count_move(count, g, names[a])
            ref.step(a)
            if ref.in_window and not in_window:
                count["window opened"] += 1
        out = env.step(actions)
        steps += 1
        for i, ref in enumerate(refs):
            if not live[i]:
                continue
            g = ref.game
            assert not _Recording.orders[id(g)], f"game {i}: the engine shuffled, not the env"
            _, _, terminated, truncated = ref.last()
            assert (out.terminated[i], out.truncated[i]) == (terminated, truncated), (
                f"game {i} step {steps}: termination"
            )
            assert not truncated
            want = np.array(ref.rewards(), dtype=np.float32)
            assert np.array_equal(out.rewards[i], want), (out.rewards[i], want)
            if terminated:
                count["won" if g.winner >= 0 else "blocked"] += 1
                live[i] = False
    count["batch steps"] = steps
    return count


def _count_move(count: Counter[str], g: Game, name: str) -> None:
    """Classify the move ``name`` about to be taken in ``g``."""
    word = name.split()[0]
    count[word] += 1
    seat = g.current
    size = len(g.hands[seat])
    if word == "CHALLENGE":
        count["challenge of a legal W4" if g.ch_legal else "challenge of a guilty W4"] += 1
    elif word == "UNO":
        count["UNO with one card" if size == 1 else "UNO announced with two"] += 1
    elif word == "PLAY":
        cid = CARD[name.split()[1]]
        if size == 1 and CLASSIC.draw_amount[0][cid]:
            count["last card draws"] += 1
        if size == 2 and g.uno_pre != seat:
            count["down to one card without UNO"] += 1
        if KIND[cid] == REVERSE and g.n == 2 and size > 1:
            count["reverse as skip"] += 1
    elif word == "COLOR":
        count["first card wild"] += 1


def random_chooser(p_draw: Sequence[float]) -> Chooser:
    """Uniform over the mask with probability ``p_draw[i % len]``, else uniform
    over the actions other than DRAW (shorter rounds)."""

    def choose(i: int, g: Game, legal: list[int], rnd: random.Random) -> int:
        draw = action_table("classic", g.n).index_of("DRAW")
        others = [a for a in legal if a != draw]
        if others and rnd.random() >= p_draw[i % len(p_draw)]:
            return rnd.choice(others)
        return rnd.choice(legal)

    return choose


def dealing(players: int, seed: int, first: str) -> Game:
    """A round dealt but not started (phase DEAL) whose first card turned is ``first``."""
    rnd = random.Random(seed)
    deck = [str(CLASSIC.cards.cards[c]) for c in CLASSIC.deck(Options(), 0)]
    rnd.shuffle(deck)
    deck.remove(first)
    hands = [deck[7 * s : 7 * s + 7] for s in range(players)]
    return Game.setup(
        "classic",
        players,
        hands=hands,
        draw=[first] + deck[7 * players :],
        discard=[],
        dealer=rnd.randrange(players),
        events=False,
    )


FIRST_CARDS = ("R3", "YS", "GR", "BD2", "W", "W4")


@pytest.mark.parametrize(
    ("players", "games", "reward", "spec"),
    [
        (2, 110, "points", {}),
        (3, 90, "win", {"step_cost": 0.25}),
        (4, 90, "norm_points", {"stall_reward": "zero", "step_cost": 0.5}),
    ],
)
def test_plays_exactly_like_the_engine(
    players: int, games: int, reward: str, spec: dict[str, Any]
) -> None:
    batch = [
        Game.new("classic", players, seed=1000 * players + s, events=False) for s in range(games)
    ]
    batch += [
        dealing(players, 7 * k + j, first) for k, first in enumerate(FIRST_CARDS) for j in range(2)
    ]
    # a third of the games uniform over the mask (long rounds: reshuffles), the
    # others drawing voluntarily less often
    # the reward options (RewardSpec) go to both environments with the game options
    count = lockstep(
        batch, random_chooser([1.0, 0.2, 0.05]), reward=reward, seed=players, options=spec
    )
    assert count["won"] + count["blocked"] == len(batch)
    for what in (
        "reshuffle",
        "first card redrawn",
        "first card wild",
        "challenge of a legal W4",
        "challenge of a guilty W4",
        "ACCEPT",
        "PASS",
        "UNO with one card",
        "UNO announced with two",
        "down to one card without UNO",
        "CATCH",
        "last card draws",
    ):
        assert count[what] > 0, f"{what} never happened: {dict(count)}"
    for kind in (0, 1, 2, 3, 11):  # number, Skip, Reverse, Draw Two, Wild turned first
        assert count[f"first card kind {kind}"] > 0, dict(count)
    if players == 2:
        assert count["reverse as skip"] > 0
        # catch windows: a Skip, Reverse or Draw Two played down to one card
        # without UNO, then the other seat catches or lets it go
        for what in ("window opened", "window CATCH", "window PASS"):
            assert count[what] > 0, f"{what} never happened: {dict(count)}"
    else:
        # in Classic at 3+ players the vulnerable seat is never to act right
        # after a move: the way back to it passes through another seat's turn
        # action, which ends the vulnerability (docs/rules.md §1.11, D6)
        assert count["window opened"] == 0, dict(count)


NEUTRAL = {
    "targetScore": 60,
    "scoringMode": "lowest",
    "matchMode": "single_round",
    "dealerRotation": "winner",
    "dealerSelection": "random",
    "misplayPenalty": "on",
    "jumpIn": True,
    "falseCatchPenalty": 2,
    "flipDrawColorCap": 3,
}


def test_options_that_do_not_change_a_round() -> None:
    """The options accepted besides the defaults play exactly the same rounds."""
    batch = [Game.new("classic", 3, NEUTRAL, seed=s, events=False) for s in range(24)]
    count = lockstep(batch, random_chooser([0.3, 0.05]), seed=5, options=NEUTRAL)
    assert count["won"] + count["blocked"] == len(batch) and count["CATCH"] > 0


def scripted(script: Sequence[Sequence[str]]) -> Chooser:
    """Game ``i`` takes the actions ``script[i]`` (by name), then random ones."""
    done: Counter[int] = Counter()

    def choose(i: int, g: Game, legal: list[int], rnd: random.Random) -> int:
        names = action_table("classic", g.n).names
        k = done[i]
        done[i] += 1
        if k < len(script[i]):
            a = names.index(script[i][k])
            assert a in legal, f"scripted {script[i][k]} is not legal in game {i}"
            return a
        return rnd.choice(legal)

    return choose


def test_rare_rules_in_set_up_positions() -> None:
    """Blocked rounds, piles running out during penalties, catches, challenges
    with a reshuffle, UNO calls, Skip/Reverse at two players, last-card draws."""
    setups: list[dict[str, Any]] = [
        # 0: nothing to draw and nothing playable: two empty draws block the round
        dict(hands=[["Y1", "G2"], ["B3", "Y4"]], discard=["R5"], current=0),
        # 1: a Draw Two with one card left to reshuffle: the victim gets only 1
        dict(hands=[["RD2", "Y1", "Y2"], ["B3", "G4"]], discard=["R5"], current=0),
        # 2: caught with one card in the piles: the penalty is 1 card
        dict(hands=[["R1", "R2"], ["B3", "G4", "G1"]], discard=["R5"], current=0),
        # 3: a guilty Wild Draw Four challenged; the penalty needs a reshuffle
        dict(
            hands=[["W4", "R3", "Y1"], ["B7", "G4"]],
            draw=["G7"],
            discard=["B5", "Y5", "R5"],
            current=0,
        ),
        # 4: UNO announced with two cards, then the play leaves the seat safe
        dict(hands=[["R1", "R2"], ["B3", "G4"]], draw=["G7", "B1"], discard=["R5"], current=0),
        # 5: the seat calls UNO with two cards, then plays a Skip: safe, no catch window
        dict(hands=[["RS", "R1"], ["B3", "G4"]], draw=["G7", "B1"], discard=["R5"], current=0),
        # 6: the last card is a Draw Two: the next seat draws before the scoring
        dict(hands=[["RD2"], ["B3", "G4"]], draw=["G7", "B1"], discard=["R5"], current=0),
        # 7: a legal Wild Draw Four challenged: the challenger draws 6, through a reshuffle
        dict(
            hands=[["W4", "Y3", "Y1"], ["B7", "G4"]],
            draw=["G7", "G8"],
            discard=["B5", "Y5", "R6", "R7", "R8", "R5"],
            current=0,
        ),
    ]
    script = [
        ["DRAW", "DRAW"],
        ["PLAY RD2", "UNO"],
        ["PLAY R1", "CATCH +1"],
        ["PLAY W4 color=G", "CHALLENGE"],
        ["UNO", "PLAY R1"],
        ["UNO", "PLAY RS"],
        ["PLAY RD2"],
        ["PLAY W4 color=B", "CHALLENGE"],
    ]
    games = [
        Game.setup("classic", 2, uno={0: "safe"} if i == 6 else None, events=False, **kw)
        for i, kw in enumerate(setups)
    ]
    count = lockstep(games, scripted(script), seed=11, max_steps=2)
    sizes = [[len(h) for h in g.hands] for g in games]
    assert games[0].phase == _ROUND_OVER and games[0].winner == -1  # blocked
    assert count["blocked"] >= 1
    assert sizes[1] == [2, 3]  # the victim got 1 of its 2 cards
    assert sizes[2][0] == 2  # 1 left + 1 penalty card of 2
    assert sizes[3][0] == 6 and games[3].current == 1  # guilty: offender +4, challenger plays
    assert games[4].uno_state(0).name == "SAFE"
    assert games[5].uno_state(0).name == "SAFE" and games[5].current == 0
    assert games[6].phase >= _ROUND_OVER and sizes[6][1] == 4 and games[6].winner == 0
    assert sizes[7] == [2, 8] and games[7].current == 0  # legal: challenger +6, loses the turn
    assert count["reshuffle"] == 4


def test_catch_windows_in_set_up_positions() -> None:
    """Two players: a Skip, Reverse or Draw Two played down to one card without
    UNO leaves the seat to act again; the other seat is offered the catch first."""
    base: dict[str, Any] = dict(draw=["G7", "B1"], discard=["R5"], current=0)
    setups: list[dict[str, Any]] = [
        # 0: the chance passes; the seat then calls UNO itself and is safe
        dict(base, hands=[["RS", "R1"], ["B3", "G4"]]),
        # 1: caught in the window: 3 cards, not vulnerable, still to act
        dict(base, hands=[["RS", "R1"], ["B3", "G4"]]),
        # 2: a Reverse, the chance passes, the last card wins uncaught
        dict(base, hands=[["RR", "R1"], ["B3", "G4", "Y9"]]),
        # 3: a Draw Two; the victim draws the last 2 cards, and the catch
        # penalty needs a reshuffle
        dict(base, hands=[["RD2", "R1"], ["B3", "G4"]], discard=["B5", "Y5", "R5"]),
        # 4: the chance passes, the seat draws: its turn action ends the
        # vulnerability, no window opens again
        dict(base, hands=[["RS", "R1"], ["B3", "G4"]]),
        # 5: a position given vulnerable and to act: no move made it, no window
        dict(base, hands=[["R1"], ["B3", "G4"]], uno={0: "vulnerable"}),
    ]
    script = [
        ["PLAY RS", "PASS", "UNO"],
        ["PLAY RS", "CATCH +1", "PLAY R1"],
        ["PLAY RR", "PASS", "PLAY R1"],
        ["PLAY RD2", "CATCH +1", "PLAY R1"],
        ["PLAY RS", "PASS", "DRAW"],
        ["UNO", "PLAY R1"],
    ]
    games = [Game.setup("classic", 2, events=False, **kw) for kw in setups]
    count = lockstep(games, scripted(script), seed=3, max_steps=3)
    assert count["window opened"] == 5 and count["window CATCH"] == 2
    assert count["window PASS"] == 3 and count["reshuffle"] == 1
    assert games[0].uno_state(0).name == "SAFE" and games[0].current == 0
    # 1 card + 2 for the catch - 1 played, where an uncaught seat would have won
    assert len(games[1].hands[0]) == 2 and games[1].current == 1
    assert games[2].winner == 0 and games[2].round_points > 0
    assert len(games[3].hands[0]) == 2 and len(games[3].hands[1]) == 4
    assert games[4].vulnerable == -1 and len(games[4].hands[0]) == 2
    assert games[5].winner == 0


def test_catch_window_api() -> None:
    """In a window: the seat offered the catch is ``current_player`` with two
    legal actions; ``to_game`` gives the engine position (the vulnerable seat to
    act); other actions raise and change nothing; window decisions count
    towards ``max_steps``."""
    g = Game.setup(
        "classic", 2, hands=[["RS", "R1"], ["B3", "G4"]], draw=["G7", "B1"], discard=["R5"],
        current=0, events=False,
    )  # fmt: skip
    env = UnoClassicVectorEnv(2, 2, max_steps=3)
    at = env.table.index_of
    env.reset_from([g, g])
    out = env.step(np.full(2, at("PLAY RS")))
    assert out.current_player.tolist() == [1, 1] and not out.terminated.any()
    assert np.flatnonzero(out.action_mask[0]).tolist() == [at("PASS"), at("CATCH +1")]
    position = env.to_game(0)
    assert (position.current, position.vulnerable, position.catch_window()) == (0, 0, [1])
    assert np.array_equal(out.observation[0], env.encoder.encode_game(position, 1))
    again = UnoClassicVectorEnv(1, 2).reset_from([position])  # V to act, no window
    assert again.current_player.tolist() == [0] and again.action_mask[0, at("UNO")]
    with pytest.raises(IllegalActionError, match=r"game 1 \(P1 to act\) cannot take .*DRAW"):
        env.step(np.array([at("PASS"), at("DRAW")]))
    out = env.step(np.array([at("CATCH +1"), at("PASS")]))  # as if nothing was tried
    assert out.current_player.tolist() == [0, 0]
    sizes = out.observation[:, env.encoder.slice("hand_sizes")]
    assert sizes.tolist() == [[3.0, 2.0], [1.0, 2.0]]
    assert out.action_mask[1, at("UNO")] and not out.action_mask[0, at("UNO")]
    assert not out.truncated.any()
    out = env.step(np.array([at("DRAW"), at("UNO")]))  # decision 3: truncated
    assert out.truncated.tolist() == [True, True]


def test_positions_of_the_environment_continue_like_the_engine() -> None:
    """The environment's own deals and positions (exported with to_game) are
    engine positions that conserve the deck, and play on exactly like them."""
    env = UnoClassicVectorEnv(48, 3, seed=5)
    out = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        out = env.step((rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1))
    deck = Counter(CLASSIC.deck(Options(), 0))
    games = [env.to_game(i) for i in range(env.num_envs)]
    for g in games:
        assert g.all_cards() == deck
        g.check_invariants(deck)
    again = UnoClassicVectorEnv(48, 3, seed=0).reset_from(games)
    for field in ("observation", "action_mask", "current_player"):
        assert np.array_equal(getattr(again, field), getattr(out, field)), field
    phases = Counter(g.state.name for g in games)
    assert phases["AWAIT_TURN"] > 0
    count = lockstep(games, random_chooser([0.3]), seed=9, max_steps=150)
    assert count["batch steps"] > 0


# ---------------------------------------------------------------------------- no leak


def _redeal_hidden(g: Game, rnd: random.Random) -> Game:
    """The same position with every card the seat to act cannot see (other
    hands, the draw pile) dealt again; hand sizes and public facts kept."""
    h = g.copy()
    seat = h.current
    pool = list(h.draw)
    for s in range(h.n):
        if s != seat:
            pool += h.hands[s]
    rnd.shuffle(pool)
    for s in range(h.n):
        if s != seat:
            k = len(h.hands[s])
            h.hands[s], pool = pool[:k], pool[k:]
    h.draw = pool
    return h


@pytest.mark.parametrize("players", [2, 4])
def test_observation_and_mask_ignore_hidden_cards(players: int) -> None:
    rnd = random.Random(players)
    positions: list[Game] = []
    for seed in range(400):
        g = Game.new("classic", players, seed=seed, events=False)
        for _ in range(rnd.randrange(60)):
            moves = g.legal_moves()
            g.apply_move(moves[rnd.randrange(len(moves))])
            if g.phase >= _ROUND_OVER:
                break
        if g.phase < _ROUND_OVER:
            positions.append(g)
    phases = Counter(g.state.name for g in positions)
    assert phases["AWAIT_DRAWN"] and phases["AWAIT_CHALLENGE"], phases
    a = UnoClassicVectorEnv(len(positions), players).reset_from(positions)
    redealt = [_redeal_hidden(g, rnd) for g in positions]
    changed = sum(x.hands != y.hands for x, y in zip(positions, redealt, strict=True))
    assert changed > 0.9 * len(positions)
    b = UnoClassicVectorEnv(len(positions), players).reset_from(redealt)
    assert np.array_equal(a.observation, b.observation)
    assert np.array_equal(a.action_mask, b.action_mask)
    assert np.array_equal(a.current_player, b.current_player)
    # and the observation does change with the seat's own hand
    own = [g.copy() for g in positions if g.phase == int(Phase.AWAIT_TURN)]
    mine = [g for g in positions if g.phase == int(Phase.AWAIT_TURN)]
    for g in own:
        g.hands[g.current], g.hands[(g.current + 1) % players] = (
            g.hands[(g.current + 1) % players],
            g.hands[g.current],
        )
    c = UnoClassicVectorEnv(len(own), players).reset_from(own)
    d = UnoClassicVectorEnv(len(own), players).reset_from(mine)
    differ = (c.observation != d.observation).any(axis=1)
    assert differ.sum() > 0.9 * len(own)


# ---------------------------------------------------------------------------- API


def _random_actions(out: VectorStep, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)


def _same(x: VectorStep, y: VectorStep) -> bool:
    return all(
        np.array_equal(getattr(x, f), getattr(y, f))
        for f in ("observation", "action_mask", "current_player", "rewards", "terminated")
    )


def test_same_seed_same_games_and_reset_reseeds() -> None:
    envs = [UnoClassicVectorEnv(32, 2, seed=7) for _ in range(2)]
    other = UnoClassicVectorEnv(32, 2, seed=3)
    outs = [e.reset() for e in envs]
    reseeded = other.reset(seed=7)
    assert _same(outs[0], outs[1]) and _same(outs[0], reseeded)
    rngs = [np.random.default_rng(1) for _ in range(3)]
    ended = 0
    for _ in range(1500):
        outs = [e.step(_random_actions(o, r)) for e, o, r in zip(envs, outs, rngs[:2], strict=True)]
        reseeded = other.step(_random_actions(reseeded, rngs[2]))
        assert _same(outs[0], outs[1]) and _same(outs[0], reseeded)
        ended += int(outs[0].terminated.sum())
    assert ended > 0  # new rounds were dealt along the way, the same ones
    fresh = UnoClassicVectorEnv(32, 2, seed=8).reset()
    assert not np.array_equal(fresh.observation, envs[0].reset(seed=7).observation)


def test_automatic_reset_returns_the_new_round() -> None:
    players = 3
    env = UnoClassicVectorEnv(64, players, seed=4)
    out = env.reset()
    rng = np.random.default_rng(0)
    deck = len(CLASSIC.deck(Options(), 0))
    seen = 0
    size_at = env.encoder.slice("hand_sizes")
    draw_at = env.encoder.segments["draw_size"][0]
    discard_at = env.encoder.slice("discard")
    for _ in range(4000):
        out = env.step(_random_actions(out, rng))
        for i in np.flatnonzero(out.terminated).tolist():
            seen += 1
            r = out.rewards[i]
            assert r.sum() == 0 and (r <= 0).sum() >= players - 1
            # the row already shows the new round's first decision
            sizes = out.observation[i, size_at]
            assert sorted(sizes.tolist()) in ([7.0] * players, [7.0] * (players - 1) + [9.0])
            assert out.observation[i, discard_at].sum() == 1
            assert out.observation[i, draw_at] == deck - sizes.sum() - 1
            assert out.action_mask[i].any() and not out.truncated[i]
        live = ~out.terminated
        assert not out.rewards[live].any()
        if seen >= 5:
            break
    assert seen >= 5


@pytest.mark.parametrize("stall_reward", ["loss", "zero"])
def test_truncation_after_max_steps(stall_reward: str) -> None:
    env = UnoClassicVectorEnv(8, 2, seed=1, max_steps=5, stall_reward=stall_reward)
    out = env.reset()
    rng = np.random.default_rng(0)
    truncated = 0
    for k in range(1, 11):
        before = [env.to_game(i) for i in range(env.num_envs)]
        out = env.step(_random_actions(out, rng))
        truncated += int(out.truncated.sum())
        assert not (out.truncated & out.terminated).any()
        for i in np.flatnonzero(out.truncated):
            # a cut round: every seat loses its hand's value (as far as one
            # decision can change it), or gets 0
            if stall_reward == "zero":
                assert not out.rewards[i].any()
            else:
                assert (out.rewards[i] < 0).all()
                values = [before[i].hand_value(s) for s in range(2)]
                assert all(
                    abs(-r - v) <= 50 for r, v in zip(out.rewards[i], values, strict=True)
                )
        if k < 5:
            assert not out.truncated.any()
    assert truncated > 0
    with pytest.raises(OptionError, match="max_steps"):
        UnoClassicVectorEnv(8, 2, max_steps=0)


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = UnoClassicVectorEnv(6, 2, seed=2)
    twin = UnoClassicVectorEnv(6, 2, seed=2)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(np.zeros(6, dtype=np.int64))
    out = env.reset()
    assert _same(out, twin.reset())
    legal = _random_actions(out, np.random.default_rng(0))
    not_legal = legal.copy()
    not_legal[3] = int(np.flatnonzero(out.action_mask[3] == 0)[0])
    size = env.num_actions
    for bad, match in (
        (not_legal, r"game 3 \(P\d to act\) cannot take .*; legal: "),
        (legal[:5], r"shape \(6,\)"),
        (legal.reshape(2, 3), r"shape \(6,\)"),
        (legal.astype(np.float64), "dtype float64"),
        (legal.astype(bool), "dtype bool"),
        (np.full(6, size), f"outside the action table \\(0..{size - 1}\\)"),
        (np.full(6, -1), "outside the action table"),
        ([str(a) for a in legal], "dtype <U"),
        (None, "shape"),
        (3, "shape"),
    ):
        with pytest.raises(IllegalActionError, match=match):
            env.step(bad)
    # nothing changed: the next legal step gives what the untouched twin gives
    assert _same(env.step(legal.tolist()), twin.step(legal))


def test_options_and_arguments() -> None:
    with pytest.raises(OptionError, match=r"not supported: stacking='same_symbol'.*uno_classic_v0"):
        UnoClassicVectorEnv(4, 2, stacking="same_symbol")
    with pytest.raises(OptionError, match="sevenZero=True"):
        UnoClassicVectorEnv(4, 2, sevenZero=True)
    with pytest.raises(OptionError, match="unknown option"):
        UnoClassicVectorEnv(4, 2, nonsense=1)
    with pytest.raises(OptionError, match="2 to 10 players"):
        UnoClassicVectorEnv(4, 11)
    with pytest.raises(OptionError, match="reward"):
        UnoClassicVectorEnv(4, 2, reward="score")
    for bad in (0, -1, 2.5, True):
        with pytest.raises(OptionError, match="num_envs"):
            UnoClassicVectorEnv(bad)
    with pytest.raises(OptionError, match="seed"):
        UnoClassicVectorEnv(4, seed=-3)
    with pytest.raises(OptionError, match="seed"):
        UnoClassicVectorEnv(4).reset(seed="x")
    # options that do not change a round are accepted, and sized into the observation bounds
    env = UnoClassicVectorEnv(4, 2, targetScore=200, misplayPenalty="on", dealerSelection="random")
    assert env.reset().observation.shape == (4, 181)
    scores = env.encoder.slice("scores")
    default = UnoClassicVectorEnv(4, 2).encoder.high[scores]
    assert (env.encoder.high[scores] == default - 300).all()
    # the AEC module's factory builds the same environment
    v = uno_classic_v0.vector_env(3, players=4, seed=1)
    assert isinstance(v, UnoClassicVectorEnv) and v.table.size == 72
    assert v.table.names == uno_classic_v0.raw_env(players=4).table.names


def test_reset_from_checks_its_games() -> None:
    env = UnoClassicVectorEnv(2, 2)
    g = Game.new("classic", 2, seed=1, events=False)
    with pytest.raises(OptionError, match="needs 2 games"):
        env.reset_from([g])
    with pytest.raises(OptionError, match="flip with 2 players"):
        env.reset_from([g, Game.new("flip", 2, seed=1, events=False)])
    with pytest.raises(OptionError, match="3 players"):
        env.reset_from([g, Game.new("classic", 3, seed=1, events=False)])
    with pytest.raises(OptionError, match="other options"):
        env.reset_from([g, Game.new("classic", 2, {"stacking": "same_symbol"}, seed=1)])
    with pytest.raises(OptionError, match="not a unokit Game"):
        env.reset_from([g, "P0 PLAY R1"])
    over = Game.setup("classic", 2, hands=[["R1"], ["B2"]], discard=["R5"], current=0)
    over.apply("P0 PLAY R1")
    with pytest.raises(OptionError, match="waits for no decision"):
        env.reset_from([g, over])
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([0, 0])  # the failed calls started nothing
    out = env.reset_from([g, g])
    assert np.array_equal(out.observation[0], out.observation[1])
    with pytest.raises(IndexError):
        env.to_game(2)
