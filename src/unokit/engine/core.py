"""The rules core in C (:mod:`unokit._core`) and its old second face.

:class:`unokit.Game` holds one position of the C core for its whole life
(docs/core.md): there is one engine face. :class:`CoreGame` is the name an
earlier unokit gave the C-backed game before :class:`~unokit.Game` was one;
it is kept for code and documents that use it: a :class:`~unokit.Game`
without an event log, built with ``CoreGame``'s old argument order.

The helpers that build the core's inputs (card tables, option integers) and
read its event records live in :mod:`unokit.engine.coredata` and are
re-exported here.

>>> g = CoreGame.new("classic", 3, seed=7)
>>> from unokit import Game
>>> r = Game.new("classic", 3, seed=7, events=False)
>>> g.state_tuple() == r.state_tuple()
True
>>> m = g.legal_moves()[0]; g.apply_move(m); r.apply_move(m)
>>> g.state_tuple() == r.state_tuple()
True
"""

from __future__ import annotations

import warnings
from typing import Any

from unokit.engine import coredata
from unokit.engine.coredata import *  # noqa: F403 - its helpers are this module's too
from unokit.engine.coredata import CoreConfig
from unokit.engine.game import Game
from unokit.engine.options import Options
from unokit.engine.variants import Variant

__all__ = ["CoreGame"]
__all__ += coredata.__all__  # its helpers, re-exported


def _deprecated() -> None:
    warnings.warn(
        "CoreGame is unokit.Game's old name: use Game (Game.new(..., events=False), game.copy())",
        DeprecationWarning,
        stacklevel=3,
    )


class CoreGame(Game):
    """A :class:`unokit.Game` without an event log, under its old name and
    argument order (``CoreGame(variant, options, players, seed)``); events are
    kept on request (:meth:`~unokit.Game.record_events`)."""

    __slots__ = ()
    _direct = True  # Game's rules, unchanged: Game's fast paths apply

    def __init__(
        self, variant: Variant, options: Options, players: int, seed: int,
        made: CoreConfig | None = None,
    ) -> None:  # fmt: skip
        """An empty table (phase ``DEAL``); ``made``: :func:`core_config` of the
        same variant, options and seed."""
        _deprecated()
        self._make(variant, options, players, seed, False, made)

    @classmethod
    def new(cls, *args: Any, events: bool = False, **kw: Any) -> CoreGame:
        """Start a match like :meth:`unokit.Game.new`, with its arguments,
        but without an event log; ``events``: record events from the deal on
        (:meth:`~unokit.Game.take_events`)."""
        _deprecated()
        g = cls.__new__(cls)
        Game.__init__(g, *args, events=False, **kw)  # Game's checks and set-up
        if events:
            g.record_events(True)
        g._new_match()
        return g

    @classmethod
    def from_game(cls, game: Game, made: CoreConfig | None = None) -> CoreGame:
        """The position of ``game`` (its event log is not carried): a copy."""
        del made
        _deprecated()
        g = game.copy()
        if type(g) is not cls:
            c = cls.__new__(cls)
            for name in Game.__slots__:
                setattr(c, name, getattr(g, name))
            return c
        return g

    def to_game(self) -> Game:
        """This position as a plain :class:`unokit.Game` (without events)."""
        g = Game.__new__(Game)
        c = self.copy()
        for name in Game.__slots__:
            setattr(g, name, getattr(c, name))
        return g

    def store(self, g: Game) -> None:
        """Deprecated: positions are not written into games any more (a game
        holds its own); use :meth:`to_game` or :meth:`unokit.Game.copy`."""
        warnings.warn(
            "CoreGame.store is deprecated: use CoreGame.to_game()", DeprecationWarning, stacklevel=2
        )
        g._g.set_state(self._g.state())

    def __repr__(self) -> str:
        return (
            f"<CoreGame {self.variant.name} {self.n}p round {self.round_no} "
            f"phase {self.phase} P{self.current}>"
        )
