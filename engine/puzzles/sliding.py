"""Sliding puzzles of any size, 2×2 to 10×10 (seeds 002 and 003): the 8-puzzle, the 15-puzzle and
their rectangular kin. Slide a tile next to the gap into it; put the tiles in order with the
gap at the bottom right.

A state is a tuple of ints row by row, 0 for the gap; a move is a `Slide(tile, direction)`.
The solver depends on the size (the heavy parts live in `engine.sliding`):

- at most 10 cells: a depth table of every position (numpy BFS, cached) — hints and solutions
  are instant walks down the table, and new games can be drawn at an exact distance;
- the 15-puzzle: compiled IDA* (`engine.sliding.optimal.ida`), with walking distance at once, the
  7-7-1 pattern databases for a position it does not settle in 2 s (built then, in seconds, once)
  and the 7-8 ones once built (`kaeru tables build`, or by the search worker when a search runs
  long);
- other boards of 11 to 16 cells: optimal breadth-first IDA* over packed codes with additive
  pattern databases (built on first use, cached);
- more cells (5×5 and up): near-optimal, with a proved bound (`engine.sliding.near_optimal.bounded`:
  weighted A* then IDA* over additive databases of small groups, built in about a second);
  the answer says how many moves at most it may be over the optimum (`Solution.lower_bound`).
  Where that search finds nothing in its time, row-by-row reduction answers (fast, far from
  optimal), bounded below by Manhattan distance + linear conflict.
"""

from __future__ import annotations

import random
import re
import sys
from dataclasses import replace
from math import factorial

import numpy as np

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.layout import Layout, LayoutMove, grid_layout
from kaeru.engine.rules.protocol import (
    BadInput,
    BudgetExceeded,
    Capabilities,
    Puzzle,
    SearchStats,
    Solution,
    Unsolvable,
)
from kaeru.engine.rules.results import DEFAULT_BUDGET, Enumeration
from kaeru.engine.rules.text_input import ascii_number
from kaeru.engine.search.enumerate import enumerate_bfs
from kaeru.engine.sliding.board import parity
from kaeru.engine.sliding.board.geometry import MAX_SIDE, MIN_SIDE, Slide, State, grid
from kaeru.engine.sliding.board.packed import MAX_CELLS as PACKED_CELLS
from kaeru.engine.sliding.board.packed import PackedBoard
from kaeru.engine.sliding.board.perm_codes import PermutationCodes
from kaeru.engine.sliding.board.shuffle import shuffle_solvable
from kaeru.engine.sliding.board.text import format_state, parse_state
from kaeru.engine.sliding.databases import pattern_db
from kaeru.engine.sliding.databases.pattern_db import (
    Partition,
    PatternDatabase,
    default_partition,
    pattern_database,
)
from kaeru.engine.sliding.near_optimal.reduction import reduce_solve
from kaeru.engine.sliding.optimal import full_table
from kaeru.engine.sliding.optimal.frontier import frontier_search
from kaeru.engine.sliding.optimal.heuristics import ManhattanLC, manhattan_lc
from kaeru.engine.tables.survey import survey

ID_PATTERN = re.compile(r"sliding-([0-9]+)x([0-9]+)")
FARTHEST_8_PUZZLE = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # seed 002: one of the two 31-move positions
OFFERED = ((3, 3), (4, 4), (5, 5), (6, 6), (8, 8), (4, 3), (5, 2))

TABLE, PATTERN_DB, REDUCTION = "depth table", "pattern databases", "row-by-row reduction"
BOUNDED = "near-optimal search"
BOUNDED_LEAST = 5_000_000  # positions: a smaller budget gets the reduction's instant answer
HEURISTICS = (
    "pattern databases", "Manhattan + linear conflict", "walking distance", "7-8 pattern databases"
)
FIFTEEN_ONLY = HEURISTICS[2:]  # the compiled IDA* of engine.sliding.optimal.ida: 4x4 only


def solver_for(width: int, height: int) -> str:
    cells = width * height
    if cells <= full_table.MAX_CELLS:
        return TABLE
    if cells <= PACKED_CELLS:
        return PATTERN_DB
    return BOUNDED


