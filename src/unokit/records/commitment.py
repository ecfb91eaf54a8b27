"""A verifiable shuffle: commit to each deal before play, reveal it after the round.

The engine shuffles with a generator seeded from the match ``seed`` and a
shuffle counter (:meth:`unokit.Game._shuffle`), so the match seed decides every
deal. It cannot be shown to the players during the match (it would show every
hidden card), so each deal is *committed*:

* when a round is dealt, the server draws a fresh random ``salt`` and shows
  every player ``commitment = SHA-256("unokit-deal/1" LF salt LF deal)``, where
  ``deal`` is :func:`deal_text`: the round, the dealer, every hand, the draw
  pile in order and the discard pile, in the position notation;
* once the round is over the record reveals ``salt`` (and, in a per-seat view,
  the deal text itself). Anyone can recompute the hash; with the seed (full
  view) :func:`unokit.records.record.validate` also replays the match and checks that
  the engine's shuffle of that seed produced exactly the committed deal.

A player who kept the commitment shown at the deal can so prove that the deck
was not rearranged during the round (every card drawn was already in place),
and, from the full record, that the deal is the engine's shuffle of the
revealed seed. The salt keeps the commitment from being matched against
guessed deals. It does not stop a server from trying many seeds before the
match starts; docs/record-format.md says how to close that gap (mix player
entropy into the seed).

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=5)
>>> c = DealCommitments()
>>> shown = c.on_deal(g)        # every player sees this when the round is dealt
>>> len(shown), c.entries(g)[0].get("salt") is None   # the salt stays secret
(64, True)
>>> salt = c.salts[1]
>>> commitment(deal_text(g), salt) == shown
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from unokit.engine.game import Game, Phase

__all__ = ["DOMAIN", "DealCommitments", "commitment", "deal_text", "new_salt", "round_is_over"]

DOMAIN = "unokit-deal/1"
# the lines of the position notation that make up a deal
_DEAL_KEYS = ("variant", "players", "round", "dealer", "side", "hands", "draw", "discard")


def deal_text(game: Game) -> str:
    """The deal of the round in progress as text: the lines of the position
    notation (docs/notation.md) that say where every card lies, without the
    seed or the shuffle counter. Taken when the round has just been dealt."""
    from unokit.engine import notation

    keep = [
        line for line in notation.dumps(game).splitlines() if line.split(" ", 1)[0] in _DEAL_KEYS
    ]
    return "\n".join(keep) + "\n"


def commitment(deal: str, salt: str) -> str:
    """SHA-256 (hex) of the domain tag, the salt and the deal text."""
    data = f"{DOMAIN}\n{salt}\n{deal}".encode()
    return hashlib.sha256(data).hexdigest()


def matches(deal: str, salt: str, committed: str) -> bool:
    """Whether ``deal`` and ``salt`` give the ``committed`` hash (constant time)."""
    return hmac.compare_digest(commitment(deal, salt), committed.lower())


def new_salt() -> str:
    """A fresh secret salt: 128 random bits, hex."""
    return secrets.token_hex(16)


def round_is_over(game: Game, round_no: int) -> bool:
    """Whether round ``round_no`` of ``game`` is over (its deal may be revealed)."""
    return round_no < game.round_no or game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


class DealCommitments:
    """The producer's side: one secret salt per round, the commitment shown
    when the round is dealt, the salt revealed when it is over. Call
    :meth:`on_deal` right after :meth:`Game.new` and after every
    :meth:`Game.next_round`, before anyone acts."""

    def __init__(self) -> None:
        self.salts: dict[int, str] = {}
        self.commitments: dict[int, str] = {}
        self.dealers: dict[int, int] = {}

    def on_deal(self, game: Game) -> str:
        """The commitment of the round just dealt (the same one if asked again)."""
        r = game.round_no
        if r not in self.commitments:
            salt = new_salt()
            self.salts[r] = salt
            self.commitments[r] = commitment(deal_text(game), salt)
            self.dealers[r] = game.dealer
        return self.commitments[r]

    def entries(self, game: Game) -> list[dict[str, Any]]:
        """The ``deals`` of a record of ``game``: every commitment, and the salt
        of every round that is over (never of the round in progress)."""
        out: list[dict[str, Any]] = []
        for r in sorted(self.commitments):
            entry: dict[str, Any] = {"round": r, "commitment": self.commitments[r]}
            if round_is_over(game, r):
                entry["salt"] = self.salts[r]
            out.append(entry)
        return out
