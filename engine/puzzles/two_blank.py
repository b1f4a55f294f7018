"""Two-blank sliding puzzles (seed 002): the 7-, 10- and 14-puzzle.

Two side-by-side empty cells move as a pair: a tile beside the pair slides across it, and the
two tiles directly above or below the pair slide into it together. Goal: tiles in order with
the pair at the bottom right. Every position has a perfect index (`engine.two_blank.index`);
a one-byte depth table over it, cached on disk, makes hints, solving and enumeration instant.
"""

from __future__ import annotations

import random
from functools import cached_property

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.layout import Layout, LayoutMove, grid_layout
from kaeru.engine.rules.protocol import (
    BadInput,
    Capabilities,
    Puzzle,
    SearchStats,
    Solution,
    Unsolvable,
)
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.rules.text_input import ascii_number
from kaeru.engine.two_blank.geometry import Geometry, State
from kaeru.engine.two_blank.index import TwoBlankIndex
from kaeru.engine.two_blank.problems import ProblemSet
from kaeru.engine.two_blank.survey import survey
from kaeru.engine.two_blank.table import descend, has_table, index_depths, load_or_build
from kaeru.engine.two_blank.text import format_state, parse_state

Move = tuple[str, tuple[int, ...]]  # (direction the tiles travel, the tiles moved)

NAMES = {(3, 3): "7-puzzle", (4, 3): "10-puzzle", (3, 4): "10-puzzle (tall)", (4, 4): "14-puzzle"}
OFFERED = ("two-blank-3x3", "two-blank-4x3", "two-blank-4x4")
# Default starts: the seed's 8-move figure for the 10-puzzle; problems from each board's problem
# set for the others (their depths are checked by the tests).
STARTS = {
    (3, 3): "1 2 4/7 5 6/3 _ _",
    (4, 3): "1 8 3 2/5 4 7 10/9 6 _ _",
    (3, 4): "1 2 3/4 5 7/10 8 9/6 _ _",
    (4, 4): "1 2 3 6/5 4 7 12/9 14 11 10/13 8 _ _",
}
SIDE_WORDS = {"right": "left of", "left": "right of", "down": "above", "up": "below"}


