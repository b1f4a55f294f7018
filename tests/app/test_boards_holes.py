"""The "holes" board (knights, peg solitaire) on its own: every puzzle of that kind drawn whole
in 56×11 (its compact form) and larger where there is room; the cursor starting on a piece
that can move; every legal move made by keys alone (cursor and Enter, Shift+arrows, typed
names), the triangle's diagonal jumps included; the key plan (ids, `v`, no `G`); knights that
read without colour.

Hundreds of keys are pressed, so they go through `press`: real key events from the driver, as
`Pilot.press` sends them, but waited for by the app's own word that each was handled instead
of by Pilot's idle wait (40 ms a key)."""

from __future__ import annotations

import asyncio

import pytest
from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.containers import Container
from textual.events import Key
from textual.geometry import Region
from textual.message import Message
from textual.pilot import Pilot

from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.rules.layout import Layout
from kaeru.tui.widgets.boards.holes import HolesBoard
from tests.app.board_host import RecordingApp

SMALL, LARGE = (56, 11), (100, 45)  # the compact form's budget; a box with room to spare
HOLES_IDS = [
    puzzle_id
    for family in families()
    for puzzle_id in family.ids
    if get_puzzle(puzzle_id).layout(get_puzzle(puzzle_id).initial()).kind == "holes"
]
TRIANGLE_MIDGAME = "o/.o/oo./o.oo/..o.o"  # ten jumps: both diagonals up and down, and across


@pytest.fixture(autouse=True)
def glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAERU_ASCII", raising=False)


class Flushed(Message):
    """Posted to the board after a key: it reaches the app after whatever the key posted."""


def start_layout(puzzle_id: str) -> Layout:
    puzzle = get_puzzle(puzzle_id)
    return puzzle.layout(puzzle.initial())


class BoxHost(RecordingApp):
    """Holes boards in boxes of a fixed size, swapped in one after another; keeps what the
    board in the first box posts."""

    CSS = f"""
    Screen {{ layout: horizontal; }}
    #small {{ width: {SMALL[0]}; height: {SMALL[1]}; }}
    #large {{ width: {LARGE[0]}; height: {LARGE[1]}; }}
    /* laid out and focused as ever, but not painted after every key or board */
    .unseen {{ offset: 0 {LARGE[1] * 4}; }}
    """

    def __init__(self, boxes: tuple[str, ...] = ("small",), *, unseen: bool = False) -> None:
        super().__init__()
        self.boxes = boxes
        self.unseen = unseen
        self.handled = asyncio.Event()  # the last key went through the app's bindings
        self.flushed = asyncio.Event()  # and all the board posted because of it arrived

    def compose(self) -> ComposeResult:
        for box in self.boxes:
            yield Container(id=box, classes="unseen" if self.unseen else "")

    async def put(self, layout: Layout) -> list[HolesBoard]:
        """A new board of `layout` in every box (the first one focused)."""
        boards = []
        for box in self.boxes:
            container = self.query_one(f"#{box}", Container)
            await container.remove_children()
            board = HolesBoard(layout)
            await container.mount(board)
            boards.append(board)
        boards[0].focus()
        await asyncio.sleep(0.05)  # the focus applied
        self.chosen.clear()
        self.refused.clear()
        return boards

    def on_key(self, event: Key) -> None:  # after App._on_key ran the key's binding
        self.handled.set()

    @on(Flushed)
    def flush_done(self) -> None:
        self.flushed.set()


async def press(pilot: Pilot, *keys: str) -> None:
    """Press keys one after another on the focused board, each handled before the next."""
    app = pilot.app
    assert isinstance(app, BoxHost) and app.focused is not None and app._driver is not None
    for key in keys:
        app.handled.clear()
        app.flushed.clear()
        char = {"space": " ", "enter": "\r", "escape": "\x1b"}.get(
            key, key if len(key) == 1 else None
        )
        app._driver.send_message(Key(key, char))
        await asyncio.wait_for(app.handled.wait(), 5)
        app.focused.post_message(Flushed())
        await asyncio.wait_for(app.flushed.wait(), 5)


def drawn_whole(board: HolesBoard, box: Container) -> list[str]:
    """What is wrong with how the board sits in its box: clipped by the box, or its drawing
    wider or taller than the region it was given (lines cut short)."""
    problems = []
    if not box.region.contains_region(board.region):
        problems.append(f"board {board.region} outside its box {box.region}")
    lines = board.render().plain.split("\n")
    width, height = board.size
    if len(lines) > height:
        problems.append(f"{len(lines)} lines drawn in {height}")
    problems += [
        f"line {i} is {cell_len(line)} wide in {width}: {line!r}"
        for i, line in enumerate(lines)
        if cell_len(line) > width
    ]
    strips = board.render_lines(Region(0, 0, board.outer_size.width, board.outer_size.height))
    shown = [strip.text for strip in strips]
    problems += [
        f"line {i} not shown whole: {line!r}"
        for i, line in enumerate(lines)
        if line.rstrip() not in shown[i]
    ]
    return problems


