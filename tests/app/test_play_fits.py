"""Every puzzle on the home screen fits a small terminal: at 80×24 and at 60×20 the play screen
shows the whole board (its compact form at least, nothing drawn past its edge), the goal and
the search panel (switching panes where the layout is tabbed), and the playback controls once
a solution plays back. One app per size opens each game in turn."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from kaeru.screens.play.layout import BOX, CHROME_ROWS, TEXT_ROWS, Needs, plan
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards.canvas import ROWS_AROUND_BOARD
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import play_screen, settle
from tests.app.fit_sweep import (
    PUZZLE_IDS,
    SIZES,
    SWEEP,
    SWEEP_TIMEOUT,
    Sweep,
    fit_problems,
    footer_cut,
    report,
    shown_whole,
    size_name,
    visible_in_some_pane,
)


@pytest.fixture
def no_quiet_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a game starts no "optimal from the start" search (the layout needs none)."""
    monkeypatch.setattr("kaeru.engine.game.session.Session.find_optimal_length", lambda self: None)


@pytest.mark.parametrize("size", SIZES, ids=size_name)
def test_every_puzzle_fits(size, request: pytest.FixtureRequest):
    """Board whole, goal and search shown, and room for the playback bar, for every id on
    the home screen: one app per size opens each game at that size, in a child process
    started when the tests were collected (`tests.app.fit_sweep`)."""
    sweep = request.config.stash.get(SWEEP, None)
    if sweep is None:  # not started with the run (another plugin collected it): start it now
        sweep = request.config.stash[SWEEP] = Sweep(SIZES)
    failures = sweep.result(size, timeout=SWEEP_TIMEOUT)
    assert failures.keys() <= set(PUZZLE_IDS)
    assert not failures, report(failures)


def test_the_sweep_finds_a_board_that_does_not_fit():
    """The sweep can fail: in a 40×12 terminal a large board is too small, and says so."""
    failures = asyncio.run(fit_problems((40, 12), ["sliding-8x8", "frogs-1"]))
    assert "too small" in " ".join(failures["sliding-8x8"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("puzzle_id", [pytest.param("frogs-2", marks=pytest.mark.slow),
                                       "sliding-3x3"])
async def test_playback_controls_are_shown_after_solve(size, puzzle_id):
    width, height = size
    app = KaeruApp(puzzle_id, resume=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        screen = play_screen(app)
        bar = screen.query_one(PlaybackBar)
        assert screen.session.playback is not None
        assert shown_whole(bar, width, height) is None
        assert shown_whole(screen.board, width, height) is None
        assert screen.focused is bar
        if width >= 80:
            assert not footer_cut(screen)  # the playback keys and the game's, all shown
        await pilot.press("t")  # the keys it shows work
        assert screen.session.playback is None


async def test_the_footer_fits_80_columns():
    app = KaeruApp("sliding-4x4", resume=False)  # the board adds a key of its own
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = play_screen(app)
        assert screen.query_one(Footer).query(FooterKey)
        assert not footer_cut(screen)


def test_the_plan_falls_back_from_beside_to_below_to_tabs_to_too_small():
    small = Needs(board=(20, 4), goal=(20, 5))
    assert plan(80, 24, small).mode == "wide"
    wide_board = Needs(board=(56, 4), goal=(56, 5))
    assert plan(80, 24, wide_board).mode == "stacked"
    tall = Needs(board=(56, 11), goal=(56, 12))
    assert plan(60, 20, tall).mode == "tabbed"
    assert plan(60, 20, tall).panes == ("board", "goal", "search")
    tiny = plan(40, 12, tall)
    assert tiny.mode == "too-small" and tiny.need[0] == 58 and tiny.need[1] > 12


async def test_the_search_panel_is_never_cut_by_a_note():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        from kaeru.engine.rules.results import SearchStats

        stats = SearchStats("table build", note="Building the table (2 MB, about 3 s)",
                            progress=0.4)
        screen.query_one(StatsPanel).show_stats(stats, "running", "Hint")
        screen.fit()
        await pilot.pause()
        assert await visible_in_some_pane(pilot, screen, "#stats") is None


async def test_tabs_switch_with_w_and_a_hidden_board_takes_no_keys(no_quiet_searches):
    app = KaeruApp("sliding-8x8", resume=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = play_screen(app)
        assert screen.plan.mode == "tabbed" and screen.plan.panes[0] == "board"
        assert screen.focused is screen.board
        await pilot.press("w")
        await pilot.pause()
        assert screen.pane == screen.plan.panes[1] and screen.board.region.area == 0
        assert screen.focused is None
        await pilot.press("left", "right", "enter")  # arrows would slide tiles on the board
        assert screen.session.moves_made == 0
        for _ in screen.plan.panes[1:]:
            await pilot.press("w")
        await pilot.pause()
        assert screen.pane == "board" and screen.focused is screen.board
        screen.session.push(screen.session.legal_moves()[0])
        await pilot.press("w", "u")  # a game key from another pane shows the board again
        await pilot.pause()
        assert screen.session.moves_made == 0 and screen.pane == "board"


def test_the_boards_room_counts_the_play_layouts_rows():
    """One figure under two names before (both CHROME_ROWS, 9 and 2): what a board leaves the
    play screen is the layout's header and footer, text rows and border."""
    assert ROWS_AROUND_BOARD == CHROME_ROWS + TEXT_ROWS + BOX
