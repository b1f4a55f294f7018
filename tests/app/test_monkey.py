"""The monkey test: random keys and terminal sizes (down to 10×4) on every screen kind must
never close the app with an exception (`tests/app/monkey.py`). Regressions: PageUp/PageDown
on a list 0 rows tall (home, explorer, command palette) raised KeyError inside Textual; the
drill's `p` (pressed often there) mounted a board before the old one was gone: DuplicateIds."""

from __future__ import annotations

import pytest

from kaeru.tui.app import KaeruApp
from tests.app.monkey import STARTS, monkey

DEFAULT_RUN = {"home", "play-sliding", "drill"}  # the others: -m slow


@pytest.mark.parametrize(
    "start",
    [pytest.param(s, marks=() if s.name in DEFAULT_RUN else pytest.mark.slow) for s in STARTS],
    ids=lambda s: s.name,
)
async def test_random_keys_never_crash(start) -> None:
    run = await monkey(start, seed=7, presses=40)
    assert run.crash is None, run.describe()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("start", STARTS, ids=lambda s: s.name)
async def test_random_keys_never_crash_at_length(start, seed) -> None:
    run = await monkey(start, seed=1000 + seed, presses=300)
    assert run.crash is None, run.describe()


@pytest.mark.parametrize("size", [pytest.param((20, 6), marks=pytest.mark.slow), (10, 4)])
async def test_page_keys_on_a_list_with_no_rows(size) -> None:
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("pagedown", "pageup", "ctrl+p", "pagedown", "pageup", "escape")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("pagedown")
        assert app.is_running


async def test_explorer_progress_bar_stops_when_its_run_is_cancelled() -> None:
    """The explorer has no progress bar now (its chart grows instead): a cancelled count ends
    the run, and nothing is left animating."""
    from textual.widgets import ProgressBar

    from kaeru.engine.puzzles.registry import get_puzzle
    from kaeru.screens.explore import ExploreScreen
    from tests.app.test_explore import HeldSearcher

    app = KaeruApp(None, resume=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        searcher = HeldSearcher()  # the count runs until cancelled, however busy the machine
        await app.push_screen(ExploreScreen(get_puzzle("number-reversal-10"), searcher))
        await pilot.pause()
        searcher.report(3, 120)
        await pilot.pause()
        assert searcher.jobs and getattr(app.screen, "status", None) == "running"
        await pilot.press("escape")  # cancel the run
        await pilot.pause()
        screen = app.screen
        assert getattr(screen, "status", None) == "cancelled"
        assert not screen.query(ProgressBar)
