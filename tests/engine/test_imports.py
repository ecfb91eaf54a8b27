"""The package's imports: no import loop in the engine, in the web package or
anywhere in ``src/unokit`` (delayed imports inside functions count,
``if TYPE_CHECKING:`` blocks do not) and no private name imported from another
module (issue 26)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ENGINE = "unokit.engine"
#: private modules that are meant to be imported: the C core
ALLOWED_PRIVATE = {"unokit._core"}


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "unokit").rglob("*.py"):
        parts = p.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _imports(name: str, path: Path, mods: dict[str, Path]) -> tuple[set[str], list[str]]:
    """The unokit modules ``name`` imports at run time, and the private names it
    imports from other modules."""
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    deps: set[str] = set()
    private: list[str] = []

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            t = node.test
            if (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
                isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
            ):
                for n in node.orelse:
                    self.visit(n)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            deps.update(a.name for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for a in node.names:
                full = f"{module}.{a.name}"
                if full in ALLOWED_PRIVATE:
                    continue  # the compiled core: a module, not a name of the package
                deps.add(full if full in mods else module)
                is_private = a.name.startswith("_") and not a.name.startswith("__")
                if is_private and full not in mods and full not in ALLOWED_PRIVATE:
                    private.append(f"{a.name} from {module}")

    Visitor().visit(ast.parse(path.read_text()))
    return {d for d in deps if d in mods and d != name}, private


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _engine_graph() -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    mods = _modules()
    graph, private = {}, {}
    for name, path in mods.items():
        deps, priv = _imports(name, path, mods)
        if name.startswith(ENGINE):
            # the package itself re-exports the engine: only engine edges count
            graph[name] = {d for d in deps if d.startswith(ENGINE)}
            if priv:
                private[name] = priv
    return graph, private


def test_no_import_loop_in_the_engine() -> None:
    graph, _ = _engine_graph()
    assert "unokit.engine.game" in graph
    assert _cycles(graph) == []


def test_no_private_name_imported_by_the_engine() -> None:
    _, private = _engine_graph()
    assert private == {}


def _package_graph() -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    mods = _modules()
    graph, private = {}, {}
    for name, path in mods.items():
        graph[name], priv = _imports(name, path, mods)
        if priv:
            private[name] = priv
    return graph, private


def test_no_import_loop_in_the_package() -> None:
    graph, _ = _package_graph()
    assert {"unokit", "unokit.bots", "unokit.web.app", "unokit.testing.fuzz"} <= set(graph)
    assert _cycles(graph) == []


def test_no_private_name_imported_anywhere_in_the_package() -> None:
    _, private = _package_graph()
    assert private == {}


def test_the_checks_bite(tmp_path: Path) -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    mods = {"unokit.x": Path("x.py")}
    p = tmp_path / "x.py"
    p.write_text(
        "from unokit.engine.game import _RO\nif TYPE_CHECKING:\n    from unokit.y import _Z\n"
    )
    assert _imports("unokit.x", p, mods)[1] == ["_RO from unokit.engine.game"]


def test_no_import_loop_in_the_web_package() -> None:
    """The room's parts (views, bots at the table, timers) and the routes sit
    below the room and the app: the web package has no loop either."""
    mods = _modules()
    graph = {
        name: {d for d in _imports(name, path, mods)[0] if d.startswith("unokit.web")}
        for name, path in mods.items()
        if name.startswith("unokit.web")
    }
    assert {"unokit.web.room", "unokit.web.views", "unokit.web.app"} <= set(graph)
    assert _cycles(graph) == []
