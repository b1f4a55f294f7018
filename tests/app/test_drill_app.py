"""The drill screen driven with Pilot: moving from puzzle to puzzle (`p`) replaces the board
without a clash of ids, however fast the keys come, and `D` on a puzzle the drill does not
cover says so instead of opening another puzzle's drill."""

from __future__ import annotations

from kaeru.engine.coach.drill import drill_ids
from kaeru.screens.coach.drill import DrillScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.board import BoardWidget
from tests.app.conftest import SIZE, play_screen, settle
from tests.app.monkey import quick_press


async def test_p_goes_through_every_drill_puzzle_and_its_board_kind() -> None:
    """Regression: a puzzle drawn on another kind of board mounted the new 'drill-board'
    before the old one's removal was done: DuplicateIds closed the app."""
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drill = DrillScreen(drill_ids()[0], seed=3)
        await app.push_screen(drill)
        await settle(pilot)
        for expected in [*drill_ids()[1:], drill_ids()[0]]:
            await pilot.press("p")
            await settle(pilot)
            assert app.screen is drill and drill.puzzle_id == expected
            boards = drill.query(BoardWidget)
            assert len(boards) == 1 and boards.first() is drill.board
            assert drill.question is not None and drill.board.shown == (
                drill.drill.puzzle.layout(drill.question.state)
            )


async def test_p_pressed_quickly_leaves_one_board() -> None:
    app = KaeruApp(None, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drill = DrillScreen("frogs-4", seed=3)
        await app.push_screen(drill)
        await settle(pilot)
        for key in ["p", "n", "plus", "minus"] * len(drill_ids()):  # before each table is in
            await quick_press(pilot, key)
        await settle(pilot)
        assert app.is_running and app.screen is drill
        assert len(drill.query(BoardWidget)) == 1


async def test_d_on_a_puzzle_with_no_drill_says_so() -> None:
    app = KaeruApp("flip-it-6", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("D")
        await settle(pilot)
        assert app.screen is screen  # no other puzzle's drill
        assert "no drill" in screen.session.message.lower() or "drill" in str(
            screen.query_one("#message").content
        ).lower()


async def test_d_on_a_drill_puzzle_opens_its_drill() -> None:
    app = KaeruApp("frogs-4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D")
        await settle(pilot)
        drill = app.screen
        assert isinstance(drill, DrillScreen) and drill.puzzle_id == "frogs-4"
