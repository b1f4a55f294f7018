"""What a server does once for all its players (issue 21): the shared search pool (each answer to
its asker only; a player who leaves mid-search frees the slot) and tables mapped, not copied (two
processes share one file's pages; a damaged file is refused once and rebuilt, never used)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service import CANCELLED, DONE, JobKind, JobRequest, SearchService
from tests.serve.conftest import alive, live_pids, parent_of

WAIT = 30.0
LONG_ID = "pegs-english@any"  # enumerating every peg position: many seconds


def request(puzzle_id: str, kind: JobKind = JobKind.SOLVE, tag: str = "") -> JobRequest:
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.format(puzzle.initial())
    return JobRequest(kind, puzzle_id, start, start, tag=tag)


def start_pool(folder: Path, workers: int) -> tuple[subprocess.Popen[str], str]:
    address = str(folder / "pool.sock")
    process = subprocess.Popen(
        [sys.executable, "-m", "kaeru.engine.service.pool_server", address, str(workers), "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process, address


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[subprocess.Popen[str]]:
    """A one-worker pool; SearchService("auto") in this test reaches it."""
    monkeypatch.delenv("KAERU_SEARCH_MODE", raising=False)
    with tempfile.TemporaryDirectory(prefix="kaeru-pool-test-") as folder:
        process, address = start_pool(Path(folder), workers=1)
        monkeypatch.setenv("KAERU_SEARCH_POOL", address)
        try:
            yield process
        finally:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(10)


def pool_workers(pool: subprocess.Popen[str]) -> list[int]:
    """The pool's search workers (not multiprocessing's resource tracker)."""
    return [
        pid
        for pid in live_pids()
        if parent_of(pid) == pool.pid and alive(pid) and b"spawn_main" in cmdline(pid)
    ]


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def own_workers() -> set[int]:
    """Search workers started by this test process itself (not the pool's)."""
    return {
        pid
        for pid in live_pids()
        if parent_of(pid) == os.getpid() and b"spawn_main" in cmdline(pid)
    }


def test_two_players_answers_reach_only_their_asker(pool):
    before = own_workers()  # a worker an earlier test left running is not this test's
    alice, bob = SearchService("auto"), SearchService("auto")
    try:
        assert alice.mode == bob.mode == "pool"
        # the same job ids on both sides (each service counts from 1): routed by player
        alice_jobs = [alice.submit(request(pid)) for pid in ("frogs-3", "frogs-4")]
        bob_jobs = [bob.submit(request(pid)) for pid in ("flip-it-5", "frogs-5")]
        assert [j.id for j in alice_jobs] == [j.id for j in bob_jobs]
        for job in alice_jobs + bob_jobs:
            result = job.wait(WAIT)
            assert result is not None and result.outcome == DONE, result
            assert result.request == job.request  # its own answer, not the other player's
            assert result.solution is not None
        assert len(pool_workers(pool)) == 1  # searched in the pool's one worker ...
        assert own_workers() <= before  # ... not one of ours
    finally:
        alice.shutdown()
        bob.shutdown()


def test_a_player_who_leaves_mid_search_frees_the_pool_slot(pool):
    leaver, other = SearchService("auto"), SearchService("auto")
    try:
        long = leaver.submit(request(LONG_ID, JobKind.ENUMERATE))
        deadline = time.monotonic() + WAIT
        while not pool_workers(pool):  # the only worker has taken the long job
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)
        waiting = other.submit(request("frogs-3"))
        assert waiting.wait(1.0) is None  # queued behind the long job: one worker
        leaver.shutdown()  # the connection goes, the player with it
        result = waiting.wait(WAIT / 2)
        assert result is not None and result.outcome == DONE
        assert long.wait(5) is not None  # the leaver's own job ended too (failed: gone)
    finally:
        leaver.shutdown()
        other.shutdown()


def test_a_new_request_cancels_the_players_stale_one(pool):
    player = SearchService("auto")
    try:
        first = player.submit(request(LONG_ID, JobKind.ENUMERATE, tag="hint"))
        time.sleep(0.5)
        second = player.submit(request("frogs-3", tag="hint"))
        assert (result := first.wait(WAIT)) is not None and result.outcome == CANCELLED
        assert (result := second.wait(WAIT)) is not None and result.outcome == DONE
    finally:
        player.shutdown()


# ---- tables mapped, not copied -------------------------------------------------------------
HOLDER = textwrap.dedent(
    """
    import sys
    import numpy as np
    from kaeru.engine.tables import store

    built = []

    def build(control):
        built.append(1)
        return (np.arange(SIZE, dtype=np.int64) % 251).astype(np.uint8)

    SIZE = 4 * 2**20
    loaded = store.load_or_build("shared-test", 1, build, shape=(SIZE,))
    table = loaded.table
    assert int(table.astype(np.int64).sum()) == int(((np.arange(SIZE) % 251)).sum())
    print(loaded.source, "built" if built else "not-built", flush=True)
    if sys.argv[1:] == ["hold"]:
        sys.stdin.read()
    """
)


def run_holder(cache: Path, hold: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", HOLDER, *(["hold"] if hold else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, KAERU_CACHE_DIR=str(cache)),
    )


