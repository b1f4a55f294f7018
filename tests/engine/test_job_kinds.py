"""Engine work run by the search service as job kinds (engine/service/job_kinds.py): a random
draw answers its game id in `value`, in the caller and in the worker process alike; a depth a
puzzle cannot have is one line, not a traceback."""

from __future__ import annotations

import threading

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.search import dispatch
from kaeru.engine.service import SearchService
from kaeru.engine.service.inline import InlineSearcher
from kaeru.engine.service.jobs import DONE, FAILED, JobKind, JobRequest, JobResult


def draw(puzzle_id: str, seed: int, depth: int | None) -> JobRequest:
    return JobRequest(JobKind.DRAW, puzzle_id, "", "", tag="draw", args=(seed, depth))


def test_a_draw_answers_a_game_at_the_depth_asked():
    results: list[JobResult] = []
    InlineSearcher().submit(draw("sliding-3x3", 7, 12), on_done=lambda job, r: results.append(r))
    (result,) = results
    assert result.outcome == DONE and isinstance(result.value, str)
    puzzle, start = parse_game_id(result.value)
    assert dispatch.solve(puzzle, start, start).length == 12


def test_a_depth_it_cannot_have_is_one_line():
    results: list[JobResult] = []
    InlineSearcher().submit(draw("sliding-3x3", 7, -3), on_done=lambda job, r: results.append(r))
    assert results[0].outcome == FAILED and "\n" not in results[0].message
    assert results[0].value is None


def test_a_draw_runs_in_the_worker_process_and_comes_back_whole():
    done = threading.Event()
    results: list[JobResult] = []

    def finished(job: object, result: JobResult) -> None:
        results.append(result)
        done.set()

    request = draw("flip-it-7", 3, None)
    with SearchService("process") as service:
        service.submit(request, on_done=finished)
        assert done.wait(60)
    assert results[0].outcome == DONE and results[0].request == request
    assert parse_game_id(str(results[0].value))[0].id == "flip-it-7"


def test_the_daily_job_answers_the_days_games():
    from kaeru.engine.catalogue.daily import daily_games

    results: list[JobResult] = []
    request = JobRequest(JobKind.DAILY, "", "", "", tag="daily", args=("2026-01-02",))
    InlineSearcher().submit(request, on_done=lambda job, r: results.append(r))
    assert results[0].outcome == DONE and results[0].value == daily_games("2026-01-02")
    bad = JobRequest(JobKind.DAILY, "", "", "", tag="daily", args=("not a date",))
    InlineSearcher().submit(bad, on_done=lambda job, r: results.append(r))
    assert results[1].outcome == FAILED and "\n" not in results[1].message