class SlidingPuzzle(Puzzle[State, Slide]):
    """The W×H sliding puzzle."""

    family = "sliding"
    board = "grid"
    capabilities = Capabilities(
        reversible=True,
        heuristic=True,  # Manhattan + linear conflict
        own_solver=True,  # depth table, pattern databases or reduction, by size
        own_enumerator=True,  # refuses boards past 10 cells
        random_starts=True,
        tables=True,
        heuristics=HEURISTICS,
    )
    rules = (
        "Slide a tile next to the gap into it (arrow keys; or type a tile's number, or click\n"
        "it, to slide it and every tile between it and the gap).\n"
        "Goal: the tiles in order row by row, the gap at the bottom right.\n"
        "Only half of all layouts can be solved: the parity of the tile order and the gap's\n"
        "distance from its corner change together on every move."
    )

    def __init__(self, width: int, height: int) -> None:
        self.grid = grid(width, height)
        self.width, self.height = width, height
        self.id = f"sliding-{width}x{height}"
        self.title = f"{self.grid.cells - 1}-puzzle ({width}×{height})"
        self.solver = solver_for(width, height)
        self.optimal_solver = self.solver not in (REDUCTION, BOUNDED)
        self.partition: Partition | None = None  # pattern groups; None = the board's default

    # ---- rules ---------------------------------------------------------------------------------
    def initial(self) -> State:
        """The standard start: on 3×3 the page's farthest position (31 moves), elsewhere a fixed
        shuffle by seed 003's method, the same every run. New games shuffle (`random_start`)."""
        if (self.width, self.height) == (3, 3):
            return FARTHEST_8_PUZZLE
        return shuffle_solvable(self.grid, random.Random(self.id))

    def explore_root(self) -> State:
        """The goal: distances from it are what seed 002 publishes (and what the tables hold)."""
        return self.grid.goal

    def goal(self, start: State) -> State:
        return self.grid.goal

    def moves(self, state: State) -> list[Slide]:
        return self.grid.slides(state)

    def apply(self, state: State, move: Slide) -> State:
        return self.grid.slide(state, move)

    def parse(self, text: str) -> State:
        return parse_state(self.grid, text, self.id)

    def format(self, state: State) -> str:
        return format_state(self.grid, state)

    def game_id(self, start: State) -> str:
        """`sliding-3x3:8,6,7/2,5,4/3,_,1`: no spaces, so it can be shared on a command line."""
        return f"{self.id}:{format_state(self.grid, start, sep=',')}"

    def describe(self, move: Slide) -> str:
        return f"{move.tile} {move.direction}"

    def move_aliases(self, move: Slide) -> tuple[str, ...]:
        """The tile alone (`7`) or the direction alone (`left`): each names one slide."""
        return str(move.tile), move.direction

    def layout(self, state: State) -> Layout:
        """The tiles in their frame; a move takes tile(s) from beside the gap into it."""
        moves = [
            LayoutMove(move, self.describe(move), *self.move_cells(state, move))
            for move in self.moves(state)
        ]
        return grid_layout(self.width, self.height, state, moves)

    def move_cells(self, state: State, move: Slide) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (state.index(move.tile),), (state.index(0),)

    def explain_illegal(self, state: State, move: Slide) -> str:
        if not isinstance(move, tuple) or len(move) != 2 or move[0] not in state:
            return f"not a move of this board: {move!r}"
        tile = move[0]
        if tile == 0:
            return "the gap is not a tile: pick a tile next to it"
        for legal in self.moves(state):
            if legal.tile == tile:
                return f"tile {tile} can only slide {legal.direction}, into the gap"
        return f"tile {tile} is not next to the gap"

    # ---- capabilities --------------------------------------------------------------------------
    def unsolvable_reason(self, state: State, start: State) -> str | None:
        return parity.unsolvable_reason(self.grid, state)

    def heuristic(self, state: State, start: State) -> int:
        return manhattan_lc(self.grid, state)

    def tables_ready(self) -> bool:
        """Whether a solve can start at once: no depth table or pattern database to build
        first (the 15-puzzle's take about 45 s of one core, once; they are cached after)."""
        if self.solver == TABLE:
            return full_table.is_cached(self.grid)
        if self._compiled_fifteen():
            return True  # walking distance serves at once; the databases come when needed
        if self.solver == PATTERN_DB:
            return pattern_db.is_cached(self.grid, self.partition or default_partition(self.grid))
        return True  # the bounded search's databases take about a second (5x5) to build

    def depth_range(self) -> tuple[int, int] | None:
        """(0, farthest) when new games can be drawn at an exact distance, else None."""
        if self.solver != TABLE:
            return None
        return 0, full_table.full_table(self.grid).max_depth

    def random_start(self, rng: random.Random, depth: int | None = None) -> State:
        """Seed 003's uniform solvable shuffle; or, given `depth`, a uniform draw among the
        positions exactly that many moves from the goal (boards of at most 10 cells)."""
        if depth is None:
            return shuffle_solvable(self.grid, rng)
        if self.solver != TABLE:
            raise BadInput(
                f"{self.id}: an exact difficulty needs every position in a table, which only "
                f"boards of at most {full_table.MAX_CELLS} cells have; leave the depth out"
            )
        table = full_table.full_table(self.grid)
        if not 0 <= depth <= table.max_depth:
            raise BadInput(f"{self.id}: depth must be 0 to {table.max_depth}, not {depth}")
        return table.random_at(rng, depth)

    # ---- solving -------------------------------------------------------------------------------
    def own_solve(self, state: State, start: State, control: Control) -> Solution[State, Slide]:
        """Optimal on boards of up to 16 cells; beyond, near-optimal with a proved bound
        (`optimal` and `lower_bound` say)."""
        if self._compiled_fifteen():
            return self._solve_fifteen(None, state, control)
        if self.solver == PATTERN_DB:
            return self.solve_with(HEURISTICS[0], state, start, control)
        self._check_solvable(state)
        if self.solver == TABLE:
            return self._walk_table(state, control)
        return self._solve_bounded(state, control)

    def _solve_bounded(self, state: State, control: Control) -> Solution[State, Slide]:
        """The near-optimal search with its proved bound; reduction when it finds nothing."""
        from kaeru.engine.sliding.near_optimal.bounded import seconds_for, solve_bounded
        from kaeru.engine.sliding.near_optimal.peel import FINISH, solve_peeled

        budget = control.budget
        if budget is not None and budget != DEFAULT_BUDGET and budget < BOUNDED_LEAST:
            return self.solve_reduction(state, control)  # a quick look (the app's, a survey's)
        seconds = seconds_for(self.grid)
        if max(self.width, self.height) > FINISH:  # line by line down to 5×5
            found = solve_peeled(self.grid, state, control, seconds)
        else:
            found = solve_bounded(self.grid, state, control, seconds)
        if found is None:
            return self.solve_reduction(state, control)
        states = found.states
        moves = [self._move_between(a, b) for a, b in zip(states, states[1:], strict=False)]
        return Solution(
            tuple(moves), tuple(states), found.over == 0, found.stats, found.lower_bound
        )

    def solve_reduction(self, state: State, control: Control) -> Solution[State, Slide]:
        """Row-by-row reduction (fast, far from optimal), bounded below by Manhattan distance
        + linear conflict; what boards past 16 cells had before the near-optimal search."""
        from kaeru.engine.sliding.near_optimal.bounded import over_words, parity_floor

        self._check_solvable(state)
        moves, meter = reduce_solve(self.grid, state, control)
        lower = parity_floor(self.grid, state, manhattan_lc(self.grid, state))
        meter.extra["lower bound"] = str(lower)
        meter.extra["over optimum"] = over_words(len(moves) - lower)
        return Solution(
            tuple(moves), self._replay(state, moves), len(moves) == lower, meter.finish(), lower
        )

    def solve_with(
        self, heuristic: str, state: State, start: State, control: Control
    ) -> Solution[State, Slide]:
        """Optimal search with a chosen heuristic (one of HEURISTICS) on boards of at most 16
        cells, so the figures of the pattern databases can be set against Manhattan + linear
        conflict. The budget bounds the positions held in one search pass."""
        if self.grid.cells > PACKED_CELLS:
            raise BadInput(
                f"{self.id}: optimal search takes boards of at most {PACKED_CELLS} cells"
            )
        if heuristic not in HEURISTICS:
            choices = ", ".join(HEURISTICS)
            raise BadInput(f"unknown heuristic {heuristic!r}; choose one of {choices}")
        if heuristic in FIFTEEN_ONLY:
            if (self.width, self.height) != (4, 4):
                raise BadInput(f"{heuristic} is for the 15-puzzle (sliding-4x4) only")
            return self._solve_fifteen(heuristic, state, control)
        self._check_solvable(state)
        if heuristic == HEURISTICS[0]:
            h: PatternDatabase | ManhattanLC = pattern_database(
                self.grid, self.partition, control
            )
        else:
            h = ManhattanLC(PackedBoard(self.grid, tuple(range(self.grid.cells))))
        meter = Meter(f"BFIDA* + {h.name}", control.unlimited())  # the budget bounds one pass
        meter.extra["h MD+LC"] = str(manhattan_lc(self.grid, state))
        budget = control.budget if control.budget is not None else sys.maxsize
        states = frontier_search(self.grid, state, h, meter, budget)
        meter.depth = len(states) - 1
        moves = [self._move_between(a, b) for a, b in zip(states, states[1:], strict=False)]
        return Solution(tuple(moves), tuple(states), True, meter.finish())

    def _compiled_fifteen(self) -> bool:
        """The 15-puzzle with its default pattern groups: the compiled IDA* serves."""
        return (self.width, self.height) == (4, 4) and self.partition is None

    def _solve_fifteen(
        self, heuristic: str | None, state: State, control: Control
    ) -> Solution[State, Slide]:
        """Compiled IDA*: walking distance, the 7-8 databases, or (None) the best at hand."""
        from kaeru.engine.sliding.optimal import ida

        self._check_solvable(state)
        if heuristic == FIFTEEN_ONLY[0]:
            found = ida.solve_walking(4, state, control)
        elif heuristic == FIFTEEN_ONLY[1]:
            found = ida.solve_pattern(state, control)
        else:
            found = ida.solve_fifteen(state, control)
        assert found is not None
        states = found.states
        moves = [self._move_between(a, b) for a, b in zip(states, states[1:], strict=False)]
        return Solution(tuple(moves), tuple(states), True, found.stats)

    def _check_solvable(self, state: State) -> None:
        reason = parity.unsolvable_reason(self.grid, state)
        if reason:
            raise Unsolvable(reason)

    def _walk_table(self, state: State, control: Control) -> Solution[State, Slide]:
        table = full_table.full_table(self.grid, control)
        meter = Meter("depth table walk", control)
        moves, states = table.walk(state)
        meter.depth = len(moves)
        meter.expanded = len(moves)
        meter.generated = sum(len(self.grid.neighbours[s.index(0)]) for s in states[:-1])
        meter.extra["table"] = f"{int(table.histogram.sum()):,} positions"
        return Solution(tuple(moves), tuple(states), True, meter.finish())

    def _replay(self, state: State, moves: list[Slide]) -> tuple[State, ...]:
        states = [state]
        for move in moves:
            states.append(self.grid.slide(states[-1], move))
        return tuple(states)

    def _move_between(self, before: State, after: State) -> Slide:
        return self.grid.slide_from(before, before.index(0), after.index(0))

    def own_enumerate(self, root: State, control: Control) -> Enumeration:
        """Every position by distance from `root` (boards of at most 10 cells)."""
        if self.solver != TABLE:
            total = factorial(self.grid.cells) // 2
            raise BudgetExceeded(
                f"{self.id} has {total:,} positions: too many to enumerate "
                f"(boards of at most {full_table.MAX_CELLS} cells can be)",
                SearchStats("enumeration"),
            )
        return enumerate_bfs(self, root, control)


