"""How readable the house is, in five counts (issue 23's before/after figures).

- Session's public surface: the public methods and properties of `Session` plus the public
  fields it sets on `self` (anything whose name does not start with `_`).
- Reach-ins: outside the module that defines `Session`, reads or writes of a Session private
  member (`x._name` where `_name` is one of Session's private attributes or methods, and `x`
  is a session: `session`, `game`, `s`), plus writes of any Session attribute, public or
  private, field or property (`x.name = ...`, `+=`, `del`; `x` a session as above).
- `Any`: the name `Any` as a code token in product code (engine/ screens/ tui/ kaeru/).
- `type: ignore`: comments holding it in product code.
- Loose engine modules: `.py` files directly in the engine's top folder, `__init__` left out.

Run: `python bench/house_counts.py` (from the repository's root; reads files, imports nothing).
`--root DIR` counts another checkout, e.g. an old commit unpacked with
`git archive 50639bf | tar -x -C /tmp/old`, so before and after come from the same script.
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SESSION_NAMES = ("session", "game", "s")  # how the product spells a Session it is handed
PRODUCT = ("engine", "screens", "tui", "kaeru")


def product_files() -> list[Path]:
    """engine/, screens/, tui/ in full and kaeru/'s own files (its links lead to the others)."""
    files = [p for folder in PRODUCT[:3] for p in sorted((ROOT / folder).rglob("*.py"))]
    return files + sorted((ROOT / "kaeru").glob("*.py"))


def session_file() -> Path:
    for candidate in (ROOT / "engine" / "session.py", ROOT / "engine" / "game" / "session.py"):
        if candidate.exists():
            return candidate
    raise SystemExit("no engine/game/session.py or engine/game/session.py")


def session_classes() -> list[ast.ClassDef]:
    """`Session` and the classes it is built on that live beside it (its `GameView`)."""
    trees = [ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(session_file().parent.glob("*.py"))]
    by_name = {n.name: n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    found, todo = [], ["Session"]
    while todo:
        cls = by_name.get(todo.pop())
        if cls is not None and cls not in found:
            found.append(cls)
            todo += [ast.unparse(base).split("[")[0] for base in cls.bases]
    return found


def session_members() -> tuple[set[str], set[str], set[str]]:
    """(public methods and properties, public fields, private members) of Session."""
    methods: set[str] = set()
    fields: set[str] = set()
    private: set[str] = set()
    for cls in session_classes():
        _class_members(cls, methods, fields, private)
    dunder = {n for n in private if n.startswith("__") and n.endswith("__")}
    return methods, fields - methods, private - dunder


def _class_members(cls: ast.ClassDef, methods: set[str], fields: set[str],
                   private: set[str]) -> None:
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            (private if node.name.startswith("_") else methods).add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            (private if node.target.id.startswith("_") else fields).add(node.target.id)
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                (private if target.attr.startswith("_") else fields).add(target.attr)


def reach_ins(methods: set[str], private: set[str], fields: set[str]) -> tuple[int, int]:
    """(reads/writes of Session privates, writes of Session public fields) outside its module."""
    own = session_file()
    reads = writes = 0
    for path in product_files():
        if path == own:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if node.attr in private and not node.attr.startswith("__"):
                if isinstance(node.value, ast.Name) and node.value.id in SESSION_NAMES:
                    reads += 1
            if node.attr in fields | private | methods and isinstance(
                node.ctx, ast.Store | ast.Del
            ):
                if isinstance(node.value, ast.Name) and node.value.id in SESSION_NAMES:
                    writes += 1
    return reads, writes


def any_and_ignores() -> tuple[int, int, int]:
    """(`Any` in product code, `Any` in the midend and the coach, `type: ignore` comments)."""
    anys = midend = ignores = 0
    rooms = (ROOT / "engine" / "game", ROOT / "engine" / "coach")
    for path in product_files():
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and token.string == "Any":
                anys += 1
                midend += any(room in path.parents for room in rooms)
            elif token.type == tokenize.COMMENT and "type: ignore" in token.string:
                ignores += 1
    return anys, midend, ignores


def loose_engine_modules() -> list[str]:
    return sorted(p.name for p in (ROOT / "engine").glob("*.py") if p.name != "__init__.py")


def main() -> None:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to count")
    ROOT = parser.parse_args().root.resolve()
    methods, fields, private = session_members()
    reads, writes = reach_ins(methods, private, fields)
    anys, midend_anys, ignores = any_and_ignores()
    loose = loose_engine_modules()
    rows = [
        ("Session public methods+properties", len(methods)),
        ("Session public fields", len(fields)),
        ("Session public members (total)", len(methods) + len(fields)),
        ("reach-ins to Session privates", reads),
        ("writes to Session attributes from outside", writes),
        ("Any in product code", anys),
        ("Any in engine/game and engine/coach", midend_anys),
        ("type: ignore in product code", ignores),
        ("loose engine modules", len(loose)),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>5}")
    print("loose:", " ".join(loose))


if __name__ == "__main__":
    main()
