"""UNO, UNO Flip and UNO Flex as TextArena environments (``pip install 'unokit[textarena]'``).

Importing this module registers, in TextArena's own registry and with its
usual wrapper sets (``default``: ``LLMObservationWrapper`` +
``ActionFormattingWrapper``; ``-train``: the game messages and the current
board; ``-raw``: none):

========================  ==========================================
id                        game
========================  ==========================================
``UNO-v0``                Classic UNO, one round
``UNOFlip-v0``            UNO Flip, one round
``UNOFlex-v0``            UNO Flex, one round
========================  ==========================================

>>> import textarena as ta
>>> import unokit.envs.textarena
>>> env = ta.make("UNO-v0")                      # or options={"stacking": "same_symbol"}
>>> env.reset(num_players=2, seed=3)
>>> pid, observation = env.get_observation()
>>> pid, "Legal moves:" in observation
(1, True)
>>> done, info = env.step("I draw. [draw]")

``reset(num_players=2..10, seed=...)`` deals ``Game.new(variant, players,
options, seed)`` (a single round). Before each decision the player to act
receives the board (``GAME_BOARD``): its
:meth:`~unokit.engine.observation.Observation.to_text` view with the round's
latest events and its legal moves as commands; everyone receives each move
made, in words (``GAME_ACTION_DESCRIPTION``; what was drawn stays private).

An action is free text holding the move in brackets, TextArena's
convention: ``[play R5]``, ``[play W4 color=G]``, ``[play R5 uno]``,
``[draw]``, ``[pass]``, ``[challenge]``, ``[accept]``, ``[color G]``,
``[catch P1]`` or the move's number in the list (``[3]``); the last bracket
counts. Anything else is an invalid move handled by TextArena's state: the
player is told the reason and asked again (``error_allowance`` times,
default 1); one more invalid move loses the game — rewards -1 for that player
and +1 for every other, as TextArena's two-player games do. The round's
winner gets +1 and the others -1; a blocked round (nobody can draw or play)
is a draw (0 for all). Out-of-turn UNO catches are not offered (the player
to act may still catch a player who did not call UNO).
"""

from __future__ import annotations

import random
import re
from typing import Any

import textarena as ta  # type: ignore[import-untyped]
from textarena.envs.registration import (  # type: ignore[import-untyped]
    ENV_REGISTRY,
    register_with_versions,
)

from unokit.engine.actions import Action
from unokit.engine.events import redact
from unokit.engine.game import Game, Phase
from unokit.engine.narration import Narrator, move_commands
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

__all__ = ["UnoTextArenaEnv", "TEXTARENA_IDS"]

#: TextArena id of each variant registered by this module
TEXTARENA_IDS = {"classic": "UNO-v0", "flip": "UNOFlip-v0", "flex": "UNOFlex-v0"}
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_ROUND_OVER = int(Phase.ROUND_OVER)


