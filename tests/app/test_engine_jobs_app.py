"""The screens' engine work as jobs of the search service (issue 23), driven with Pilot: the
home survey, the drill's questions and the analysis each submit their job kind, and leaving
the screen cancels the job; coming back to home starts one survey, never two at once."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service.jobs import Job, JobKind, JobRequest
from kaeru.screens.coach.analysis import AnalysisScreen
from kaeru.screens.coach.drill import DrillScreen
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, play_screen, settle


class Held:
    """The app's service, with the jobs of `kinds` held (submitted, never run) to look at."""

    def __init__(self, app: KaeruApp, kinds: set[JobKind]) -> None:
        self.kinds = kinds
        self.jobs: list[Job] = []
        self.ids = itertools.count(10_000)
        self.real = app.service.submit
        app.service.submit = self.submit  # type: ignore[method-assign]

    def submit(self, request: JobRequest, *, on_progress=None, on_done=None) -> Job:
        if request.kind not in self.kinds:
            return self.real(request, on_progress=on_progress, on_done=on_done)
        job = Job(next(self.ids), request, on_progress, on_done)
        self.jobs.append(job)
        return job

    def live(self, kind: JobKind) -> list[Job]:
        return [job for job in self.jobs if job.request.kind is kind and not job.cancel_requested]


async def until(pilot: Pilot, condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


async def test_leaving_the_drill_cancels_its_question_job() -> None:
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        held = Held(app, {JobKind.DRILL})
        drill = DrillScreen("frogs-3", seed=1)
        await app.push_screen(drill)
        await until(pilot, lambda: len(held.live(JobKind.DRILL)) == 1)
        (job,) = held.live(JobKind.DRILL)
        assert job.request.puzzle_id == "frogs-3" and job.request.args[0] == 8
        await pilot.press("p")  # another puzzle: the first question is stale
        await until(pilot, lambda: job.cancel_requested and len(held.live(JobKind.DRILL)) == 1)
        await pilot.press("escape")
        await until(pilot, lambda: held.live(JobKind.DRILL) == [])
        assert app.screen is not drill


async def test_leaving_the_analysis_cancels_its_job() -> None:
    puzzle = get_puzzle("sliding-3x3")
    app = KaeruApp(puzzle.game_id(puzzle.parse("1 2 3/4 5 6/7 _ 8")), resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(app).session
        for text in ("7 right", "7 left", "8 left"):
            session.push(puzzle.parse_move(text, session.state))
        await settle(pilot)
        held = Held(app, {JobKind.ANALYSIS})
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and bool(held.jobs))
        (job,) = held.jobs
        assert job.request.args[0] == ("7 right", "7 left", "8 left")
        await pilot.press("escape")
        await until(pilot, lambda: job.cancel_requested)
        assert not isinstance(app.screen, AnalysisScreen)


async def test_home_surveys_as_a_job_cancelled_under_another_screen_and_never_twice(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cold"))
    app = KaeruApp(None, resume=False)
    held = Held(app, {JobKind.SURVEY})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(held.live(JobKind.SURVEY)) == 1)
        home = app.screen
        assert isinstance(home, HomeScreen)
        (first,) = held.live(JobKind.SURVEY)
        assert first.request.args[0] == "instant"
        home.on_screen_resume()  # resumed again while it runs: the same survey goes on
        await pilot.pause()
        assert held.live(JobKind.SURVEY) == [first]
        await app.push_screen(DrillScreen("frogs-3", seed=1))
        await until(pilot, lambda: held.live(JobKind.SURVEY) == [])  # home is covered
        app.pop_screen()
        await until(pilot, lambda: len(held.live(JobKind.SURVEY)) == 1)
        assert sum(1 for job in held.jobs if not job.done and not job.cancel_requested) == 1
