"""What a search job is: the request a caller makes, the result it gets, and the handle it holds.

Requests carry states as `puzzle.format()` texts so that they cross a process boundary; results
carry real Solutions and Enumerations (every family's states and moves pickle).

The delivery guarantee (the same in thread and process mode):
- `on_done` is called exactly once per job, on a service thread, never on the caller's thread.
- The outcome is fixed at one moment, under the job's lock. `Job.cancel()` either comes first —
  it returns True and the outcome is "cancelled", whatever the search went on to find — or comes
  after, returns False, and `job.done` is already True: that result was fixed before the cancel
  and its `on_done` may be running at that moment on a service thread. So once `cancel()` has
  returned True, no "done", "unsolvable", "gave_up" or "failed" result of that job ever reaches
  `on_done` or `wait()`.
- `on_progress` is never called once the outcome is fixed or a cancel has been asked for (a
  report already being delivered at that moment may still finish).
Callbacks run outside every service lock, so a callback may block (Textual's
`call_from_thread`) while the UI thread calls `cancel()` without deadlock. Callers that must
drop results for a position that is no longer current still compare their own serial: a result
fixed an instant before the cancel is, by the rule above, delivered.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

from kaeru.engine.rules.protocol import SearchStats, Solution
from kaeru.engine.rules.results import Enumeration

log = logging.getLogger(__name__)

JobOutcome = Literal["done", "unsolvable", "gave_up", "cancelled", "failed"]  # one spelling each
DONE: Final = "done"
UNSOLVABLE: Final = "unsolvable"
GAVE_UP: Final = "gave_up"
CANCELLED: Final = "cancelled"
FAILED: Final = "failed"
OUTCOMES: tuple[JobOutcome, ...] = (DONE, UNSOLVABLE, GAVE_UP, CANCELLED, FAILED)


class JobKind(Enum):
    """What a job computes."""

    SOLVE = "solve"  # a Solution from `state` for a game begun at `start`
    ENUMERATE = "enumerate"  # an Enumeration of everything reachable from `state`
    EXPLORE = "explore"  # every position by its distance to the standard goal (explorable)
    DEAD_END = "dead_end"  # a verdict: why `state` can no longer be won, or None
    DRAW = "draw"  # a random game (engine/service/job_kinds.py): `args` (seed, depth) -> game id
    DAILY = "daily"  # the day's games (job_kinds): `args` (the date) -> list of RandomGame
    SURVEY = "survey"  # the catalogue's facts (job_kinds): each told as it is found (Partial)
    DRILL = "drill"  # one drill question (job_kinds): `args` (depth, rng state) -> Posed
    ANALYSIS = "analysis"  # a won game's distances (job_kinds): `args` (moves, known) -> Analysis
    GRADE = "grade"  # each move's coach mark (job_kinds): `args` (moves,) -> list of marks or None

JobArg = int | str | None | tuple["JobArg", ...]
"""What a job kind's `args` hold: plain values and tuples of them (they pickle to any worker)."""


@dataclass(frozen=True)
class JobRequest:
    """One search to run. `budget=None` means the engine's default budget (DEFAULT_BUDGET);
    `tag` is the caller's label ("hint", "solve", "optimal", "distance") for `cancel_all`."""

    kind: JobKind
    puzzle_id: str  # anything `registry.get_puzzle` accepts, `pegs-english@c4` included
    state: str  # puzzle.format(state)
    start: str  # puzzle.format(start); "" means the same as `state`
    budget: int | None = None
    tag: str = ""
    args: tuple[JobArg, ...] = ()  # a job_kinds kind's own arguments


@dataclass(frozen=True)
class JobResult:
    """How a job ended. `outcome` is one of OUTCOMES; `message` is one line for the player;
    `detail` holds a traceback for the log when the solver itself failed."""

    request: JobRequest
    outcome: JobOutcome
    solution: Solution | None = None
    enumeration: Enumeration | None = None
    verdict: str | None = None
    message: str = ""
    stats: SearchStats | None = None
    detail: str = ""
    value: object = None  # what a job_kinds kind answers (DRAW: a game id; DAILY: the games)


@dataclass(frozen=True)
class Partial(SearchStats):
    """A progress report of a job kind that carries what it has found so far in `value` (a
    survey's Facts, an analysis's (done, total)). It is a SearchStats, so it travels the way
    every progress report does (the worker's pipe, the pool and its connection) unchanged."""

    value: object = None


def cancelled_result(request: JobRequest, stats: SearchStats | None = None) -> JobResult:
    return JobResult(request, CANCELLED, message="Search cancelled.", stats=stats)


def failed_result(request: JobRequest, message: str, detail: str = "") -> JobResult:
    return JobResult(request, FAILED, message=message, detail=detail)


ProgressCallback = Callable[["Job", SearchStats], None]
DoneCallback = Callable[["Job", JobResult], None]


class Job:
    """The caller's handle on one submitted search: cancel it, wait for it, read its result."""

    def __init__(
        self,
        job_id: int,
        request: JobRequest,
        on_progress: ProgressCallback | None = None,
        on_done: DoneCallback | None = None,
    ) -> None:
        self.id = job_id
        self.request = request
        self._on_progress = on_progress
        self._on_done = on_done
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self._cancel_requested = threading.Event()
        self._result: JobResult | None = None
        self._stop_hooks: list[Callable[[], None]] = []

    def __repr__(self) -> str:
        state = self._result.outcome if self._result else "running"
        return f"<Job {self.id} {self.request.kind.value} {self.request.puzzle_id} {state}>"

    # ---- the caller's side -------------------------------------------------------------------
    @property
    def done(self) -> bool:
        """Whether the outcome is fixed (the result may still be on its way to on_done)."""
        return self._result is not None

    @property
    def result(self) -> JobResult | None:
        return self._result

    @property
    def cancel_requested(self) -> bool:
        return self._cancel_requested.is_set()

    def cancel(self) -> bool:
        """Ask the job to stop. True: its outcome will be "cancelled". False: it had already
        ended (`done` is True) and keeps the outcome it had."""
        with self._lock:
            if self._result is not None:
                return False
            self._cancel_requested.set()
            hooks = list(self._stop_hooks)
        for hook in hooks:
            try:
                hook()
            except Exception:  # a worker that is already gone needs no stop message
                log.debug("stop hook for job %s failed", self.id, exc_info=True)
        return True

    def wait(self, timeout: float | None = None) -> JobResult | None:
        """The result once fixed; None when `timeout` seconds pass first."""
        if not self._finished.wait(timeout):
            return None
        return self._result

    # ---- the runner's side -------------------------------------------------------------------
    def add_stop_hook(self, hook: Callable[[], None]) -> None:
        """Something to call when the job is cancelled (a message to a worker process)."""
        with self._lock:
            self._stop_hooks.append(hook)

    def report(self, stats: SearchStats) -> None:
        """A progress report from the running search: passed on unless the job is over."""
        if self._on_progress is None or self._result is not None or self.cancel_requested:
            return
        try:
            self._on_progress(self, stats)
        except Exception:
            log.exception("on_progress callback of job %s failed", self.id)

    def finish(self, result: JobResult) -> bool:
        """Fix the outcome (once) and deliver it; "cancelled" wins over anything found after a
        cancel. False when the outcome was already fixed."""
        with self._lock:
            if self._result is not None:
                return False
            if self._cancel_requested.is_set() and result.outcome != CANCELLED:
                result = cancelled_result(self.request, result.stats)
            self._result = result
        self._finished.set()
        if self._on_done is not None:
            try:
                self._on_done(self, result)
            except Exception:
                log.exception("on_done callback of job %s failed", self.id)
        return True
