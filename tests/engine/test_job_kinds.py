"""Engine work run by the search service as job kinds (engine/service/job_kinds.py): a random
draw answers its game id in `value`, in the caller and in the worker process alike; a depth a
puzzle cannot have is one line, not a traceback."""

from __future__ import annotations

import random
import threading

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.search import dispatch
from kaeru.engine.service import SearchService
from kaeru.engine.service.inline import InlineSearcher
from kaeru.engine.service.jobs import DONE, FAILED, JobArg, JobKind, JobRequest, JobResult


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


# ---- the screens' engine work: the survey, the drill's questions, the analysis ------------------
def run_inline(request: JobRequest) -> tuple[JobResult, list[object]]:
    """The job run in the caller: its result and the values it told as it went."""
    told: list[object] = []
    results: list[JobResult] = []
    InlineSearcher().submit(
        request,
        on_progress=lambda job, stats: told.append(getattr(stats, "value", None)),
        on_done=lambda job, result: results.append(result),
    )
    return results[0], told


SURVEYED = ("frogs-2", "frogs-3", "pegs-french", "flip-it-5")


def survey_request(stage: str, first: tuple[str, ...] = ()) -> JobRequest:
    return JobRequest(JobKind.SURVEY, "", "", "", tag="survey", args=(stage, SURVEYED, first))


def test_the_survey_job_tells_the_facts_the_direct_survey_finds(tmp_path, monkeypatch):
    from kaeru.engine.catalogue.cache import FactsCache
    from kaeru.engine.catalogue.survey import Survey

    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "direct"))
    direct: list[object] = []
    Survey(SURVEYED, FactsCache.open()).run_instant(direct.append)
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "job"))
    result, told = run_inline(survey_request("instant"))
    assert result.outcome == DONE and told == direct and told
    assert Survey(SURVEYED, FactsCache.open()).known() == {f.puzzle_id: f for f in direct}


def test_a_cancelled_survey_job_ends_cancelled_and_tells_nothing_more(tmp_path, monkeypatch):
    from kaeru.engine.service.jobs import CANCELLED

    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))
    told: list[object] = []
    results: list[JobResult] = []

    def progress(job, stats) -> None:
        told.append(stats.value)
        job.cancel()  # the screen is left after the first fact

    InlineSearcher().submit(survey_request("instant"), on_progress=progress,
                            on_done=lambda job, r: results.append(r))
    assert results[0].outcome == CANCELLED and len(told) == 1


def drill_request(puzzle_id: str, depth: int, seed: int) -> JobRequest:
    state = random.Random(seed).getstate()
    return JobRequest(JobKind.DRILL, puzzle_id, "", "", tag="drill", args=(depth, state))


def test_the_drill_job_asks_what_the_drill_asks_with_each_moves_distance():
    from kaeru.engine.coach.drill import Drill
    from kaeru.engine.service.job_kinds import Posed

    direct = Drill.for_id("frogs-3", 5, seed=11)
    direct.prepare()
    state = random.Random(11).getstate()
    for _ in range(3):  # the random state goes on from one question to the next
        result, _ = run_inline(JobRequest(JobKind.DRILL, "frogs-3", "", "", args=(5, state)))
        posed = result.value
        assert result.outcome == DONE and isinstance(posed, Posed)
        question = direct.question()
        assert posed.question == question and posed.depths == direct.depth_range()
        puzzle = direct.puzzle
        for move in puzzle.moves(question.state):
            after = direct.answer(question, move, 1.0).after
            assert posed.after[puzzle.format_move(move)] == after
        state = posed.rng_state


def test_a_drill_distance_out_of_range_is_kept_within_the_tables():
    from kaeru.engine.service.job_kinds import Posed

    result, _ = run_inline(drill_request("frogs-3", 99, 1))
    posed = result.value
    assert result.outcome == DONE and isinstance(posed, Posed) and posed.question is not None
    low, high = posed.depths
    assert posed.question.distance == high and low == 1


def analysis_request(puzzle_id: str, start: str, moves: tuple[str, ...],
                     known: tuple[JobArg, ...] = ()) -> JobRequest:
    return JobRequest(JobKind.ANALYSIS, puzzle_id, start, "", tag="analysis",
                      args=(moves, known))


