"""The screens' engine work in a served arcade: a SURVEY, DRILL or ANALYSIS job goes from the
arcade's search service (pool mode, `$KAERU_SEARCH_POOL`) through the server's shared pool to a
pool worker and back, its Partial reports included, with no change to the pool: a kind travels
as any search does. Leaving (cancel) reaches the pool too."""

from __future__ import annotations

import random
import threading
from multiprocessing.connection import Listener

import pytest

from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.coach.analysis import Analysis
from kaeru.engine.service import SearchService
from kaeru.engine.service.job_kinds import Posed
from kaeru.engine.service.jobs import CANCELLED, DONE, JobKind, JobRequest, JobResult, Partial
from kaeru.engine.service.pool import SearchPool
from kaeru.engine.service.pool_runner import POOL_ENV
from kaeru.engine.service.pool_server import accept

pytestmark = pytest.mark.posix

WAIT = 60


def test_the_screens_kinds_go_through_the_servers_pool(tmp_path, monkeypatch):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))
    address = str(tmp_path / "pool.sock")
    pool = SearchPool(1)
    listener = Listener(address, "AF_UNIX")
    threading.Thread(target=accept, args=(pool, listener), daemon=True).start()
    monkeypatch.setenv(POOL_ENV, address)
    requests = [
        JobRequest(JobKind.SURVEY, "", "", "", tag="survey",
                   args=("instant", ("frogs-2", "pegs-french"), ())),
        JobRequest(JobKind.DRILL, "frogs-3", "", "", tag="drill",
                   args=(4, random.Random(3).getstate())),
        JobRequest(JobKind.ANALYSIS, "sliding-3x3", "1 2 3/4 5 6/7 _ 8", "", tag="analysis",
                   args=(("8 left",), ())),
    ]
    results: dict[JobKind, JobResult] = {}
    told: dict[JobKind, list[object]] = {request.kind: [] for request in requests}
    finished = threading.Event()

    def done(job: object, result: JobResult) -> None:
        results[result.request.kind] = result
        if len(results) == len(requests):
            finished.set()

    def progress(job, stats) -> None:
        if isinstance(stats, Partial):
            told[job.request.kind].append(stats.value)

    try:
        with SearchService("process") as service:
            assert service.mode == "pool"
            for request in requests:
                service.submit(request, on_progress=progress, on_done=done)
            assert finished.wait(WAIT), results
            held = service.submit(JobRequest(
                JobKind.SURVEY, "", "", "", tag="survey",
                args=("rest", ("sliding-4x4", "pegs-english"), ()),
            ))
            assert held.cancel()  # the screen is left
            assert held.wait(WAIT) is not None and held.result.outcome == CANCELLED
    finally:
        listener.close()
        pool.close()
    assert all(result.outcome == DONE for result in results.values()), results
    assert told[JobKind.SURVEY] and all(isinstance(f, Facts) for f in told[JobKind.SURVEY])
    assert isinstance(results[JobKind.DRILL].value, Posed)
    assert isinstance(results[JobKind.ANALYSIS].value, Analysis)
    assert told[JobKind.ANALYSIS] == [(1, 2), (2, 2)]
