"""Conformance runner for rules scenario files (docs/scenario-format.md, format 1).

>>> import json
>>> doc = {"format": 1, "id": "T1", "title": "colour match", "variant": "classic",
...        "players": 2, "options": {}, "given": {"hands": [["R1", "B2"], ["R7", "G2"]],
...        "discard": ["R5"], "current": 1},
...        "steps": [{"do": "P1 PLAY R7", "expect": {"current": 0, "top": "R7"}},
...                  {"do": "P0 PLAY B2", "reject": True}]}
>>> run_scenario(doc)
ScenarioResult(id='T1', title='colour match', passed=True, message='')
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unokit.engine.cards import Color
from unokit.engine.errors import UnoError
from unokit.engine.game import Game, Phase, UnoState

__all__ = [
    "ScenarioResult",
    "run_scenario",
    "run_file",
    "iter_scenario_files",
    "run_paths",
    "run_on_core",
]

_TOP_KEYS = {"format", "id", "title", "variant", "players", "options", "given", "steps"}
_REQUIRED = {"format", "variant", "players", "given", "steps"}
_GIVEN_KEYS = {
    "hands", "draw", "discard", "color", "current", "dealer", "direction", "side",
    "state", "drawn", "powers", "uno", "scores", "pending_draw", "prior_color",
}  # fmt: skip
_STEP_KEYS = {"do", "expect", "reject"}
_EXPECT_KEYS = {
    "state", "current", "direction", "side", "color", "powers", "drawn", "top", "top_face",
    "discard", "draw", "draw_count", "hands", "hands_include", "hands_exclude", "hand_counts",
    "uno", "scores", "round_points", "winner", "match_winners", "total_cards", "pending_draw",
}  # fmt: skip


@dataclass(frozen=True)
class ScenarioResult:
    id: str
    title: str
    passed: bool
    message: str

    def line(self) -> str:
        status = "PASS" if self.passed else "FAIL"
        text = f"{status} {self.id}"
        if self.title:
            text += f" — {self.title}"
        if self.message:
            text += f": {self.message}"
        return text


class _Fail(Exception):
    pass


def _direction(value: Any) -> int:
    if value in ("cw", "CW", 1):
        return 1
    if value in ("ccw", "CCW", -1):
        return -1
    raise _Fail(f"direction must be cw or ccw, got {value!r}")


def _side(value: Any) -> int:
    if value == "light":
        return 0
    if value == "dark":
        return 1
    raise _Fail(f"side must be light or dark, got {value!r}")


def _build(doc: dict[str, Any], engine: type[Game] = Game) -> Game:
    given = doc["given"]
    if not isinstance(given, dict):
        raise _Fail("'given' must be an object")
    unknown = set(given) - _GIVEN_KEYS
    if unknown:
        raise _Fail(f"unknown key(s) in given: {', '.join(sorted(unknown))}")
    if "hands" not in given:
        raise _Fail("given.hands is required")
    players = doc["players"]
    powers = given.get("powers")
    if powers is not None:
        if not isinstance(powers, str) or set(powers) - {"G", "X"}:
            raise _Fail(f"powers must be a string of G and X, got {powers!r}")
        powers = [p == "G" for p in powers]
    uno = given.get("uno")
    if uno is not None:
        if not isinstance(uno, dict):
            raise _Fail("uno must be an object seat -> state")
        try:
            uno = {int(k): UnoState[str(v).upper()] for k, v in uno.items()}
        except (KeyError, ValueError):
            raise _Fail(f"bad uno states {given['uno']!r}") from None
    state = given.get("state", "AWAIT_TURN")
    if state not in ("AWAIT_TURN", "AWAIT_DRAWN", "AWAIT_COLOR", "AWAIT_CHALLENGE"):
        raise _Fail(f"unknown state {state!r}")
    if state == "AWAIT_CHALLENGE" and "prior_color" not in given:
        raise _Fail("given.prior_color is required with state AWAIT_CHALLENGE")
    pending = given.get("pending_draw", 0)
    if not isinstance(pending, int) or isinstance(pending, bool):
        raise _Fail(f"pending_draw must be an integer, got {pending!r}")
    for key in ("hands", "draw", "discard"):
        if key in given and not isinstance(given[key], list):
            raise _Fail(f"given.{key} must be a list")
    if not all(isinstance(h, list) for h in given["hands"]):
        raise _Fail("given.hands must be a list of lists")
    return engine.setup(
        doc["variant"],
        players,
        doc.get("options") or {},
        hands=given["hands"],
        draw=given.get("draw", []),
        discard=given.get("discard", []),
        color=given.get("color"),
        current=given.get("current", 1),
        dealer=given.get("dealer", 0),
        direction=_direction(given.get("direction", "cw")),
        side=_side(given.get("side", "light")),
        phase=state,
        drawn=given.get("drawn"),
        powers=powers,
        uno=uno,
        scores=given.get("scores"),
        pending_draw=pending,
        prior_color=given.get("prior_color"),
    )


def _ids(game: Game, cards: Any, what: str) -> list[int]:
    if not isinstance(cards, list):
        raise _Fail(f"{what} must be a list of cards")
    try:
        return [game.variant.cards.parse_id(str(c)) for c in cards]
    except UnoError as e:
        raise _Fail(f"{what}: {e}") from None


def _names(game: Game, ids: Iterable[int]) -> list[str]:
    cs = game.variant.cards.cards
    return [str(cs[i]) for i in ids]


def _check_expect(game: Game, expect: dict[str, Any]) -> list[str]:
    errors: list[str] = []

    def differ(key: str, want: Any, got: Any) -> None:
        if want != got:
            errors.append(f"{key}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "state":
            differ(key, want, Phase(game.phase).name)
        elif key == "current":
            differ(key, want, game.current)
        elif key == "direction":
            differ(key, want, "cw" if game.direction == 1 else "ccw")
        elif key == "side":
            differ(key, want, ("light", "dark")[game.side])
        elif key == "color":
            differ(key, want, None if game.color < 0 else Color(game.color).name)
        elif key == "powers":
            differ(key, want, "".join("G" if p else "X" for p in game.powers))
        elif key == "drawn":
            got = None if game.drawn < 0 else str(game.cards[game.drawn])
            want_id = _ids(game, [want], key)[0] if want is not None else None
            differ(key, want, got if want_id != game.drawn else want)
        elif key == "top":
            if not game.discard:
                errors.append("top: the discard pile is empty")
            else:
                want_id = _ids(game, [want], key)[0]
                if want_id != game.discard[-1]:
                    differ(key, want, str(game.top))
        elif key == "top_face":
            got = str(game.top_face) if game.discard else None
            differ(key, want, got)
        elif key in ("discard", "draw"):
            want_ids = _ids(game, want, key)
            got_ids = game.discard if key == "discard" else game.draw[::-1]
            if want_ids != got_ids:
                differ(key, _names(game, want_ids), _names(game, got_ids))
        elif key == "draw_count":
            differ(key, want, len(game.draw))
        elif key in ("hands", "hands_include", "hands_exclude"):
            if not isinstance(want, dict):
                raise _Fail(f"{key} must be an object seat -> cards")
            for seat_text, cards in want.items():
                try:
                    seat = int(seat_text)
                    hand = game.hands[seat]
                except (ValueError, IndexError):
                    raise _Fail(f"{key}: {seat_text!r} is not a seat") from None
                want_c = Counter(_ids(game, cards, f"{key}.{seat_text}"))
                got_c = Counter(hand)
                if key == "hands" and want_c != got_c:
                    errors.append(
                        f"hands.{seat}: expected {sorted(_names(game, want_c.elements()))}, "
                        f"got {sorted(_names(game, hand))}"
                    )
                elif key == "hands_include" and want_c - got_c:
                    errors.append(
                        f"hands_include.{seat}: missing {_names(game, (want_c - got_c).elements())}"
                    )
                elif key == "hands_exclude" and set(want_c) & set(got_c):
                    errors.append(
                        f"hands_exclude.{seat}: holds {_names(game, set(want_c) & set(got_c))}"
                    )
        elif key == "hand_counts":
            differ(key, want, [len(h) for h in game.hands])
        elif key == "uno":
            if not isinstance(want, dict):
                raise _Fail("uno must be an object seat -> state")
            for seat_text, state in want.items():
                differ(f"uno.{seat_text}", state, UnoState(game.uno[int(seat_text)]).name.lower())
        elif key == "scores":
            differ(key, want, list(game.scores))
        elif key == "round_points":
            differ(key, want, game.round_points)
        elif key == "winner":
            differ(key, want, None if game.winner < 0 else game.winner)
        elif key == "match_winners":
            differ(key, want, list(game.match_winners))
        elif key == "total_cards":
            differ(key, want, sum(game.all_cards().values()))
        elif key == "pending_draw":
            differ(key, want, game.pending)
        else:
            raise _Fail(f"unknown expect key {key!r}")
    return errors


def run_scenario(doc: Any, name: str = "?", engine: type[Game] = Game) -> ScenarioResult:
    """Run one scenario document (already parsed from JSON) on ``engine``
    (:class:`Game`, or a subclass such as the tests' reference engine)."""
    sid = str(doc.get("id", name)) if isinstance(doc, dict) else name
    title = str(doc.get("title", "")) if isinstance(doc, dict) else ""
    try:
        _run(doc, engine)
    except _Fail as e:
        return ScenarioResult(sid, title, False, str(e))
    except Exception as e:  # a bug in the engine must not crash the runner
        return ScenarioResult(sid, title, False, f"internal error {type(e).__name__}: {e}")
    return ScenarioResult(sid, title, True, "")


def _run(doc: Any, engine: type[Game] = Game) -> None:
    if not isinstance(doc, dict):
        raise _Fail("a scenario must be a JSON object")
    unknown = set(doc) - _TOP_KEYS
    if unknown:
        raise _Fail(f"unknown key(s): {', '.join(sorted(unknown))}")
    missing = _REQUIRED - set(doc)
    if missing:
        raise _Fail(f"missing key(s): {', '.join(sorted(missing))}")
    if doc["format"] != 1:
        raise _Fail(f"unsupported format {doc['format']!r} (this runner reads format 1)")
    steps = doc["steps"]
    if not isinstance(steps, list):
        raise _Fail("'steps' must be a list")
    for i, step in enumerate(steps, 1):
        if not isinstance(step, dict) or "do" not in step:
            raise _Fail(f"step {i}: must be an object with 'do'")
        bad = set(step) - _STEP_KEYS
        if bad:
            raise _Fail(f"step {i}: unknown key(s) {', '.join(sorted(bad))}")
        if step.get("reject") not in (None, True, False):
            raise _Fail(f"step {i}: reject must be true or false")
        if "expect" in step:
            if not isinstance(step["expect"], dict):
                raise _Fail(f"step {i}: expect must be an object")
            bad = set(step["expect"]) - _EXPECT_KEYS
            if bad:
                raise _Fail(f"step {i}: unknown expect key(s) {', '.join(sorted(bad))}")
    if not isinstance(doc["players"], int) or isinstance(doc["players"], bool):
        raise _Fail("players must be an integer")
    if not isinstance(doc.get("options") or {}, dict):
        raise _Fail("options must be an object")
    new_rejected = (
        bool(steps) and steps[0]["do"].strip().upper() == "NEW" and steps[0].get("reject")
    )
    try:
        game = _build(doc, engine)
    except UnoError as e:
        if new_rejected:
            return
        raise _Fail(f"invalid position: {e}") from None
    if new_rejected:
        raise _Fail("step 1: constructing the position was expected to be rejected")
    initial = game.all_cards()
    for i, step in enumerate(steps, 1):
        command = str(step["do"]).strip()
        reject = bool(step.get("reject"))
        if command.upper() == "NEW":
            raise _Fail(f"step {i}: NEW is only valid as a rejected first step")
        before = game.copy(events=True)
        try:
            if command.upper() == "START":
                game.start()
            else:
                game.apply(command)
        except UnoError as e:
            if reject:
                if game != before:
                    raise _Fail(f"step {i} ({command}): rejected but the state changed") from None
                continue
            raise _Fail(f"step {i} ({command}): rejected: {e}") from None
        if reject:
            raise _Fail(f"step {i} ({command}): accepted, expected a rejection")
        try:
            game.check_invariants(initial)
        except AssertionError as e:
            raise _Fail(f"step {i} ({command}): invariant broken: {e}") from None
        errors = _check_expect(game, step.get("expect") or {})
        if errors:
            raise _Fail(f"step {i} ({command}): " + "; ".join(errors))


def run_file(path: Path, *, core: bool = False) -> ScenarioResult:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return ScenarioResult(path.stem, str(path), False, f"cannot read scenario file: {e}")
    return run_on_core(doc, path.stem) if core else run_scenario(doc, path.stem)


def iter_scenario_files(paths: Iterable[str | Path]) -> Iterator[Path | str]:
    """Files named by ``paths`` (a directory means every ``*.json`` below it).
    A path that does not exist is yielded as a string, to be reported."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(path.rglob("*.json"))
        elif path.exists():
            yield path
        else:
            yield str(p)


def run_paths(paths: Iterable[str | Path], *, core: bool = False) -> list[ScenarioResult]:
    """Every scenario file of ``paths``; ``core``: on the C core too (:func:`run_on_core`)."""
    results = []
    for p in iter_scenario_files(paths):
        if isinstance(p, str):
            results.append(ScenarioResult(p, "", False, "no such file or directory"))
        else:
            results.append(run_file(p, core=core))
    return results


def run_on_core(doc: Any, name: str = "?") -> ScenarioResult:
    """Replay a scenario's commands on the reference oracle
    (:class:`unokit.testing.reference.ReferenceGame`, the rules in Python)
    beside :class:`Game` (the C core): after every step both must accept or
    both reject, their states must be equal (so every expectation that holds
    for ``Game`` holds for the reference) and so must the events of the step. A scenario that ``Game`` fails or cannot
    build is reported as it is by :func:`run_scenario`."""
    plain = run_scenario(doc, name)
    if not plain.passed:
        return plain
    sid, title = plain.id, plain.title
    steps = doc["steps"]
    if steps and steps[0]["do"].strip().upper() == "NEW":
        return plain  # construction rejected: nothing to replay
    game = _build(doc)
    from unokit.testing.reference import ReferenceGame

    state = game.__getstate__()  # the position, on the reference
    state["log"], state["commands"] = list(game.log or []), list(game.commands or [])
    core = ReferenceGame.__new__(ReferenceGame)
    core.__setstate__(state)
    for i, step in enumerate(steps, 1):
        command = str(step["do"]).strip()
        since = len(game.log) if game.log is not None else 0
        ref_err = core_err = None
        try:
            game.start() if command.upper() == "START" else game.apply(command)
        except UnoError as e:
            ref_err = e
        core_events: list[Any] = []
        try:
            if command.upper() == "START":
                core.start()
                core_events = (core.log or [])[since:]
            else:
                core_events = core.apply(command)
        except UnoError as e:
            core_err = e
        if (ref_err is None) != (core_err is None):
            return ScenarioResult(
                sid, title, False,
                f"step {i} ({command}): Game {'rejected' if ref_err else 'accepted'} it, "
                f"the reference {'rejected' if core_err else 'accepted'} it "
                f"({core_err or ref_err})",
            )  # fmt: skip
        if game.state_tuple() != core.state_tuple():
            return ScenarioResult(sid, title, False, f"step {i} ({command}): states differ")
        want = (game.log or [])[0 if command.upper() == "NEXT" else since :]
        if core_events != want:
            return ScenarioResult(sid, title, False, f"step {i} ({command}): events differ")
    return ScenarioResult(sid, title, True, "")
