"""``/healthz`` and what the lobby reads before it offers a room: the protocol's
message schemas and the variants, bot levels, options and presets (``/api/meta``)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from unokit.bots import bot_names
from unokit.engine.errors import UnoError
from unokit.engine.options import (
    BOOL_OPTIONS,
    HOUSE_RULES,
    INT_OPTIONS,
    NOT_YET_PLAYED,
    OPTION_CHOICES,
    PRESETS,
    Options,
)
from unokit.engine.variants import VARIANTS
from unokit.web.messages import PROTOCOL
from unokit.web.routes.common import ServerDep, api_router

__all__ = ["meta_reply", "room_levels", "router"]

router = api_router()


@router.get("/healthz")
async def healthz(srv: ServerDep) -> dict[str, Any]:
    if srv.cluster is not None:
        return {"ok": True, "node": srv.cluster.node}
    return {"ok": True}


@router.get("/api/protocol.schema.json")
async def api_schema(srv: ServerDep) -> dict[str, Any]:
    """JSON Schemas of every message (docs/protocol.md)."""
    return srv.schema


@router.get("/api/meta")
async def api_meta(srv: ServerDep) -> dict[str, Any]:
    return srv.meta


def meta_reply() -> dict[str, Any]:
    """The reply of ``/api/meta``."""
    return {
        "protocol": PROTOCOL,
        "variants": {
            name: {"min_players": v.min_players, "max_players": v.max_players}
            for name, v in VARIANTS.items()
        },
        # the levels a room can be created with: an engine program is not one
        # (docs/bot-api.md: external seats), nor a level whose extra is missing
        "bots": room_levels(),
        "house_rules": list(HOUSE_RULES),
        "options": _option_meta(),
        "presets": _preset_meta(),
        "not_yet_played": sorted(NOT_YET_PLAYED),
        "turn_timer": {"min": 5, "max": 600},
    }


#: what a level needs installed (a level whose optional extra is missing
#: cannot seat a bot: make_bot refuses it); checked without importing it
_LEVEL_NEEDS = {"expert": ("numpy",), "rlcard-rule": ("numpy", "rlcard")}


def room_levels() -> list[str]:
    """The bot levels a room can be created with (cheap: nothing is imported)."""
    import importlib.util

    out = []
    for name in bot_names():
        # an engine program is no level; hard-legacy (a clock budget) is kept
        # for comparisons with the hard before issue 25, not offered to tables
        if name in ("engine", "hard-legacy"):
            continue
        if any(importlib.util.find_spec(m) is None for m in _LEVEL_NEEDS.get(name, ())):
            continue
        out.append(name)
    return out


def _option_meta() -> dict[str, Any]:
    default = Options()
    out: dict[str, Any] = {}
    for f in fields(Options):
        if f.name in NOT_YET_PLAYED:  # refused by the engine: not offered
            continue
        value = getattr(default, f.name)
        if f.name in OPTION_CHOICES:
            out[f.name] = {
                "default": value,
                "type": "choice",
                "choices": list(OPTION_CHOICES[f.name]),
            }
        elif f.name in BOOL_OPTIONS:
            out[f.name] = {"default": value, "type": "bool"}
        elif f.name in INT_OPTIONS:
            out[f.name] = {"default": value, "type": "int"}
        else:
            out[f.name] = {"default": value, "type": "str"}
    return out


def _preset_meta() -> list[dict[str, Any]]:
    """The presets of the rules registry (RULES.md §6.17) for the lobby: each
    with its options, and whether the engine plays it (a preset naming a rule
    the engine refuses is listed with the reason, so the lobby shows it
    disabled until the rule is played)."""
    out = []
    for name, values in PRESETS.items():
        try:
            Options.from_dict(values)
            why = None
        except UnoError as e:
            why = str(e)
        out.append({"name": name, "options": dict(values), "playable": why is None, "why": why})
    return out
