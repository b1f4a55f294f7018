"""The widgets under tui/widgets draw layouts and post moves: none reads a puzzle, calls its
methods, applies a move or duck-types with getattr; board modules import from the engine only
`engine.rules.layout`. Checked on the source with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import kaeru.tui.widgets as widgets

ROOT = Path(widgets.__file__).resolve().parent
PUZZLE_METHODS = {"apply", "moves", "move_cells", "explain_illegal", "describe", "parse_move",
                  "format_move", "legal_moves"}
BANNED_CALLS = {"getattr", "hasattr", "apply"}
BOARD_MODULES = ("board.py", "pick_target.py", "boards/")


def problems(source: str, board_module: bool) -> list[str]:
    """What a widget module does that it must not, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and node.attr == "puzzle":
            found.append(f"{line}: reads .puzzle")
        if isinstance(node, ast.Name) and node.id == "puzzle":
            found.append(f"{line}: uses a puzzle")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in BANNED_CALLS:
                found.append(f"{line}: calls {func.id}()")
            if isinstance(func, ast.Attribute) and func.attr in PUZZLE_METHODS:
                found.append(f"{line}: calls .{func.attr}()")
        if board_module and isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("kaeru.engine") and (
                node.module != "kaeru.engine.rules.layout"
            ):
                found.append(f"{line}: imports {node.module}")
        if board_module and isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("kaeru.engine"):
                    found.append(f"{line}: imports {alias.name}")
    return found


def test_the_check_catches_duck_typing() -> None:
    bad = (
        "from kaeru.engine.rules.protocol import Puzzle\n"
        "def f(self):\n"
        "    w = getattr(self.puzzle, 'width')\n"
        "    return self.puzzle.apply(self.state, self.puzzle.moves(self.state)[0])\n"
    )
    found = problems(bad, board_module=True)
    assert any("getattr" in p for p in found) and any(".apply()" in p for p in found)
    assert any(".moves()" in p for p in found)
    assert any("kaeru.engine.rules.protocol" in p for p in found)


def test_no_widget_reads_or_calls_a_puzzle() -> None:
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) >= 10
    found = {}
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        board_module = relative.startswith(BOARD_MODULES)
        bad = problems(path.read_text(encoding="utf-8"), board_module)
        if bad:
            found[relative] = bad
    assert not found, found
