"""Knight exchange (seed 001, problem 5) and Guarini's problem: knights move as in chess onto
empty squares, any knight at any time, until the black and white knights have swapped places.

A position is a string of `B`, `W` and `_`, row by row from the top; its text form puts `/`
between rows (`BBB/___/___/WWW`). Squares are numbered 0.. row by row from the top for
`move_cells`, and named for players as peg holes are: files a.. from the left, rows 1.. from the
top, the order the text form reads in (until the store's schema 5 they were chess ranks counted
from the bottom; that step renamed the saved moves). The goal is the colour swap of the start,
so any legal start has a goal, unless one is chosen (`knights-3x4@WWW/___/___/BBB`, see
`_chosen_goal`): the explorer's farthest positions open as games towards the standard game's
goal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kaeru.engine.puzzles._chosen_goal import (
    SwappedOrChosenGoal,
    chosen_rule,
    split_goal,
    swap_colours,
)
from kaeru.engine.puzzles._knights_space import enumerate_by_table, solve_by_table
from kaeru.engine.puzzles._random import draw_swappable
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.layout import EMPTY as EMPTY_CELL
from kaeru.engine.rules.layout import (
    KNIGHT_BLACK,
    KNIGHT_WHITE,
    Cell,
    HolesScene,
    Layout,
    LayoutMove,
)
from kaeru.engine.rules.protocol import BadInput, Capabilities, Puzzle
from kaeru.engine.rules.results import Enumeration, Solution, Unsolvable

EMPTY = "_"
PIECES = "BW"
Move = tuple[int, int]  # (from square, to square)

KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@dataclass(frozen=True)
class KnightsVariant:
    """One offered board: its id, size, start and a line about where it comes from."""

    id: str
    title: str
    width: int
    height: int
    start: str  # row by row from the top, no separators
    source: str


VARIANTS = {
    "knights-3x4": KnightsVariant(
        "knights-3x4",
        "Knight exchange (3×4)",
        3,
        4,
        "BBB" + "___" * 2 + "WWW",
        "seed 001, problem 5: 16 moves; 18,480 positions; farthest 22",
    ),
    "knights-3x3": KnightsVariant(
        "knights-3x3",
        "Guarini's problem (3×3)",
        3,
        3,
        "W_W" + "___" + "B_B",
        "Paolo Guarini, 1512: white knights on the top corners, black on the bottom corners",
    ),
}


def knight_graph(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares a knight reaches from it, in ascending order."""
    graph = []
    for square in range(width * height):
        row, col = divmod(square, width)
        targets = [
            (row + dr) * width + col + dc
            for dr, dc in KNIGHT_STEPS
            if 0 <= row + dr < height and 0 <= col + dc < width
        ]
        graph.append(tuple(sorted(targets)))
    return tuple(graph)


