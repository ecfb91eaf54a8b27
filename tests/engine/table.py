"""The position helper shared by the rules tests of the three variants."""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game, IllegalActionError, UnoError


class Table:
    """A position plus its card multiset; ``do`` checks invariants after each command."""

    def __init__(self, variant: str, players: int, hands: list[list[str]], **kw: Any) -> None:
        options = kw.pop("options", None)
        powers = kw.pop("powers", None)
        if isinstance(powers, str):  # Flex: "GXG"
            powers = [p == "G" for p in powers]
        self.g = Game.setup(variant, players, options, hands=hands, powers=powers, **kw)
        self.initial = self.g.all_cards()

    def do(self, *commands: str) -> list[Any]:
        events: list[Any] = []
        for cmd in commands:
            events = self.g.apply(cmd)
            self.g.check_invariants(self.initial)
        return events

    def reject(
        self, command: str, match: str | None = None, exc: type[UnoError] = IllegalActionError
    ) -> str:
        before = self.g.copy()
        logged = len(self.g.log or [])
        with pytest.raises(exc, match=match) as info:
            self.g.apply(command)
        assert self.g == before, f"{command!r} was rejected but changed the game"
        assert len(self.g.log or []) == logged, f"{command!r} was rejected but logged events"
        return str(info.value)

    def no_effect(self, command: str) -> None:
        """An accepted command that must change nothing (e.g. a catch without effect)."""
        before = self.g.copy()
        self.g.apply(command)
        assert self.g == before, f"{command!r} should have had no effect"

    def hand(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.g.hand(seat))

    @property
    def draw(self) -> list[str]:
        return [str(c) for c in self.g.draw_pile]

    @property
    def discard(self) -> list[str]:
        return [str(c) for c in self.g.discard_pile]

    @property
    def counts(self) -> list[int]:
        return [len(self.g.hand(s)) for s in range(self.g.players)]

    @property
    def top_face(self) -> str:
        return str(self.g.top_face)

    @property
    def powers(self) -> str:
        return "".join("G" if p else "X" for p in self.g.powers)


def S(*cards: str) -> list[str]:
    return sorted(cards)