class SmallSlidingPuzzle(SlidingPuzzle):
    """A board with at most 10 cells: also a perfect index, so enumeration runs on numpy."""

    capabilities = replace(SlidingPuzzle.capabilities, perfect_index=True)

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height)
        self._codes = PermutationCodes(self.grid)
        self.space_size = self._codes.space_size

    def encode(self, state: State) -> int:
        return self._codes.encode(state)

    def decode(self, code: int) -> State:
        return self._codes.decode(code)

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        return self._codes.expand_codes(codes)

    def own_enumerate(self, root: State, control: Control) -> Enumeration:
        """Every position by distance from `root`, by the table's own breadth-first search."""
        meter = Meter("numpy BFS over the permutation index", control.unlimited())
        depth = full_table.layered_depths(self._codes, root, meter)
        return survey(depth, self.decode, self.format, self.format(root), meter.finish())


def make_sliding(width: int, height: int) -> SlidingPuzzle:
    if solver_for(width, height) == TABLE:
        return SmallSlidingPuzzle(width, height)
    return SlidingPuzzle(width, height)


SIZE_PATTERN = re.compile(r"\s*([0-9]{1,4})\s*(?:[x×*]\s*([0-9]{1,4})\s*)?", re.IGNORECASE)
SIZE_WORDS = f"{MIN_SIDE} to {MAX_SIDE} columns and rows"


