"""Pilot tests of the generic play screen on the line puzzles: keys, undo/redo, hint, solve and
playback, win detection, cancelling a search, saving."""

from __future__ import annotations

import time

import pytest

from kaeru.engine.game.modes import Mode
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs
from kaeru.engine.store import Store
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import SIZE, play_screen, settle


async def test_open_a_puzzle_from_home_and_play_by_keys():
    app = KaeruApp()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("right", "down", "down", "enter")  # Flip It opened: flip-it-6
        await settle(pilot)
        screen = play_screen(app)
        assert screen.session.puzzle.id == "flip-it-6"
        assert screen.session.outcome().optimal is not None  # found by the background search
        # the cursor starts on the first stone that can move: cell 3, two cells from the gap
        assert screen.board.cursor == 2
        await pilot.press("enter")
        assert screen.session.state == "BW_BBB"
        assert screen.session.moves_made == 1
        await pilot.press("3", "space")  # keys 1-9 jump the cursor; the stone on 3 is next to _
        assert screen.session.moves_made == 1  # refused: a neighbour of the gap cannot jump
        await pilot.press("u")
        assert screen.session.state == "_BBBBB"
        await pilot.press("r")
        assert screen.session.state == "BW_BBB"
        await pilot.press("R")
        assert screen.session.state == "_BBBBB" and screen.session.redo_moves


async def test_hint_highlights_an_optimal_first_move():
    app = KaeruApp("frogs-3:BBB_WWW", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")
        await settle(pilot)
        hint = screen.board.hint_move
        assert hint is not None
        puzzle = screen.session.puzzle
        after = puzzle.apply(screen.session.state, hint)
        assert bfs(puzzle, after, screen.session.start).length == 14  # one step closer than 15
        assert puzzle.describe(hint) in screen.session.message
        assert screen.query_one(StatsPanel).search_status == "done"


async def test_solve_plays_back_to_the_goal_and_player_takes_over():
    app = KaeruApp("number-reversal-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        playback = screen.session.playback
        assert playback is not None and screen.board.locked
        assert screen.focused is screen.query_one(PlaybackBar)
        await pilot.press("space")  # pause
        assert not playback.playing
        playback.seek(0)
        await pilot.press("right", "right", "left")
        assert playback.index == 1
        assert screen.board.shown == screen.session.puzzle.layout(playback.solution.states[1])
        await pilot.press("end")
        assert screen.board.shown == screen.session.puzzle.layout(playback.solution.states[-1])
        assert screen.session.puzzle.is_goal(playback.solution.states[-1], screen.session.start)
        await pilot.press("home", "right", "right", "t")  # take over after two moves
        assert screen.session.playback is None and not screen.board.locked
        assert screen.session.moves_made == 2
        assert screen.session.state == playback.solution.states[2]


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_playback_runs_by_itself_to_the_goal():
    app = KaeruApp("flip-it-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        for _ in range(6):
            await pilot.press("plus")  # fastest speed
        deadline = time.monotonic() + 10
        while screen.session.playback is not None and not screen.session.playback.at_end:
            assert time.monotonic() < deadline, "playback did not reach the end"
            await pilot.pause(0.05)
        assert screen.board.shown == screen.session.puzzle.layout("_WWWW")
        await pilot.press("escape")  # leave playback: the game itself is untouched
        assert screen.session.playback is None and screen.session.state == "_BBBB"


async def test_win_is_detected_and_reported_against_the_optimum():
    app = KaeruApp("oshidori", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        solution = dispatch.solve(screen.session.puzzle, screen.session.state, screen.session.start)
        for move in solution.moves:
            screen.board.cursor = move[0]
            await pilot.press("enter")
        assert screen.session.solved
        status = str(screen.query_one("#status").content)
        assert "Solved in 4 moves: a perfect game!" in status


async def test_escape_cancels_a_running_search_and_keys_still_work(monkeypatch):
    monkeypatch.setattr("kaeru.engine.game.session.OPTIMAL_BUDGET", 1_000)  # no quiet search
    app = KaeruApp("number-reversal-10", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        # plain BFS over 10!/2 positions takes far longer than this test
        monkeypatch.setattr(dispatch, "solve", lambda p, s, st, control: bfs(p, s, st, control))
        await pilot.press("s")
        await pilot.pause(0.5)
        assert screen.session.mode is Mode.SEARCHING
        cursor = screen.board.cursor
        await pilot.press("left")  # the UI still answers while the search runs
        assert screen.board.cursor != cursor
        await pilot.press("escape")
        await settle(pilot)  # the BFS would run on for a minute had the cancel not landed
        assert screen.session.mode is not Mode.SEARCHING
        assert screen.query_one(StatsPanel).search_status == "cancelled"
        assert isinstance(app.screen, type(screen))  # Escape cancelled; it did not leave


async def test_unsolvable_position_is_said_plainly():
    app = KaeruApp("flip-it-4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        assert screen.session.playback is None
        assert screen.session.message.startswith("This position cannot be won: ")


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_leaving_and_reopening_resumes_the_game():
    app = KaeruApp("frogs-2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        screen.board.cursor = 1
        await pilot.press("enter")
        assert screen.session.moves_made == 1
        await pilot.press("q")
        assert isinstance(app.screen, HomeScreen)
        app.open_game("frogs-2")
        await settle(pilot)
        assert play_screen(app).session.moves_made == 1
    saved = Store.open().games_in_progress("frogs-2")
    assert len(saved) == 1 and len(saved[0].moves) == 1


async def test_too_small_terminal_shows_what_it_needs():
    app = KaeruApp("frogs-10", resume=False)
    async with app.run_test(size=(40, 12)) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert screen.has_class("too-small")
        text = str(screen.query_one("#too-small").content)
        assert "needs at least" in text
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert not screen.has_class("too-small")


async def test_bad_game_id_is_a_notification_not_a_crash():
    app = KaeruApp("flip-it-6:XYZ", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("flip-it-6" in n.message for n in app._notifications)


async def test_help_screen_lists_rules_and_keys():
    app = KaeruApp("flip-it-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        from kaeru.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_new_game_dialog_takes_a_typed_layout():
    app = KaeruApp("flip-it-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"XX")
        await pilot.press("enter")
        await pilot.pause()
        assert "flip-it-5" in str(app.screen.query_one("#error").content)  # stays open, says why
        await pilot.press("backspace", "backspace", *"B_BBB", "enter")
        await settle(pilot)
        screen = play_screen(app)
        assert screen.session.start == "B_BBB"
        assert screen.session.puzzle.goal(screen.session.start) == "W_WWW"
