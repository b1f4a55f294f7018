"""The wheel built from a fresh clone holds every module, the licence and the metadata (a clone
where the `kaeru/` links did not come through would build a wheel with no engine in it).

Built with setuptools' own backend in a child process, without pip or an isolated build
environment (the `test` extra installs setuptools): about a second of CPU.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import kaeru

REPO = Path(kaeru.__file__).resolve().parent.parent
BUILD = "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("setuptools >= 77 is needed (pip install -e '.[test]')")
    where = tmp_path_factory.mktemp("clone") / "kaeru-arcade"
    subprocess.run(["git", "clone", "-q", str(REPO), str(where)], check=True, timeout=120)
    return where


@pytest.fixture(scope="module")
def wheel(clone: Path, tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(out)], cwd=clone, capture_output=True, text=True,
        timeout=300, check=True,
    )
    return zipfile.ZipFile(out / done.stdout.strip().splitlines()[-1])


def tracked(clone: Path, *patterns: str) -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", *patterns], cwd=clone, capture_output=True, text=True, check=True
    )
    return set(listed.stdout.split())


def test_the_wheel_holds_every_module_and_its_data(clone: Path, wheel: zipfile.ZipFile):
    names = set(wheel.namelist())
    sources = tracked(clone, "engine/*.py", "screens/*.py", "tui/*.py", "tui/*.tcss")
    assert len(sources) > 150
    missing = sorted(s for s in sources if f"kaeru/{s}" not in names)
    assert missing == []
    assert {"kaeru/__init__.py", "kaeru/__main__.py"} <= names
    assert any(n.startswith("kaeru/tui/serve/web/static/") for n in names)
    assert not [n for n in names if n.split("/")[0] in ("engine", "screens", "tui", "tests")]


def test_the_wheel_carries_the_licence_and_the_metadata(wheel: zipfile.ZipFile):
    info = f"kaeru_arcade-{kaeru.__version__}.dist-info"
    assert "Kaeru Arcade developers" in wheel.read(f"{info}/licenses/LICENSE").decode()
    metadata = wheel.read(f"{info}/METADATA").decode()
    for line in (
        "License-Expression: MIT",
        "Classifier: Operating System :: Microsoft :: Windows",
        "Classifier: Operating System :: MacOS",
        "Classifier: Operating System :: POSIX :: Linux",
        "Provides-Extra: serve",
        'Requires-Dist: asyncssh>=2.14; extra == "serve"',
        "Author: Kaeru Arcade developers",
    ):
        assert line in metadata
    assert "Requires-Dist: asyncssh" not in metadata.split("Provides-Extra")[0]  # not for all
    assert "```text" in metadata and "╭─ Puzzles" in metadata  # the README's screens as text
    assert "](docs/" not in metadata  # no picture a package index could not show
    entry_points = wheel.read(f"{info}/entry_points.txt").decode()
    assert "kaeru = kaeru.tui.cli:main" in entry_points
