"""One search pool for many players (`kaeru serve ssh`): a few worker processes shared by every
session instead of one worker per player.

The queue is fair: players are served round-robin (the player whose last job started longest
ago goes first), each has at most one job running at a time,
and a player's new request cancels that player's older requests with the same tag (a new hint
makes the previous hint stale). Each worker runs one job at a time under the per-job memory
limit (the worker's RLIMIT_AS) and the pool's budget cap. A job cancelled (or whose player left)
that does not end within `CANCEL_GRACE_SECONDS` takes its worker with it: the worker is killed
and replaced, so a runaway search cannot hold a slot. Results go back only to the player who
asked (`Player.send`).

The workers are `process_runner.WorkerHandle`s (the same worker the single-player app uses), so
the protocol and the crash handling are the same.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from kaeru.engine.rules.protocol import SearchStats
from kaeru.engine.service import protocol
from kaeru.engine.service.jobs import Job, JobRequest, JobResult, cancelled_result
from kaeru.engine.service.process_runner import WORKER_NICENESS, WorkerHandle

log = logging.getLogger(__name__)

CANCEL_GRACE_SECONDS = 2.0  # a cancelled job's worker is replaced after this long
CHECK_SECONDS = 0.25  # how often the pool looks for overdue cancels

Send = Callable[[tuple[object, ...]], None]


class PoolWorker(WorkerHandle):
    """A worker process that tells the pool when its job has ended (or it has)."""

    def __init__(self, pool: SearchPool, memory_limit: int | None, niceness: int) -> None:
        self.pool = pool
        self.job: Job | None = None
        self.cancelled_at: float | None = None
        super().__init__(memory_limit, niceness)

    def _handle(self, message: tuple) -> None:
        super()._handle(message)
        if message[0] == protocol.DONE:
            self.pool.worker_free(self)

    def _ended(self) -> None:
        super()._ended()
        self.pool.worker_gone(self)


@dataclasses.dataclass
class Player:
    """One session of the pool: its queue, its running job, and how to answer it."""

    id: int
    send: Send
    queue: deque[tuple[int, JobRequest]] = dataclasses.field(default_factory=deque)
    running: Job | None = None
    running_for: int = 0  # the player's own id of the running job
    served: int = 0  # when its last job started (the pool's count): the least recent goes next
    gone: bool = False


class SearchPool:
    """`workers` processes, a fair queue; `connect` a player, `run`/`cancel` its jobs."""

    def __init__(
        self,
        workers: int,
        memory_limit: int | None = None,
        max_budget: int | None = None,
        niceness: int = WORKER_NICENESS,
    ) -> None:
        self.size = max(1, workers)
        self.memory_limit = memory_limit
        self.max_budget = max_budget
        self.niceness = niceness
        self._lock = threading.RLock()
        self._players: dict[int, Player] = {}
        self._starts = itertools.count(1)
        self._workers: list[PoolWorker] = []
        self._ids = itertools.count(1)
        self._closed = False
        self.jobs_run = 0
        self.workers_replaced = 0
        self._watch = threading.Thread(target=self._watch_cancels, name="pool-watch", daemon=True)
        self._watch.start()

    # ---- players ---------------------------------------------------------------------------
    def connect(self, send: Send) -> int:
        with self._lock:
            player = Player(next(self._ids), send)
            self._players[player.id] = player
            return player.id

    def disconnect(self, player_id: int) -> None:
        """The player left: its queue goes, its running job is cancelled (its slot freed)."""
        with self._lock:
            player = self._players.pop(player_id, None)
            if player is None:
                return
            player.gone = True
            player.queue.clear()
            running = player.running
        if running is not None:
            running.cancel()

    def run(self, player_id: int, job_id: int, request: JobRequest) -> None:
        """Queue the player's job `job_id`; its older jobs with the same tag are stale."""
        if self.max_budget is not None and (
            request.budget is None or request.budget > self.max_budget
        ):
            request = dataclasses.replace(request, budget=self.max_budget)
        stale: list[tuple[int, JobRequest]] = []
        with self._lock:
            player = self._players.get(player_id)
            if player is None:
                return
            if request.tag:
                stale = [item for item in player.queue if item[1].tag == request.tag]
                for item in stale:
                    player.queue.remove(item)
                running = player.running
                if running is not None and running.request.tag == request.tag:
                    running.cancel()
            player.queue.append((job_id, request))
        for old_id, old in stale:
            self._answer(player, (protocol.DONE, old_id, cancelled_result(old)))
        self._schedule()

    def cancel(self, player_id: int, job_id: int) -> None:
        with self._lock:
            player = self._players.get(player_id)
            if player is None:
                return
            queued = [item for item in player.queue if item[0] == job_id]
            for item in queued:
                player.queue.remove(item)
            running = player.running if player.running_for == job_id else None
        for _, request in queued:
            self._answer(player, (protocol.DONE, job_id, cancelled_result(request)))
        if running is not None:
            running.cancel()

    # ---- scheduling --------------------------------------------------------------------------
    def _schedule(self) -> None:
        """Give free workers to the next players in turn (one running job each)."""
        while True:
            with self._lock:
                if self._closed:
                    return
                worker = self._free_worker()
                if worker is None:
                    return
                picked = self._next_player()
                if picked is None:
                    return
                player, job_id, request = picked
                job = Job(
                    next(self._ids),
                    request,
                    self._progress_to(player, job_id),
                    self._done_to(player, job_id),
                )
                player.running, player.running_for = job, job_id
                worker.job, worker.cancelled_at = job, None
                job.add_stop_hook(functools.partial(self._mark_cancelled, worker))
                self.jobs_run += 1
            if not worker.run(job):
                self.worker_gone(worker)

    def _free_worker(self) -> PoolWorker | None:
        for worker in self._workers:
            if worker.job is None and not worker.ended:
                return worker
        if len(self._workers) < self.size:
            worker = PoolWorker(self, self.memory_limit, self.niceness)
            self._workers.append(worker)
            return worker
        return None

    def _next_player(self) -> tuple[Player, int, JobRequest] | None:
        """Round-robin: of the players with a job waiting and none running, the one whose
        last job started longest ago (or never)."""
        waiting = [p for p in self._players.values() if p.queue and p.running is None]
        if not waiting:
            return None
        player = min(waiting, key=lambda p: (p.served, p.id))
        player.served = next(self._starts)
        job_id, request = player.queue.popleft()
        return player, job_id, request

    def _progress_to(self, player: Player, job_id: int) -> Callable[[Job, SearchStats], None]:
        return lambda job, stats: self._answer(player, (protocol.PROGRESS, job_id, stats))

    def _done_to(self, player: Player, job_id: int) -> Callable[[Job, JobResult], None]:
        def done(job: Job, result: JobResult) -> None:
            with self._lock:
                if player.running is job:
                    player.running = None
            self._answer(player, (protocol.DONE, job_id, result))

        return done

    def _answer(self, player: Player, message: tuple[object, ...]) -> None:
        if player.gone:
            return
        try:
            player.send(message)
        except (OSError, ValueError, EOFError):
            pass  # the player's connection is gone: its reader disconnects it

    def _mark_cancelled(self, worker: PoolWorker) -> None:
        with self._lock:
            if worker.cancelled_at is None:
                worker.cancelled_at = time.monotonic()

    # ---- workers -----------------------------------------------------------------------------
    def worker_free(self, worker: PoolWorker) -> None:
        with self._lock:
            worker.job, worker.cancelled_at = None, None
        self._schedule()

    def worker_gone(self, worker: PoolWorker) -> None:
        """A worker ended (crash, memory, killed as a runaway): its job has been failed by the
        handle; a fresh worker takes its place at the next job."""
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)
            worker.job = None
        self._schedule()

    def _watch_cancels(self) -> None:
        while not self._closed:
            time.sleep(CHECK_SECONDS)
            now = time.monotonic()
            with self._lock:
                overdue = [
                    w
                    for w in self._workers
                    if w.job is not None
                    and w.cancelled_at is not None
                    and now - w.cancelled_at > CANCEL_GRACE_SECONDS
                ]
                for worker in overdue:
                    self._workers.remove(worker)
                    self.workers_replaced += 1
            for worker in overdue:
                log.warning("a cancelled search did not stop: its worker is replaced")
                threading.Thread(target=worker.stop, daemon=True).start()
            if overdue:
                self._schedule()

    @property
    def busy(self) -> int:
        """Workers running a job now."""
        with self._lock:
            return sum(1 for w in self._workers if w.job is not None)

    def worker_pids(self) -> list[int]:
        with self._lock:
            return [w.process.pid for w in self._workers if w.process.pid is not None]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._workers = list(self._workers), []
            players = list(self._players)
        for player_id in players:
            self.disconnect(player_id)
        for worker in workers:
            worker.stop()