def test_every_holes_board_starts_with_the_cursor_on_a_piece_that_can_move() -> None:
    """Where the layout says (`HolesScene.cursor`: the English and French centre), else on a
    piece with a move."""
    for puzzle_id in HOLES_IDS:
        layout = start_layout(puzzle_id)
        scene_cursor = layout.holes.cursor if layout.holes else None
        movers = {entry.sources[0] for entry in layout.moves}
        cursor = HolesBoard(layout).cursor
        assert cursor == scene_cursor or (scene_cursor is None and cursor in movers), puzzle_id
    assert HolesBoard(start_layout("pegs-triangle")).cursor in {3, 5}  # a3 or c3, not a2


async def test_every_holes_board_fits_56_by_11_whole_and_grows_where_there_is_room() -> None:
    assert {"knights-3x4", "knights-3x3", "pegs-english", "pegs-french", "pegs-triangle"} <= set(
        HOLES_IDS
    )
    app = BoxHost(("small", "large"), unseen=True)  # 24 boards twice: no painting
    async with app.run_test(size=(SMALL[0] + LARGE[0] + 4, LARGE[1] + 11)) as pilot:
        small_box = app.query_one("#small", Container)
        large_box = app.query_one("#large", Container)
        boards: list[HolesBoard] = []
        for puzzle_id in HOLES_IDS:
            layout = start_layout(puzzle_id)
            if boards and boards[0].scene().look == (layout.holes and layout.holes.look):
                for board in boards:  # the same look: the board shows the next puzzle
                    board.show(layout)
            else:
                boards = await app.put(layout)
            await pilot.pause()
            small, large = boards
            need = small.needed_size()
            assert need[0] <= SMALL[0] and need[1] <= SMALL[1], (puzzle_id, need)
            wide, tall = small.look.size(large=True)
            room = wide + 2 <= SMALL[0] and tall <= SMALL[1]  # knights-3x3's tall squares fit
            assert small.large == room, puzzle_id
            assert room or tuple(small.outer_size) == need, puzzle_id
            assert large.large and large.outer_size.height > need[1], puzzle_id
            assert drawn_whole(small, small_box) == [], puzzle_id
            assert drawn_whole(large, large_box) == [], puzzle_id
            labels = layout.holes.column_labels if layout.holes else ()
            bottom = small.render().plain.split("\n")[-1].split()
            assert list(labels) == bottom or not labels, (puzzle_id, bottom)


async def go_to(pilot: Pilot, board: HolesBoard, cell: int) -> None:
    """Up or down a row at a time to the cell's row, then left or right along it."""
    cells = board.shown.cells
    for _ in range(len(cells)):
        here, there = cells[board.cursor], cells[cell]
        if here.row == there.row:
            break
        await press(pilot, "down" if there.row > here.row else "up")
    for _ in range(len(cells)):
        if board.cursor == cell:
            return
        here = cells[board.cursor]
        await press(pilot, "right" if cells[cell].col > here.col else "left")
    assert board.cursor == cell, f"the cursor cannot reach {cells[cell].name}"


def shift_keys(board: HolesBoard, source: int, target: int) -> list[str]:
    """Shift+arrows toward the target: the longer way first (up or down on a tie), then the
    other way where the jump has one."""
    start, end = board.shown.cells[source], board.shown.cells[target]
    rows, cols = end.row - start.row, end.col - start.col
    vertical = "shift+down" if rows > 0 else "shift+up"
    horizontal = "shift+right" if cols > 0 else "shift+left"
    if not rows:
        return [horizontal]
    if not cols:
        return [vertical]
    return [vertical, horizontal] if abs(rows) >= abs(cols) else [horizontal, vertical]


BY_CURSOR = [*(pid for pid in HOLES_IDS if pid.startswith("pegs-triangle")), "pegs-english"]


