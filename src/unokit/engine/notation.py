"""Position notation: any game state as text, read back identically.

One ``key value`` pair per line (format described in docs/notation.md). Cards
use the notation of docs/rules.md §0; the draw pile is written top first and the
discard pile bottom to top, as in the scenario files.

>>> from unokit import Game
>>> g = Game.new("flex", 3, {"stacking": "escalate"}, seed=9)
>>> text = dumps(g)
>>> text.splitlines()[:3]
['unokit-position 1', 'variant flex', 'players 3']
>>> loads(text) == g
True
"""

from __future__ import annotations

import json
from typing import Any

from unokit.engine.cards import Color
from unokit.engine.errors import InvalidPositionError, OptionError, ParseError, UnoError
from unokit.engine.game import Game, Phase
from unokit.engine.options import Options

__all__ = ["dumps", "loads", "FORMAT"]

FORMAT = 1
_UNO = ("none", "safe", "vulnerable")
_KEYS = (
    "variant", "players", "options", "seed", "shuffles", "round", "dealer", "phase", "current",
    "direction", "side", "color", "drawn", "color_next", "hands", "draw",
    "discard", "uno", "uno_pre", "vulnerable", "powers", "scores", "pending", "challenge",
    "empty_draws", "winner", "round_points", "match_winners", "reveal", "wild_top",
)  # fmt: skip
_OPTIONAL = {"wild_top"}  # written only when not at its default


def _seat(x: int) -> str:
    return "-" if x < 0 else f"P{x}"


def dumps(game: Game) -> str:
    """The position of ``game`` as text (the event log is not part of it)."""
    cs = game.variant.cards.cards

    def cards(ids: list[int] | tuple[int, ...]) -> str:
        return " ".join(str(cs[c]) for c in ids) or "-"

    lines = [
        f"unokit-position {FORMAT}",
        f"variant {game.variant.name}",
        f"players {game.n}",
        f"options {json.dumps(game.options.to_dict(), separators=(',', ':'), sort_keys=True)}",
        f"seed {game.seed}",
        f"shuffles {game.shuffles}",
        f"round {game.round_no}",
        f"dealer P{game.dealer}",
        f"phase {Phase(game.phase).name}",
        f"current P{game.current}",
        f"direction {'cw' if game.direction == 1 else 'ccw'}",
        f"side {('light', 'dark')[game.side]}",
        f"color {'-' if game.color < 0 else Color(game.color).name}",
        f"drawn {'-' if game.drawn < 0 else cs[game.drawn]}",
        f"color_next {_seat(game.color_next)} {game.color_reason or '-'}",
    ]
    for s, h in enumerate(game.hands):
        lines.append(f"hands P{s} {cards(h)}")
    lines += [
        f"draw {cards(game.draw[::-1])}",
        f"discard {cards(game.discard)}",
        "uno " + " ".join(_UNO[u] for u in game.uno),
        f"uno_pre {_seat(game.uno_pre)}",
        f"vulnerable {_seat(game.vulnerable)}",
        "powers " + ("".join("G" if p else "X" for p in game.powers) or "-"),
        "scores " + " ".join(str(x) for x in game.scores),
        f"pending {game.pending} {game.stack_class} {game.stack_amount}",
    ]
    if game.ch_offender >= 0:
        lines.append(
            f"challenge {_seat(game.ch_offender)} {'legal' if game.ch_legal else 'illegal'} "
            f"{cs[game.ch_card]} {_seat(game.ch_after)} {_seat(game.ch_after_success)}"
        )
    else:
        lines.append("challenge -")
    lines += [
        f"empty_draws {game.empty_draws}",
        f"winner {_seat(game.winner)}",
        f"round_points {game.round_points}",
        "match_winners " + (" ".join(f"P{s}" for s in game.match_winners) or "-"),
    ]
    if game.reveal is not None:
        a, b, hand = game.reveal
        lines.append(f"reveal P{a} P{b} {cards(hand)}")
    else:
        lines.append("reveal -")
    if game.wild_top:
        lines.append("wild_top true")  # a first card that counts as a plain Wild (D59)
    return "\n".join(lines) + "\n"


