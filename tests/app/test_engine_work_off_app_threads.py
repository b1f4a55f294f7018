"""Engine work goes through the search service, not the app's threads (issue 23): the screens
that ran engine code in `@work(thread=True)` workers, checked by reading their source. The new
game's and the home screen's random draws are DRAW jobs, the day's games a DAILY job; the ones
still LEFT can only go, never come back or grow."""

from __future__ import annotations

import ast
from pathlib import Path

SCREENS = Path(__file__).resolve().parents[2] / "screens"
ENGINE_SCREENS = ("home", "daily", "home_survey", "new_game", "drill", "analysis")
# still to move to job kinds; daily's worker now only asks the shared place for optima (I/O)
LEFT = {"daily", "home_survey", "drill", "analysis"}


def thread_workers(source: str) -> list[str]:
    """Functions decorated `@work(thread=True, ...)`."""
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
                    found.append(node.name)
    return found


def test_the_reader_sees_a_thread_worker():
    source = "@work(thread=True, exclusive=True)\ndef f(self):\n    pass\n@work()\ndef g(): pass\n"
    assert thread_workers(source) == ["f"]


def test_no_new_engine_work_on_the_apps_threads():
    with_threads = {
        name for name in ENGINE_SCREENS
        if thread_workers((SCREENS / f"{name}.py").read_text(encoding="utf-8"))
    }
    # their random draws are DRAW jobs on the search service
    assert "new_game" not in with_threads and "home" not in with_threads
    assert with_threads <= LEFT
