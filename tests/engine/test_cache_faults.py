"""Faults in the engine's cache folder are rebuilt around, never waited on or crashed on: a FIFO
in place of a table file, and a damaged compiled-code (numba) cache."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.rules.control import Control
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


# ---- the compiled-code cache ---------------------------------------------------------------------
KERNEL = '''
from kaeru.engine.sliding.jit import njit


@njit(cache=True)
def triple(x):
    return 3 * x + 1


print(triple(14))
'''


def run_kernel(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "numba")}
    env.pop("NUMBA_DISABLE_JIT", None)
    return subprocess.run(
        [sys.executable, str(folder / "kernel.py")],
        capture_output=True, text=True, env=env, timeout=120,
    )


def cache_files(folder: Path, suffix: str) -> list[Path]:
    return sorted(p for p in (folder / "numba").rglob(f"*{suffix}") if p.is_file())


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def flip_a_bit(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[len(raw) * 2 // 3] ^= 0x10
    path.write_bytes(bytes(raw))


def folder_instead(path: Path) -> None:
    path.unlink()
    path.mkdir()


DAMAGE = [truncate, empty, flip_a_bit, folder_instead]


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    (tmp_path / "kernel.py").write_text(KERNEL)
    first = run_kernel(tmp_path)
    assert first.returncode == 0 and first.stdout == "43\n", first.stderr
    assert cache_files(tmp_path, ".nbi") and cache_files(tmp_path, ".nbc")
    return tmp_path


def assert_compiled_again(folder: Path) -> None:
    again = run_kernel(folder)
    assert again.returncode == 0 and again.stdout == "43\n", again.stderr[-2000:]
    third = run_kernel(folder)  # and the cache works again afterwards
    assert third.returncode == 0 and third.stdout == "43\n", third.stderr[-2000:]


def load_kernel(path: Path, name: str):
    """A fresh dispatcher of the kernel in `path` (a module imported anew, so its compiled code
    is looked up in the cache on the first call)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba finds the kernel's module by name when it loads it
    spec.loader.exec_module(module)
    return module.triple


def test_a_damaged_compiled_cache_is_compiled_again_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """The short version (one process): a truncated index and a kernel with a flipped bit."""
    from numba.core import config

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))  # numba reloads its config
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba"))
    for name in "abcd":
        monkeypatch.delitem(sys.modules, f"kaeru_test_kernel_{name}", raising=False)
    (tmp_path / "kernel.py").write_text(KERNEL)
    assert load_kernel(tmp_path / "kernel.py", "kaeru_test_kernel_a")(14) == 43
    assert cache_files(tmp_path, ".nbi") and cache_files(tmp_path, ".nbc")
    folder.forget_notices()
    for path in cache_files(tmp_path, ".nbc"):
        flip_a_bit(path)
    assert load_kernel(tmp_path / "kernel.py", "kaeru_test_kernel_b")(14) == 43
    assert any("compiled code in the cache was damaged" in n for n in folder.notices())  # told
    folder.forget_notices()
    for path in cache_files(tmp_path, ".nbi"):
        truncate(path)
    assert load_kernel(tmp_path / "kernel.py", "kaeru_test_kernel_c")(14) == 43
    assert load_kernel(tmp_path / "kernel.py", "kaeru_test_kernel_d")(14) == 43  # cached again
    assert any("compiled code in the cache was damaged" in n for n in folder.notices())  # told
    folder.forget_notices()  # not for the next test's commands to print
    capsys.readouterr()


@pytest.mark.slow
@pytest.mark.parametrize("damage", DAMAGE, ids=lambda d: d.__name__)
@pytest.mark.parametrize("suffix", [".nbi", ".nbc"])
def test_any_damage_to_the_compiled_cache_is_compiled_again(kernel: Path, suffix: str, damage):
    for path in cache_files(kernel, suffix):
        damage(path)
    assert_compiled_again(kernel)


@pytest.mark.slow
def test_a_file_in_place_of_the_compiled_cache_folder_is_worked_around(kernel: Path):
    import shutil

    shutil.rmtree(kernel / "numba")
    (kernel / "numba").write_text("not a folder")
    assert_compiled_again(kernel)
