"""Words and keys for players on the play screen: the search panel in plain words with the
algorithm's figures behind `.`, a table build's note and progress bar, plural forms, rules that
flow, the goal drawn as a board, `m` playing the hint, `q` and a twice-pressed Escape leaving,
and the help built from the bindings with their meanings."""

from __future__ import annotations

import pytest
from textual.widgets import ProgressBar

from kaeru.engine.game.record import Outcome
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.results import SearchStats
from kaeru.engine.search import dispatch
from kaeru.screens.help import HelpScreen
from kaeru.screens.home.screen import HomeScreen
from kaeru.screens.play.screen import ESCAPE_AGAIN
from kaeru.screens.play.text import player_title, verdict_text
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.goal_board import REACH, GoalBoard
from kaeru.tui.widgets.stats import StatsPanel
from kaeru.tui.words import flow, plural
from tests.app.conftest import SIZE, play_screen, settle


def test_rules_flow_within_paragraphs_and_keep_their_breaks():
    text = "A knight moves onto\nan empty square.\nGoal: swap.\n\n  BB/__\n- one\n- two"
    flowed = "A knight moves onto an empty square.\nGoal: swap.\n\n  BB/__\n- one\n- two"
    assert flow(text) == flowed
    rules = flow(get_puzzle("jealous-husbands-3").rules)
    assert "holds 2; anyone rows. No wife" in rules  # hard-wrapped mid-sentence, joined
    assert "\nPick who boards" in rules  # a new sentence on its own line stays


def test_plural_forms():
    assert plural(1, "move") == "1 move" and plural(2, "move") == "2 moves"
    one = Outcome("won", moves=1, chains=None, optimal=1, helped=False, hints=0, seconds=1.0)
    assert verdict_text(one).startswith("Solved in 1 move:") and "1 moves" not in verdict_text(one)
    pegs = Outcome("won", moves=1, chains=1, optimal=None, helped=False, hints=0, seconds=1.0)
    assert verdict_text(pegs) == "Solved in 1 move (1 jump)."


def test_jargon_is_translated_at_the_display():
    assert "seed" not in player_title(get_puzzle("pegs-english-t").title)


async def test_the_search_panel_speaks_plainly_and_shows_details_on_dot():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        session = screen.session
        solution = dispatch.solve(session.puzzle, session.state, session.start)
        for move in solution.moves[:-1]:
            session.push(move)
        await pilot.press("i")
        await settle(pilot)
        panel = screen.query_one(StatsPanel)
        assert "positions looked at" in panel.text and "time" in panel.text
        assert "distance" in panel.text and "1 move" in panel.text
        algorithm = panel.stats.algorithm
        assert algorithm not in panel.text and "expanded" not in panel.text
        assert "1 move " in session.message and "1 moves" not in session.message
        await pilot.press("full_stop")
        assert algorithm in panel.text and "expanded" in panel.text and "frontier" in panel.text
        await pilot.press("full_stop")
        assert algorithm not in panel.text


async def test_a_table_build_shows_its_note_and_a_progress_bar():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = play_screen(app).query_one(StatsPanel)
        bar = panel.query_one(ProgressBar)
        assert not bar.display or panel.has_class("-no-progress")
        note = "Building the distance table (110 MB, first use only, about 30 s)"
        panel.show_stats(SearchStats("table", note=note, progress=0.25), "running", "Hint")
        await pilot.pause()
        assert note in panel.text and not panel.has_class("-no-progress")
        assert bar.region.area > 0 and bar.percentage == pytest.approx(0.25)
        panel.show_stats(SearchStats("table", note=note, progress=0.25), "done", "Hint")
        assert panel.has_class("-no-progress")  # the bar goes when the search ends


async def test_the_goal_is_a_small_locked_board_or_words():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        goal = screen.query_one(GoalBoard)
        assert goal.board is not None and type(goal.board) is type(screen.board)
        assert goal.board.locked and not goal.board.can_focus
        assert goal.board.shown == screen.session.puzzle.layout("WWW_BBB")
        assert str(goal.query_one("#goal-caption").content) == REACH
        await pilot.click(goal.board, offset=(goal.board.size.width // 2, 0))
        await pilot.pause()
        assert screen.session.moves_made == 0  # a click on the goal is no move,
        assert not app._notifications  # and no complaint either
    app = KaeruApp("pegs-triangle", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        goal = play_screen(app).query_one(GoalBoard)
        assert goal.board is None
        assert str(goal.query_one("#goal-caption").content) == "One peg left, in any hole"


async def test_m_plays_the_hinted_move():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("m")
        assert screen.session.moves_made == 0 and "No hint yet" in screen.session.message
        await pilot.press("i")
        await settle(pilot)
        hinted = screen.session.hint_move
        assert hinted is not None
        await pilot.press("m")
        assert screen.session.history == (hinted,)


async def test_escape_asks_before_leaving_and_q_leaves(monkeypatch):
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("escape")
        assert app.screen is screen and screen.session.message == ESCAPE_AGAIN
        monkeypatch.setattr("kaeru.screens.play.screen.ESCAPE_WINDOW", -1.0)  # the second too late
        await pilot.press("escape")
        assert app.screen is screen
        monkeypatch.setattr("kaeru.screens.play.screen.ESCAPE_WINDOW", 3.0)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        app.open_game("frogs-3")
        await settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, HomeScreen)


async def test_help_groups_the_keys_with_their_meanings_and_flows_the_rules():
    app = KaeruApp("knights-3x4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text").content)
        for title in ("Your game", "Help from the engine", "This screen", "Playback"):
            assert f"[b]{title}[/b]" in text
        lines = text.splitlines()
        assert any(line.split()[:1] == ["m"] and "hinted move" in line for line in lines)
        assert any(line.split()[:1] == ["."] and "algorithm" in line for line in lines)
        assert any(line.split()[:1] == ["q"] and "list of puzzles" in line for line in lines)
        assert "onto an empty square" in text  # the rules' hard wrap is gone
        assert not any(line.split()[:1] == ["w"] for line in lines)  # no panes at this size


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_a_new_start_brings_its_own_goal_board():
    from kaeru.engine.game.session import Session

    app = KaeruApp("flip-it-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        screen.replace_session(Session.from_game_id("flip-it-5:B_BBB"))
        await settle(pilot)
        goal = screen.query_one(GoalBoard)
        assert goal.board is not None
        assert goal.board.shown == screen.session.puzzle.layout("W_WWW")
