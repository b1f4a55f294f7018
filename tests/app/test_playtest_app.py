"""Points of a full play-test (issue 25) driven with Pilot: keys that lead where they say."""

from __future__ import annotations

import pytest
from textual.content import Content

from kaeru.engine.puzzles.registry import families
from kaeru.engine.rules.results import SearchStats
from kaeru.engine.search import dispatch
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui import glyphs
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenGame
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.stats import StatsPanel
from tests.app.conftest import SIZE, play_screen, settle


async def test_q_from_a_puzzle_opened_inside_a_game_goes_back_to_the_list():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.post_message(OpenGame("frogs-3"))
        await settle(pilot)
        app.post_message(OpenGame("flip-it-6"))  # as the command palette does, inside a game
        await settle(pilot)
        assert play_screen(app).puzzle_id == "flip-it-6"
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


def board_of(app: KaeruApp) -> BoardWidget:
    return play_screen(app).query_one(BoardWidget)


async def test_the_glyphs_setting_follows_each_game_opened(monkeypatch: pytest.MonkeyPatch):
    """Regression: Glyphs ascii set KAERU_ASCII for good: glyphs came back only on a restart."""
    monkeypatch.delenv("KAERU_ASCII", raising=False)
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.store.set_setting("glyphs", "ascii")
        app.post_message(OpenGame("frogs-3"))
        await settle(pilot)
        assert board_of(app).plain
        await pilot.press("q")
        app.store.set_setting("glyphs", "unicode")
        app.post_message(OpenGame("flip-it-6"))
        await settle(pilot)
        assert not board_of(app).plain


ASCII_DEFAULT_RUN = ("knights-3x3", "frogs-3")  # the two regressions; the rest: -m slow


