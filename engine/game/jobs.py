"""The searches of one game, by tag ("hint", "solve", "optimal", "dead-end"): at most one job a
tag; a newer job, a cancel or a move makes the older answer stale, and a stale answer is
dropped. Answers are handed to the owner's thread through `post`."""

from __future__ import annotations

from collections.abc import Callable

from kaeru.engine.rules.results import SearchStats
from kaeru.engine.service.inline import Searcher
from kaeru.engine.service.jobs import Job, JobRequest, JobResult

Post = Callable[[Callable[[], None]], None]


class TaggedJobs:
    """Submit, cancel and recognise the current job of each tag."""

    def __init__(self, searcher: Searcher, post: Post) -> None:
        self.searcher = searcher
        self.post = post
        self._jobs: dict[str, tuple[int, Job | None]] = {}  # tag -> (serial, job)
        self._cancelled_early: set[int] = set()
        self._serial = 0

    def __contains__(self, tag: str) -> bool:
        return tag in self._jobs

    @property
    def tags(self) -> list[str]:
        return list(self._jobs)

    def submit(
        self,
        request: JobRequest,
        on_progress: Callable[[SearchStats], None],
        on_done: Callable[[JobResult], None],
    ) -> None:
        """Start `request` under its tag (cancelling the tag's older job). The callbacks run
        through `post`, and only while this job is still the tag's current one."""
        tag = request.tag
        self.cancel(tag)
        self._serial += 1
        serial = self._serial

        def progress(job: Job, stats: SearchStats) -> None:
            def deliver() -> None:
                if self._current(tag, serial):
                    on_progress(stats)

            self.post(deliver)

        def done(job: Job, result: JobResult) -> None:
            def deliver() -> None:
                if self._current(tag, serial):
                    del self._jobs[tag]
                    on_done(result)

            self.post(deliver)

        self._jobs[tag] = (serial, None)
        job = self.searcher.submit(request, on_progress=progress, on_done=done)
        if self._current(tag, serial):
            self._jobs[tag] = (serial, job)
        elif serial in self._cancelled_early:  # cancelled while `submit` was still running
            self._cancelled_early.discard(serial)
            job.cancel()

    def _current(self, tag: str, serial: int) -> bool:
        entry = self._jobs.get(tag)
        return entry is not None and entry[0] == serial

    def cancel(self, tag: str) -> None:
        entry = self._jobs.pop(tag, None)
        if entry is None:
            return
        serial, job = entry
        if job is None:
            self._cancelled_early.add(serial)
        else:
            job.cancel()

    def cancel_all(self) -> None:
        for tag in self.tags:
            self.cancel(tag)
