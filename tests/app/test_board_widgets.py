"""Each board widget on its own: given a Layout, keys and clicks become one of the layout's moves
(MoveChosen) or a refusal in words (Refused); no play screen, and no puzzle beyond the one that
built the Layout (the first test builds its Layout by hand)."""

from __future__ import annotations

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.layout import BLACK, EMPTY, WHITE, Layout, LayoutMove, row_cells
from kaeru.tui.widgets.boards.grid import GridBoard
from kaeru.tui.widgets.boards.holes import HolesBoard
from kaeru.tui.widgets.boards.river import RiverBoard
from kaeru.tui.widgets.boards.row import RowBoard
from tests.app.board_host import SIZE, BoardHost


async def test_row_board_from_a_hand_made_layout():
    """Any move object will do: the widget only hands back what the layout lists."""
    layout = Layout(
        "row", 1, 3, row_cells([(BLACK, ""), (EMPTY, ""), (WHITE, "")]),
        (LayoutMove("black steps", "1 → 2", (0,), (1,)),),
    )
    app = BoardHost(layout)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert isinstance(board, RowBoard) and board.cursor == 0  # on the piece that can move
        await pilot.press("2", "enter")
        await pilot.press("3", "enter")
        await pilot.press("1", "enter")
        await pilot.pause()
        assert app.refused == ["cell 2 is empty: put the cursor on a piece",
                               "the piece on cell 3 has no legal move"]
        assert app.chosen == ["black steps"]
        board.locked = True
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == ["black steps"] and "playback is running" in app.refused[-1]


async def test_row_board_moves_the_pair_and_marks_the_last_move():
    oshidori = get_puzzle("oshidori")
    start = oshidori.initial()
    app = BoardHost(oshidori.layout(start))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("home", "right", "enter")  # cell 2: the pair 2-3 moves
        await pilot.pause()
        assert app.chosen == [(1, 8)]
        after = oshidori.apply(start, (1, 8))
        app.board.show(oshidori.layout(after), last_move=(1, 8))
        assert app.board.last_entry() is not None
        assert app.board.last_entry().targets == (8, 9)  # type: ignore[union-attr]


async def test_grid_board_arrows_gap_mode_and_a_clicked_run():
    sliding = get_puzzle("sliding-3x3")
    goal = sliding.parse("1 2 3/4 5 6/7 8 _")
    app = BoardHost(sliding.layout(goal))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert isinstance(board, GridBoard)
        await pilot.press("down")  # tile 6 slides down into the gap
        await pilot.press("left")  # nothing right of the gap
        await pilot.press("x", "left")  # the gap moves left: tile 8 slides right
        await pilot.pause()
        assert [sliding.describe(m) for m in app.chosen] == ["6 down", "8 right"]
        assert app.refused == ["no tile right of the gap to slide left"]
        app.chosen.clear()
        board.slide_run(6)  # tile 7, two cells left of the gap: 8 first, then 7
        await pilot.pause()
        first = app.chosen[-1]
        board.show(sliding.layout(sliding.apply(goal, first)), last_move=first)
        await pilot.pause()
        assert [sliding.describe(m) for m in app.chosen] == ["8 right", "7 right"]
        board.slide_run(0)  # tile 1 is not in line with the gap
        await pilot.pause()
        assert app.refused[-1] == "tile 1 is not in line with the gap"


async def test_grid_board_plays_two_blank_moves():
    ten = get_puzzle("two-blank-4x3")
    app = BoardHost(ten.layout(ten.initial()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "up")
        await pilot.pause()
        assert app.chosen == [("down", (7, 10))]
        assert app.refused == ["no tile below the gap to slide up"]


async def test_holes_board_picks_a_knight_then_its_target():
    knights = get_puzzle("knights-3x4")
    app = BoardHost(knights.layout(knights.initial()))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert isinstance(board, HolesBoard) and board.cell_name(board.cursor) == "a1"
        await pilot.press("b", "2")  # an empty square
        await pilot.press("a", "1")  # picks the knight on a1
        assert board.selected == 0 and set(board.targets()) == {5, 7}  # c2 and b3
        await pilot.press("a", "2")  # not a knight's jump
        await pilot.press("c", "2")
        await pilot.pause()
        assert app.refused == ["b2 is empty: put the cursor on a knight first",
                               "a knight cannot jump from a1 to a2"]
        assert app.chosen == [(0, 5)] and board.cell_name(board.cursor) == "c2"
        await pilot.press("v")  # glyphs off: letters B and W
        assert board.plain and "♞" not in board.render().plain


async def test_holes_board_pegs_chain_and_shift_jumps():
    pegs = get_puzzle("pegs-english")
    start = pegs.initial()
    app = BoardHost(pegs.layout(start))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.cell_name(board.cursor) == "d2"  # the layout's: the peg nearest d4 to move
        await pilot.press("enter", "shift+left", "shift+down")
        await pilot.pause()
        assert app.refused == ["the peg in d2 cannot jump that way"]
        first = app.chosen[-1]
        assert pegs.describe(first) == "d2-d4"
        board.show(pegs.layout(pegs.apply(start, first)), last_move=first)
        assert board.selected is None  # d4 cannot jump on
        assert "✕" in board.render().plain  # the jumped peg's hole
        await pilot.press("g", "4")  # a column g exists: g4 is a hole's name, not glyphs
        await pilot.press("f", "3", "d", "3")
        await pilot.pause()
        assert app.refused[-1].startswith("the peg in g4 has no jump")
        assert pegs.describe(app.chosen[-1]) == "f3-d3" and not board.plain


async def test_river_board_crossings_and_the_engines_reasons():
    river = get_puzzle("jealous-husbands-3")
    app = BoardHost(river.layout(river.initial()))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert isinstance(board, RiverBoard)
        await pilot.press("enter", "1", "enter", "2", "3")
        await pilot.pause()
        assert app.refused == [
            "the boat needs a rower: nobody is aboard",
            "Wa would be with Hb while Ha is across",
            "the boat holds 2",
        ]
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == [("Ha", "Wa")]