def test_the_analysis_job_answers_what_analyse_answers_and_tells_its_progress():
    from kaeru.engine.coach.analysis import analyse
    from kaeru.engine.puzzles.registry import get_puzzle

    puzzle = get_puzzle("sliding-3x3")
    start = puzzle.parse("1 2 3/4 5 6/7 _ 8")
    texts = ("7 right", "7 left", "8 left")
    moves, state = [], start
    for text in texts:
        moves.append(puzzle.parse_move(text, state))
        state = puzzle.apply(state, moves[-1])
    result, told = run_inline(analysis_request("sliding-3x3", puzzle.format(start), texts))
    assert result.outcome == DONE and result.value == analyse(puzzle, start, moves)
    assert told == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_analysis_job_uses_the_distances_the_coach_knew():
    """A distance the coach had (here a made-up one) is taken, not searched again."""
    result, _ = run_inline(analysis_request(
        "flip-it-5", get_flip_start(), (), ((0, 7, None, 0),)
    ))
    from kaeru.engine.coach.analysis import Analysis

    found = result.value
    assert result.outcome == DONE and isinstance(found, Analysis)
    assert found.distances[0].moves == 7 and found.distances[0].exact is False


def get_flip_start() -> str:
    from kaeru.engine.puzzles.registry import get_puzzle

    puzzle = get_puzzle("flip-it-5")
    return puzzle.format(puzzle.initial())


def test_bad_arguments_are_one_line():
    bad = JobRequest(JobKind.ANALYSIS, "sliding-3x3", "1 2 3/4 5 6/7 _ 8", "", args=(("fly",), ()))
    result, _ = run_inline(bad)
    assert result.outcome == FAILED and "\n" not in result.message


def test_the_screens_kinds_run_in_the_worker_process_and_come_back_whole(tmp_path, monkeypatch):
    """Their values and the Partial reports pickle across the process boundary."""
    from kaeru.engine.catalogue.facts import Facts
    from kaeru.engine.coach.analysis import Analysis
    from kaeru.engine.service.job_kinds import Posed

    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))
    requests = [
        survey_request("instant"),
        drill_request("frogs-3", 4, 2),
        analysis_request("sliding-3x3", "1 2 3/4 5 6/7 _ 8", ("8 left",)),
    ]
    finished = threading.Event()
    results: dict[JobKind, JobResult] = {}
    told: dict[JobKind, list[object]] = {r.kind: [] for r in requests}

    def done(job, result: JobResult) -> None:
        results[result.request.kind] = result
        if len(results) == len(requests):
            finished.set()

    with SearchService("process") as service:
        for request in requests:
            service.submit(request, on_done=done, on_progress=lambda job, stats: told[
                job.request.kind].append(getattr(stats, "value", None)))
        assert finished.wait(60)
    assert all(r.outcome == DONE for r in results.values()), results
    assert told[JobKind.SURVEY] and all(isinstance(f, Facts) for f in told[JobKind.SURVEY])
    assert isinstance(results[JobKind.DRILL].value, Posed)
    assert isinstance(results[JobKind.ANALYSIS].value, Analysis)
    assert told[JobKind.ANALYSIS][-1] == (2, 2)



def grade_request(state: str, texts: tuple[str, ...], budget: int | None = None) -> JobRequest:
    return JobRequest(JobKind.GRADE, "sliding-4x4", state, "", budget=budget, args=(texts,))


def test_the_grade_job_marks_what_grade_marks():
    from kaeru.engine.coach.grading import grade
    from kaeru.engine.puzzles.registry import get_puzzle

    state, texts = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15", ("14 right", "14 left", "15 left")
    result, _ = run_inline(grade_request(state, texts))
    puzzle = get_puzzle("sliding-4x4")
    direct = [g.verdict for g in grade(puzzle, puzzle.parse(state), texts).moves]
    assert result.outcome == DONE and result.value == direct
    assert direct[0] != "optimal" and direct[-1] == "optimal"


def test_a_grade_past_its_budget_has_no_marks_and_says_why_in_one_line():
    eighty = "_ 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves from the goal
    result, _ = run_inline(grade_request(eighty, ("12 left",), budget=1))
    assert result.outcome == DONE and result.value is None
    assert result.message and "\n" not in result.message
