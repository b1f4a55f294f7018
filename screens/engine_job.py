"""Engine work from a screen, the one way: a job of the app's search service (a job kind of
`engine.service.job_kinds`: the worker process in the app, the server's pool when served),
awaited by an async Textual worker of the screen. No engine code runs on the app's threads.

`await_job` submits the request, hands each value the job tells as it goes (a `Partial`
report) to `on_value` on the app's event loop, and returns the job's result. When its worker is
cancelled (the screen is left: Textual cancels a removed screen's workers; an `exclusive`
worker replaced by a newer one) the job is cancelled with it, and nothing more of it reaches
the screen. Because the wait is a Textual worker, `tui.headless.settle` waits for it as for
any worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.app import App

from kaeru.engine.rules.results import SearchStats
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import Job, JobRequest, JobResult, Partial

OnValue = Callable[[object], None]


def searcher_of(app: App[object]) -> Searcher:
    """The app's search service (an inline searcher for an app that has none)."""
    service: Searcher | None = getattr(app, "service", None)
    return service if service is not None else InlineSearcher()


async def await_job(
    app: App[object], request: JobRequest, on_value: OnValue | None = None
) -> JobResult:
    """Run `request` on the app's search service and wait for its result without blocking
    the event loop; cancelling the awaiting task cancels the job."""
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[JobResult] = loop.create_future()
    listening = True

    def resolve(result: JobResult) -> None:
        if not finished.done():
            finished.set_result(result)

    def told(value: object) -> None:
        if listening and on_value is not None:
            on_value(value)

    def on_loop(callback: Callable[[], None]) -> None:
        try:
            loop.call_soon_threadsafe(callback)
        except RuntimeError:  # the app has ended and its loop is closed: no one waits
            pass

    def done(job: Job, result: JobResult) -> None:  # a service thread (or here, inline)
        on_loop(lambda: resolve(result))

    def progress(job: Job, stats: SearchStats) -> None:
        if isinstance(stats, Partial):
            value = stats.value
            on_loop(lambda: told(value))

    job = searcher_of(app).submit(request, on_progress=progress, on_done=done)
    try:
        return await finished
    except asyncio.CancelledError:  # the worker was cancelled (the future with it)
        job.cancel()
        raise
    finally:
        listening = False  # values still queued for the loop are dropped