def mapping_of(pid: int, path: Path) -> dict[str, int]:
    """The smaps figures (kB) of `pid`'s mapping of `path`."""
    figures: dict[str, int] = {}
    inside = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        first = line.split()[0]
        if not first.endswith(":"):  # a mapping's header line
            inside = line.endswith(str(path))
        elif inside and line.split()[-1] == "kB":
            figures[first[:-1]] = figures.get(first[:-1], 0) + int(line.split()[1])
    return figures


def test_two_processes_share_one_mapped_table_and_a_damaged_one_is_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    first = run_holder(cache)
    out, _ = first.communicate(timeout=60)
    assert out.split() == ["built", "built"], out
    (path,) = cache.glob("shared-test.v1.table")

    holders = [run_holder(cache, hold=True) for _ in range(2)]
    try:
        for holder in holders:
            assert holder.stdout is not None
            assert holder.stdout.readline().split() == ["disk", "not-built"]
        for holder in holders:
            figures = mapping_of(holder.pid, path)
            assert figures["Rss"] >= 4096 - 8, figures  # every page looked at
            shared = figures["Shared_Clean"] + figures["Shared_Dirty"]  # dirty: not yet on disk
            assert shared >= 4096 - 8, figures  # ... and shared
            assert figures["Pss"] <= figures["Rss"] // 2 + 8, figures  # one copy for the two
            assert figures["Private_Clean"] + figures["Private_Dirty"] == 0, figures
            assert figures["Anonymous"] == 0, figures  # no copy of the table in memory
    finally:
        for holder in holders:
            holder.communicate(timeout=10)

    data = bytearray(path.read_bytes())
    data[-100] ^= 0xFF  # damaged, same size
    path.write_bytes(bytes(data))
    again = run_holder(cache)
    out, _ = again.communicate(timeout=60)
    assert out.split()[1] == "built", out  # refused (its sum would be wrong), rebuilt
    last = run_holder(cache)
    out, _ = last.communicate(timeout=60)
    assert out.split() == ["disk", "not-built"], out  # the rebuilt file, checked once


def test_players_take_turns_one_running_job_each():
    """One worker: a player with three jobs queued does not go twice before the other's one."""
    from kaeru.engine.service import protocol
    from kaeru.engine.service.pool import SearchPool

    pool = SearchPool(1)
    answers: list[tuple[str, int, str]] = []
    both_done = threading.Event()

    def answer_to(name: str) -> Callable[[tuple[object, ...]], None]:
        def send(message: tuple[object, ...]) -> None:
            if message[0] == protocol.DONE:
                answers.append((name, int(message[1]), message[2].outcome))  # type: ignore[attr-defined]
                if len(answers) == 4:
                    both_done.set()

        return send

    try:
        alice, bob = pool.connect(answer_to("alice")), pool.connect(answer_to("bob"))
        pool.run(alice, 1, request(LONG_ID, JobKind.ENUMERATE, tag="explore"))
        deadline = time.monotonic() + WAIT
        while pool.busy == 0:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        pool.run(alice, 2, request("frogs-3", tag="hint"))
        pool.run(alice, 3, request("frogs-4", tag="solve"))
        pool.run(bob, 1, request("flip-it-5", tag="hint"))
        pool.cancel(alice, 1)
        assert both_done.wait(WAIT), answers
        assert answers == [
            ("alice", 1, CANCELLED),
            ("bob", 1, DONE),  # bob's turn before alice's second job
            ("alice", 2, DONE),
            ("alice", 3, DONE),
        ]
    finally:
        pool.close()


def test_a_worker_that_ignores_cancel_is_killed_and_replaced(monkeypatch):
    """A worker deaf to cancel (its cancel message dropped on the way, as a search stuck in
    native code would never read it) is killed once the grace is over, its job answered, and
    the next job runs on a fresh worker."""
    from kaeru.engine.service import protocol
    from kaeru.engine.service.pool import CANCEL_GRACE_SECONDS, PoolWorker, SearchPool

    monkeypatch.setattr(PoolWorker, "_cancel", lambda self, job_id: None)
    pool = SearchPool(1)
    answers: dict[int, str] = {}
    answered = threading.Condition()

    def send(message: tuple[object, ...]) -> None:
        if message[0] == protocol.DONE:
            with answered:
                answers[int(message[1])] = message[2].outcome  # type: ignore[attr-defined]
                answered.notify_all()

    try:
        player = pool.connect(send)
        pool.run(player, 1, request(LONG_ID, JobKind.ENUMERATE))
        deadline = time.monotonic() + WAIT
        while pool.busy == 0:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        (deaf,) = pool.worker_pids()
        pool.cancel(player, 1)
        cancelled_at = time.monotonic()
        pool.run(player, 2, request("frogs-3"))
        with answered:
            assert answered.wait_for(lambda: 2 in answers, WAIT), answers
        assert time.monotonic() - cancelled_at >= CANCEL_GRACE_SECONDS  # it had its grace
        assert answers[1] != DONE  # the deaf worker's job was answered, not left hanging
        assert answers[2] == DONE  # the next job ran ...
        (fresh,) = pool.worker_pids()
        assert fresh != deaf  # ... on the worker that replaced it
        assert pool.workers_replaced == 1
        deadline = time.monotonic() + WAIT
        while alive(deaf):  # the deaf worker was killed (and reaped)
            assert time.monotonic() < deadline, "the deaf worker is still running"
            time.sleep(0.05)
    finally:
        pool.close()
