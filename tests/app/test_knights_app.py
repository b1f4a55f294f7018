"""The knight board in the real app: a whole game by keys, targets, refusals with the engine's
reason, hint, solve and playback, the letter fallback, and snapshots at 80×24."""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot

from kaeru.engine.search import dispatch
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards.holes import HolesBoard
from kaeru.tui.widgets.boards.squares_look import SMALL, TALL, SquaresLook
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app


@pytest.fixture(autouse=True)
def glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Knights as glyphs, whatever the environment says."""
    monkeypatch.delenv("KAERU_ASCII", raising=False)


def notes(app: KaeruApp) -> list[str]:
    return [n.message for n in app._notifications]


async def go_to(pilot: Pilot, name: str) -> None:
    """Move the cursor to a square without acting: its rank digit, then arrows to its file."""
    board = play_screen(pilot.app).board
    await pilot.press(name[1])
    while board.cell_name(board.cursor)[0] != name[0]:
        await pilot.press("right")


async def type_square(pilot: Pilot, name: str) -> None:
    """Type a square's name: picks the knight there, or jumps the chosen one to it."""
    await pilot.press(name[0], name[1])


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_knight_exchange_played_to_the_end_by_keys():
    app = KaeruApp("knights-3x4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert isinstance(screen.board, HolesBoard)
        puzzle = screen.session.puzzle
        solution = dispatch.solve(puzzle, screen.session.state, screen.session.start)
        for n, move in enumerate(solution.moves):
            source, target = puzzle.describe(move).split("-")
            if n < 2:  # cursor keys and Enter
                await go_to(pilot, source)
                await pilot.press("enter")
                await go_to(pilot, target)
                await pilot.press("enter")
            else:  # typed square names: `a1 c2`
                await type_square(pilot, source)
                await type_square(pilot, target)
        assert screen.session.moves_made == 16
        assert screen.session.solved
        assert puzzle.format(screen.session.state) == "WWW/___/___/BBB"
        status = str(screen.query_one("#status").content)
        assert "Solved in 16 moves: a perfect game!" in status


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_choose_a_knight_see_its_targets_and_be_refused_with_the_reason():
    app = KaeruApp("knights-3x4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        await go_to(pilot, "b2")
        await pilot.press("enter")  # an empty square
        await pilot.pause()
        assert any("b2 is empty" in n for n in notes(app))
        await go_to(pilot, "a1")
        await pilot.press("enter")
        assert board.selected == 0
        text = board.render().plain
        assert "»♞«" in text  # the chosen knight
        assert text.count("•") == 2  # a1 reaches c2 and b3
        assert text.count("░") > 0  # dark squares are shaded, not only coloured
        await go_to(pilot, "a2")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.moves_made == 0
        assert any("a knight cannot jump from a1 to a2" in n for n in notes(app))
        await pilot.press("escape")  # drops the knight, stays in the game
        assert board.selected is None and app.screen is screen
        await go_to(pilot, "a1")
        await pilot.press("enter")
        await go_to(pilot, "b3")
        await pilot.press("enter")
        assert screen.session.moves_made == 1
        assert screen.session.puzzle.format(screen.session.state) == "_BB/___/_B_/WWW"
        assert board.cursor == 7 and board.selected is None
        await pilot.press("escape")  # nothing chosen: the screen asks first
        assert app.screen is screen and "Escape again" in screen.session.message
        await pilot.press("escape")  # and a second Escape goes back to the list
        assert isinstance(app.screen, HomeScreen)


async def test_hint_letters_and_clicks():
    app = KaeruApp("knights-3x4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        await pilot.press("i")
        await settle(pilot)
        assert board.hint_move is not None
        text = board.render().plain
        assert "★♞★" in text and "☆" in text
        await pilot.press("v")  # the plain-letter fallback
        text = board.render().plain
        assert "♞" not in text and text.count("B") == 3 and text.count("W") == 3
        assert isinstance(board.look, SquaresLook)
        width, height = TALL if board.large else SMALL  # tall squares where there is room
        # b1: one column of padding, the row labels, then one square across
        await pilot.click(board, offset=(1 + 2 + width + width // 2, height // 2))
        assert board.selected == 1


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_solve_plays_the_knights_back_to_the_goal():
    app = KaeruApp("knights-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        playback = screen.session.playback
        assert playback is not None and playback.length == 16
        for _ in range(7):
            await pilot.press("plus")
        deadline = time.monotonic() + 20
        while not playback.at_end:
            assert time.monotonic() < deadline, "playback did not reach the end"
            await pilot.pause(0.05)
        board = screen.board
        puzzle = screen.session.puzzle
        assert board.shown == puzzle.layout(puzzle.parse("B_B/___/W_W"))
        assert board.last_move == playback.solution.moves[-1]
        assert "·" in board.render().plain  # the square the last knight left


# ---- snapshots (plain `def`: snap_compare runs its own event loop) ------------------------------
@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_snapshot_knight_chosen(snap_compare):
    async def choose(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("a", "4", "down", "down", "right")
        await pilot.pause()

    assert snap_compare(snapshot_app("knights-3x4"), terminal_size=SNAPSHOT_SIZE, run_before=choose)


def test_snapshot_guarini_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: the checker pattern reads by shading, knights by shape."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(snapshot_app("knights-3x3"), terminal_size=SNAPSHOT_SIZE, run_before=settle)
