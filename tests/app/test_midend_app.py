"""The play screen as a thin front on the Session: the old crash sequences, refusals by mode,
one open game per puzzle, searches cancelled with the game, the game id copied, help and the
footer built from the real (keymapped) bindings."""

from __future__ import annotations

import pytest

from kaeru.engine.game.modes import Mode
from kaeru.screens.help import HelpScreen
from kaeru.screens.home.screen import HomeScreen
from kaeru.screens.play.screen import PlayScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenGame
from tests.app.conftest import SIZE, play_screen, settle


def replays(session) -> bool:
    state = session.start
    for move in session.history:
        state = session.puzzle.apply(state, move)
    return state == session.state


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_undo_during_playback_then_take_over_no_longer_crashes():
    """`kaeru play frogs-3`, keys `3 Enter s Space → → u t` closed the app with BadInput."""
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("3", "enter")
        assert screen.session.moves_made == 1
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("space", "right", "right", "u")
        assert screen.session.mode is Mode.PLAYBACK
        assert "Leave playback first" in screen.session.message
        assert screen.session.moves_made == 1  # the undo was refused, not half done
        steps = screen.session.playback.index  # 2, or 3 if the playback stepped before Space
        await pilot.press("t")
        await settle(pilot)
        assert app.is_running and screen.session.mode is Mode.PLAYING
        assert screen.session.moves_made == 1 + steps and replays(screen.session)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_restart_during_knights_playback_is_refused():
    """knights-3x3, keys `a 1 b 3 s Space → R t`."""
    app = KaeruApp("knights-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("a", "1", "b", "3")
        assert screen.session.moves_made == 1
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("space", "right", "R")
        assert "Leave playback first" in screen.session.message
        steps = screen.session.playback.index
        await pilot.press("t")
        await settle(pilot)
        assert app.is_running and screen.session.moves_made == 1 + steps
        assert replays(screen.session)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_a_hint_during_playback_is_refused_and_the_board_keeps_the_playback():
    app = KaeruApp("number-reversal-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("space", "home", "right", "right")
        playback = screen.session.playback
        assert playback is not None and playback.index == 2
        await pilot.press("i")
        await settle(pilot)
        assert "Leave playback first" in screen.session.message
        assert screen.board.shown == screen.session.puzzle.layout(playback.solution.states[2])


async def test_opening_an_open_puzzle_switches_to_it():
    app = KaeruApp("frogs-2", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = play_screen(app)
        await pilot.press("2", "enter")
        assert first.session.moves_made == 1
        app.post_message(OpenGame("flip-it-5"))
        await settle(pilot)
        assert play_screen(app).puzzle_id == "flip-it-5"
        app.post_message(OpenGame("frogs-2"))
        await settle(pilot)
        assert play_screen(app) is first and first.session.moves_made == 1
        plays = [s for s in app.screen_stack if isinstance(s, PlayScreen)]
        assert len(plays) == 1


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_leaving_a_game_cancels_its_quiet_searches(monkeypatch):
    # one of the 80-move positions, searched without the quiet search's usual budget (it would
    # give up within a second): the search is surely running when the game is left
    monkeypatch.setattr("kaeru.engine.game.session.OPTIMAL_BUDGET", 2_000_000_000)
    app = KaeruApp("sliding-4x4:_,12,9,13/15,11,10,14/3,7,2,5/4,8,6,1", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = play_screen(app)
        # the quiet "optimal from the start" search
        assert "optimal" in screen.session.running_searches
        jobs = app.service.jobs()
        assert jobs
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert all(job.cancel_requested or job.done for job in jobs)


async def test_the_game_id_is_shown_and_copied():
    app = KaeruApp("flip-it-7:B_BBBBB", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        assert "flip-it-7:B_BBBBB" in str(screen.query_one("#title").content)
        await pilot.press("C")  # capital: c names column c on the holes boards
        assert app.clipboard == "flip-it-7:B_BBBBB"


async def test_help_and_keys_follow_the_keymap(tmp_path, monkeypatch):
    (tmp_path / "keymap.toml").write_text('[keys]\n"play.undo" = "z"\n')
    monkeypatch.setenv("KAERU_CONFIG_DIR", str(tmp_path))
    app = KaeruApp("frogs-2", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("2", "enter")
        assert screen.session.moves_made == 1
        await pilot.press("u")  # no longer undo
        assert screen.session.moves_made == 1
        await pilot.press("z")
        assert screen.session.moves_made == 0
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text").content)
        undo_line = next(line for line in text.splitlines() if "your last move" in line)
        assert undo_line.split()[0] == "z" and "⌫" not in undo_line
        assert "Play on yourself" in text and "The best next move" in text  # from bindings


async def test_a_damaged_keymap_is_one_line_and_ignored(tmp_path, monkeypatch):
    (tmp_path / "keymap.toml").write_text("[keys\n")
    monkeypatch.setenv("KAERU_CONFIG_DIR", str(tmp_path))
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notes = [n.message for n in app._notifications]
        assert any(n.startswith("Keymap ignored") and "\n" not in n for n in notes)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_the_board_gets_its_focus_back_after_a_too_small_spell():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        assert screen.has_class("too-small")
        screen.set_focus(None)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not screen.has_class("too-small") and screen.focused is screen.board
        await pilot.press("3", "enter")
        assert screen.session.moves_made == 1  # keys reach the board without a Tab first


async def test_the_clock_stops_while_the_app_is_in_the_background():
    from textual import events

    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(app).session
        running = session.seconds
        await pilot.pause()
        assert session.seconds > running
        app.post_message(events.AppBlur())
        await pilot.pause()
        stopped = session.seconds
        await pilot.pause()
        assert session.seconds == stopped
        app.post_message(events.AppFocus())
        await pilot.pause()
        assert session.seconds > stopped