class UnoTextArenaEnv(ta.Env):  # type: ignore[misc]
    """One UNO round as a TextArena environment (see the module page)."""

    def __init__(
        self,
        variant: str = "classic",
        options: dict[str, Any] | None = None,
        error_allowance: int = 1,
        history: int = 12,
    ) -> None:
        super().__init__()
        self.variant = get_variant(variant).name
        self.options = Options.from_dict(options).replace(matchMode="single_round")
        if not isinstance(error_allowance, int) or error_allowance < 0:
            raise ValueError(f"error_allowance must be an integer >= 0, not {error_allowance!r}")
        self.error_allowance = error_allowance
        self.history = history
        self.game: Game | None = None

    # ------------------------------------------------------------------ TextArena API

    def reset(self, num_players: int = 2, seed: int | None = None) -> None:
        v = get_variant(self.variant)
        if not v.min_players <= num_players <= v.max_players:
            raise ValueError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, "
                f"not {num_players}"
            )
        state_class = ta.TwoPlayerState if num_players == 2 else ta.FFAMultiPlayerState
        self.state = state_class(
            num_players=num_players, seed=seed, error_allowance=self.error_allowance
        )
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.game = Game.new(self.variant, num_players, self.options, seed=seed)
        self.state.reset(
            game_state={"variant": self.variant, "seed": seed},
            player_prompt_function=self._prompt,
        )
        self.state.manually_set_current_player_id(self.game.current)
        self._board()

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        game = self._game()
        seat = self.state.current_player_id
        self.state.add_observation(
            from_id=seat, message=action, observation_type=ta.ObservationType.PLAYER_ACTION
        )
        obs = game.observe(seat)
        move = self.read(action, obs)
        if isinstance(move, str):
            return self._invalid(move)
        text = self._describe(move, game)
        self.state.add_observation(
            message=text, observation_type=ta.ObservationType.GAME_ACTION_DESCRIPTION
        )
        if game.phase >= _ROUND_OVER:
            reason = f"Player {game.winner} played their last card."
            if game.winner < 0:
                self.state.set_draw("The round is blocked: nobody can draw or play.")
            elif isinstance(self.state, ta.TwoPlayerState):
                self.state.set_winner(game.winner, reason)
            else:
                self.state.set_winners([game.winner], reason)
            return self._step()
        self.state.manually_set_current_player_id(game.current)
        self._board()
        return self._step()

    # ------------------------------------------------------------------ helpers

    def _step(self) -> tuple[bool, dict[str, Any]]:
        """TextArena's end of a step; the player to act was set already."""
        done, info = self.state.step(rotate_player=False)
        return bool(done), dict(info)

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    @staticmethod
    def read(text: str, obs: Any) -> Action | str:
        """The legal action in the last ``[...]`` of ``text``, or why there is none."""
        from unokit.agents.arena import parse_answer

        found = _BRACKETS.findall(text)
        if not found:
            return "Write your move in brackets, e.g. [draw] or [play R5] (see the legal moves)."
        got = parse_answer(found[-1], obs)
        if isinstance(got, str):
            return (
                got[0].upper() + got[1:] + ". Legal moves: " + "; ".join(move_commands(obs)) + "."
            )
        return got

    def _invalid(self, reason: str) -> tuple[bool, dict[str, Any]]:
        seat = self.state.current_player_id
        if isinstance(self.state, ta.TwoPlayerState):
            self.state.set_invalid_move(reason)
            return self._step()
        if self.state.set_invalid_move(reason):  # past the allowance: the game is lost
            others = [p for p in range(self.state.num_players) if p != seat]
            self.state.set_winners(others, f"Player {seat} made too many invalid moves. {reason}")
        return self._step()

    @staticmethod
    def _describe(move: Action, game: Game) -> str:
        """Carry out ``move`` and say what happened, in the words of the
        terminal and MCP (:class:`unokit.engine.narration.Narrator`) as a
        spectator hears them: a drawn card is not named."""
        names = [f"Player {s}" for s in range(game.n)]
        narrator = Narrator(names, viewer=None, side=game.side)
        return " ".join(narrator.lines(redact(e, None) for e in game.apply(move)))

    def _board(self) -> None:
        """The player to act gets its view and legal moves."""
        game = self._game()
        seat = game.current
        names = [f"Player {s}" for s in range(game.n)]
        text = game.observe(seat).to_text(names, history=self.history, moves=True)
        self.state.add_observation(
            to_id=seat, message=text, observation_type=ta.ObservationType.GAME_BOARD
        )

    def _prompt(self, player_id: int, game_state: dict[str, Any]) -> str:
        from unokit.tui.rules_text import rules_text

        rules = rules_text(self.variant, self.options).replace("**", "").replace("`", "")
        return (
            f"You are Player {player_id} in a game of {get_variant(self.variant).name} UNO "
            f"with {self.state.num_players} players (one round: the first to empty their hand "
            "wins).\n\n" + rules + "\n\nOn your turn you see the table, your hand and your "
            "legal moves. Answer with one legal move in square brackets, e.g. [play R5], "
            "[play W color=G], [play R5 uno] (calls UNO), [draw], [pass], or its number, "
            "e.g. [2]."
        )

    def get_board_str(self) -> str:
        game = self._game()
        return game.observe(None).to_text(history=self.history)


def _register() -> None:
    from textarena.envs import BOARDGAME_WRAPPERS, DEFAULT_WRAPPERS  # type: ignore[import-untyped]

    for variant, env_id in TEXTARENA_IDS.items():
        if env_id in ENV_REGISTRY:
            continue
        register_with_versions(
            id=env_id,
            entry_point=UnoTextArenaEnv,
            wrappers={"default": DEFAULT_WRAPPERS, "-train": BOARDGAME_WRAPPERS},
            variant=variant,
        )


_register()
