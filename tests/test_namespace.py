"""One name per module: the product is imported as `kaeru.engine`, `kaeru.screens`, `kaeru.tui`
(kaeru/'s links to the top-level folders), never as `engine...`, which would load a second copy
of every module (two `Session` classes, two registries). The links themselves are checked here
(a checkout without symlinks has text files in their place); tests/test_wheel.py checks that
the wheel holds every module."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "screens", "tui")
SOURCES = [p for top in (*PARTS, "tests", "bench") for p in sorted((ROOT / top).rglob("*.py"))]
TOP_LEVEL_STRING = re.compile(r"""(import_module\(|["']-m["'],\s*)["'](engine|screens|tui)[."']""")


def top_level_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        names = (
            [a.name for a in node.names] if isinstance(node, ast.Import)
            else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0
            else []
        )
        found += [name for name in names if name.split(".")[0] in PARTS]
    return found


def test_the_links_lead_to_the_top_level_folders():
    for part in PARTS:
        link = ROOT / "kaeru" / part
        assert link.is_symlink() and link.resolve() == (ROOT / part).resolve(), (
            f"kaeru/{part} is not a link to ../{part}: clone with symlinks "
            "(git -c core.symlinks=true clone), or the package has no engine"
        )


def test_no_module_imports_a_top_level_folder():
    probe = "import engine.search\nfrom tui import app\n"
    assert top_level_imports(probe) == ["engine.search", "tui"]
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in SOURCES
        for name in top_level_imports(path.read_text(encoding="utf-8"))
    ]
    found += [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in SOURCES
        for match in TOP_LEVEL_STRING.finditer(path.read_text(encoding="utf-8"))
        if path.name != "test_namespace.py"
    ]
    assert found == []


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed (dev group)")
def test_ruff_refuses_a_top_level_import():
    done = subprocess.run(
        ["ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
         "--select", "TID251", "--stdin-filename", "probe.py", "-"],
        input="import engine.search\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 1 and "TID251" in done.stdout
