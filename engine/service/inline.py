"""A searcher that runs each job at once in the caller's thread: for scripts, the CLI and tests,
where nothing else waits on the search. It keeps the Searcher contract of the service (submit a
JobRequest with callbacks, get a handle that can be cancelled), so a Session works alike with
either; `on_done` is called before `submit` returns."""

from __future__ import annotations

from typing import Protocol

from kaeru.engine.rules.results import SearchStats
from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import DoneCallback, Job, JobRequest, ProgressCallback


class Searcher(Protocol):
    """What a Session needs of a search service."""

    def submit(
        self,
        request: JobRequest,
        *,
        on_progress: ProgressCallback | None = None,
        on_done: DoneCallback | None = None,
    ) -> Job: ...


class InlineSearcher:
    """Runs every job to its end inside `submit`."""

    def __init__(self) -> None:
        self._next_id = 0

    def submit(
        self,
        request: JobRequest,
        *,
        on_progress: ProgressCallback | None = None,
        on_done: DoneCallback | None = None,
    ) -> Job:
        self._next_id += 1
        job = Job(self._next_id, request)

        def progress(stats: SearchStats) -> None:
            if on_progress is not None and not job.cancel_requested:
                on_progress(job, stats)

        job.finish(execute(request, progress, lambda: job.cancel_requested))
        if on_done is not None and job.result is not None:
            on_done(job, job.result)  # here, not inside Job.finish: errors are not swallowed
        return job
