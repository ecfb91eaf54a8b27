"""The import paths of unokit before the engine moved into packages.

``import unokit.game`` (or ``from unokit.cards import Card``) keeps working:
the old name is the new module itself, with a :class:`DeprecationWarning`
that names the new path. One table, no copies of modules."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED: dict[str, str] = {
    "unokit.cards": "unokit.engine.cards",
    "unokit.options": "unokit.engine.options",
    "unokit.variants": "unokit.engine.variants",
    "unokit.actions": "unokit.engine.actions",
    "unokit.events": "unokit.engine.events",
    "unokit.game": "unokit.engine.game",
    "unokit.observation": "unokit.engine.observation",
    "unokit.notation": "unokit.engine.notation",
    "unokit.render": "unokit.engine.render",
    "unokit.decks": "unokit.engine.decks",
    "unokit.errors": "unokit.engine.errors",
    "unokit.core": "unokit.engine.core",
    "unokit.playout": "unokit.engine.playout",
    "unokit.tui.text": "unokit.engine.narration",
    "unokit.record": "unokit.records.record",
    "unokit.record_cli": "unokit.records.cli",
    "unokit.commitment": "unokit.records.commitment",
    "unokit.mcp_server": "unokit.agents.mcp_server",
    "unokit.botclient": "unokit.agents.botclient",
    "unokit.agent_table": "unokit.agents.table",
    "unokit.agents_cli": "unokit.agents.cli",
    "unokit.envs.vector_classic": "unokit.envs.vector",
    "unokit.bots.engine": "unokit.agents.engine_protocol",
    "unokit.reference": "unokit.testing.reference",
    "unokit.fuzz": "unokit.testing.fuzz",
    "unokit.conformance": "unokit.testing.conformance",
    "unokit.sim": "unokit.bots.sim",
    "unokit.distributed": "unokit.bots.distributed",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there",
            DeprecationWarning,
            stacklevel=3,
        )
        module = importlib.import_module(new)
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The module was run under its new name already.
        return None


def install() -> None:
    """Put the old names on the import path (idempotent)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
