"""OpenSpiel games: ``python_uno_classic``, ``python_uno_flip``, ``python_uno_flex``.

Importing this module registers the three games with pyspiel (the
``openspiel`` extra: ``pip install 'unokit[openspiel]'``)::

    import pyspiel
    import unokit.envs.openspiel  # registers the games

    game = pyspiel.load_game("python_uno_flip", {"players": 3, "stacking": "same_symbol"})
    state = game.new_initial_state()

A thin adapter over :class:`unokit.Game` that reuses the environments' tables
(docs/envs.md): the actions are the variant's
:class:`~unokit.envs.actions.ActionTable` (seats relative to the actor), the
observation tensor is the :class:`~unokit.envs.observation.ObservationEncoder`
vector of the seat, the catch window is offered as in the PettingZoo
environments (``CATCH`` or ``PASS``), and the rewards are
:func:`~unokit.envs._base.round_rewards`.

* One game is one round. Imperfect information, **sampled stochastic**
  chance: the deal and every reshuffle come from the state's seed (drawn from
  the game's ``rng_seed`` for each new initial state), never from chance
  nodes.
* Parameters: ``players``, ``reward`` (``win``: +1 to the winner,
  -1/(players-1) to the others; ``points``: the round's points, zero-sum),
  ``max_turns`` (a round still going after that many decisions ends with all
  returns 0), ``rng_seed`` (-1: random), and every rule option of docs/rules.md
  ("Options") under its spec name (``flipDrawColorCap=-1`` means none).
* Strings and tensors per player: ``observation_string`` / ``observation_tensor``
  (the seat's current view) and ``information_state_string`` (perfect
  recall: the current view, then a digest of every view and public action
  since the deal). There is no information-state *tensor*: a perfect-recall
  history of unbounded length has no fixed-size encoding (use the
  observation tensor, or the string).
* ``resample_from_infostate`` deals the cards the player cannot see at random
  consistently with its view (:class:`unokit.bots.determinize.Determinizer`),
  for OpenSpiel's ISMCTS.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections import OrderedDict
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found,import-untyped,unused-ignore]

from unokit.engine.errors import OptionError
from unokit.engine.game import OP_CATCH, OP_PASS, Game
from unokit.engine.multiplay import OP_MULTI
from unokit.engine.options import Options
from unokit.engine.variants import get_variant
from unokit.envs._base import round_rewards
from unokit.envs.actions import ActionTable, action_table
from unokit.envs.observation import ObservationEncoder

__all__ = [
    "GAMES",
    "UnoSpielGame",
    "UnoSpielState",
    "option_params",
    "PlayoutEvaluator",
    "bot_action",
]

GAMES = {"classic": "python_uno_classic", "flip": "python_uno_flip", "flex": "python_uno_flex"}
_NONE_INT = -1  # an integer parameter standing for None (flipDrawColorCap)
_DETERMINIZERS: OrderedDict[tuple[str, int], Any] = OrderedDict()
_RESAMPLE_RNG = random.Random(0)


def option_params() -> dict[str, Any]:
    """Every rule option with its default, as pyspiel parameters (None -> -1)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Options):
        value = f.default
        out[f.name] = _NONE_INT if value is None else value
    return out


def _options(params: dict[str, Any]) -> Options:
    raw: dict[str, Any] = {}
    defaults = option_params()
    for key, default in defaults.items():
        value = params.get(key, default)
        if value == default:
            continue
        raw[key] = None if key == "flipDrawColorCap" and value == _NONE_INT else value
    raw["matchMode"] = "single_round"
    return Options.from_dict(raw)


def _game_type(variant: str) -> Any:
    v = get_variant(variant)
    return pyspiel.GameType(
        short_name=GAMES[variant],
        long_name={"classic": "UNO", "flip": "UNO Flip", "flex": "UNO Flex"}[variant] + " (unokit)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=v.max_players,
        min_num_players=v.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": 2,
            "reward": "win",
            "max_turns": 2000,
            "rng_seed": -1,
            **option_params(),
        },
    )


class UnoSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One variant of UNO as an OpenSpiel game (see the module docstring)."""

    variant = "classic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        v = get_variant(self.variant)
        players = int(params.get("players", 2))
        if not v.min_players <= players <= v.max_players:
            raise OptionError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players}"
            )
        reward = str(params.get("reward", "win"))
        if reward not in ("win", "points"):
            raise OptionError(f"reward must be win or points, not {reward!r}")
        max_turns = int(params.get("max_turns", 2000))
        if max_turns < 1:
            raise OptionError("max_turns must be at least 1")
        self.options = _options(params)
        Game.new(v.name, players, self.options, seed=0, events=False)  # every check of a deal
        self.table: ActionTable = action_table(v, players, self.options)
        self.encoder = ObservationEncoder(v, players, self.options)
        self.players = players
        self.reward = reward
        self.max_turns = max_turns
        seed = int(params.get("rng_seed", -1))
        self._rng = random.Random(seed if seed >= 0 else None)
        if reward == "win":
            lo, hi = -1.0, 1.0
        else:
            deck = v.deck(self.options, 0)
            sides = (0, 1) if v.two_sided else (0,)
            most = float(sum(max(v.points[s][c] for s in sides) for c in deck))
            lo, hi = -most, most
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=max_turns,
        )
        super().__init__(_TYPES[self.variant], info, params)

    def new_initial_state(self, seed: int | None = None) -> UnoSpielState:
        """A new round, dealt from ``seed`` (default: the next seed of the game's generator)."""
        deal = self._rng.randrange(2**31) if seed is None else seed
        return UnoSpielState(self, _Box(None, (self.variant, self.players, self.options, deal)))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> UnoObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return UnoObserver(self, perfect_recall=perfect)


class _Box:
    """Holds the unokit game, dealt when first needed (OpenSpiel clones a
    Python state by making a new initial state, then deep-copying the
    attributes: the deal would be wasted). A game copies itself cheaply
    (``Game.copy``)."""

    __slots__ = ("_game", "_deal")

    def __init__(
        self, game: Game | None, deal: tuple[str, int, Options, int] | None = None
    ) -> None:
        self._game = game
        self._deal = deal

    @property
    def game(self) -> Game:
        if self._game is None:
            assert self._deal is not None
            variant, players, options, seed = self._deal
            self._game = Game.new(variant, players, options, seed=seed, events=True)
        return self._game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        if self._game is None:
            return _Box(None, self._deal)
        return _Box(self._game.copy(events=True))

    def __reduce__(self) -> tuple[Any, ...]:  # serialisation: the position and its log
        return (_unbox, (_box_state(self.game),))


def _box_state(game: Game) -> tuple[str, list[Any]]:
    from unokit.engine import notation

    return notation.dumps(game), list(game.log or [])


def _unbox(data: tuple[str, list[Any]]) -> _Box:  # noqa: D103
    from unokit.engine import notation

    text, log = data
    g = notation.loads(text)
    g2 = g.copy(events=True)
    if g2.log is not None:
        g2.log[:] = log
    return _Box(g2)


class UnoSpielState(pyspiel.State):  # type: ignore[misc]
    """A position of a round (see the module docstring)."""

    def __init__(self, game: UnoSpielGame, box: _Box) -> None:
        super().__init__(game)
        self.box = box
        self.turns = 0
        self.truncated = False
        self.window: list[int] = []  # seats still offered the catch of window_of
        self.window_of = -1
        # per seat: a digest of every view and public action since the deal
        # (None: at the deal, computed when first needed)
        self.trail: list[str] | None = None

    # -- helpers ---------------------------------------------------------------

    @property
    def g(self) -> Game:
        return self.box.game

    def _spiel(self) -> UnoSpielGame:
        game = self.get_game()
        assert isinstance(game, UnoSpielGame)
        return game

    def _trail(self) -> list[str]:
        if self.trail is None:
            self.trail = ["" for _ in range(self._spiel().players)]
            self._remember("deal")
        return self.trail

    def _remember(self, what: str) -> None:
        enc = self._spiel().encoder
        g = self.g
        trail = self._trail()
        for p in range(len(trail)):
            view = enc.encode_game(g, p).tobytes()
            extra = repr(g.reveal).encode() if g.reveal is not None and g.reveal[0] == p else b""
            h = hashlib.blake2b(trail[p].encode() + what.encode() + view + extra,
                                digest_size=12)  # fmt: skip
            trail[p] = h.hexdigest()

    def _legal(self, seat: int) -> dict[int, int]:
        idx = self._spiel().table.indices(seat)
        if self.window:
            catch = OP_CATCH | ((self.window_of + 1) << 21)
            return {idx[catch]: catch, idx[OP_PASS]: OP_PASS}
        # multi-plays (multiPlay) have no entry in the table (docs/rl.md)
        return {idx[m]: m for m in self.g.legal_moves(seat) if m & 15 != OP_MULTI}

    # -- the pyspiel.State API -------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.window[0] if self.window else int(self.g.current)

    def is_terminal(self) -> bool:
        return self.truncated or self.g.state.name in ("ROUND_OVER", "MATCH_OVER")

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.current_player():
            return []
        return sorted(self._legal(player))

    def _apply_action(self, action: int) -> None:
        self._trail()  # the views at the deal, before the first move
        seat = self.current_player()
        move = self._legal(seat).get(action)
        if move is None:
            raise pyspiel.SpielError(
                f"action {action} ({self._spiel().table.names[action]}) is not legal for P{seat}"
            )
        g = self.g
        if self.window:
            if move == OP_PASS:
                self.window.pop(0)
            else:
                g.apply_move(move, seat)
                self.window = []
        else:
            g.apply_move(move, seat)
            self.window = g.catch_window()
            self.window_of = g.vulnerable if self.window else -1
        self.turns += 1
        self._remember(f"P{seat}:{action};")
        if self.turns >= self._spiel().max_turns and not self.is_terminal():
            self.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        return f"P{player} {self._spiel().table.names[action]}"

    def returns(self) -> list[float]:
        n = self._spiel().players
        if not self.is_terminal() or self.truncated:
            return [0.0] * n
        return round_rewards(self.g, self._spiel().reward)

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return f"{self.observation_string(p)}\nhistory {self._trail()[p]}"

    def observation_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        obs = self.g.observe(p)
        d = dataclasses.replace(obs, history=(), legal=()).to_dict()
        for key in ("legal", "history", "options", "variant", "players", "dealer", "round"):
            d.pop(key, None)
        d["catch_window"] = self.window
        return json.dumps(d, separators=(",", ":"), sort_keys=True)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        p = self.current_player() if player is None else player
        return list(self._spiel().encoder.encode_game(self.g, p))

    def resample_from_infostate(self, player: int, sampler: Any = None) -> UnoSpielState:
        """A state ``player`` cannot tell from this one: the hidden cards dealt
        again at random, consistently with its view."""
        from unokit.bots.determinize import Determinizer

        key = (self._trail()[player], player)
        det = _DETERMINIZERS.get(key)
        if det is None:  # one per information state (ISMCTS resamples the root many times)
            det = Determinizer(self.g.observe(player), infer=False)
            _DETERMINIZERS[key] = det
            while len(_DETERMINIZERS) > 16:
                _DETERMINIZERS.popitem(last=False)
        sample = det.sample(_RESAMPLE_RNG)
        clone = self.clone()
        assert isinstance(clone, UnoSpielState)
        # an UNO called before playing: public, not in the view; a hand shown
        # earlier: part of the view
        new = sample.replace(uno_pre=self.g.uno_pre, reveal=self.g.reveal, events=True)
        if new.log is not None and self.g.log is not None:
            new.log[:] = self.g.log  # the history is public to the resampled world too
        clone.box = _Box(new)
        return clone

    def __str__(self) -> str:
        from unokit.engine import notation

        return notation.dumps(self.g) + f"turns {self.turns}\n"


class UnoObserver:
    """The PyObserver of OpenSpiel: the seat's view as a tensor and a string;
    with perfect recall, the string only (see the module docstring)."""

    def __init__(self, game: UnoSpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else game.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        if size:
            for name, start, length in game.encoder.describe():
                self.dict[name] = self.tensor[start : start + length]

    def set_from(self, state: UnoSpielState, player: int) -> None:
        if self.tensor.size:
            self.tensor[:] = state.observation_tensor(player)

    def string_from(self, state: UnoSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def bot_action(state: UnoSpielState, bot: Any) -> int:
    """The action index of one of our bots (``unokit.bots.make_bot``) at the
    state's current player, from that seat's observation only. A play with an
    UNO call becomes the ``UNO`` action first (the bot is asked again after it)."""
    from unokit.engine.actions import CallUno, Catch, Play

    seat = state.current_player()
    legal = state._legal(seat)
    by_move = {m: i for i, m in legal.items()}
    action = bot.act(state.g.observe(seat))
    if state.window:  # the catch, or let it go
        catch = next((i for i, m in legal.items() if m != OP_PASS), None)
        if isinstance(action, Catch) and catch is not None:
            return catch
        return next(i for i, m in legal.items() if m == OP_PASS)
    if isinstance(action, Play) and action.uno:
        uno = state.g.encode(CallUno(seat))
        if uno in by_move:
            return by_move[uno]
    move = state.g.encode(action)
    if move not in by_move:
        raise OptionError(f"{bot.name} chose {action}, not in the action table here")
    return by_move[move]


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An MCTS / ISMCTS evaluator that plays each leaf to the end of the
    round with unokit's fast random playouts (:func:`unokit.engine.playout.playout`)
    instead of stepping OpenSpiel states, and a uniform prior."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: UnoSpielState) -> Any:
        from unokit.engine.playout import playout

        if state.is_terminal():
            return np.array(state.returns())
        total = np.zeros(state.num_players())
        reward = state._spiel().reward
        for _ in range(self.n_rollouts):
            g = state.g.copy()
            playout(g, self._rng.random)
            total += round_rewards(g, reward)
        return total / self.n_rollouts

    def prior(self, state: UnoSpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _subclass(variant: str) -> type[UnoSpielGame]:
    return type(f"Uno{variant.title()}SpielGame", (UnoSpielGame,), {"variant": variant})


_TYPES = {v: _game_type(v) for v in GAMES}
CLASSES = {v: _subclass(v) for v in GAMES}
for _v, _cls in CLASSES.items():
    pyspiel.register_game(_TYPES[_v], _cls)
