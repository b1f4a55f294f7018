"""Test doubles for the midend: a searcher whose answers arrive only when the test says (late
and in any order), and a store kept in memory."""

from __future__ import annotations

from dataclasses import replace

from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import DoneCallback, Job, JobRequest, ProgressCallback
from kaeru.engine.store.models import FinishedGame, SavedGame


class DeferredSearcher:
    """Holds every job until `deliver` runs it; cancelled jobs answer "cancelled"."""

    def __init__(self) -> None:
        self.pending: list[tuple[Job, JobRequest, DoneCallback | None]] = []
        self._next = 0

    def submit(
        self,
        request: JobRequest,
        *,
        on_progress: ProgressCallback | None = None,
        on_done: DoneCallback | None = None,
    ) -> Job:
        self._next += 1
        job = Job(self._next, request)
        self.pending.append((job, request, on_done))
        return job

    def deliver(self, index: int = 0) -> None:
        job, request, on_done = self.pending.pop(index)
        job.finish(execute(request, None, lambda: job.cancel_requested))
        if on_done is not None and job.result is not None:
            on_done(job, job.result)

    def deliver_all(self) -> None:
        while self.pending:
            self.deliver()


class MemoryStore:
    """The two calls a Session makes of the player's store, kept in dicts."""

    def __init__(self) -> None:
        self.games: dict[int, SavedGame] = {}
        self.finished: list[FinishedGame] = []
        self._next = 0

    def save_game(self, game: SavedGame) -> int:
        slot = game.slot
        if slot is None:
            self._next += 1
            slot = self._next
        self.games[slot] = replace(game, slot=slot)
        return slot

    def delete_game(self, slot: int) -> None:
        self.games.pop(slot, None)

    def finish_game(self, slot: int | None, game: FinishedGame) -> None:
        if slot is not None:
            self.games.pop(slot, None)
        self.finished.append(game)
