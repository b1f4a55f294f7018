"""A screen that surveys the catalogue while it is shown: the facts of every preset (difficulty,
or why it cannot be won) from the cache at once, then from the engine as SURVEY jobs of the
search service (`engine.service.job_kinds`, running `engine.catalogue.survey` in the search
worker process, never on the app's threads): the quick proofs and tiny puzzles first, the longer
steps after `SURVEY_DELAY` seconds on the screen. Another screen on top cancels the survey
(what it found is kept in the cache); coming back goes on. Each fact reaches `facts_found` on
the UI thread as a `FactsFound` message.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from textual import on, work
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from kaeru.engine.catalogue.cache import FactsCache
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.catalogue.survey import Survey
from kaeru.engine.service.jobs import DONE, FAILED, JobKind, JobRequest
from kaeru.screens.engine_job import await_job

SHARED_SURVEY_ENV = "KAERU_SURVEY"  # "server": `kaeru serve ssh` surveys, the arcade reads
SHARED_READ_SECONDS = 5.0
SURVEY_DELAY = 4.0  # seconds on the screen before the longer survey steps start
INSTANT_GROUP = "catalogue"  # the survey's first step (under a second)
SURVEY_GROUP = "catalogue-survey"  # its longer steps, in the background (`settle` skips them)


class FactsFound(Message):
    """The survey found out about a preset."""

    def __init__(self, facts: Facts) -> None:
        super().__init__()
        self.facts = facts


class SurveyScreen(Screen[None]):
    """A screen that keeps `facts` (puzzle id -> Facts) for `puzzle_ids` up to date."""

    def __init__(self, puzzle_ids: Iterable[str]) -> None:
        super().__init__()
        self.survey = Survey(puzzle_ids, FactsCache.open())
        self.facts: dict[str, Facts] = self.survey.known()
        self.survey_timer: Timer | None = None
        self.surveyed = False  # a survey job was started by this screen

    def facts_found(self, facts: Facts, before: Facts | None) -> None:
        """New facts about a preset (in `facts` already; `before`: what was known): subclasses
        show them."""

    def first_to_survey(self) -> list[str]:
        """The ids the longer steps look at first (those the player sees)."""
        return []

    @property
    def shown(self) -> bool:
        """Whether this is the screen on top (`is_current` is also true under another)."""
        return self.is_mounted and self.app.screen is self

    def on_screen_resume(self) -> None:
        if self.shown and self.survey.pending():
            if os.environ.get(SHARED_SURVEY_ENV) == "server":
                self._read_shared()  # the server surveys once for every player
                return
            if self.surveyed:
                self._read_cache()  # what a survey cancelled here found after its cancel
            if self.survey.pending() and not self.surveying:
                self.surveyed = True
                self.survey_instant()

    @property
    def surveying(self) -> bool:
        """Whether a survey step of this screen is under way (a second would do it twice)."""
        return any(
            worker.node is self
            and worker.group in (INSTANT_GROUP, SURVEY_GROUP)
            and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            and not worker.is_cancelled
            for worker in self.workers
        )

    def _read_shared(self) -> None:
        """The facts the server's own survey has put in the shared cache since last read;
        again in SHARED_READ_SECONDS while some are missing and the screen is shown."""
        self.survey_timer = None
        self._read_cache()
        if self.shown and self.survey.pending():
            self.survey_timer = self.set_timer(SHARED_READ_SECONDS, self._read_shared)

    def _read_cache(self) -> None:
        """The facts in the cache file that this screen does not know yet (as messages)."""
        cache = FactsCache.open()
        for puzzle in self.survey.puzzles:
            facts = cache.get(puzzle)
            if facts is not None and facts != self.survey.facts.get(puzzle.id):
                self.survey.facts[puzzle.id] = facts  # not pending from now on
                self.post_message(FactsFound(facts))

    def on_screen_suspend(self) -> None:
        """Another screen on top: the survey stops (what it found is kept) until back."""
        if self.survey_timer is not None:
            self.survey_timer.stop()
            self.survey_timer = None
        self.workers.cancel_group(self, INSTANT_GROUP)
        self.workers.cancel_group(self, SURVEY_GROUP)

    @work(exclusive=True, group=INSTANT_GROUP, exit_on_error=False)
    async def survey_instant(self) -> None:
        """The quick proofs and the tiny puzzles, then the longer steps after a pause."""
        if await self._survey_job("instant", ()):
            self._instant_done()

    @work(exclusive=True, group=SURVEY_GROUP, exit_on_error=False)
    async def survey_rest(self, first: list[str]) -> None:
        await self._survey_job("rest", tuple(first))

    async def _survey_job(self, stage: str, first: tuple[str, ...]) -> bool:
        """One SURVEY job, awaited (True once it is done): each fact comes as a FactsFound
        message; one survey at a time (each step's worker group is exclusive, and a newer one
        cancels the older one's job, as leaving the screen does)."""
        ids = tuple(puzzle.id for puzzle in self.survey.puzzles)
        request = JobRequest(
            JobKind.SURVEY, "", "", "", tag="survey", args=(stage, ids, first)
        )
        result = await await_job(self.app, request, self._post_facts)
        if result.outcome == FAILED:
            raise RuntimeError(result.message)  # told once by on_worker_state_changed
        return result.outcome == DONE

    def _instant_done(self) -> None:
        if self.survey_timer is not None:
            self.survey_timer.stop()
        self.survey_timer = self.set_timer(SURVEY_DELAY, self._survey_on)

    def _survey_on(self) -> None:
        self.survey_timer = None
        if self.shown and self.survey.pending():
            self.survey_rest(self.first_to_survey())

    def _post_facts(self, facts: object) -> None:
        if isinstance(facts, Facts):
            self.post_message(FactsFound(facts))

    @on(FactsFound)
    def _facts_found(self, message: FactsFound) -> None:
        self._learn(message.facts)

    def _learn(self, facts: Facts) -> None:
        """`facts` are known now: kept (the survey's pending list shrinks) and shown."""
        before = self.facts.get(facts.puzzle_id)
        self.survey.facts[facts.puzzle_id] = facts
        self.facts[facts.puzzle_id] = facts
        self.facts_found(facts, before)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A fault in the survey: one line, and the screen goes on without it."""
        if event.worker.group in (INSTANT_GROUP, SURVEY_GROUP) and event.state is WorkerState.ERROR:
            self.notify(f"Could not size every puzzle: {event.worker.error}", severity="warning")
