"""Snapshot tests of the home, play and help screens at 80×24 (plain `def`: snap_compare runs
its own event loop). Workers are awaited first so the images are stable."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from kaeru.engine.search import dispatch
from tests.app.conftest import SNAPSHOT_SIZE, settle, snapshot_app


def test_home_screen(snap_compare):
    assert snap_compare(snapshot_app(), terminal_size=SNAPSHOT_SIZE, run_before=settle)


def test_play_screen_flip_it(snap_compare):
    async def play_two_moves(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("right", "right", "enter", "end", "enter")
        await settle(pilot)

    assert snap_compare(
        snapshot_app("flip-it-6"), terminal_size=SNAPSHOT_SIZE, run_before=play_two_moves
    )


def test_play_screen_with_hint(snap_compare):
    async def hint(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        pilot.app.screen.query_one("StatsPanel").show_stats(None, "done", "Hint")  # no timings

    assert snap_compare(snapshot_app("frogs-3"), terminal_size=SNAPSHOT_SIZE, run_before=hint)


def test_play_screen_number_reversal_won(snap_compare):
    async def win(pilot: Pilot) -> None:
        await settle(pilot)
        screen = pilot.app.screen
        session = screen.session
        for move in dispatch.solve(session.puzzle, session.state, session.start).moves:
            session.push(move)
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(
        snapshot_app("number-reversal-5"), terminal_size=SNAPSHOT_SIZE, run_before=win
    )


@pytest.mark.slow  # help is also checked by test_play_line and test_midend_app
def test_help_screen(snap_compare):
    async def open_help(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(
        snapshot_app("oshidori"), terminal_size=SNAPSHOT_SIZE, run_before=open_help
    )


def test_too_small_message(snap_compare):
    assert snap_compare(snapshot_app("frogs-10"), terminal_size=(40, 12), run_before=settle)


def test_play_screen_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: stones still read by shape (● ○), the cursor by reverse video and ▲."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(snapshot_app("frogs-3"), terminal_size=SNAPSHOT_SIZE, run_before=settle)
