"""Pilot tests of the state-space explorer (any puzzle) and of the two-blank board, plus
snapshots of both."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer, Static

from kaeru.engine.catalogue.explorable import count_to_goal, explore_refusal
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import SearchStats
from kaeru.engine.service.jobs import Job, JobRequest
from kaeru.engine.tables import store
from kaeru.engine.two_blank import table as tables
from kaeru.screens.explore import ABOUT, ExploreScreen
from kaeru.screens.help import HelpScreen
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.depth_chart import NOT_SEEN, UNKNOWN, DepthChart
from kaeru.tui.widgets.goal_board import GoalBoard
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app

TEN = get_puzzle("two-blank-4x3")


def explorer(app: KaeruApp) -> ExploreScreen:
    screen = app.screen
    assert isinstance(screen, ExploreScreen), f"expected the explorer, got {screen!r}"
    return screen


async def counted(pilot: Pilot, puzzle_id: str) -> ExploreScreen:
    """Open the explorer of `puzzle_id` and wait for its count (a service thread) to end."""
    pilot.app.open_explorer(puzzle_id)  # type: ignore[attr-defined]
    await pilot.pause()
    screen = explorer(pilot.app)  # type: ignore[arg-type]
    for _ in range(400):
        if screen.status != "running":
            break
        await asyncio.sleep(0.02)
    await pilot.pause()
    return screen


class HeldSearcher:
    """A searcher whose jobs run until the test says: it feeds progress reports by hand."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Job, object]] = []

    def submit(self, request: JobRequest, *, on_progress=None, on_done=None) -> Job:
        job = Job(len(self.jobs) + 1, request)
        self.jobs.append((job, on_progress))
        return job

    def report(self, depth: int, frontier: int) -> None:
        job, on_progress = self.jobs[-1]
        on_progress(job, SearchStats("test", depth=depth, frontier=frontier))  # type: ignore[operator]


async def test_explorer_counts_from_the_goal_with_chart_totals_and_help():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await counted(pilot, "two-blank-4x3")
        assert screen.status == "done"
        chart = screen.query_one(DepthChart)
        assert chart.histogram == count_to_goal(TEN).histogram
        assert sum(chart.series["pair_at_end"]) == 3_600
        drawn = chart.render().plain
        assert "█ positions" in drawn and "▒ both gaps at the end" in drawn
        assert "3,321 (670)" not in drawn  # numbers only on demand
        await pilot.press("n")
        assert "3,321 (670)" in chart.render().plain
        totals = str(screen.query_one("#totals", Static).render())
        assert "32,400" in totals and "3,600" in totals and "4 at 34 moves" in totals
        assert "1 2 3 4/5 6 7 8/9 10 _ _" in str(screen.query_one("#heading", Static).render())
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).render())
        assert ABOUT[:40] in " ".join(text.split())
        for words in ("Farthest", "Numbers", "Log scale", "Recount", "Back"):
            assert words in text, words
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_a_farthest_position_plays_that_far_from_the_usual_goal():
    """The play-test's river opened at "optimal from the start: 1": now the game opened from
    the farthest position has the standard goal and the farthest distance as its optimum
    (the river counted forwards from the far bank, the frogs backwards over predecessors)."""
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for puzzle_id in ("wolf-goat-cabbage", "frogs-4"):
            puzzle = get_puzzle(puzzle_id)
            screen = await counted(pilot, puzzle_id)
            result = screen.result
            assert result is not None
            await pilot.press("f", "enter")
            await pilot.pause()
            session = play_screen(app).session
            for _ in range(1000):  # the quiet search for the optimal length, in a thread
                if session.outcome().optimal is not None:
                    break
                await asyncio.sleep(0.02)
            assert session.start == puzzle.parse(result.farthest[0])
            assert puzzle.goal(session.start) == puzzle.goal(puzzle.initial())
            assert session.outcome().optimal == result.max_depth, puzzle_id
        knights = get_puzzle("knights-3x3")  # its goal follows the start: chosen here
        screen = await counted(pilot, "knights-3x3")
        assert screen.result is not None and screen.result.max_depth == 16
        await pilot.press("f", "enter")
        await pilot.pause()
        session = play_screen(app).session
        assert session.start == knights.parse(screen.result.farthest[0])
        assert session.puzzle.goal(session.start) == knights.goal(knights.initial())
        assert session.game_id.startswith("knights-3x3@")
        for _ in range(1000):
            if session.outcome().optimal is not None:
                break
            await asyncio.sleep(0.02)
        assert session.outcome().optimal == 16
        goal_board = play_screen(app).query_one("#goal", GoalBoard)  # the usual goal is drawn
        assert goal_board.goal_layout == knights.layout(knights.goal(knights.initial()))


