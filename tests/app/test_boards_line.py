"""The line boards (row, grid, river) always fit: every puzzle of their kinds drawn whole in 56×11
(a 60×20 terminal less the play screen's chrome) in its compact form, and larger when there is
room; keys with one meaning (v letters, x gap mode, Escape); the cursor starting on a piece that
can move and following it; shapes, not colours, carrying the meaning."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, VerticalScroll

from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.rules.layout import Layout
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.boards.grid import GridBoard
from kaeru.tui.widgets.boards.river import RiverBoard
from kaeru.tui.widgets.boards.row import RowBoard
from tests.app.board_host import RecordingApp

LINE_KINDS = ("row", "grid", "river")
SMALL = (56, 11)
WIDE = (150, 45)
BIG = ("frogs-10", "flip-it-16", "number-reversal-10", "oshidori", "sliding-8x8", "sliding-5x2",
       "two-blank-4x4", "jealous-husbands-5", "wolf-goat-cabbage")


def line_ids() -> list[str]:
    found = []
    for family in families():
        for puzzle_id in family.ids:
            puzzle = get_puzzle(puzzle_id)
            if puzzle.layout(puzzle.initial()).kind in LINE_KINDS:
                found.append(puzzle_id)
    return found


def drawn(board: BoardWidget) -> Text:
    """What the board renders (every line board renders Rich Text)."""
    text = board.render()
    assert isinstance(text, Text)
    return text


def start_layout(puzzle_id: str) -> Layout:
    puzzle = get_puzzle(puzzle_id)
    return puzzle.layout(puzzle.initial())


class RoomHost(RecordingApp):
    """Boards mounted one after another in a room of a set size; keeps what they post."""

    CSS = "#room { width: 56; height: 11; }"
    BINDINGS = [Binding("escape", "escaped")]

    def __init__(self) -> None:
        super().__init__()
        self.escapes = 0  # Escapes the board let through

    def action_escaped(self) -> None:
        self.escapes += 1

    def compose(self) -> ComposeResult:
        yield Container(id="room")

    def on_mount(self) -> None:
        self.animation_level = "none"

    async def put(self, layout: Layout, size: tuple[int, int] = SMALL) -> BoardWidget:
        room = self.query_one("#room")
        room.styles.width, room.styles.height = size
        await room.remove_children()
        board = board_class(layout.kind)(layout, id="board")
        await room.mount(board)
        board.focus()
        return board


class RoomsHost(App[None]):
    """Every board at once, each in a room of its own size, one under the other."""

    def __init__(self, boards: list[tuple[str, tuple[int, int]]]) -> None:
        super().__init__()
        self.boards = boards
        self.made: list[BoardWidget] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            for puzzle_id, (width, height) in self.boards:
                room = Container(classes="room")
                room.styles.width, room.styles.height = width, height
                with room:
                    layout = start_layout(puzzle_id)
                    board = board_class(layout.kind)(layout)
                    self.made.append(board)
                    yield board


def assert_whole(board: BoardWidget, room: tuple[int, int], puzzle_id: str) -> None:
    """The board sits inside its room and what it renders fits the size it was given."""
    width, height = room
    outer = board.outer_size
    assert outer.width <= width and outer.height <= height, (puzzle_id, outer)
    lines = drawn(board).split()
    assert len(lines) <= board.size.height, (puzzle_id, len(lines), board.size)
    widest = max(line.cell_len for line in lines)
    assert widest <= board.size.width, (puzzle_id, widest, board.size)
    need_w, need_h = board.needed_size()
    assert need_w <= width and need_h <= height, (puzzle_id, board.needed_size())
    # whatever form it drew, the board has at least what it said it needs
    assert outer.width >= need_w and outer.height >= need_h, (puzzle_id, outer, need_w, need_h)


async def test_every_line_board_fits_56_by_11_and_grows_with_room() -> None:
    ids = line_ids()
    assert set(BIG) <= set(ids)
    rooms = [(puzzle_id, SMALL) for puzzle_id in ids] + [(puzzle_id, WIDE) for puzzle_id in BIG]
    app = RoomsHost(rooms)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        for board, (puzzle_id, size) in zip(app.made, rooms, strict=True):
            assert_whole(board, size, puzzle_id)
            if isinstance(board, RowBoard):
                text = drawn(board).plain
                assert str(board.cells) in text and "▲" in text, puzzle_id  # numbers, cursor
                boxed_fits = board.forms()[0].width + 2 <= size[0]
                assert (board.form.name == "boxed") == boxed_fits, (puzzle_id, size)
            if isinstance(board, GridBoard):
                assert board.boxed == (size == WIDE or board.rows * 3 + 3 <= SMALL[1]), puzzle_id


async def test_frogs_ten_draws_a_tight_row_with_staggered_numbers() -> None:
    app = RoomHost()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(start_layout("frogs-10"))
        await pilot.pause()
        assert isinstance(board, RowBoard) and board.form.name == "tight"
        cells, odd, even, marks = drawn(board).plain.splitlines()
        assert cells.split() == ["●"] * 10 + ["·"] + ["○"] * 10
        assert odd.split() == [str(n) for n in range(1, 22, 2)]
        assert even.split() == [str(n) for n in range(2, 21, 2)]
        # the cursor starts on frog 10, the black frog beside the gap, not on the gap
        assert board.cursor == 9 and marks.index("▲") == cells.index("·") - 2
        assert even.index("10") + 1 == marks.index("▲")  # its number ends under it
        await pilot.press("1", "5")  # two digits soon after each other: cell 15
        assert board.cursor == 14
        await pilot.press("enter")
        await pilot.pause()
        assert app.refused == ["the piece on cell 15 has no legal move"]


async def test_row_cursor_starts_on_a_movable_piece_and_follows_it() -> None:
    flip = get_puzzle("flip-it-6")
    start = flip.initial()
    app = RoomHost()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(flip.layout(start), WIDE)
        assert isinstance(board, RowBoard)
        assert board.shown.cells[0].vacant and board.cursor == 2  # cell 3 can jump into cell 1
        await pilot.press("enter")
        await pilot.pause()
        move = app.chosen[-1]
        board.show(flip.layout(flip.apply(start, move)), last_move=move)
        assert board.cursor == 0  # the stone landed on cell 1, and the cursor with it
        board.show(flip.layout(start))  # undo: cell 1 is the gap again; the nearest movable
        assert board.cursor == 2  # piece (the stone on cell 2 cannot jump into it)


async def test_v_switches_letters_on_row_and_river() -> None:
    app = RoomHost()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(get_puzzle("frogs-2").layout(get_puzzle("frogs-2").initial()))
        await pilot.press("v")
        text = drawn(board).plain
        assert board.plain and text.count("B") == 2 and text.count("W") == 2
        assert "●" not in text and "○" not in text
        assert "^" in text and "▲" not in text
        river = await app.put(start_layout("wolf-goat-cabbage"))
        assert isinstance(river, RiverBoard)
        glyphs = drawn(river).plain
        await pilot.press("v")
        letters = drawn(river).plain
        assert "▸" in glyphs and "▸" not in letters and ">" in letters
        assert "⏎" not in letters and "Enter" in letters


async def test_grid_x_switches_gap_mode_and_g_does_nothing() -> None:
    sliding = get_puzzle("sliding-3x3")
    goal = sliding.parse("1 2 3/4 5 6/7 8 _")
    app = RoomHost()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(sliding.layout(goal), WIDE)
        assert isinstance(board, GridBoard)
        await pilot.press("g")
        assert not board.move_gap
        await pilot.press("x", "left")  # the gap moves left: tile 8 slides right
        await pilot.pause()
        assert board.move_gap and [sliding.describe(m) for m in app.chosen] == ["8 right"]
        ids = {b.id for bindings in board._bindings.key_to_bindings.values() for b in bindings}
        assert "board.gap_mode" in ids and None not in ids


async def test_river_cursor_and_escape() -> None:
    app = RoomHost()
    river = get_puzzle("missionaries-3")
    start = river.initial()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(river.layout(start))
        assert isinstance(board, RiverBoard)
        mover = {entry.sources[0] for entry in board.shown.moves}
        assert board.cursor in mover
        await pilot.press("space")
        assert board.aboard == {board.cursor}
        await pilot.press("escape")  # empties the boat
        assert board.aboard == set() and app.escapes == 0
        await pilot.press("escape")  # nothing aboard: Escape goes on to the screen
        assert app.escapes == 1
        ids = {b.id for bindings in board._bindings.key_to_bindings.values() for b in bindings}
        assert None not in ids and "board.drop" in ids


async def test_row_and_river_colours_read_without_colour_names() -> None:
    """White stones in the default foreground, black bold: never the warning colour (orange,
    bright red in 16 colours); the cursor by reverse, the last move by underline."""
    app = RoomHost()
    async with app.run_test(size=WIDE) as pilot:
        board = await app.put(start_layout("frogs-3"), WIDE)
        await pilot.pause()
        assert isinstance(board, RowBoard)
        white = board.get_component_rich_style("rowboard--white")
        black = board.get_component_rich_style("rowboard--black")
        warning = Style(color=app.theme_variables["warning"])
        assert white.color != warning.color and black.bold and not white.bold
        assert board.get_component_rich_style("rowboard--cursor").reverse
        assert board.get_component_rich_style("rowboard--last").underline
