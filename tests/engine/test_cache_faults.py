"""Faults in the engine's cache folder are rebuilt around, never waited on or crashed on: a FIFO
in place of a table file, and a damaged compiled-code (numba) cache."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.control import Control
from kaeru.engine.tables import files, folder, store


@pytest.fixture
def cache(monkeypatch, tmp_path) -> Path:
    """A fresh cache folder, nothing in memory, no notices."""
    monkeypatch.setenv(folder.ENV_VAR, str(tmp_path / "cache"))
    store.forget()
    folder.forget_notices()
    yield tmp_path / "cache"
    store.forget()
    folder.forget_notices()


def tiny_build(control: Control) -> np.ndarray:
    return np.arange(256, dtype=np.uint8)


def in_a_thread(work, seconds: float = 10.0) -> list:
    """Run `work` in a daemon thread; the result list is empty when it did not end in time."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    return result


def test_a_fifo_in_place_of_a_table_file_is_rebuilt_not_waited_on(cache: Path):
    cache.mkdir(parents=True)
    os.mkfifo(cache / "tiny.v1.table")
    assert in_a_thread(lambda: files.read_table(cache / "tiny.v1.table", (256,), np.uint8)) == [
        None
    ]
    loaded = in_a_thread(lambda: store.load_or_build("tiny", 1, tiny_build, shape=(256,)))
    assert loaded and loaded[0].source == "built"
    assert (cache / "tiny.v1.table").is_file()  # the FIFO was replaced by the written table
    store.forget()
    assert store.load_or_build("tiny", 1, tiny_build, shape=(256,)).source == "disk"
