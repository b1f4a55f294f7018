"""The peg board in the real app: picking pegs and targets by keys and hole names, hint and
undo, the two counters (jumps and moves), the lost-position warning, the French central game
refused at once, playback marking the jumped peg, and a snapshot of each board shape."""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot

from kaeru.engine.search import dispatch
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards.holes import HolesBoard
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app


@pytest.fixture(autouse=True)
def glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAERU_ASCII", raising=False)


def notes(app: KaeruApp) -> list[str]:
    return [n.message for n in app._notifications]


def status(app: KaeruApp) -> str:
    return str(play_screen(app).query_one("#status").content)


async def type_hole(pilot: Pilot, name: str) -> None:
    """Type a hole's name: picks the peg there, or jumps the chosen peg to it."""
    await pilot.press(name[0], name[1])


async def test_hint_then_play_it_by_names_then_undo():
    app = KaeruApp("pegs-english", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        assert isinstance(board, HolesBoard)
        text = board.render().plain
        assert text.count("●") == 32 and "[●]" in text  # the cursor on d2, a peg that can move
        await pilot.press("i")
        await settle(pilot)
        hint = board.hint_move
        assert hint is not None and hint in screen.session.legal_moves()
        text = board.render().plain
        assert "★" in text and "☆" in text
        source, target = screen.session.puzzle.describe(hint).split("-")
        await type_hole(pilot, source)
        assert board.selected == hint[0]
        assert "◉" in board.render().plain and "○" in board.render().plain  # peg and target
        await type_hole(pilot, target)
        await settle(pilot)
        assert screen.session.history == (hint,)
        assert "Moves: 1   jumps: 1" in status(app)
        assert "✕" in board.render().plain  # the jumped peg's hole
        assert screen.session.outcome().reason is None
        await pilot.press("u")
        await settle(pilot)
        assert screen.session.moves_made == 0
        assert board.shown == screen.session.puzzle.layout(screen.session.start)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_cursor_keys_shift_jumps_and_refusals():
    app = KaeruApp("pegs-english", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        await pilot.press("enter")  # d2, where the cursor starts: a peg that can jump into d4
        assert board.cell_name(board.selected) == "d2"
        await pilot.press("shift+left")
        await pilot.pause()
        assert any("cannot jump that way" in n for n in notes(app))
        await pilot.press("shift+down")
        await settle(pilot)
        assert screen.session.puzzle.describe(screen.session.history[-1]) == "d2-d4"
        await type_hole(pilot, "d2")  # now empty
        await pilot.pause()
        assert any("d2 is empty" in n for n in notes(app))
        await type_hole(pilot, "a1")
        await pilot.pause()
        assert any("no hole a1" in n for n in notes(app))
        # a click picks a peg: padding, row labels, then b3's column (4 characters a hole);
        # row 3 on line 2, or on line 4 where the rows are spaced out (the larger form)
        assert isinstance(board, HolesBoard)
        await pilot.click(board, offset=(1 + 3 + 4 * 1 + 1, 4 if board.large else 2))
        assert board.selected is not None and board.cell_name(board.selected) == "b3"


async def test_a_chain_counts_as_one_move():
    app = KaeruApp("pegs-english-plus", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        puzzle = screen.session.puzzle
        solution = dispatch.solve(puzzle, screen.session.state, screen.session.start)
        for move in solution.moves:
            source, target = puzzle.describe(move).split("-")
            if screen.board.selected != move[0]:
                await type_hole(pilot, source)
            await type_hole(pilot, target)
            await settle(pilot)
        assert screen.session.solved
        chains = puzzle.chains(solution.moves)
        assert f"Moves: {len(chains)}   jumps: 8" in status(app)
        assert f"Solved in {len(chains)} moves (8 jumps)." in status(app)


async def test_lost_position_warning_after_a_bad_move():
    app = KaeruApp("pegs-english-t", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await type_hole(pilot, "d5")
        await type_hole(pilot, "d7")  # d5-d7: the T can no longer end in d4
        await settle(pilot)
        assert screen.session.moves_made == 1
        assert "This position can no longer be won" in status(app)
        assert "leaves one peg in d4" in status(app)
        await pilot.press("u")
        await settle(pilot)
        assert "no longer be won" not in status(app)


async def test_french_central_game_says_at_once_why_it_cannot_be_won():
    app = KaeruApp("pegs-french", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        assert "position-class" in str(screen.query_one("#message").content)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_playback_shows_the_jumped_peg_leaving():
    app = KaeruApp("pegs-english-cross", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        playback = screen.session.playback
        assert playback is not None and playback.length == 5
        await pilot.press("home", "right")  # back to the start, then one step by hand (pauses)
        assert not playback.playing and playback.index == 1
        board = screen.board
        assert "✕" in board.render().plain
        for _ in range(7):
            await pilot.press("plus")
        assert playback.index == 1
        await pilot.press("space")  # play on by itself, from step 1 to the end
        deadline = time.monotonic() + 20
        while not playback.at_end:
            assert time.monotonic() < deadline, "playback did not reach the end"
            await pilot.pause(0.05)
        assert board.render().plain.count("●") == 1


# ---- snapshots (plain `def`: snap_compare runs its own event loop) -----------------------------
def _quiet(pilot: Pilot):
    async def run(pilot: Pilot) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("StatsPanel").show_stats(None, "done", "Hint")  # no timings

    return run


def test_snapshot_english_with_a_peg_chosen(snap_compare):
    async def choose(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("d", "2")
        await pilot.pause()

    assert snap_compare(snapshot_app("pegs-english"), terminal_size=SNAPSHOT_SIZE,
                        run_before=choose)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_snapshot_french_octagon(snap_compare):
    assert snap_compare(snapshot_app("pegs-french-c1"), terminal_size=SNAPSHOT_SIZE,
                        run_before=settle)


def test_snapshot_triangle_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: pegs, holes, the cursor and the chosen peg read by shape."""
    monkeypatch.setenv("NO_COLOR", "1")

    async def choose(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("a", "3")
        await pilot.pause()

    assert snap_compare(snapshot_app("pegs-triangle"), terminal_size=SNAPSHOT_SIZE,
                        run_before=choose)