async def test_every_legal_move_can_be_made_by_keys_alone() -> None:
    """On the triangle starts and the English board: every move by the cursor and Enter, by
    Shift+arrows, by typed names; on a triangle midgame (every way of jumping) and the knights
    (two Shift+arrows for a knight's L): every move by Shift+arrows."""
    triangle, knights = get_puzzle("pegs-triangle"), get_puzzle("knights-3x4")
    layouts = [(pid, start_layout(pid), True) for pid in BY_CURSOR]
    layouts.append(("triangle midgame", triangle.layout(triangle.parse(TRIANGLE_MIDGAME)), False))
    layouts.append(("knights-3x4", knights.layout(knights.initial()), False))
    app = BoxHost(("large",), unseen=True)  # hundreds of keys: no painting after each
    async with app.run_test(size=(LARGE[0] + 4, LARGE[1] + 4)) as pilot:
        for name, layout, by_cursor in layouts:
            (board,) = await app.put(layout)
            await pilot.pause()
            for entry in layout.moves:
                source, target = entry.sources[0], entry.targets[0]
                what = f"{name}: {entry.text}"
                if by_cursor:  # the cursor and Enter
                    await go_to(pilot, board, source)
                    await press(pilot, "enter")
                    assert board.selected == source, what
                    await go_to(pilot, board, target)
                    await press(pilot, "enter")
                    assert app.chosen[-1:] == [entry.move], what
                else:  # the piece picked by its name
                    await press(pilot, *board.cell_name(source))
                assert board.selected == source, what  # still chosen: no new layout came
                count = len(app.chosen)
                for key in shift_keys(board, source, target):
                    await press(pilot, key)
                    if len(app.chosen) > count:
                        break
                assert app.chosen[count:] == [entry.move], (what, app.refused[-1:])
                await press(pilot, "escape")
                if by_cursor:  # typed names
                    await press(pilot, *board.cell_name(source), *board.cell_name(target))
                    assert app.chosen[-1] == entry.move, what
                    await press(pilot, "escape")
        assert all("choose" in reason for reason in app.refused), app.refused


async def test_triangle_cursor_keeps_its_column_and_shift_arrows_pick_a_diagonal() -> None:
    triangle = get_puzzle("pegs-triangle")
    app = BoxHost(("large",))
    async with app.run_test(size=(LARGE[0] + 4, LARGE[1] + 4)) as pilot:
        (board,) = await app.put(triangle.layout(triangle.parse("o/oo/.o./oooo/ooooo")))
        names = []
        for key in ("1", "down", "down", "up", "up", "down", "down", "down", "down", "down"):
            await press(pilot, key)
            names.append(board.cell_name(board.cursor))
        # down from a1 takes the left of a2 and b2; down then up always comes back
        assert names == ["a1", "a2", "b3", "a2", "a1", "a2", "b3", "b4", "c5", "a1"]
        await press(pilot, "c", "5", "shift+up")  # c5 jumps up-left to a3 or up-right to c3
        assert board.cell_name(board.selected or 0) == "c5" and app.chosen == []
        assert "Shift+Left or Right" in app.refused[-1]
        await press(pilot, "shift+right")
        await press(pilot, "shift+up", "left", "shift+left")  # another key in between: c5's
        await press(pilot, "shift+up", "shift+left")  # only jump left; then up-left again
        assert [triangle.describe(m) for m in app.chosen] == ["c5-c3", "c5-a3", "c5-a3"]


async def test_keys_have_board_ids_and_v_is_the_only_view_switch() -> None:
    app = BoxHost()
    async with app.run_test(size=(80, 20)) as pilot:
        (board,) = await app.put(start_layout("pegs-english"))
        bindings = [b for bs in board._bindings.key_to_bindings.values() for b in bs]
        assert all((b.id or "").startswith("board.") for b in bindings), bindings
        keys = board._bindings.key_to_bindings
        assert "G" not in keys and [b.action for b in keys["g"]] == ["letter('g')"]
        await press(pilot, "g", "4")  # a hole's name, never the glyph switch
        assert board.cell_name(board.cursor) == "g4" and not board.plain
        await press(pilot, "v")
        assert board.plain and "●" not in board.render().plain
        await press(pilot, "escape")  # nothing chosen: Escape goes on (SkipAction), no error
        assert app.refused == [
            "the peg in g4 has no jump: it needs a neighbour and an empty hole beyond it"
        ]


async def test_knights_read_by_shape_not_by_colour() -> None:
    """White knights are ♘ (W) in the default foreground, black ones ♞ (B) in bold: no red."""
    app = BoxHost()
    async with app.run_test(size=(80, 20)):
        (board,) = await app.put(start_layout("knights-3x3"))
        white, black = board.style_of("white"), board.style_of("black")
        assert white.color == black.color and black.bold and not white.bold
        text = board.render().plain
        assert text.count("♞") == 2 and text.count("♘") == 2
        board.plain = True
        text = board.render().plain
        assert text.count("B") == 2 and text.count("W") == 2 and "♘" not in text
