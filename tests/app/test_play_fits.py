"""Every puzzle on the home screen fits a small terminal: at 80×24 and at 60×20 the play screen
shows the whole board (its compact form at least, nothing drawn past its edge), the goal and
the search panel (switching panes where the layout is tabbed), and the playback controls once
a solution plays back. One app per size opens each game in turn."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from kaeru.engine.registry import families
from kaeru.screens.play import PlayScreen
from kaeru.screens.play_layout import Needs, plan
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import play_screen, settle

PUZZLE_IDS = [puzzle_id for family in families() for puzzle_id in family.ids]
SIZES = [(80, 24), (60, 20)]


def shown_whole(widget: Widget, width: int, height: int) -> str | None:
    """None when `widget` is drawn, non-empty, inside the screen (above the footer); else what
    is wrong."""
    region = widget.region
    screen = Region(0, 0, width, height - 1)
    if not widget.display or region.area == 0:
        return f"{widget.id or type(widget).__name__} not shown"
    if screen.intersection(region) != region:
        return f"{widget.id or type(widget).__name__} at {region} leaves the screen"
    return None


def footer_cut(screen: PlayScreen) -> list[str]:
    """The footer's keys that are not shown whole."""
    width = screen.size.width
    return [str(key.description) for key in screen.query_one(Footer).query(FooterKey)
            if key.region.width == 0 or key.region.right > width]


def board_problems(screen: PlayScreen, width: int, height: int) -> list[str]:
    board = screen.board
    problems = [p for p in [shown_whole(board, width, height)] if p]
    need_w, need_h = board.needed_size()
    got_w, got_h = board.outer_size
    if got_w < need_w or got_h < need_h:
        problems.append(f"board given {got_w}×{got_h}, needs {need_w}×{need_h}")
    rendered = board.render()
    lines = rendered.split(allow_blank=True) if hasattr(rendered, "split") else []
    inner_w, inner_h = board.content_size
    if any(line.cell_len > inner_w for line in lines):
        problems.append(f"board lines cut at {inner_w} columns")
    if len(lines) > inner_h and any(line.plain.strip() for line in lines[inner_h:]):
        problems.append(f"board rows cut at {inner_h} rows")
    return problems


async def visible_in_some_pane(pilot, screen: PlayScreen, selector: str) -> str | None:
    """Whether the part is shown whole, in the pane that holds it where the layout is tabbed."""
    width, height = screen.size
    widget = screen.query_one(selector)
    for _ in range(max(1, len(screen.plan.panes))):
        if shown_whole(widget, width, height) is None:
            return None
        await pilot.press("w")
        await pilot.pause()
    return shown_whole(widget, width, height)


async def fit_problems(size: tuple[int, int], puzzle_ids: list[str]) -> dict[str, list[str]]:
    """Open each game in turn in one app (each replacing the last) and list what does not
    fit: board cut or clipped, goal or search not shown, no room for the playback bar."""
    width, height = size
    failures: dict[str, list[str]] = {}
    app = KaeruApp(resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for puzzle_id in puzzle_ids:
            screen = PlayScreen(app.new_session(puzzle_id, resume=False))
            if isinstance(app.screen, PlayScreen):
                await app.switch_screen(screen)
            else:
                await app.push_screen(screen)
            await pilot.pause()
            problems: list[str] = []
            if screen.plan.mode == "too-small":
                problems.append(f"too small: needs {screen.plan.need}")
            else:
                problems += board_problems(screen, width, height)
                for part in ("#goal-panel", "#stats"):
                    problem = await visible_in_some_pane(pilot, screen, part)
                    if problem:
                        problems.append(problem)
                in_playback = replace(screen.needs(), playback=True)
                if plan(width, height, in_playback).mode == "too-small":
                    problems.append("no room for the playback bar")
            if problems:
                failures[puzzle_id] = problems
    return failures


def report(failures: dict[str, list[str]]) -> str:
    return "\n".join(f"{key}: {'; '.join(value)}" for key, value in failures.items())


@pytest.fixture
def no_quiet_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a game starts no "optimal from the start" search (the layout needs none)."""
    monkeypatch.setattr("kaeru.engine.session.Session.find_optimal_length", lambda self: None)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_every_puzzle_fits(size, no_quiet_searches):
    """Board whole, goal and search shown, and room for the playback bar, for every id on
    the home screen (one app per size, each game opened at that size)."""
    failures = await fit_problems(size, PUZZLE_IDS)
    assert not failures, report(failures)


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
        from kaeru.engine.results import SearchStats

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