class Knights(SwappedOrChosenGoal, Puzzle[str, Move]):
    """Swap the black and white knights on a small board."""

    family = "knights"
    board = "knights"
    capabilities = Capabilities(  # a knight move is undone by the move back
        reversible=True, own_solver=True, own_enumerator=True, random_starts=True
    )

    def __init__(self, variant: KnightsVariant, goal: str | None = None) -> None:
        """The board of `variant`; `goal` chooses the goal of every game (`_chosen_goal`),
        else each game's goal is its start with the colours swapped."""
        self.variant = variant
        self.chosen_goal = goal
        self.id = variant.id
        self.title = variant.title
        self.width = variant.width
        self.height = variant.height
        self.size = self.width * self.height
        self.graph = knight_graph(self.width, self.height)
        self.example = self.format(variant.start)
        self.rules = (
            "Knights move as in chess — two squares one way, one across — onto\n"
            "an empty square; any knight may move at any time.\n"
            "Goal: the black (B) and white (W) knights swap places.\n"
            f"Squares are named by file a–{self.file_letter(self.width - 1)} "
            f"from the left and row 1–{self.height}\nfrom the top, as peg holes are.\n"
            f"Text form: rows from the top, / between rows: {self.example}"
        )
        if goal is not None:
            self.id += f"@{self.format(goal)}"
            self.rules = self.rules.replace(
                "Goal: the black (B) and white (W) knights swap places.",
                chosen_rule(self.format(goal)),
            )

    # ---- squares --------------------------------------------------------------------------------
    @staticmethod
    def file_letter(col: int) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[col]

    def square_name(self, square: int) -> str:
        row, col = divmod(square, self.width)
        return f"{self.file_letter(col)}{row + 1}"

    # ---- the rules ------------------------------------------------------------------------------
    def initial(self) -> str:
        return self.variant.start

    def aiming_at(self, goal: str) -> Knights:
        return self if goal == self.chosen_goal else Knights(self.variant, goal)

    def random_start(self, rng: random.Random, depth: int | None = None) -> str:
        """The board's knights placed uniformly among the placements that can swap (on 3×4
        all 18,480 can; on Guarini's 3×3 a knight in the centre never moves). The goal follows
        the start, so no one table holds distances: `engine.catalogue.random_games` draws at an
        exact
        depth by solving draws."""
        if depth is not None:
            raise BadInput(f"{self.id}: no depth table (the goal follows the start)")
        return draw_swappable(self, self.variant.start, rng)

    def unsolvable_reason(self, state: str, start: str) -> str | None:
        blacks, whites = state.count("B"), state.count("W")
        if self.chosen_goal is not None:
            aim = self.chosen_goal
            if (blacks, whites) != (aim.count("B"), aim.count("W")):
                return (
                    f"knights never change colour, so {blacks} B and {whites} W cannot become "
                    f"the goal's {aim.count('B')} B and {aim.count('W')} W"
                )
            return None
        if blacks != whites:
            return (
                f"knights never change colour, so swapping needs as many black as white "
                f"knights ({blacks} B, {whites} W)"
            )
        return None

    def moves(self, state: str) -> list[Move]:
        return [
            (src, dst)
            for src, piece in enumerate(state)
            if piece != EMPTY
            for dst in self.graph[src]
            if state[dst] == EMPTY
        ]

    def apply(self, state: str, move: Move) -> str:
        src, dst = move
        cells = list(state)
        cells[dst], cells[src] = state[src], EMPTY
        return "".join(cells)

    def predecessors(self, state: str) -> Iterator[tuple[str, Move]]:
        for src, dst in self.moves(state):
            yield self.apply(state, (src, dst)), (dst, src)

    # ---- solving and enumerating with a depth table (engine.tables) ------------------------------
    def own_solve(self, state: str, start: str, control: Control) -> Solution[str, Move]:
        """Walk down the goal's depth table: optimal, in milliseconds."""
        if reason := self.unsolvable_reason(state, start):
            raise Unsolvable(reason)
        return solve_by_table(self.graph, state, self.goal(start), control)

    def own_enumerate(self, root: str, control: Control) -> Enumeration:
        return enumerate_by_table(self.graph, root, self.format, control)

    # ---- text -----------------------------------------------------------------------------------
    def parse(self, text: str) -> str:
        rows = [row for row in "".join(text.split()).upper().split("/") if row]
        expected = (
            f"{self.height} rows of {self.width} squares of B, W and {EMPTY} "
            f"separated by /, e.g. {self.example}"
        )
        if len(rows) == 1 and len(rows[0]) == self.size:
            rows = [rows[0][i : i + self.width] for i in range(0, self.size, self.width)]
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            raise BadInput(f"{self.id}: expected {expected}")
        state = "".join(rows)
        stray = sorted(set(state) - set(PIECES) - {EMPTY})
        if stray:
            raise BadInput(f"{self.id}: unexpected {''.join(stray)!r}, expected {expected}")
        blacks, whites = state.count("B"), state.count("W")
        if blacks == 0 and whites == 0:
            raise BadInput(f"{self.id}: the board has no knights, expected {expected}")
        if blacks + whites == self.size:
            raise BadInput(f"{self.id}: the board is full, so no knight can move")
        return state

    def format(self, state: str) -> str:
        return "/".join(state[i : i + self.width] for i in range(0, self.size, self.width))

    def describe(self, move: Move) -> str:
        src, dst = move
        return f"{self.square_name(src)}-{self.square_name(dst)}"

    def move_aliases(self, move: Move) -> tuple[str, ...]:
        """`a1b3` and `a1 b3` besides `a1-b3`."""
        src, dst = move
        return f"{self.square_name(src)}{self.square_name(dst)}", (
            f"{self.square_name(src)} {self.square_name(dst)}"
        )

    def move_cells(self, state: str, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
        src, dst = move
        return (src,), (dst,)

    def layout(self, state: str) -> Layout:
        """A chessboard: every square a cell, named a1, b2, ... (rows from the top); a move
        leaves one square for another."""
        kinds = {"B": KNIGHT_BLACK, "W": KNIGHT_WHITE, EMPTY: EMPTY_CELL}
        cells = tuple(
            Cell(self.square_name(square), *divmod(square, self.width), kinds[piece])
            for square, piece in enumerate(state)
        )
        moves = tuple(
            LayoutMove(move, self.describe(move), (move[0],), (move[1],))
            for move in self.moves(state)
        )
        scene = HolesScene(
            "squares",
            tuple(str(row + 1) for row in range(self.height)),
            tuple(self.file_letter(col) for col in range(self.width)),
        )
        return Layout("holes", self.height, self.width, cells, moves, holes=scene)

    def explain_illegal(self, state: str, move: Move) -> str:
        try:
            src, dst = move
            valid = all(isinstance(x, int) and 0 <= x < self.size for x in (src, dst))
        except (TypeError, ValueError):
            valid = False
        if not valid:
            return f"not a move on this board: {move!r} (expected two squares 0–{self.size - 1})"
        name_src, name_dst = self.square_name(src), self.square_name(dst)
        if state[src] == EMPTY:
            return f"there is no knight on {name_src}"
        if dst not in self.graph[src]:
            return f"a knight cannot jump from {name_src} to {name_dst}"
        if state[dst] != EMPTY:
            return f"{name_dst} is taken: knights move only onto empty squares"
        return super().explain_illegal(state, move)

    # ---- symmetry --------------------------------------------------------------------------------
    def board_maps(self) -> list[tuple[int, ...]]:
        """The board's symmetries as square permutations (`image[i]` = where square i goes):
        the 4 of a rectangle, the 8 of a square."""
        w, h = self.width, self.height
        maps = []
        for swap_axes in (False, True) if w == h else (False,):
            for flip_rows in (False, True):
                for flip_cols in (False, True):
                    image = []
                    for square in range(self.size):
                        row, col = divmod(square, w)
                        if swap_axes:
                            row, col = col, row
                        row = h - 1 - row if flip_rows else row
                        col = w - 1 - col if flip_cols else col
                        image.append(row * w + col)
                    maps.append(tuple(image))
        return maps

    def transform(self, state: str, image: tuple[int, ...], swap: bool = False) -> str:
        """`state` moved square by square along `image`, colours swapped when `swap`."""
        cells = [EMPTY] * self.size
        for square, piece in enumerate(state):
            cells[image[square]] = piece
        moved = "".join(cells)
        return swap_colours(moved) if swap else moved

    def start_symmetries(self, start: str) -> list[tuple[tuple[int, ...], bool]]:
        """The (board map, colour swap) pairs that fix `start`: they keep every position's
        distance from the start, so positions are counted "up to symmetry" by them."""
        return [
            (image, swap)
            for image in self.board_maps()
            for swap in (False, True)
            if self.transform(start, image, swap) == start
        ]


def _make(puzzle_id: str) -> Knights | None:
    """The puzzle for `knights-<board>[@<goal layout>]`; None when not ours."""
    if not puzzle_id.startswith("knights-"):
        return None
    base, goal_text = split_goal(puzzle_id)
    if base in VARIANTS:
        puzzle = Knights(VARIANTS[base])
        return puzzle if goal_text is None else puzzle.aiming_at(puzzle.parse(goal_text))
    offered = ", ".join(VARIANTS)
    raise BadInput(f"no knights board '{base}': the boards offered are {offered}")


FAMILY = Family(
    key="knights",
    title="Knight exchange",
    blurb="Black and white knights swap places, moving as in chess.",
    ids=tuple(VARIANTS),
    make=_make,
    order=50,
)
