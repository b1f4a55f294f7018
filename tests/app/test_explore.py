"""Pilot tests of the state-space explorer (any puzzle) and of the two-blank board, plus
snapshots of both."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, ProgressBar

from kaeru.engine.core import SearchStats
from kaeru.engine.registry import get_puzzle
from kaeru.engine.search import dispatch
from kaeru.engine.tables import store
from kaeru.engine.two_blank import table as tables
from kaeru.screens.explore import TASK, ExploreScreen
from kaeru.screens.home import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.depth_chart import DepthChart
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app

TEN = get_puzzle("two-blank-4x3")


def explorer(app: KaeruApp) -> ExploreScreen:
    screen = app.screen
    assert isinstance(screen, ExploreScreen), f"expected the explorer, got {screen!r}"
    return screen


async def open_from_home(pilot: Pilot, puzzle_id: str) -> None:
    """Highlight `puzzle_id` in the home list and press e."""
    home = pilot.app.screen
    assert isinstance(home, HomeScreen)
    puzzles = home.query_one("#puzzles", OptionList)
    puzzles.highlighted = next(
        i for i, option in enumerate(puzzles.options) if option.id == puzzle_id
    )
    await pilot.press("e")
    await settle(pilot)


async def test_explorer_from_home_shows_the_chart_and_totals():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_from_home(pilot, "two-blank-4x3")
        screen = explorer(app)
        assert screen.status == "done"
        chart = screen.query_one(DepthChart)
        expected = dispatch.enumerate_space(TEN, TEN.geometry.goal)
        assert chart.histogram == expected.histogram
        assert sum(chart.series["pair_at_end"]) == 3_600
        drawn = chart.render().plain
        assert "█ positions" in drawn and "▒ pair at the end" in drawn
        assert "3,321 (670)" not in drawn  # numbers only on demand
        await pilot.press("n")
        assert "3,321 (670)" in chart.render().plain
        totals = str(screen.query_one("#totals").render())
        assert "32,400" in totals and "3,600" in totals
        bar = screen.query_one("#progress", ProgressBar)
        assert bar.total == bar.progress == 32_400
        assert screen.query_one(StatsPanel).search_status == "done"
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_open_a_farthest_position_to_play_it():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_explorer("two-blank-4x3")
        await settle(pilot)
        screen = explorer(app)
        farthest = screen.query_one("#farthest", OptionList)
        assert farthest.option_count == 4
        await pilot.press("f", "down", "enter")
        await settle(pilot)
        play = play_screen(app)
        assert play.session.start == TEN.parse(screen.result.farthest[1])
        assert play.session.optimal_length == 34
        await pilot.press("escape")
        assert app.screen is screen


async def test_explorer_works_for_other_puzzles():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cases = (("knights-3x4", 18_480), ("number-reversal-5", 120), ("sliding-3x3", 181_440))
        for puzzle_id, positions in cases:
            app.open_explorer(puzzle_id)
            await settle(pilot)
            screen = explorer(app)
            assert screen.result is not None and screen.result.positions == positions
            assert screen.query_one(DepthChart).series == {}
            assert "▒" not in screen.query_one(DepthChart).render().plain
            await pilot.press("escape")


async def test_explorer_from_the_command_palette():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        for key in "Explore 7-puzzle":
            await pilot.press("space" if key == " " else key)
        await pilot.pause(0.5)  # the palette searches in the background
        await pilot.press("enter")
        await settle(pilot)
        screen = explorer(app)
        assert screen.puzzle.id == "two-blank-3x3"
        assert screen.result is not None and screen.result.positions == 360


async def test_escape_cancels_a_long_enumeration_then_leaves(monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    fourteen = get_puzzle("two-blank-4x4")
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(ExploreScreen(fourteen, fourteen.geometry.goal, app.service))
        await pilot.pause()
        screen = explorer(app)
        panel = screen.query_one(StatsPanel)
        for _ in range(200):  # wait for the first progress report of the build
            if panel.stats is not None and panel.stats.expanded:
                break
            await pilot.pause(0.05)
        assert screen.running
        assert screen.query_one("#progress", ProgressBar).total == 76_204_800
        await pilot.press("escape")
        await settle(pilot)
        assert screen.status == "cancelled" and not screen.running
        assert screen.result is None
        assert not tables.table_path(fourteen.id).exists()
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


# ---- the two-blank board -----------------------------------------------------------------------
async def test_arrows_slide_tiles_and_hints_mark_them():
    app = KaeruApp("two-blank-4x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert screen.session.optimal_length == 8
        await pilot.press("down")  # 7 and 10 slide down into the gap
        assert TEN.format(screen.session.state) == "1 8 3 2/5 4 _ _/9 6 7 10"
        await pilot.press("i")
        await settle(pilot)
        hint = screen.board.hint_move
        assert hint == ("right", (4,))
        drawn = screen.board.render().plain
        assert "★ 4" in drawn and "☆" in drawn
        await pilot.press("l")  # l is right: the hinted move
        assert TEN.distance(screen.session.state) == 6
        await pilot.press("u", "u")
        assert screen.session.state == TEN.initial()
        await pilot.press("up")  # nothing below the gap on the bottom row
        assert screen.session.moves_made == 0


async def test_clicking_a_tile_beside_the_gap_slides_it():
    app = KaeruApp("two-blank-4x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert screen.board.boxed  # tiles 6 columns by 3 rows inside a frame and the padding
        await pilot.click(screen.board, offset=(2 + 6 + 2, 1 + 2 * 3 + 1))  # tile 6, bottom row
        assert TEN.format(screen.session.state) == "1 8 3 2/5 4 7 10/9 _ _ 6"
        await pilot.click(screen.board, offset=(2 + 2, 1 + 1))  # tile 1: not beside the gap
        assert TEN.format(screen.session.state) == "1 8 3 2/5 4 7 10/9 _ _ 6"


async def test_solve_plays_back_to_the_goal():
    app = KaeruApp("two-blank-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        playback = screen.session.playback
        assert playback is not None and playback.solution.length == 16
        await pilot.press("end")
        two_blank = get_puzzle("two-blank-3x3")
        assert screen.board.shown == two_blank.layout(two_blank.geometry.goal)


# ---- snapshots ---------------------------------------------------------------------------------
def test_explorer_snapshot(snap_compare):
    async def explore(pilot: Pilot) -> None:
        await pilot.pause()
        pilot.app.open_explorer("two-blank-4x3")
        await settle(pilot)
        await pilot.press("n")
        screen = pilot.app.screen
        stats = SearchStats("depth table (cached on disk)", depth=34)  # no timings
        screen.query_one(StatsPanel).show_stats(stats, "done", TASK)
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=SNAPSHOT_SIZE, run_before=explore)


def test_two_blank_board_snapshot(snap_compare):
    async def hint(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("down", "i")
        await settle(pilot)
        pilot.app.screen.query_one(StatsPanel).show_stats(None, "done", "Hint")

    assert snap_compare(snapshot_app("two-blank-4x3"), terminal_size=SNAPSHOT_SIZE, run_before=hint)


@pytest.mark.slow
async def test_fourteen_hint_builds_the_table_with_progress(monkeypatch, tmp_path):
    """First use of the 14-puzzle: the hint waits for the table build, showing its progress."""
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    fourteen = get_puzzle("two-blank-4x4")
    app = KaeruApp("two-blank-4x4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = play_screen(app)
        await pilot.press("i")
        panel = screen.query_one(StatsPanel)
        seen = set()
        while screen.searching:
            if panel.stats is not None:
                seen.add(panel.stats.algorithm)
            await pilot.pause(0.1)
        await settle(pilot)
        assert "depth table: numpy BFS" in seen
        assert screen.board.hint_move is not None
        after = fourteen.apply(screen.session.state, screen.board.hint_move)
        assert fourteen.distance(after) == 23
        assert tables.table_path(fourteen.id).exists()
    store.forget()
