"""No import cycles inside engine/, lazy imports included.

The graph is read with `ast` from every module under engine/: every `import` and `from ...
import` statement counts, wherever it stands (inside functions, under `if TYPE_CHECKING:`).
`from package import name` counts as importing the submodule `package.name` when there is one,
else as importing `package`.
The implicit import of a parent package's `__init__` is left out, as import linters do: Python
initialises a package before its submodules, so it never closes a cycle by itself.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
PREFIX = "kaeru.engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PREFIX, *parts])


def engine_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def resolve(base: str, level: int, current: str, is_package: bool) -> str:
    """The absolute module name of a (possibly relative) `from` import."""
    if level == 0:
        return base
    parts = current.split(".")
    if not is_package:
        parts.pop()
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, base] if base else parts)


@cache
def syntax_trees() -> dict[str, tuple[Path, ast.Module]]:
    return {
        name: (path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for name, path in engine_modules().items()
    }


def imports_of(name: str, path: Path, tree: ast.Module, known: set[str]) -> set[str]:
    """The engine modules `name` imports, anywhere in its source."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.module or "", node.level, name, path.name == "__init__.py")
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            # `from package import submodule` imports the submodule (and initialises its
            # parent package, which is left out as above); any other name is the package's
            targets = [s for s in submodules if s in known]
            if len(targets) < len(submodules):
                targets.append(base)
        else:
            continue
        for target in targets:
            if target in known and target != name:
                found.add(target)
    return found


@cache
def import_graph() -> dict[str, set[str]]:
    trees = syntax_trees()
    known = set(trees)
    return {name: imports_of(name, path, tree, known) for name, (path, tree) in trees.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as a list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def a_cycle_in(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """One concrete cycle through the component's first module, for the failure message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & members):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    return component


def test_the_graph_sees_lazy_imports_and_finds_a_planted_cycle():
    source = "def f():\n    from kaeru.engine.b import x\n"
    tree_imports = {
        node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)
    }
    assert tree_imports == {"kaeru.engine.b"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert a_cycle_in(["a", "b", "c"], graph) == ["a", "b", "c", "a"]


def test_the_graph_covers_the_engine():
    graph = import_graph()
    assert "kaeru.engine.rules.protocol" in graph and "kaeru.engine.search.dispatch" in graph
    assert "kaeru.engine.rules.protocol" in graph["kaeru.engine.search.dispatch"]


def test_engine_has_no_import_cycles():
    graph = import_graph()
    cycles = [
        f"{len(c)} modules tied together ({', '.join(c)}), e.g. "
        + " -> ".join(a_cycle_in(c, graph))
        for c in find_cycles(graph)
    ]
    if cycles:
        pytest.fail("import cycles in engine/:\n" + "\n".join(cycles))


def test_engine_never_imports_the_front_end():
    for name, (_, tree) in syntax_trees().items():
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names] if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )
            for imported in names:
                top = imported.split(".")
                assert top[0] != "textual", f"{name} imports Textual"
                assert top[:2] not in (["kaeru", "tui"], ["kaeru", "screens"]), (
                    f"{name} imports the front end ({imported})"
                )


# The floors, top to bottom: a module may import its own floor and the floors below it, never
# one above. The longest matching prefix decides a module's floor: `search.dispatch` sits above
# the puzzles, the other searches below them; the place's schema is the store's to migrate.
# The game and the coach share a floor: the session asks its coach, which asks the session
# back through its hooks. The coach's engine work (its distances, tables, grading,
# the analysis and the drill) sits on the service's floor: the service runs them as job kinds.
FLOORS: dict[str, int] = {
    "place": 9,
    "game": 8,
    "coach": 8,
    "service": 7,
    "coach.analysis": 7,
    "coach.distance": 7,
    "coach.drill": 7,
    "coach.grading": 7,
    "coach.tables": 7,
    "catalogue": 6,
    "store": 5,
    "place.schema": 5,
    "search.dispatch": 4,
    "puzzles": 3,
    "sliding": 2,
    "two_blank": 2,
    "pegs": 2,
    "tables": 1,
    "search": 1,
    "rules": 0,
}


def floor_of(module: str) -> int | None:
    """The floor of `kaeru.engine.x.y`, or None for the engine's own `__init__`."""
    rest = module.removeprefix(PREFIX).lstrip(".")
    best: tuple[int, int] | None = None
    for prefix, floor in FLOORS.items():
        if rest == prefix or rest.startswith(prefix + "."):
            if best is None or len(prefix) > best[0]:
                best = (len(prefix), floor)
    return None if best is None else best[1]


def test_every_engine_module_has_a_floor():
    loose = [name for name in import_graph() if name != PREFIX and floor_of(name) is None]
    assert loose == [], f"modules in no room (give them one in FLOORS): {loose}"


def test_the_floors_point_down():
    upward = [
        f"{name} (floor {floor_of(name)}) imports {target} (floor {floor_of(target)})"
        for name, targets in import_graph().items()
        for target in sorted(targets)
        if name != PREFIX and (floor_of(target) or 0) > (floor_of(name) or 0)
    ]
    assert upward == [], "imports pointing up a floor:\n" + "\n".join(upward)
