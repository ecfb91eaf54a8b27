"""unokit.engine.codes against the C core's core.h: one set of codes for both."""

from __future__ import annotations

import re
from pathlib import Path

from unokit.engine import codes
from unokit.engine.cards import Kind
from unokit.engine.game import Phase, UnoState

CORE_H = Path(__file__).resolve().parents[2] / "src" / "unokit" / "_core" / "core.h"


def _blocks() -> list[dict[str, int]]:
    """The ``enum { ... }`` blocks of core.h, each its enumerators with their values."""
    text = re.sub(r"/\*.*?\*/", "", CORE_H.read_text(), flags=re.S)
    blocks = []
    for body in re.findall(r"enum\s*\{(.*?)\}", text, flags=re.S):
        values: dict[str, int] = {}
        nxt = 0
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, value = (x.strip() for x in item.partition("="))
            nxt = int(value, 0) if value else nxt
            values[name] = nxt
            nxt += 1
        blocks.append(values)
    return blocks


def _enums() -> dict[str, int]:
    """Every ``UK_*`` enumerator of core.h with its value."""
    return {k: v for b in _blocks() for k, v in b.items()}


def _defines() -> dict[str, int]:
    text = CORE_H.read_text()
    out = {}
    for name, a, b in re.findall(r"#define (UK_\w+_BIT) \((\d+)u? << (\d+)\)", text):
        out[name] = int(a) << int(b)
    return out


def _group(enums: dict[str, int], names: list[str]) -> tuple[str, ...]:
    """The enumerators ``names`` ordered by value, checked to be 0, 1, 2, ..."""
    got = sorted((enums[n], n) for n in names)
    assert [v for v, _ in got] == list(range(len(got))), got
    return tuple(n for _, n in got)


def test_phases_and_uno_states() -> None:
    e = _enums()
    phases = ["UK_TURN", "UK_DRAWN", "UK_COLOR", "UK_CHALLENGE", "UK_ROUND_OVER",
              "UK_MATCH_OVER", "UK_DEAL"]  # fmt: skip
    for name in phases:
        assert getattr(codes, name[3:]) == e[name]
    assert [p.value for p in Phase] == [e[n] for n in phases]
    assert (codes.UNO_NONE, codes.UNO_SAFE, codes.UNO_VULNERABLE) == (
        e["UK_UNO_NONE"],
        e["UK_UNO_SAFE"],
        e["UK_UNO_VULNERABLE"],
    )
    assert [u.value for u in UnoState] == [codes.UNO_NONE, codes.UNO_SAFE, codes.UNO_VULNERABLE]
    assert len(codes.COLOR_REASONS) == 1 + e["UK_REASON_FLIP_EXPOSED_WILD"]


def test_kinds_ops_and_bits() -> None:
    e = _enums()
    (block,) = [b for b in _blocks() if "UK_NUMBER" in b]
    kinds = _group(block, list(block))
    assert tuple(n[3:] for n in kinds) == codes.KINDS
    assert [k.value for k in Kind] == list(range(len(codes.KINDS)))
    ops = [n for n in e if n.startswith("UK_OP_")]
    for name in ops:
        assert getattr(codes, name[3:]) == e[name], name
    assert len(ops) == 10  # PLAY .. NEXT, MULTI (multiPlay)
    bits = _defines()
    assert bits == {"UK_FLEX_BIT": codes.FLEX_BIT, "UK_WILD_BIT": codes.WILD_BIT}


def test_errors_events_reasons() -> None:
    e = _enums()
    errors = _group(
        e, ["UK_OK"] + [n for n in e if n.startswith("UK_ERR_") and n != "UK_ERR_COUNT"]
    )
    assert tuple(n.removeprefix("UK_ERR_").removeprefix("UK_") for n in errors) == codes.ERRORS
    assert e["UK_ERR_COUNT"] == len(codes.ERRORS)
    for i, name in enumerate(codes.ERRORS[1:], 1):
        assert getattr(codes, "ERR_" + name) == i
    # the reasons of refusals (issue 26): each one decided by the core, each worded once
    assert len(codes.ERRORS) == 46
    for name in ("ROUND_OVER", "NOT_IN_ROUND", "JUMP_CARD", "STACK_LESS", "TARGET_OUT",
                 "BAD_SWAP", "FLIP_COLOR", "FORCED_DRAWN", "NO_CHALLENGE", "CATCH_SELF"):  # fmt: skip
        assert e["UK_ERR_" + name] == getattr(codes, "ERR_" + name) == codes.ERRORS.index(name)
    from unokit.engine.refusals import WORDS

    assert set(WORDS) == set(range(1, e["UK_ERR_COUNT"]))
    events = _group(e, [n for n in e if n.startswith("UK_EV_")])
    camel = tuple("".join(w.title() for w in n[6:].split("_")) for n in events)
    assert camel == codes.EVENTS
    draw = _group(e, [n for n in e if n.startswith("UK_R_")])
    assert tuple(n[5:].lower() for n in draw) == codes.DRAW_REASONS
