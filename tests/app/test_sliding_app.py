"""The grid board in the real app: arrow keys, the move-the-gap switch, clicking a run of tiles,
hint marks, shapes that read without colour, the slide animation, and the solver's stats."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.sliding.databases.pattern_db import Partition
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards.grid import GridBoard
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app
from tests.engine.sliding_cases import korf_length, korf_state

LIGHT_15 = Partition(((1, 2, 5, 6), (3, 4, 7, 8), (9, 10, 13, 14), (11, 12, 15)))


def board_of(app: KaeruApp) -> GridBoard:
    board = play_screen(app).board
    assert isinstance(board, GridBoard)
    return board


def layout(app: KaeruApp) -> str:
    screen = play_screen(app)
    return screen.session.puzzle.format(screen.session.state)


async def test_arrows_slide_the_tile_beside_the_gap_into_it():
    app = KaeruApp("sliding-3x3", resume=False)  # 8 6 7/2 5 4/3 _ 1
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("left")  # the tile right of the gap slides left
        assert layout(app) == "8 6 7/2 5 4/3 1 _"
        await pilot.press("down")  # the tile above the gap slides down
        assert layout(app) == "8 6 7/2 5 _/3 1 4"
        await pilot.press("left")  # nothing right of the gap: refused, nothing moves
        await settle(pilot)
        assert layout(app) == "8 6 7/2 5 _/3 1 4"
        assert play_screen(app).session.moves_made == 2


async def test_x_switches_the_arrows_to_move_the_gap():
    app = KaeruApp("sliding-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        assert "arrows: tiles" in board.render().plain
        bindings = {k: b.binding.description for k, b in app.screen.active_bindings.items()}
        assert bindings["x"] == "Arrows move the gap"
        await pilot.press("x", "left")  # the gap moves left: tile 3 slides right
        assert board.move_gap and layout(app) == "8 6 7/2 5 4/_ 3 1"
        assert "arrows: the gap" in board.render().plain
        bindings = {k: b.binding.description for k, b in app.screen.active_bindings.items()}
        assert bindings["x"] == "Arrows move tiles"
        await pilot.press("x", "left")
        assert not board.move_gap and layout(app) == "8 6 7/2 5 4/3 _ 1"


async def test_clicking_a_tile_in_line_with_the_gap_slides_the_whole_run():
    app = KaeruApp("sliding-3x3:1,2,3/4,5,6/7,8,_", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        assert board.boxed
        # boxed tiles are 6 columns by 3 rows, after 1 column of padding and the frame
        await pilot.click(board, offset=(1 + 1 + 0 * 6 + 2, 1 + 2 * 3 + 1))  # tile 7
        await settle(pilot)
        assert layout(app) == "1 2 3/4 5 6/_ 7 8"
        assert play_screen(app).session.moves_made == 2
        await pilot.click(board, offset=(1 + 1 + 2 * 6 + 2, 1 + 0 * 3 + 1))  # tile 3: not in line
        await settle(pilot)
        assert layout(app) == "1 2 3/4 5 6/_ 7 8"
        await pilot.click(board, offset=(1 + 1 + 0 * 6 + 2, 1 + 0 * 3 + 1))  # tile 1: column run
        await settle(pilot)
        assert layout(app) == "_ 2 3/1 5 6/4 7 8"


async def test_hint_marks_the_tile_and_the_gap_and_tiles_at_home_have_heavy_frames():
    app = KaeruApp("sliding-3x3:1,2,3/4,5,6/7,_,8", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        text = board_of(app).render().plain
        assert "★ 8" in text and "☆" in text
        assert text.count("┏") == 7  # tiles 1 to 7 are home; 8 is not
        await pilot.press("left")
        await pilot.wait_for_animation()
        await settle(pilot)
        assert play_screen(app).session.solved
        assert board_of(app).render().plain.count("┏") == 8


async def test_compact_layout_marks_home_tiles_with_brackets():
    app = KaeruApp("sliding-8x8", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        assert not board.boxed  # 8 rows of boxed tiles do not fit 30 lines
        state = play_screen(app).session.state
        home = sum(1 for cell, tile in enumerate(state) if tile == cell + 1)
        text = board.render().plain
        assert text.count("[") == home and len(text.splitlines()) == 8 + 3


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_a_move_slides_the_tile_across_and_no_animation_means_none(monkeypatch):
    # a slow slide: 0.12 s can pass within one animator frame on a busy machine
    monkeypatch.setattr("kaeru.tui.widgets.boards.grid.SLIDE_SECONDS", 1.0)
    app = KaeruApp("sliding-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        frames: list[tuple[float, object]] = []
        draw = board.watch_slide_progress

        def record() -> None:
            frames.append((board.slide_progress, board.sliding))
            draw()

        board.watch_slide_progress = record  # type: ignore[method-assign]
        await pilot.press("left")
        await pilot.wait_for_animation()
        await pilot.pause()
        between = [p for p, sliding in frames if 0 < p < 1 and sliding == ("1", 8, 7)]
        assert between, frames  # tile 1 was drawn on its way from cell 8 to cell 7
        assert board.slide_progress == 1.0 and board.sliding is None
        frames.clear()
        app.animation_level = "none"
        await pilot.press("right")
        await pilot.wait_for_animation()
        assert all(sliding is None for _, sliding in frames)
        assert board.slide_progress == 1.0


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_frames_during_a_slide_show_the_tile_between_its_cells():
    app = KaeruApp("sliding-3x3:1,2,3/4,5,6/7,_,8", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        await pilot.press("left")  # 8 slides left from column 2 to column 1
        board.slide_progress = 0.5  # freeze a middle frame (the animator may overwrite it)
        board.sliding = ("8", 8, 7)
        middle = board.render().plain.splitlines()[8]
        assert middle.index("8") == 1 + 6 + 3 + 3  # half a tile right of its new cell
        await pilot.wait_for_animation()


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_fifteen_puzzle_solve_shows_the_bound_and_is_optimal(monkeypatch):
    monkeypatch.setattr(get_puzzle("sliding-4x4"), "partition", LIGHT_15)  # a quick build
    state = korf_state(55)
    puzzle = get_puzzle("sliding-4x4")
    app = KaeruApp(puzzle.game_id(state), resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("full_stop")  # the search's own figures, behind the details key
        stats = screen.query_one("StatsPanel").text
        assert "bound" in stats and "BFIDA*" in stats and "h(start)" in stats
        assert f"{korf_length(55)} moves (optimal)" in screen.session.message
        assert screen.session.outcome().optimal == korf_length(55)


@pytest.mark.slow  # the near-optimal search takes its 20 s of CPU
async def test_big_board_solutions_say_they_are_not_optimal():
    app = KaeruApp("sliding-5x5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot, timeout=240)  # 20-40 s of CPU, more on a loaded machine
        assert "(not optimal)" in play_screen(app).session.message


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_an_unsolvable_typed_layout_is_refused_with_the_reason():
    app = KaeruApp("sliding-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#layout")
        await pilot.press(*"1 2 3/4 5 6/8 7 _", "enter")
        await pilot.pause()
        error = str(app.screen.query_one("#error").content)
        assert "cannot be won: sorting" in error and "1 swap (odd)" in error
        assert "unsolvable" not in error  # the verdict is said once


# ---- snapshots (plain `def`: snap_compare runs its own event loop) ------------------------------
@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_snapshot_eight_puzzle_after_a_move(snap_compare):
    async def one_move(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("left")
        await pilot.wait_for_animation()
        await settle(pilot)

    assert snap_compare(snapshot_app("sliding-3x3"), terminal_size=SNAPSHOT_SIZE,
                        run_before=one_move)


@pytest.mark.parametrize(
    "game", ["sliding-3x3:1,2,3/4,_,6/7,5,8", "sliding-6x6"], ids=["boxed", "compact"]
)
def test_snapshot_without_colour(snap_compare, monkeypatch, game):
    """NO_COLOR: tiles at home read by their heavy frame or [brackets], not by colour."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(snapshot_app(game), terminal_size=SNAPSHOT_SIZE, run_before=settle)
