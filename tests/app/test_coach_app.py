"""Coach mode on the play screen (o), graded hints, the analysis after a win with "replay from
here", and the drill — driven with Pilot."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.screens.coach.analysis import AnalysisScreen
from kaeru.screens.coach.drill import DrillScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.coach_panel import CoachPanel
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app


async def wait_for_tables(pilot, screen) -> None:
    thread = screen.session.coach.warm_thread
    if thread is not None:
        thread.join(30)
    await settle(pilot)


async def test_o_turns_the_coach_on_and_marks_each_move():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        panel = screen.query_one(CoachPanel)
        assert not screen.session.coach.enabled and panel.has_class("-off")  # nothing spoiled
        await pilot.press("o")
        await wait_for_tables(pilot, screen)
        assert screen.session.coach.enabled and not panel.has_class("-off")
        assert "15 moves to go" in panel.text
        session = screen.session
        good = next(
            m
            for m in session.legal_moves()
            if session.coach.known(session.puzzle.apply(session.state, m)).moves == 14
        )
        session.push(good)
        await settle(pilot)
        assert "14 moves to go" in panel.text and "✓" in panel.text
        bad = next(
            m
            for m in session.legal_moves()
            if session.coach.known(session.puzzle.apply(session.state, m)).moves != 13
        )
        session.push(bad)
        await settle(pilot)
        assert session.coach.marks()[-1].verdict in ("wasted", "lost")
        assert "✗" in panel.text or "☠" in panel.text
        await pilot.press("o")
        await settle(pilot)
        assert panel.has_class("-off")


async def test_graded_hints_on_the_play_screen():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("o")
        await wait_for_tables(pilot, screen)
        await pilot.press("i")
        await settle(pilot)
        assert "15 moves to go" in screen.session.message and screen.board.hint_move is None
        assert screen.board.hint_entry() is None  # the distance only: nothing on the board
        await pilot.press("i")
        await settle(pilot)
        assert "moves." in screen.session.message and screen.board.hint_move is None
        piece = screen.board.hint_entry()  # the second level marks the piece, not its target
        assert piece is not None and piece.targets == ()
        assert piece.sources == screen.session.coach.hint_cells != ()
        await pilot.press("i")
        await settle(pilot)
        assert screen.board.hint_move is not None
        assert screen.board.hint_move == screen.session.hint_move
        assert screen.session.coach.levels == [1, 1, 1]


async def test_the_coach_setting_turns_it_on_for_new_games():
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        app.store.set_setting("coach", "on")
        app.open_game("frogs-2")
        await settle(pilot)
        assert play_screen(app).session.coach.enabled


async def test_analysis_after_a_win_and_replay_from_a_mistake():
    puzzle = get_puzzle("sliding-3x3")
    start = puzzle.parse("1 2 3/4 5 6/7 _ 8")
    app = KaeruApp(puzzle.game_id(start), resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        session = screen.session
        await pilot.press("A")
        assert "after a win" in session.message
        for text in ("7 right", "7 left", "8 left"):
            session.push(session.puzzle.parse_move(text, session.state))
        await settle(pilot)
        assert session.solved
        await pilot.press("A")
        await settle(pilot)
        analysis = app.screen
        assert isinstance(analysis, AnalysisScreen)
        found = analysis.analysis
        assert found is not None and found.optimal == 1
        assert [d.moves for d in found.distances] == [1, 2, 1, 0]
        assert [i for i, _ in found.mistakes] == [0]
        options = analysis.query_one(OptionList)
        assert options.option_count == 1 and "7 right" in str(options.get_option_at_index(0).prompt)
        await pilot.press("enter")
        await settle(pilot)
        replayed = play_screen(app).session
        assert replayed is not session and replayed.start == start
        assert replayed.moves_made == 0 and not replayed.solved


async def test_the_drill_counts_what_was_found_and_the_time():
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drill = DrillScreen("frogs-3", seed=7)
        await app.push_screen(drill)
        await settle(pilot)
        question = drill.question
        assert question is not None and question.best
        assert drill.board is not None
        drill.post_message(BoardWidget.MoveChosen(question.best[0]))
        await settle(pilot)
        assert drill.drill.found == 1 and drill.drill.asked == 1
        second = drill.question
        assert second is not None and second is not question
        wrong = [m for m in drill.drill.puzzle.moves(second.state) if m not in second.best]
        if wrong:
            drill.post_message(BoardWidget.MoveChosen(wrong[0]))
            await settle(pilot)
            assert drill.drill.asked == 2 and drill.drill.found == 1
        stats = str(drill.query_one("#drill-stats").content)
        assert "Found 1/" in stats and "s per answer" in stats
        await pilot.press("plus")
        assert drill.drill.depth == 9


@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_snapshot_analysis_screen(snap_compare):
    puzzle = get_puzzle("sliding-3x3")
    start = puzzle.parse("1 2 3/4 5 6/_ 7 8")

    async def win_then_analyse(pilot: Pilot) -> None:
        await settle(pilot)
        session = play_screen(pilot.app).session
        for text in ("4 down", "4 up", "7 left", "8 left"):
            session.push(session.puzzle.parse_move(text, session.state))
        await settle(pilot)
        await pilot.press("A")
        await settle(pilot)
        pilot.app.clear_notifications()  # the win's toast times out: not in the image
        await pilot.pause()

    app = snapshot_app(puzzle.game_id(start))
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=win_then_analyse)


def test_snapshot_drill_screen(snap_compare):
    async def open_drill(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.app.push_screen(DrillScreen("frogs-3", seed=5))
        await settle(pilot)

    assert snap_compare(snapshot_app(), terminal_size=SNAPSHOT_SIZE, run_before=open_drill)