async def test_a_refused_puzzle_gets_one_line_and_no_screen():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_explorer("sliding-4x4")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        lines = [str(n.message) for n in app._notifications]
        assert lines == [explore_refusal(get_puzzle("sliding-4x4"))]
        searcher = HeldSearcher()
        pegs = get_puzzle("pegs-english")  # pushed by hand: it says why and counts nothing
        await app.push_screen(ExploreScreen(pegs, searcher))
        await pilot.pause()
        screen = explorer(app)
        assert screen.status == "refused" and not searcher.jobs
        assert "cannot be taken back" in str(screen.query_one("#status", Static).render())
        await pilot.press("r")
        assert not searcher.jobs


async def test_the_chart_grows_while_counting_then_escape_cancels():
    searcher = HeldSearcher()
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.push_screen(ExploreScreen(get_puzzle("sliding-5x2"), searcher))
        await pilot.pause()
        screen = explorer(app)
        chart = screen.query_one(DepthChart)
        assert screen.running
        drawn: list[tuple[int, ...]] = []
        real_show = chart.show_partial
        chart.show_partial = lambda layers: (drawn.append(tuple(layers)), real_show(layers))  # type: ignore[method-assign]
        for depth, count in ((1, 3), (3, 19)):  # depth 0 is the goal: known from the start
            searcher.report(depth, count)
        await pilot.pause(0.25)
        assert chart.histogram == (1, 3, UNKNOWN, 19)
        assert NOT_SEEN in chart.render().plain
        assert len(drawn) == 1  # three reports at once: one redraw (at most ten a second)
        assert "23" in str(screen.query_one("#totals", Static).render())  # positions so far
        await pilot.press("escape")
        assert screen.status == "cancelled" and searcher.jobs[-1][0].cancel_requested
        searcher.report(4, 50)  # late news of a cancelled run changes nothing
        await pilot.pause(0.15)
        assert chart.histogram == (1, 3, UNKNOWN, 19)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_the_explorer_fits_80x24_and_60x20():
    app = KaeruApp(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await counted(pilot, "two-blank-4x3")
        for width, height in ((80, 24), (60, 20)):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            footer = screen.query_one(Footer)
            assert all(key.region.right <= width for key in footer.children)
            assert {"f", "r", "question_mark", "escape"} <= {key.key for key in footer.children}
            for selector in ("#chart-box", "#totals", "#farthest"):
                region = screen.query_one(selector).region
                assert region.right <= width and region.bottom <= height - 1, selector
            assert screen.query_one("#totals").size.height >= 4  # no line wrapped away
            assert screen.query_one("#farthest").size.height >= 3


def test_explorer_snapshot(snap_compare):
    async def explore(pilot: Pilot) -> None:
        await pilot.pause()
        screen = await counted(pilot, "two-blank-4x3")
        await pilot.press("n")
        assert screen.result is not None  # the totals without the time it took
        screen.finished(replace(screen.result, stats=SearchStats("table")))
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=SNAPSHOT_SIZE, run_before=explore)


# ---- the two-blank board -----------------------------------------------------------------------
@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_arrows_slide_tiles_and_hints_mark_them():
    app = KaeruApp("two-blank-4x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert screen.session.outcome().optimal == 8
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


@pytest.mark.slow  # a longer scenario; the default run keeps its like
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
        notes: set[str] = set()
        progress: list[float] = []
        while screen.session.running_searches:
            stats = panel.stats
            if stats is not None and stats.note:
                notes.add(stats.note)
            if stats is not None and stats.progress is not None:
                progress.append(stats.progress)
            await pilot.pause(0.1)
        await settle(pilot)
        assert any("14-puzzle" in note and "MB" in note for note in notes), notes
        assert progress and max(progress) > 0
        assert screen.board.hint_move is not None
        after = fourteen.apply(screen.session.state, screen.board.hint_move)
        assert fourteen.distance(after) == 23
        assert tables.table_path(fourteen.id).exists()
    store.forget()