@pytest.mark.parametrize("game_id", [
    pytest.param(game_id, marks=() if game_id in ASCII_DEFAULT_RUN else pytest.mark.slow)
    for game_id in ("knights-3x3", "knights-3x4", "pegs-english", "pegs-triangle", "frogs-3",
                    "flip-it-6", "oshidori", "sliding-3x3", "two-blank-3x3",
                    "wolf-goat-cabbage", "jealous-husbands-3")
])
async def test_kaeru_ascii_draws_every_board_in_ascii(monkeypatch: pytest.MonkeyPatch, game_id):
    """Regression: the knights' dark squares stayed `░` with KAERU_ASCII=1."""
    monkeypatch.setenv("KAERU_ASCII", "1")
    monkeypatch.setattr(glyphs, "_ASCII_AT_START", True)
    app = KaeruApp(game_id, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = board_of(app)
        await pilot.press("i")  # a hint: its marks too
        await settle(pilot)
        drawn = board.render()
        text = drawn.plain if hasattr(drawn, "plain") else str(drawn)
        assert board.plain and text.isascii(), text


async def test_a_dead_end_says_so_at_once_and_offers_the_way_back():
    """Regression: frogs-3 after 3⏎ 2⏎ 1⏎ (no legal move left) said nothing; i then spoke of
    "the search from one end ran out after 2 positions"."""
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("3", "enter", "2", "enter")
        await settle(pilot)
        session = screen.session
        assert session.moves_made == 2 and session.legal_moves()
        status = str(screen.query_one("#status").content)
        assert "can no longer be won" in status and "positions tried" in status  # moves left
        await pilot.press("1", "enter")
        await settle(pilot)
        assert session.moves_made == 3 and not session.legal_moves()
        status = str(screen.query_one("#status").content)
        assert "can no longer be won" in status and "no move is left" in status
        assert "U: back to where it can be won" in status
        await pilot.press("u", "i")
        await settle(pilot)
        assert session.message.startswith("This position cannot be won: no series of moves")
        assert "search from one end" not in session.message
        await pilot.press("U")  # the coach comes on to work out where the game can be won
        await settle(pilot)
        if session.moves_made == 2:  # still working it out: once more
            await pilot.press("U")
            await settle(pilot)
        assert session.coach.enabled and session.moves_made == 1 and not session.outcome().reason


async def test_pegs_typed_as_the_cli_prints_them_after_a_chain():
    """Regression: after a jump the landed peg stayed picked and typing its cell unpicked it,
    so `d4 b4 d6 d4 d4 f4` ended with "f4 is empty"."""
    app = KaeruApp("pegs-english:.../.../......./..ooo../...o.../.o./...", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        for cell in ("d4", "b4", "d6", "d4", "d4", "f4"):
            await pilot.press(*cell)
        await settle(pilot)
        assert [screen.session.puzzle.format_move(m) for m in screen.session.history] == [
            "d4-b4", "d6-d4", "d4-f4"
        ], screen.session.message


def panel_rows(screen) -> dict[str, str]:
    """The stats panel's rows as {name: value}."""
    rows = {}
    for line in screen.query_one(StatsPanel).rows(details=False)[1:]:
        name, _, value = line.rpartition("  ")
        rows[" ".join(name.split())] = value.strip()
    return rows


async def test_the_search_panel_never_shows_a_stale_or_false_distance():
    """Regression: the panel kept the last hint's distance after the game moved on; knights'
    table walk showed "positions looked at 0"."""
    app = KaeruApp("knights-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")
        await settle(pilot)
        rows = panel_rows(screen)
        assert rows["distance"] == "16 moves" and rows["positions looked at"] != "0", rows
        await pilot.press("m")  # the hinted move: the figures were of the position before
        await settle(pilot)
        assert "distance" not in panel_rows(screen)
        assert "past position" in screen.query_one(StatsPanel).rows()[0]


def test_a_stopped_search_shows_no_distance():
    """Regression: a cancelled 15-puzzle hint showed its IDA* bound as "distance 51"."""
    panel = StatsPanel()
    stats = SearchStats("IDA*", depth=51, expanded=10, generated=30, frontier=0, seconds=1.0)
    for status, words in (("cancelled", "not found"), ("gave up", "not found"),
                          ("no solution", "cannot be won"), ("done", "51 moves")):
        panel.show_stats(stats, status, "Hint")
        assert any(line.endswith(words) and "distance" in line for line in panel.rows()), status


async def test_turning_the_coach_on_drops_a_plain_hint():
    app = KaeruApp("sliding-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")
        await settle(pilot)
        assert screen.session.hint_move is not None and board_of(app).hint_move is not None
        await pilot.press("o")
        await settle(pilot)
        assert screen.session.hint_move is None and board_of(app).hint_move is None


async def test_the_search_panel_rows_fit_beside_a_scrollbar():
    """Regression: at 80×24 once the side panel scrolled, "positions looked at" and "time"
    wrapped their own values onto a second line."""
    app = KaeruApp("flip-it-5", resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("o", "2", "enter", "4", "enter", "s")
        await settle(pilot)
        await pilot.press("t", "full_stop")
        await settle(pilot)
        panel = screen.query_one(StatsPanel)
        width = panel.query_one("#stats-text").content_size.width
        lines = panel.text.split("\n")
        figures = [line for line in lines if line.startswith(("positions", "time"))]
        assert len(figures) == 2
        assert all(Content.from_markup(line).cell_length <= width for line in figures), figures


async def test_a_tiles_number_slides_it():
    """Regression: on sliding boards Enter, Space and digits did nothing."""
    app = KaeruApp("sliding-4x3:1 2 3 4/5 6 7 8/9 10 _ 11", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(app).session
        await pilot.press("1", "1")  # 11: no longer number goes on from it
        await settle(pilot)
        assert session.moves_made == 1
        await pilot.press("1", "0", "enter")  # 10: in line with the gap, two cells away
        await settle(pilot)
        assert session.moves_made == 3  # the run: 11 back, then 10
        await pilot.press("1", "space")  # tile 1: not in line with the gap
        await settle(pilot)
        assert session.moves_made == 3 and "tile 1 is not in line" in session.message
        await pilot.press("6")  # above the gap
        await settle(pilot)
        assert session.moves_made == 4


async def test_the_palette_offers_no_explorer_that_refuses():
    from kaeru.engine.catalogue.explorable import explore_refusal
    from kaeru.engine.puzzles.registry import get_puzzle
    from kaeru.tui.commands import PuzzleCommands

    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        provider = PuzzleCommands(app.screen)
        offered = [name for name, _, _ in provider._commands() if name.startswith("Explore ")]
        assert offered and "Explore 15-puzzle (4×4)" not in offered
        titles = {get_puzzle(i).title: i for f in families() for i in f.ids}
        assert all(explore_refusal(get_puzzle(titles[n.removeprefix("Explore ")])) is None
                   for n in offered)


async def test_the_win_toast_goes_with_its_game():
    """Regression: the win's toast stayed over the next screen (the list, the analysis)."""
    app = KaeruApp("frogs-1", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(app).session
        for move in dispatch.solve(session.puzzle, session.state, session.start).moves:
            session.push(move)
        await settle(pilot)
        assert any(n.title == "Solved!" for n in app._notifications)
        await pilot.press("A")
        await settle(pilot)
        assert not any(n.title == "Solved!" for n in app._notifications)


async def test_the_daily_list_shows_sizes_and_the_days_wins():
    from textual.widgets import OptionList

    from kaeru.screens.daily import DailyScreen

    app = KaeruApp(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        daily = DailyScreen("2026-11-23")
        await app.push_screen(daily)
        await settle(pilot)
        options = daily.query_one(OptionList)
        lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("Frog jump (4 a side)" in line for line in lines) and "✓" not in "".join(lines)
        frogs = daily.games["frogs-4"]
        options.highlighted = [o.id for o in options.options].index("frogs-4")
        await pilot.press("enter")
        await settle(pilot)
        session = play_screen(app).session
        assert session.daily == "2026-11-23" and session.game_id == frogs.game_id
        for move in dispatch.solve(session.puzzle, session.state, session.start).moves:
            session.push(move)
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is daily
        line = str(options.get_option(frogs.id).prompt)
        assert "✓" in line and f"{frogs.optimal} moves" in line


async def test_a_peg_hint_counts_the_distance_as_the_coach_does():
    """Regression: the coach said "7 jumps to go" while the hint said "6 moves to go"."""
    app = KaeruApp("pegs-english-cross", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")
        await settle(pilot)
        assert "(5 jumps to go, " in screen.session.message, screen.session.message
