"""The search service: every outcome in both modes, the cancel guarantee, cancel by tag, and
that every family's results cross a process boundary."""

from __future__ import annotations

import os
import pickle
import random
import threading
import time
from collections.abc import Iterator

import pytest
from service_helpers import Endless, Recorder, request

from kaeru.engine.puzzles.registry import all_ids, get_puzzle
from kaeru.engine.rules.protocol import SearchStats, Solution
from kaeru.engine.service import (
    CANCELLED,
    DONE,
    FAILED,
    GAVE_UP,
    UNSOLVABLE,
    JobKind,
    JobRequest,
    JobResult,
    SearchService,
)
from kaeru.engine.service import execute as execute_module

WAIT = 30.0


@pytest.fixture(scope="module", params=["thread", "process"])
def service(request: pytest.FixtureRequest) -> Iterator[SearchService]:
    """One service per mode for the whole module: the process worker starts once."""
    with SearchService(request.param) as svc:
        yield svc


@pytest.fixture
def endless(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let thread-mode jobs name the never-ending test puzzle as "endless"."""
    real = execute_module.get_puzzle
    monkeypatch.setattr(
        execute_module, "get_puzzle", lambda pid: Endless() if pid == "endless" else real(pid)
    )


def run(service: SearchService, job_request: JobRequest) -> JobResult:
    result = service.submit(job_request).wait(WAIT)
    assert result is not None, "the job did not end"
    return result


# ---- outcomes, in both modes -----------------------------------------------------------------
def test_solve_gives_a_real_solution(service: SearchService):
    puzzle = get_puzzle("frogs-3")
    result = run(service, request("frogs-3", tag="hint"))
    assert result.outcome == DONE
    solution = result.solution
    assert solution is not None and solution.optimal and solution.length == 15
    assert solution.states[0] == puzzle.initial()
    state = puzzle.initial()
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        state = puzzle.apply(state, move)
        assert state == after
    assert puzzle.is_goal(state, puzzle.initial())
    assert result.request.tag == "hint" and result.stats == solution.stats


def test_a_game_id_with_a_goal_suffix(service: SearchService):
    puzzle = get_puzzle("pegs-triangle@any")
    result = run(service, request("pegs-triangle@any"))
    assert result.outcome == DONE and result.solution is not None
    assert puzzle.is_goal(result.solution.states[-1], puzzle.initial())


def test_distance_from_a_later_position(service: SearchService):
    puzzle = get_puzzle("frogs-3")
    start = puzzle.initial()
    later = puzzle.apply(start, next(iter(puzzle.moves(start))))
    text = puzzle.format(later)
    result = run(service, JobRequest(JobKind.SOLVE, "frogs-3", text, puzzle.format(start)))
    assert result.outcome == DONE and result.solution is not None
    assert result.solution.length == 14


def test_unsolvable(service: SearchService):
    result = run(service, request("jealous-husbands-4-boat2"))
    assert result.outcome == UNSOLVABLE and result.solution is None
    assert result.message.startswith("No solution: ")


def test_gave_up_on_a_tiny_budget(service: SearchService):
    result = run(service, request("frogs-6", budget=10))
    assert result.outcome == GAVE_UP and result.message.startswith("Gave up: ")
    assert isinstance(result.stats, SearchStats)


def test_enumerate(service: SearchService):
    result = run(service, request("oshidori", JobKind.ENUMERATE))
    assert result.outcome == DONE and result.enumeration is not None
    assert result.enumeration.positions == sum(result.enumeration.histogram) > 1


def test_dead_end_verdicts(service: SearchService):
    puzzle = get_puzzle("pegs-english")
    start = puzzle.format(puzzle.initial())
    after_one = puzzle.apply(puzzle.initial(), next(iter(puzzle.moves(puzzle.initial()))))
    alive = run(
        service, JobRequest(JobKind.DEAD_END, "pegs-english", puzzle.format(after_one), start)
    )
    assert alive.outcome == DONE and alive.verdict is None
    stuck = "o../.../......./......./......./.../..o"  # two pegs, no jump left
    lost = run(service, JobRequest(JobKind.DEAD_END, "pegs-english", stuck, start))
    assert lost.outcome == DONE and lost.verdict and lost.message == lost.verdict


@pytest.mark.parametrize(
    ("puzzle_id", "state", "expected"),
    [
        ("frogs-3", "not a frog row", "Bad input: "),
        ("no-such-puzzle", "x", "Bad input: unknown puzzle id"),
    ],
)
def test_bad_input_fails_with_one_line(service: SearchService, puzzle_id, state, expected):
    result = run(service, JobRequest(JobKind.SOLVE, puzzle_id, state, state))
    assert result.outcome == FAILED
    assert result.message.startswith(expected) and "\n" not in result.message


# ---- thread mode: cancel, progress, the guarantee ---------------------------------------------
def test_a_solver_error_fails_with_its_traceback_kept(monkeypatch: pytest.MonkeyPatch):
    class Broken(Endless):
        def moves(self, state: int):
            raise RuntimeError("boom")

    monkeypatch.setattr(execute_module, "get_puzzle", lambda pid: Broken())
    with SearchService("thread") as svc:
        result = run(svc, JobRequest(JobKind.SOLVE, "broken", "0", "0"))
    assert result.outcome == FAILED
    assert result.message == "The solver failed: RuntimeError: boom"
    assert "Traceback" in result.detail


def test_cancel_stops_the_search_and_reports_on_a_service_thread(endless: None):
    recorder = Recorder()
    with SearchService("thread") as svc:
        job = svc.submit(
            JobRequest(JobKind.SOLVE, "endless", "0", "0"),
            on_progress=recorder.on_progress,
            on_done=recorder.on_done,
        )
        assert recorder.first_progress.wait(WAIT), "no progress report"
        assert job.cancel() is True
        reported = len(recorder.progress)
        result = job.wait(WAIT)
        assert result is not None and result.outcome == CANCELLED
        assert job.cancel() is False  # already over
    assert [(j, r.outcome) for j, r, _ in recorder.done] == [(job, CANCELLED)]
    assert recorder.done[0][2] is not threading.current_thread()
    assert len(recorder.progress) == reported  # nothing reported after cancel returned


def test_cancel_all_by_tag(endless: None):
    with SearchService("thread") as svc:
        hint = svc.submit(JobRequest(JobKind.SOLVE, "endless", "0", "0", tag="hint"))
        optimal = svc.submit(JobRequest(JobKind.SOLVE, "endless", "0", "0", tag="optimal"))
        assert {j.id for j in svc.jobs()} == {hint.id, optimal.id}
        svc.cancel_all("hint")
        result = hint.wait(WAIT)
        assert result is not None and result.outcome == CANCELLED
        assert not optimal.done and svc.jobs() == [optimal]
        svc.cancel_all()
        result = optimal.wait(WAIT)
        assert result is not None and result.outcome == CANCELLED
        assert svc.jobs() == []


def test_shutdown_cancels_everything_and_refuses_new_jobs(endless: None):
    svc = SearchService("thread")
    job = svc.submit(JobRequest(JobKind.SOLVE, "endless", "0", "0"))
    svc.shutdown()
    result = job.wait(WAIT)
    assert result is not None and result.outcome == CANCELLED
    with pytest.raises(RuntimeError, match="shut down"):
        svc.submit(JobRequest(JobKind.SOLVE, "endless", "0", "0"))


def test_no_result_but_cancelled_once_cancel_returned_true(service: SearchService):
    """Race quick jobs against cancels: cancel() True means the one on_done says cancelled;
    False means the outcome was already fixed. on_done runs exactly once either way."""
    rng = random.Random(7)
    recorder = Recorder()
    answers = []
    quick = request("frogs-8", JobKind.ENUMERATE)  # ~20 ms: longer than a GIL switch
    longest = 0.0
    for _ in range(3):
        started = time.perf_counter()
        run(service, quick)
        longest = max(longest, time.perf_counter() - started)
    for _ in range(24):  # cancel from before the start to after the end
        job = service.submit(quick, on_done=recorder.on_done)
        threading.Event().wait(rng.random() * 2 * longest)
        done_before = job.done
        took = job.cancel()
        answers.append((job, took))
        if done_before or not took:
            assert job.done and not took
    for job, _ in answers:
        assert job.wait(WAIT) is not None
    with recorder.lock:
        outcomes = {job.id: (result.outcome, n) for n, (job, result, _) in enumerate(recorder.done)}
        assert len(recorder.done) == len(answers)  # exactly once each
    for job, took in answers:
        outcome = outcomes[job.id][0]
        assert outcome == (CANCELLED if took else DONE)
        assert job.result is not None and job.result.outcome == outcome


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="mode must be one of"):
        SearchService("fork")


# ---- results cross a process boundary --------------------------------------------------------
@pytest.mark.parametrize("puzzle_id", [*all_ids(), "pegs-english@c4", "flip-it-7:B_BBBBB"])
def test_every_family_pickles(puzzle_id: str):
    puzzle = get_puzzle(puzzle_id.partition(":")[0])
    state = puzzle.initial() if ":" not in puzzle_id else puzzle.parse(puzzle_id.partition(":")[2])
    states, moves = [state], []
    for _ in range(3):
        options = list(puzzle.moves(states[-1]))
        if not options:
            break
        moves.append(options[-1])
        states.append(puzzle.apply(states[-1], options[-1]))
    assert puzzle.parse(puzzle.format(state)) == state
    solution = Solution(tuple(moves), tuple(states), False, SearchStats("test", depth=len(moves)))
    job_request = JobRequest(JobKind.SOLVE, puzzle_id, puzzle.format(state), "", 5, "hint")
    result = JobResult(job_request, DONE, solution=solution, stats=solution.stats)
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert again.solution is not None and again.solution.states == tuple(states)


def test_niced_search_threads_leave_the_app_thread_alone(endless: None):
    seen: list[int] = []
    recorder = Recorder()

    def note(job, stats):
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        recorder.on_progress(job, stats)

    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    with SearchService("thread", niceness=5) as svc:
        job = svc.submit(JobRequest(JobKind.SOLVE, "endless", "0", "0"), on_progress=note)
        assert recorder.first_progress.wait(WAIT)
        job.cancel()
    assert seen[0] == min(19, mine + 5)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