class _Reader:
    def __init__(self, text: str) -> None:
        self.values: dict[str, list[str]] = {}
        self.hands: dict[int, list[str]] = {}
        lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
        if not lines or lines[0].split() != ["unokit-position", str(FORMAT)]:
            raise ParseError(f"not a position: the first line must be 'unokit-position {FORMAT}'")
        for n, line in enumerate(lines[1:], 2):
            key, _, rest = line.partition(" ")
            if key not in _KEYS:
                raise ParseError(f"line {n}: unknown key {key!r}")
            if key == "hands":
                seat_text, _, cards = rest.partition(" ")
                seat = self.seat(seat_text, n)
                if seat in self.hands:
                    raise ParseError(f"line {n}: hand of P{seat} given twice")
                self.hands[seat] = [] if cards.strip() in ("", "-") else cards.split()
                continue
            if key in self.values:
                raise ParseError(f"line {n}: {key} given twice")
            self.values[key] = rest.split() if key != "options" else [rest]
        missing = [k for k in _KEYS if k not in self.values and k not in ("hands", *_OPTIONAL)]
        if missing:
            raise ParseError(f"missing key(s): {', '.join(missing)}")

    @staticmethod
    def seat(text: str, line: int | str = "?") -> int:
        if text == "-":
            return -1
        if len(text) >= 2 and text[0] == "P" and text[1:].isdigit():
            return int(text[1:])
        raise ParseError(f"line {line}: expected a seat such as P0 or -, got {text!r}")

    def one(self, key: str) -> str:
        v = self.values[key]
        if len(v) != 1:
            raise ParseError(f"{key}: expected one value, got {' '.join(v)!r}")
        return v[0]

    def int(self, key: str, index: int = 0) -> int:
        try:
            return int(self.values[key][index])
        except (ValueError, IndexError):
            raise ParseError(f"{key}: expected an integer") from None

    def cards(self, key: str) -> list[str]:
        v = self.values[key]
        return [] if v == ["-"] else v


