"""A game for an outside agent (a language model over MCP, a script): the agent
holds one seat, our bots the others; the agent reads its observation in words
or JSON, lists its legal moves in the project's notation and plays one.

This module has no MCP in it (:mod:`unokit.agents.mcp_server` exposes it as tools);
every rule is the engine's (:class:`unokit.Game`), every check of a move is
:func:`unokit.agents.engine_protocol.match_legal`.

>>> t = AgentTable("classic", 2, opponents="heuristic", seed=3)
>>> t.seat, t.waiting_for_agent
(0, True)
>>> [m["move"] for m in t.legal_moves()]
['P0 ACCEPT', 'P0 CHALLENGE']
>>> t.play("accept")["accepted"]
'P0 ACCEPT'
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any

from unokit.bots import Bot
from unokit.bots.budget import MAX_SIMS, MAX_THINK_MS, level_bot
from unokit.engine.actions import Action, Catch
from unokit.engine.errors import IllegalActionError, OptionError, UnoError
from unokit.engine.game import Game
from unokit.engine.narration import move_meaning
from unokit.engine.observation import Observation
from unokit.engine.options import Options

__all__ = ["AgentTable", "move_meaning", "WAIT", "ask_level"]

#: the move that lets a chance to catch (or jump in) go when it is not the agent's turn
WAIT = "WAIT"
_NAMES = ("Ada", "Bo", "Cy", "Dot", "Eli", "Fay", "Gus", "Hana", "Ike", "Jo")


@dataclass
class AgentTable:
    """A round or a match: the agent at ``seat``, bots (``opponents``: one
    level for all, or one per other seat, comma-separated) elsewhere. Bots move
    at once; the table stops whenever the agent has a decision."""

    variant: str
    players: int
    opponents: str = "normal"
    options: dict[str, Any] | None = None
    match: bool = False
    seat: int = 0
    seed: int | None = None
    think_ms: int | None = None
    sims: int | None = None
    #: set from another thread to stop the bots between two decisions (the
    #: client went away); the next call lets them finish
    cancel: threading.Event | None = field(default=None, repr=False)
    game: Game = field(init=False)
    bots: list[Bot | None] = field(init=False)
    names: list[str] = field(init=False)
    _told: int = field(init=False, default=0)  # history events already narrated
    _round: int = field(init=False, default=0)
    _declined: int = field(init=False, default=-1)
    _offered: int = field(init=False, default=-1)  # the version whose catch the bots were offered
    _version: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        opts = Options.from_dict(dict(self.options or {}))
        if not self.match:
            opts = opts.replace(matchMode="single_round")
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**31)
        self.game = Game.new(self.variant, self.players, opts, seed=self.seed, events=True)
        n = self.game.n
        if not 0 <= self.seat < n:
            raise OptionError(f"seat must be 0 to {n - 1} in a {n}-player game, not {self.seat}")
        levels = [x.strip() for x in self.opponents.split(",") if x.strip()]
        if len(levels) == 1:
            levels = levels * (n - 1)
        if len(levels) != n - 1:
            raise OptionError(
                f"opponents: give one level for all {n - 1} bots or one per bot, "
                f"comma-separated; got {len(levels)}"
            )
        extra = think_options(self.think_ms, self.sims)
        it = iter(levels)
        self.bots = []
        for s in range(n):
            if s == self.seat:
                self.bots.append(None)
                continue
            level = next(it)
            if level.strip().lower() == "engine":
                raise OptionError("opponents are our bot levels (easy, normal, hard...)")
            self.bots.append(level_bot(level, seed=self.seed * 10 + s, **extra))
        others = iter(_NAMES)
        self.names = ["You" if s == self.seat else next(others) for s in range(n)]
        self._round = self.game.round_no
        self.advance()

    # ------------------------------------------------------------------ state

    def observe(self) -> Observation:
        return self.game.observe(self.seat)

    @property
    def over(self) -> bool:
        return self.game.state.name == "MATCH_OVER"

    @property
    def waiting_for_agent(self) -> bool:
        """True when the agent has a decision: its turn, a chance to catch, the next round."""
        g = self.game
        name = g.state.name
        if name == "MATCH_OVER":
            return False
        if name == "ROUND_OVER":
            return True
        return g.to_act == self.seat or self._catch_chance()

    def _catch_chance(self) -> bool:
        return self._declined != self._version and self.seat in self.game.catch_window()

    def legal_moves(self) -> list[dict[str, str]]:
        """The agent's moves now, each with its meaning; ``[]`` when it has none."""
        g = self.game
        name = g.state.name
        if name == "MATCH_OVER":
            return []
        if name == "ROUND_OVER":
            return [{"move": "NEXT", "meaning": "deal the next round"}]
        if not self.waiting_for_agent:
            return []
        obs = self.observe()
        out = [{"move": str(a), "meaning": move_meaning(a, obs)} for a in obs.legal]
        if g.to_act != self.seat:
            out.append({"move": WAIT, "meaning": "let the chance go; the game goes on"})
        return out

    def text(self) -> str:
        """The agent's observation in words (``Observation.to_text``: the table,
        the round's latest events) and what the agent may do now."""
        from unokit.engine.narration import observation_text

        obs = self.observe()
        bots = [b is not None for b in self.bots]
        return observation_text(obs, self.names, bots, status=False) + "\n" + self.status()

    def status(self) -> str:
        g = self.game
        obs = self.observe()
        if g.state.name == "MATCH_OVER":
            won = obs.match_winners
            who = ", ".join(self.names[s] for s in won) or "nobody"
            return f"The game is over. Winner: {who}. Scores: {list(obs.scores)}."
        if g.state.name == "ROUND_OVER":
            w = "nobody (blocked)" if obs.winner is None else self.names[obs.winner]
            return (
                f"Round {obs.round} is over; winner: {w}, {obs.round_points} points. "
                "Play NEXT to deal the next round."
            )
        if self.waiting_for_agent:
            from unokit.engine.narration import status_line

            if g.to_act != self.seat:
                return "You may catch a player who did not call UNO now, or WAIT."
            return status_line(obs, self.names) + " Choose one of your legal moves."
        return "Waiting for the other players."  # pragma: no cover - bots move at once

    def json(self) -> dict[str, Any]:
        """The agent's observation as JSON (``Observation.to_dict()``) plus the history's tail."""
        d = self.observe().to_dict()
        d["history"] = d["history"][-30:]
        d["names"] = self.names
        return d

    # ------------------------------------------------------------------ moves

    def play(self, move: str) -> dict[str, Any]:
        """Play the agent's ``move`` (one of :meth:`legal_moves`; a ``PLAY`` may
        add ``uno=true``; the seat prefix may be left out), then let the bots
        play until the agent has a decision again. Raises
        :class:`~unokit.engine.errors.IllegalActionError` saying why and what is legal."""
        from unokit.agents.engine_protocol import match_legal

        text = " ".join(move.split())
        if not text:
            raise IllegalActionError("empty move: " + self._legal_hint())
        g = self.game
        name = g.state.name
        if name == "MATCH_OVER":
            raise IllegalActionError("the game is over: start a new one with new_game")
        if name == "ROUND_OVER":
            if text.upper() not in ("NEXT", "NEXT_ROUND"):
                raise IllegalActionError(f"{text!r}: the round is over; the only move is NEXT")
            self._told = 0
            g.next_round()
            self._version += 1
            return self._after("NEXT")
        self.advance()  # bots stopped by a cancelled call finish first
        if not self.waiting_for_agent:  # pragma: no cover - bots move at once
            raise IllegalActionError("it is not your decision now")
        if text.upper() == WAIT:
            if g.to_act == self.seat:
                raise IllegalActionError(
                    "WAIT is only for a chance out of turn; " + self._legal_hint()
                )
            self._declined = self._version
            return self._after(WAIT)
        words = text.split()
        if words[0].upper() not in {f"P{s}" for s in range(g.n)}:
            text = f"P{self.seat} {text}"
        obs = self.observe()
        try:
            action = match_legal(text, obs)
        except UnoError:
            raise IllegalActionError(self._why(text)) from None
        g.apply(action)
        self._version += 1
        return self._after(str(action))

    def _why(self, text: str) -> str:
        """Why ``text`` is refused (the rules' own reason when there is one), and what is legal."""
        from unokit.engine.actions import parse_action

        try:
            action = parse_action(text, self.game.variant.cards)
        except UnoError as e:
            return f"{text!r} is not a command: {e}. {self._legal_hint()}"
        try:
            self.game.copy().apply(action)
        except UnoError as e:
            return f"{text!r} is not legal: {e}. {self._legal_hint()}"
        return f"{text!r} is not one of your moves now. {self._legal_hint()}"

    def _legal_hint(self) -> str:
        moves = [m["move"] for m in self.legal_moves()]
        return "Legal moves now: " + "; ".join(moves) if moves else "You have no move now."

    def _after(self, accepted: str) -> dict[str, Any]:
        self.advance()
        return {
            "accepted": accepted,
            "happened": self.news(),
            "observation": self.text(),
            "legal_moves": self.legal_moves(),
            "game_over": self.over,
        }

    def advance(self) -> None:
        """Let the bots play until the agent has a decision or the round ends.

        After every move that leaves a seat vulnerable and about to act again
        (:meth:`unokit.Game.catch_window`), the bots are offered the catch
        first (as :func:`unokit.bots.sim.offer_catch` does), then the agent."""
        from unokit.engine.codes import ROUND_OVER as _RO

        g = self.game
        for _ in range(100_000):
            if self.cancel is not None and self.cancel.is_set():
                raise Cancelled("the call was cancelled; the bots go on at the next call")
            if g.phase >= _RO:
                return
            window = g.catch_window()
            if window and self._offered != self._version:
                self._offered = self._version
                for c in window:
                    bot = self.bots[c]
                    if bot is None or not getattr(bot, "catches", True):
                        continue
                    a = bot.act(g.observe(c))
                    if isinstance(a, Catch) and a.seat == c:
                        g.apply(a)
                        self._version += 1
                        break
                continue
            if self.waiting_for_agent:
                return
            seat = g.to_act
            bot = self.bots[seat] if seat is not None else None
            if bot is None:  # pragma: no cover - the agent's decisions return above
                return
            g.apply(bot.act(g.observe(seat)))
            self._version += 1
        raise RuntimeError("the bots did not stop")  # pragma: no cover

    def news(self) -> list[str]:
        """What happened since the last call, in words, from the agent's point of view."""
        from unokit.engine.narration import Narrator

        history = self.observe().history
        if self.game.round_no != self._round:
            self._round = self.game.round_no
            self._told = 0
        narrator = Narrator(self.names, viewer=self.seat)
        lines = [narrator.line(e) for e in history]  # the narrator follows the whole round
        out = [x for x in lines[self._told :] if x]
        self._told = len(lines)
        return out


