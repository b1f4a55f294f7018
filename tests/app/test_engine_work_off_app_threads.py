"""Engine work goes through the search service, not the app's threads (issue 23): no engine
screen runs a `@work(thread=True)` worker for engine work, checked by reading their source. The
new game's and the home screen's random draws are DRAW jobs, the day's games a DAILY job, the
catalogue survey SURVEY jobs, the drill's questions DRILL jobs and the analysis an ANALYSIS job
(`engine/service/job_kinds.py`), each awaited by an async worker of its screen.

One thread worker is left, and it does no engine work: the daily screen's `add_known_optima`
asks the shared place (a database, maybe over the network) and the player's store for the
optima they know: I/O that may wait, not a computation, so it stays off the UI thread on a
thread. The test pins that exact worker and what it calls, and every other screen's thread
workers by name (the place's I/O, and two pieces of engine work of other screens still left)."""

from __future__ import annotations

import ast
from pathlib import Path

SCREENS = Path(__file__).resolve().parents[2] / "screens"
ENGINE_SCREENS = (
    "home.screen", "daily", "home.survey", "new_game", "coach.drill", "coach.analysis"
)
IO_WORKERS = {"daily": ["add_known_optima"]}  # database I/O, no engine work (see above)


def source_of(name: str) -> str:
    """The source of the screens' module `name` (dotted below screens/: `home.survey`)."""
    return (SCREENS / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")


def thread_workers(source: str) -> list[str]:
    """Functions decorated `@work(thread=True, ...)`."""
    return [node.name for node in thread_worker_nodes(source)]


def thread_worker_nodes(source: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                if (
                    isinstance(decorator, ast.Call)
                    and getattr(decorator.func, "id", getattr(decorator.func, "attr", "")) == "work"
                    and any(k.arg == "thread" and getattr(k.value, "value", False) is True
                            for k in decorator.keywords)
                ):
                    found.append(node)
    return found


def calls_in(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names called in `function`'s body (`f(...)`, `x.f(...)`)."""
    return {
        getattr(call.func, "id", getattr(call.func, "attr", ""))
        for statement in function.body
        for call in ast.walk(statement)
        if isinstance(call, ast.Call)
    }


def test_the_reader_sees_a_thread_worker():
    source = "@work(thread=True, exclusive=True)\ndef f(self):\n    pass\n@work()\ndef g(): pass\n"
    assert thread_workers(source) == ["f"]


def test_no_engine_screen_runs_engine_work_on_the_apps_threads():
    found = {
        name: workers
        for name in ENGINE_SCREENS
        if (workers := thread_workers(source_of(name)))
    }
    assert found == IO_WORKERS


# Every other thread worker of every screen, pinned: the shared place's I/O (a database that
# may wait). The leaderboard's search for the day's optimum and the replay's move grades are
# jobs of the search service (a SOLVE and a GRADE), awaited by async workers.
PLACE_IO = {
    "place.who": ["load"], "place.watch": ["look"], "place.name": ["take"],
    "place.leaderboard": ["load", "store_optimum"],
}
ENGINE_LEFT: dict[str, list[str]] = {}


def test_every_screens_thread_workers_are_known():
    found = {
        ".".join(path.relative_to(SCREENS).with_suffix("").parts): workers
        for path in sorted(SCREENS.rglob("*.py"))
        if (workers := thread_workers(path.read_text(encoding="utf-8")))
    }
    known: dict[str, list[str]] = {}
    for table in (IO_WORKERS, PLACE_IO, ENGINE_LEFT):
        for screen, workers in table.items():
            known[screen] = sorted(known.get(screen, []) + workers)
    assert {screen: sorted(workers) for screen, workers in found.items()} == known


def test_the_daily_screens_thread_worker_only_asks_for_known_optima():
    source = (SCREENS / "daily.py").read_text(encoding="utf-8")
    (worker,) = thread_worker_nodes(source)
    assert calls_in(worker) <= {"get_current_worker", "known_optima", "call_from_thread"}