def sized_id(text: str) -> str:
    """The id of the sliding puzzle of a size a player typed: `10x10` (columns x rows), `9 x 9`,
    or `10` for a square; BadInput (one line) when it is not a size or out of range."""
    found = SIZE_PATTERN.fullmatch(text)
    if not found:
        raise BadInput(f"give a size like 10x10 (columns x rows; {SIZE_WORDS})")
    width = int(found[1])
    height = int(found[2]) if found[2] else width
    puzzle_id = f"sliding-{width}x{height}"
    _make(puzzle_id)  # refuses a size out of range, in the same words as the id
    return puzzle_id


def _make(puzzle_id: str) -> SlidingPuzzle | None:
    found = ID_PATTERN.fullmatch(puzzle_id)
    if not found:
        return None
    width, height = ascii_number(found[1]) or 0, ascii_number(found[2]) or 0
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise BadInput(
            f"sliding puzzles take {SIZE_WORDS} "
            f"(sliding-WxH, W columns), not {width}x{height}"
        )
    return make_sliding(width, height)


FAMILY = Family(
    key="sliding",
    title="Sliding puzzles",
    blurb="The 8-puzzle, the 15-puzzle and friends, 2×2 to 10×10: slide the tiles into order.",
    ids=tuple(f"sliding-{w}x{h}" for w, h in OFFERED),
    make=_make,
    order=60,
)