def loads(text: str) -> Game:
    """Read a position written by :func:`dumps`. A malformed or impossible
    position raises :class:`ParseError` / :class:`InvalidPositionError`."""
    r = _Reader(text)
    try:
        options = Options.from_dict(json.loads(r.values["options"][0]))
    except (ValueError, OptionError) as e:
        raise ParseError(f"options: {e}") from None
    players = r.int("players")
    g = Game(r.one("variant"), players, options, r.int("seed"))
    f: dict[str, Any] = {}  # the fields of the position, loaded once checked
    cid = g._card_id
    try:
        if sorted(r.hands) != list(range(players)):
            raise InvalidPositionError(f"expected one 'hands' line for each of P0..P{players - 1}")
        f["hands"] = [[cid(c) for c in r.hands[s]] for s in range(players)]
        f["draw"] = [cid(c) for c in reversed(r.cards("draw"))]
        f["discard"] = [cid(c) for c in r.cards("discard")]
        f["shuffles"] = r.int("shuffles")
        f["round_no"] = r.int("round")
        f["dealer"] = _Reader.seat(r.one("dealer"))
        f["phase"] = int(Phase[r.one("phase")])
        f["current"] = _Reader.seat(r.one("current"))
        f["direction"] = {"cw": 1, "ccw": -1}[r.one("direction")]
        f["side"] = {"light": 0, "dark": 1}[r.one("side")]
        color = r.one("color")
        f["color"] = -1 if color == "-" else int(Color[color])
        drawn = r.one("drawn")
        f["drawn"] = -1 if drawn == "-" else cid(drawn)
        cn = r.values["color_next"]
        if len(cn) != 2:
            raise ParseError("color_next: expected a seat and a reason")
        f["color_next"] = _Reader.seat(cn[0])
        f["color_reason"] = "" if cn[1] == "-" else cn[1]
        uno = r.values["uno"]
        if len(uno) != players:
            raise InvalidPositionError("uno: one state per seat")
        f["uno"] = [_UNO.index(u) for u in uno]
        f["uno_pre"] = _Reader.seat(r.one("uno_pre"))
        f["vulnerable"] = _Reader.seat(r.one("vulnerable"))
        powers = r.one("powers")
        f["powers"] = [] if powers == "-" else [p == "G" for p in powers]
        if powers != "-" and set(powers) - {"G", "X"}:
            raise InvalidPositionError("powers: a string of G and X")
        f["scores"] = [int(x) for x in r.values["scores"]]
        f["pending"], f["stack_class"], f["stack_amount"] = (r.int("pending", i) for i in range(3))
        ch = r.values["challenge"]
        if ch != ["-"]:
            if len(ch) != 5 or ch[1] not in ("legal", "illegal"):
                raise ParseError(
                    "challenge: expected '-' or offender legal|illegal card after after"
                )
            f["ch_offender"] = _Reader.seat(ch[0])
            f["ch_legal"] = ch[1] == "legal"
            f["ch_card"] = cid(ch[2])
            f["ch_after"] = _Reader.seat(ch[3])
            f["ch_after_success"] = _Reader.seat(ch[4])
        f["empty_draws"] = r.int("empty_draws")
        f["wild_top"] = r.values.get("wild_top", ["false"]) == ["true"]
        f["winner"] = _Reader.seat(r.one("winner"))
        f["round_points"] = r.int("round_points")
        mw = r.values["match_winners"]
        f["match_winners"] = () if mw == ["-"] else tuple(_Reader.seat(x) for x in mw)
        rv = r.values["reveal"]
        if rv != ["-"]:
            if len(rv) < 2:
                raise ParseError("reveal: expected '-' or challenger offender cards")
            hand = () if rv[2:] == ["-"] else tuple(cid(c) for c in rv[2:])
            f["reveal"] = (_Reader.seat(rv[0]), _Reader.seat(rv[1]), hand)
    except (KeyError, ValueError) as e:
        if isinstance(e, UnoError):
            raise
        raise ParseError(f"malformed position: {e}") from None
    _validate(g, f)
    return g


def _validate(g: Game, f: dict[str, Any]) -> None:
    """Check the fields ``f`` read for ``g``, load them, check the position."""
    n = g.n
    v = g.variant
    seats = [f["dealer"], f["current"]]
    if any(not 0 <= s < n for s in seats):
        raise InvalidPositionError("dealer and current must be seats of the game")
    for s in (
        f["uno_pre"],
        f["vulnerable"],
        f["color_next"],
        f["winner"],
        f.get("ch_offender", -1),
    ):
        if not -1 <= s < n:
            raise InvalidPositionError(f"P{s} is not a seat")
    if len(f["scores"]) != n:
        raise InvalidPositionError("scores: one integer per seat")
    if v.flex != bool(f["powers"]) or (f["powers"] and len(f["powers"]) != n):
        raise InvalidPositionError("powers: one state per seat in flex, '-' otherwise")
    if f["side"] and not v.two_sided:
        raise InvalidPositionError(f"{v.name} has no dark side")
    if f["color"] >= 0 and Color(f["color"]) not in v.colors(f["side"]):
        raise InvalidPositionError("the colour does not belong to the current side")
    if f["phase"] == 1 and f["drawn"] not in f["hands"][f["current"]]:
        raise InvalidPositionError("the drawn card is not in the hand of the player to act")
    if f["vulnerable"] >= 0 and f["uno"][f["vulnerable"]] != 2:
        raise InvalidPositionError("vulnerable seat and UNO states disagree")
    if f["color_reason"] not in ("", "first_card", "flip_exposed_wild"):
        raise InvalidPositionError(f"color_next: no reason {f['color_reason']!r}")
    g._load(f)
    try:
        g.check_invariants()
    except AssertionError as e:
        raise InvalidPositionError(f"impossible position: {e}") from None
    g._check_deck()
