"""Fixtures for every test: caches and saved games go to temporary folders, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def private_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Point the table cache and the saved games at a per-run temporary folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("KAERU_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    mp.setenv("KAERU_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    mp.setenv("KAERU_PDB_BUILD", "off")  # no 15-puzzle database build behind a test's back
    yield
    mp.undo()