class Cancelled(UnoError):
    """The caller went away: the bots stopped between two decisions."""


def think_options(think_ms: int | None, sims: int | None) -> dict[str, Any]:
    """The search budget an outside caller asked for, checked against the
    documented maxima (:data:`~unokit.bots.budget.MAX_THINK_MS` ms of CPU,
    :data:`~unokit.bots.budget.MAX_SIMS` rollouts); none: the level's budget
    by count (:mod:`unokit.bots.budget`)."""
    if think_ms is not None and sims is not None:
        raise OptionError("give think_ms or sims, not both")
    if think_ms is not None:
        if not 1 <= think_ms <= MAX_THINK_MS:
            raise OptionError(f"think_ms must be 1 to {MAX_THINK_MS}, not {think_ms}")
        return {"think_ms": think_ms}
    if sims is not None:
        if not 1 <= sims <= MAX_SIMS:
            raise OptionError(f"sims must be 1 to {MAX_SIMS}, not {sims}")
        return {"sims": sims}
    return {}


def ask_level(
    level: str,
    game: Game,
    seat: int | None = None,
    think_ms: int | None = None,
    seed: int = 0,
    sims: int | None = None,
) -> tuple[Action, Observation]:
    """What bot ``level`` would play for ``seat`` (default: the seat to act) in
    ``game``, from that seat's observation only."""
    if game.state.name in ("ROUND_OVER", "MATCH_OVER"):
        raise IllegalActionError("the round is over in this position: there is no move to ask for")
    s = game.to_act if seat is None else seat
    if s is None or not 0 <= s < game.n:
        raise OptionError(f"seat must be 0 to {game.n - 1}")
    obs = game.observe(s)
    if not obs.legal:
        raise IllegalActionError(f"P{s} has no legal move in this position")
    extra = think_options(think_ms, sims)
    if level.strip().lower() == "engine":
        raise OptionError("ask one of our levels: easy, normal, hard, heuristic, random")
    bot = level_bot(level, seed=seed, **extra)
    return bot.act(obs), obs