class TwoBlank(Puzzle[State, Move]):
    family = "two-blank"
    board = "two-blank"
    capabilities = Capabilities(
        reversible=True,
        perfect_index=True,  # the positions reachable from the goal
        own_solver=True,  # walk down the depth table
        own_enumerator=True,  # the table's survey, with the pair-at-the-end series
        random_starts=True,
        tables=True,
    )
    rules = (
        "Two empty cells side by side move as a pair.\n"
        "A tile beside the pair slides across it (two cells); the two tiles\n"
        "directly above or below the pair slide into it together.\n"
        "Goal: the tiles in order, the empty pair at the bottom right."
    )

    def __init__(self, width: int, height: int) -> None:
        self.geometry = Geometry(width, height)
        self.width, self.height = width, height
        self.id = f"two-blank-{width}x{height}"
        self.title = f"{NAMES[width, height]}: two blanks, {width}×{height}"

    @cached_property
    def index(self) -> TwoBlankIndex:
        return TwoBlankIndex(self.geometry)

    @property
    def space_size(self) -> int:
        """Positions reachable from the goal (the index's size)."""
        return self.index.space_size

    # ---- rules ---------------------------------------------------------------------------------
    def initial(self) -> State:
        return self.parse(STARTS[self.width, self.height])

    def goal(self, start: State) -> State:
        return self.geometry.goal

    def explore_root(self) -> State:
        """The goal: its depth table is the one cached, and the seed counts from it."""
        return self.geometry.goal

    def moves(self, state: State) -> list[Move]:
        g = self.geometry
        left = g.pair_of(state)
        found = []
        for direction in g.directions(left):
            sources, _ = g.move_cells(left, direction)
            found.append((direction, tuple(state[c] for c in sources)))
        return found

    def apply(self, state: State, move: Move) -> State:
        return self.geometry.slide(state, move[0])

    def parse(self, text: str) -> State:
        return parse_state(self.geometry, text, self.id)

    def format(self, state: State) -> str:
        return format_state(self.geometry, state)

    def game_id(self, start: State) -> str:
        """`two-blank-3x3:1,2,4/7,5,6/3,_,_`: no spaces, safe to paste on a command line."""
        return f"{self.id}:{format_state(self.geometry, start).replace(' ', ',')}"

    def describe(self, move: Move) -> str:
        direction, tiles = move
        return f"{', '.join(str(t) for t in tiles)} {direction}"

    def format_move(self, move: Move) -> str:
        """`3 up`, `5,6 down`: the tiles moved and where they go."""
        direction, tiles = move
        return f"{','.join(str(t) for t in tiles)} {direction}"

    def move_aliases(self, move: Move) -> tuple[str, ...]:
        """The direction alone (`up`), or the tiles with spaces (`5 6 down`)."""
        direction, tiles = move
        return direction, f"{' '.join(str(t) for t in tiles)} {direction}"

    def layout(self, state: State) -> Layout:
        """The tiles in their frame; a move takes tile(s) from beside the gap into it."""
        moves = [
            LayoutMove(move, self.describe(move), *self.move_cells(state, move))
            for move in self.moves(state)
        ]
        return grid_layout(self.width, self.height, state, moves)

    def move_cells(self, state: State, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.geometry.move_cells(self.geometry.pair_of(state), move[0])

    def explain_illegal(self, state: State, move: Move) -> str:
        if not (isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], tuple)):
            return f"not a two-blank move: {move!r} (expected a direction and the tiles moved)"
        direction, tiles = move
        legal = dict(self.moves(state))
        if direction not in SIDE_WORDS:
            return f"'{direction}' is not a direction: use up, down, left or right"
        if direction not in legal:
            return f"no tile {SIDE_WORDS[direction]} the empty pair to slide {direction}"
        real = ", ".join(str(t) for t in legal[direction])
        named = ", ".join(str(t) for t in tiles)
        return f"the tile(s) that slide {direction} here are {real}, not {named}"

    def unsolvable_reason(self, state: State, start: State) -> str | None:
        return self.index.unreachable_reason(state)

    # ---- the depth table -----------------------------------------------------------------------
    def has_table(self) -> bool:
        """Whether hints and solving are instant now (the table is in memory or on disk)."""
        return has_table(self.id)

    def tables_ready(self) -> bool:
        return self.has_table()

    def depth_table(self, control: Control = QUIET) -> np.ndarray:
        """Distance to the goal for every code; built (with progress) and cached on first use."""
        return load_or_build(self.id, self.index, control).table

    def distance(self, state: State) -> int:
        """Moves from `state` to the goal (the table is built if need be)."""
        if reason := self.unsolvable_reason(state, state):
            raise Unsolvable(reason)
        return int(self.depth_table()[self.index.encode(state)])

    def own_solve(self, state: State, start: State, control: Control) -> Solution[State, Move]:
        """Walk down the depth table: optimal and instant once the table exists (the budget
        does not apply: the table's size is fixed and small)."""
        if reason := self.unsolvable_reason(state, start):
            raise Unsolvable(reason)
        loaded = load_or_build(self.id, self.index, control)
        path = descend(self.index, loaded.table, state)
        moves = []
        before = state
        for direction, after in path:
            moves.append(next(m for m in self.moves(before) if m[0] == direction))
            before = after
        stats = SearchStats(
            algorithm=f"depth table walk ({loaded.source})",
            depth=len(path),
            expanded=len(path),
            generated=sum(len(self.moves(s)) for s in (state, *(a for _, a in path[:-1]))),
            seconds=loaded.stats.seconds,
            extra=(("table", f"{self.space_size:,} positions"),),
        )
        return Solution(tuple(moves), (state, *(after for _, after in path)), True, stats)

    def own_enumerate(self, root: State, control: Control) -> Enumeration:
        """Everything reachable from `root` by depth, with the pair-at-the-end count per depth
        (`series["pair_at_end"]`). From the goal this is the cached depth table. The budget
        does not apply: memory is one byte a position whatever happens."""
        if root == self.geometry.goal:
            loaded = load_or_build(self.id, self.index, control)
            return survey(self.index, loaded.table, self.format(root), loaded.stats, self.format)
        rename = self.index.relabel(root) if self.unsolvable_reason(root, root) else {}
        renamed = tuple(rename.get(t, t) for t in root)
        meter = Meter("numpy BFS over the two-blank index", control.unlimited())
        depth = index_depths(self.index, self.index.encode(renamed), meter)
        back = {new: old for old, new in rename.items()}
        return survey(self.index, depth, self.format(root), meter.finish(), self.format, back)

    # ---- the problem set and new games ---------------------------------------------------------
    def problem_set(self, control: Control = QUIET) -> ProblemSet:
        """Every position with the pair at the bottom right, with its depth."""
        return ProblemSet(self.index, self.depth_table(control))

    def random_start(self, rng: random.Random, depth: int | None = None) -> State:
        """A problem exactly `depth` moves from the goal (BadInput when there is none), or any
        problem but the goal itself when `depth` is None (that needs no table)."""
        if depth is not None:
            return self.problem_set().pick(rng, depth=depth).state
        index = self.index
        offset = self.geometry.goal_pair * index.block
        while True:
            state = index.decode(offset + rng.randrange(index.block))
            if state != self.geometry.goal:
                return state

    def random_start_in_band(self, rng: random.Random, low: int, high: int) -> State:
        """A problem between `low` and `high` moves from the goal, inclusive."""
        return self.problem_set().pick(rng, band=(low, high)).state

    # ---- CodedPuzzle (positions reachable from the goal) ---------------------------------------
    def encode(self, state: State) -> int:
        return self.index.encode(state)

    def decode(self, code: int) -> State:
        return self.index.decode(code)

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        return self.index.expand_codes(codes)


def _make(puzzle_id: str) -> TwoBlank | None:
    prefix = "two-blank-"
    if not puzzle_id.startswith(prefix):
        return None
    size = puzzle_id[len(prefix) :]
    width, x, height = size.partition("x")
    w, h = ascii_number(width), ascii_number(height)
    if not x or w is None or h is None:
        raise BadInput(
            f"'{puzzle_id}': expected two-blank-WxH, e.g. two-blank-4x3 (4 wide, 3 tall)"
        )
    if (w, h) not in NAMES:
        raise BadInput(f"two-blank boards are 3x3, 4x3, 3x4 or 4x4 (width x height), not {w}x{h}")
    return TwoBlank(w, h)


FAMILY = Family(
    key="two-blank",
    title="Two-blank sliding puzzles",
    blurb="Two empty cells move as a pair: 7, 10 and 14 tiles (a whole state space in a table).",
    ids=OFFERED,
    make=_make,
    order=40,
)
