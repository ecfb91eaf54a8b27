"""A match at this terminal: people in some seats, bots in the others.

The session owns the :class:`~unokit.Game`; people and bots act only through
it, and each sees only ``game.observe(seat)``. It optionally writes the match
record after every accepted command, so nothing is lost if the terminal dies.

>>> s = Session("classic", 3, seed=5, bots="random")
>>> s.names, s.is_human(0), s.is_human(1)
(['You', 'Ada', 'Bo'], True, False)
>>> while s.bot_to_act() is not None:
...     _ = s.bot_step()
>>> s.game.current == 0 or s.game.to_act is None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unokit.bots import Bot, make_bot
from unokit.engine.actions import Action, Catch, NextRound
from unokit.engine.errors import IllegalActionError, OptionError
from unokit.engine.events import Event, RoundEnded
from unokit.engine.game import Game, Phase
from unokit.engine.observation import Observation
from unokit.engine.options import Options

__all__ = ["Session", "BOT_NAMES", "parse_bot_levels"]

BOT_NAMES = ("Ada", "Bo", "Cy", "Dot", "Eli", "Fay", "Gus", "Hana", "Ike", "Jo")


def parse_bot_levels(text: str, count: int) -> list[str]:
    """``"heuristic"`` or ``"heuristic,random"`` (one per bot seat) to a list."""
    levels = [t.strip() for t in text.split(",") if t.strip()]
    if not levels:
        raise OptionError("--bots needs a bot level, e.g. heuristic")
    if len(levels) == 1:
        return levels * count
    if len(levels) != count:
        raise OptionError(
            f"{len(levels)} bot levels given for {count} bot seats: give 1 or {count}"
        )
    return levels


class Session:
    """A match between ``humans`` people (seats ``P0 … P(humans-1)``) and bots."""

    def __init__(
        self,
        variant: str,
        players: int,
        *,
        humans: int = 1,
        names: Sequence[str] = (),
        bots: str = "normal",
        options: Options | dict[str, Any] | None = None,
        seed: int | None = None,
        bot_options: dict[str, Any] | None = None,
        save: str | Path | None = None,
        game: Game | None = None,
    ) -> None:
        """``game``: play on from this game (e.g. an explicit position) instead of
        dealing a new match; it must keep its events."""
        if game is not None:
            variant, players = game.variant.name, game.n
        if not 1 <= humans <= players:
            raise OptionError(f"{humans} people cannot share a {players}-player game")
        if len(names) > humans:
            raise OptionError(f"{len(names)} names given for {humans} people")
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        self.seed = seed
        self.bot_options: dict[str, Any] = dict(bot_options or {})
        if game is not None:
            if game.log is None:
                raise OptionError("the game must keep its events (events=True)")
            self.game = game
        else:
            self.game = Game.new(variant, players, options, seed=seed)
        self.humans = humans
        levels = parse_bot_levels(bots, players - humans) if players > humans else []
        self.bots: list[Bot | None] = [None] * humans + [
            make_bot(level, seed=seed * 100 + s, **(bot_options or {}))
            for s, level in zip(range(humans, players), levels, strict=True)
        ]
        default_people = ["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)]
        people = [n.strip() or default_people[i] for i, n in enumerate(names)]
        people += default_people[len(people) :]
        for n in people:
            if "," in n or "\n" in n or len(n) > 20:
                raise OptionError(f"name {n!r}: at most 20 characters, no commas")
        taken = {n.lower() for n in people}
        spare = [b for b in BOT_NAMES if b.lower() not in taken]
        self.names: list[str] = people + spare[: players - humans]
        self.levels: list[str] = ["human"] * humans + levels
        self.save_path = Path(save) if save is not None else None
        # the commitment of every deal, shown before play, its salt saved after
        # the round (docs/record-format.md, "Verifiable shuffle")
        from unokit.records.commitment import DealCommitments

        self.deals = DealCommitments()
        self.commitment = self.deals.on_deal(self.game) if game is None else None
        self.started = _now()
        self.version = 0  # bumped by every accepted command
        self._declined = -1  # the version at which the bots let a catch go
        self.round_history: list[tuple[int, int | None, int, tuple[int, ...]]] = []
        self.save_error: str | None = None
        self._save()  # a path that cannot be written is refused before the game starts

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.game.n

    @property
    def variant(self) -> str:
        return self.game.variant.name

    def is_human(self, seat: int) -> bool:
        return self.bots[seat] is None

    @property
    def bot_flags(self) -> list[bool]:
        return [b is not None for b in self.bots]

    def human_to_act(self) -> int | None:
        s = self.game.to_act
        return s if s is not None and self.is_human(s) else None

    def bot_to_act(self) -> int | None:
        """The bot seat to ask now: a bot offered a catch before the vulnerable
        seat acts again (:meth:`unokit.Game.catch_window`; people catch with
        their own command at any time), else the bot whose decision it is."""
        if self._declined != self.version:
            for c in self.game.catch_window():
                if not self.is_human(c) and getattr(self.bots[c], "catches", True):
                    return c
        s = self.game.to_act
        return s if s is not None and not self.is_human(s) else None

    def observe(self, seat: int | None) -> Observation:
        return self.game.observe(seat)

    @property
    def round_over(self) -> bool:
        return self.game.state is Phase.ROUND_OVER

    @property
    def match_over(self) -> bool:
        return self.game.state is Phase.MATCH_OVER

    def record_names(self) -> list[str]:
        """Seat names for the record: people by name, bots as ``Name (level)``."""
        return [
            n if lvl == "human" else f"{n} ({lvl})"
            for n, lvl in zip(self.names, self.levels, strict=True)
        ]

    # ------------------------------------------------------------------ commands

    def apply(self, action: Action) -> list[Event]:
        """Carry out a command; raises like :meth:`Game.apply` and then changes nothing."""
        if isinstance(action, NextRound):
            return self.next_round()
        events = self.game.apply(action)
        self._after(events)
        return events

    def next_round(self) -> list[Event]:
        events = self.game.next_round()
        self.commitment = self.deals.on_deal(self.game)
        self._after(events)
        return events

    def bot_decide(self, seat: int) -> Action:
        bot = self.bots[seat]
        if bot is None:
            raise IllegalActionError(f"P{seat} is not a bot")
        return bot.act(self.game.observe(seat))

    def bot_step(self) -> list[Event]:
        """Let the bot whose decision it is act once."""
        seat = self.bot_to_act()
        if seat is None:
            raise IllegalActionError("no bot is to act")
        return self.bot_answer(seat, self.bot_decide(seat))

    def bot_answer(self, seat: int, action: Action) -> list[Event]:
        """Carry out the decision of the bot at ``seat``; a bot offered a catch
        whose answer is not a catch lets the chance go (nothing is applied)."""
        if seat != self.game.to_act and not isinstance(action, Catch):
            self._declined = self.version
            return []
        return self.apply(action)

    def _after(self, events: list[Event]) -> None:
        self.version += 1
        for e in events:
            if isinstance(e, RoundEnded):
                self.round_history.append((self.game.round_no, e.winner, e.points, e.scores))
        try:
            self._save()
            self.save_error = None
        except OSError as e:
            # the game goes on; the front end tells the player, and the next
            # save writes the whole record again
            self.save_error = f"could not save the record to {self.save_path}: {e}"

    def _save(self) -> None:
        """Write the record atomically (a temporary file renamed over the old one)."""
        if self.save_path is None:
            return
        from unokit import __version__
        from unokit.records.record import dumps

        text = dumps(
            self.game,
            self.names,
            bots=[None if lvl == "human" else lvl for lvl in self.levels],
            deals=self.deals,
            producer=f"unokit {__version__} play",
            started=self.started,
            ended="now",
        )
        from unokit.atomic import write_atomic

        write_atomic(self.save_path, text)


def _now() -> str:
    import datetime as dt

    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
