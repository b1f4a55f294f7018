"""Fixtures for every test: caches and saved games go to temporary folders, never the user's.

`pytest --no-posix-modules` runs the suite as on Windows as far as our code can tell: `fcntl`
and `resource` cannot be imported, in this process and in every process it starts (through
tests/blocked_imports/sitecustomize.py); the serving tests (tests/serve) and the tests marked
`posix` are left out.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

BLOCKED_IMPORTS = Path(__file__).parent / "blocked_imports"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-posix-modules",
        action="store_true",
        help="make fcntl and resource unimportable (as on Windows) and leave out the serving tests",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("no_posix_modules"):
        return
    spec = importlib.util.spec_from_file_location(
        "blocked_imports", BLOCKED_IMPORTS / "sitecustomize.py"
    )
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    os.environ[hook.ENV_VAR] = ",".join(hook.POSIX_ONLY)  # for the processes tests start
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(BLOCKED_IMPORTS), os.environ.get("PYTHONPATH")) if p
    )
    hook.install(hook.POSIX_ONLY)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("no_posix_modules") and collection_path.name == "serve":
        return True  # the servers need pseudo-terminals: POSIX only
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("no_posix_modules"):
        return
    skip = pytest.mark.skip(reason="needs fcntl or resource (POSIX only)")
    for item in items:
        if "posix" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def private_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Point the table cache and the saved games at a per-run temporary folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("KAERU_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    mp.setenv("KAERU_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    mp.setenv("KAERU_PDB_BUILD", "off")  # no 15-puzzle database build behind a test's back
    yield
    mp.undo()
