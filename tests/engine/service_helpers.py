"""Shared helpers for the search-service tests: requests for known puzzles, a puzzle that
searches forever (for thread-mode cancel tests), and the process table."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import Puzzle
from kaeru.engine.service import Job, JobKind, JobRequest, JobResult

LONG_ID = "pegs-english@any"  # enumerating every peg position: many seconds, reports progress


def request(
    puzzle_id: str, kind: JobKind = JobKind.SOLVE, budget: int | None = None, tag: str = ""
) -> JobRequest:
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.format(puzzle.initial())
    return JobRequest(kind, puzzle_id, start, start, budget=budget, tag=tag)


def long_request(tag: str = "") -> JobRequest:
    return request(LONG_ID, JobKind.ENUMERATE, tag=tag)


class Recorder:
    """Collects on_progress and on_done calls, with the thread each ran on."""

    def __init__(self) -> None:
        self.progress: list[Job] = []
        self.done: list[tuple[Job, JobResult, threading.Thread]] = []
        self.first_progress = threading.Event()
        self.lock = threading.Lock()

    def on_progress(self, job: Job, stats: object) -> None:
        self.progress.append(job)
        self.first_progress.set()

    def on_done(self, job: Job, result: JobResult) -> None:
        with self.lock:
            self.done.append((job, result, threading.current_thread()))


class Endless(Puzzle[int, int]):
    """Counting up by one or two, never reaching a goal: a generic search runs until stopped."""

    id = "endless"
    title = "Endless"
    family = "endless"

    def initial(self) -> int:
        return 0

    def moves(self, state: int) -> Iterable[int]:
        return (1, 2)

    def apply(self, state: int, move: int) -> int:
        return state + move

    def parse(self, text: str) -> int:
        return int(text)

    def format(self, state: int) -> str:
        return str(state)

    def describe(self, move: int) -> str:
        return f"+{move}"

    def is_goal(self, state: int, start: int) -> bool:
        return False


def resource_tracker_pid() -> int | None:
    """multiprocessing's own helper process (one per app process, shared by everything that
    uses multiprocessing in it, ended with it): not a search worker."""
    from multiprocessing import resource_tracker

    return getattr(resource_tracker._resource_tracker, "_pid", None)


def running(pid: int) -> bool:
    """Whether `pid` is a process that is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def child_pids() -> list[int]:
    """Processes whose parent is this one, read from /proc (zombies included), leaving out
    multiprocessing's resource tracker."""
    me = os.getpid()
    tracker = resource_tracker_pid()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields.get("PPid", "0").strip()) == me and int(entry.name) != tracker:
            found.append(int(entry.name))
    return found
