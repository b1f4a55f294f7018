"""Flip It (seed 000): a stone jumps into the empty cell over at least one stone, flipping every
stone it passes; turn every stone over with the empty cell back where it began.

Solved by the seed's colour-swap bidirectional search: positions reached backwards from the goal
are the colour swaps of positions reached forwards from the start, so one search serves both
ends. Both the search (engine.search.packed) and enumeration (engine.tables.coded) run in numpy
over a perfect index: empty cell << size | white bits.

Each game's goal is its start with the colours swapped, unless one is chosen
(`flip-it-7@_WWWWWW`, see `_chosen_goal`: the explorer's farthest positions open as games
towards the standard game's goal); between a start and a chosen goal the colour swap does not
map one onto the other, so the two-sided search answers.
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np

from kaeru.engine.puzzles._chosen_goal import (
    SWAP,
    SwappedOrChosenGoal,
    chosen_rule,
    split_goal,
)
from kaeru.engine.puzzles._line import EMPTY, LinePuzzle, Move
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import BadInput, Capabilities, Solution, Unsolvable
from kaeru.engine.rules.text_input import ascii_number
from kaeru.engine.search.dense_path import dense_path
from kaeru.engine.search.packed import solve_packed

SIZES = range(5, 17)
BYTES_PER_MARK = 2  # the byte table, and the layer being grown (int64) spread over the space


class FlipIt(SwappedOrChosenGoal, LinePuzzle):
    family = "flip-it"
    alphabet = "BW"
    capabilities = Capabilities(
        reversible=True, perfect_index=True, packed=True, own_solver=True, random_starts=True
    )
    rules = (
        "A stone may move into the empty cell only by jumping over at least one stone.\n"
        "Every stone it passes over flips (black ↔ white); the jumping stone keeps its colour.\n"
        "Goal: every stone flipped, with the empty cell back where it started."
    )

    def __init__(self, size: int, goal: str | None = None) -> None:
        """Flip It on `size` cells; `goal` chooses the goal of every game (`_chosen_goal`),
        else each game's goal is its start with the colours swapped."""
        self.size = size
        self.id = f"flip-it-{size}"
        self.title = f"Flip It ({size} cells)"
        self.example = EMPTY + "B" * (size - 1)
        self.chosen_goal = goal
        if goal is not None:
            self.id += f"@{goal}"
            self.rules = FlipIt.rules.rsplit("\n", 1)[0] + "\n" + chosen_rule(goal)
        self.space_size = size << size
        self._between = np.zeros((size, size), dtype=np.int64)
        for e in range(size):
            for j in range(size):
                lo, hi = min(e, j), max(e, j)
                self._between[e, j] = sum(1 << k for k in range(lo + 1, hi))

    def initial(self) -> str:
        return self.example

    def aiming_at(self, goal: str) -> FlipIt:
        return self if goal == self.chosen_goal else FlipIt(self.size, goal)

    def random_start(self, rng: random.Random, depth: int | None = None) -> str:
        """Uniform over every layout: the empty cell on any of the cells, each stone black or
        white (size·2^(size-1) layouts). From 5 cells up all layouts are one connected space
        (tests/engine/test_random_games.py checks it), so each can be flipped. The goal follows
        the start, so no one table holds distances: `engine.catalogue.random_games` draws at an
        exact
        depth by solving draws."""
        if self.size < 5:
            raise BadInput(f"{self.id}: no layout of fewer than 5 cells can be flipped")
        if depth is not None:
            raise BadInput(f"{self.id}: no depth table (the goal follows the start)")
        empty = rng.randrange(self.size)
        return "".join(EMPTY if i == empty else "BW"[rng.randrange(2)] for i in range(self.size))

    def moves(self, state: str) -> list[Move]:
        e = state.index(EMPTY)
        return [(j, e) for j in range(self.size) if abs(j - e) >= 2]

    def apply(self, state: str, move: Move) -> str:
        j, e = move
        lo, hi = (j, e) if j < e else (e, j)
        cells = list(state)
        cells[lo + 1 : hi] = state[lo + 1 : hi].translate(SWAP)
        cells[e], cells[j] = state[j], EMPTY
        return "".join(cells)

    # ---- solving: the colour-swap bidirectional search ---------------------------------------
    def own_solve(self, state: str, start: str, control: Control) -> Solution[str, Move]:
        """From the start, the colour-swap trick (one search serves both ends); mid-game, where
        the trick does not apply, a two-sided search. Both mark their layers in a byte table
        over the perfect index (`engine.search.dense_path`)."""
        goal = self.goal(start)
        assert goal is not None
        source, target = self.encode(state), self.encode(goal)
        swapped = int(self.mirror_packed(np.array([source], dtype=np.int64))[0]) == target
        mirror = self.mirror_packed if swapped else None
        name = "colour-swap bidirectional BFS" if swapped else "bidirectional BFS"
        meter = Meter(name, control, bytes_per_position=BYTES_PER_MARK)
        codes = dense_path(self.space_size, self.expand_codes, source, target, meter, mirror)
        if codes is None:
            raise Unsolvable(
                f"all {meter.extra.get('positions', '1')} positions reachable from {state} "
                "searched, none is the goal",
                meter.finish(),
            )
        states = [self.decode(c) for c in codes]
        moves = [self._move_between(a, b) for a, b in pairwise(states)]
        meter.depth = len(moves)
        return Solution(tuple(moves), tuple(states), True, meter.finish())

    def solve_layers(self, state: str, start: str, control: Control) -> Solution[str, Move]:
        """The former solver (sorted layers, `engine.search.packed`), kept for the bench."""
        return solve_packed(
            self, state, start, control, mirror=self.mirror_packed, mirror_name="colour-swap"
        )

    def _move_between(self, before: str, after: str) -> Move:
        e_after = after.index(EMPTY)
        return (e_after, before.index(EMPTY))

    # ---- the perfect index: code = empty cell << size | white bits ---------------------------
    def encode(self, state: str) -> int:
        bits = sum(1 << i for i, c in enumerate(state) if c == "W")
        return (state.index(EMPTY) << self.size) | bits

    def decode(self, code: int) -> str:
        e, bits = code >> self.size, code & ((1 << self.size) - 1)
        return "".join(
            EMPTY if i == e else "W" if bits >> i & 1 else "B" for i in range(self.size)
        )

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        n = self.size
        e = codes >> n
        bits = codes & ((1 << n) - 1)
        out = []
        for j in range(n):
            ok = np.abs(e - j) >= 2
            ej, bj = e[ok], bits[ok]
            flipped = bj ^ self._between[ej, j]
            colour = (bj >> j) & 1
            moved = (flipped & ~np.int64(1 << j)) | (colour << ej)
            out.append((np.int64(j) << n) | moved)
        return np.concatenate(out) if out else codes[:0]

    # the same codes serve the layered search (engine.search.packed); moves are reversible
    pack = encode
    unpack = decode
    neighbours_packed = expand_codes

    def mirror_packed(self, codes: np.ndarray) -> np.ndarray:
        """The colour swap of each code: every stone bit flips, the empty cell's bit stays 0."""
        n = self.size
        return codes ^ (((1 << n) - 1) & ~(np.int64(1) << (codes >> n)))


def _make(puzzle_id: str) -> FlipIt | None:
    """The puzzle for `flip-it-<cells>[@<goal layout>]`; None when not ours."""
    prefix = "flip-it-"
    if not puzzle_id.startswith(prefix):
        return None
    base, goal_text = split_goal(puzzle_id)
    digits = base[len(prefix) :]
    size = ascii_number(digits)
    if size is None:
        return None
    if not 3 <= size <= 20:
        raise BadInput(f"flip-it takes 3 to 20 cells, not {size} (offered: 5 to 16)")
    puzzle = FlipIt(size)
    return puzzle if goal_text is None else puzzle.aiming_at(puzzle.parse(goal_text))


FAMILY = Family(
    key="flip-it",
    title="Flip It",
    blurb="Jump stones into the gap; every stone jumped over flips.",
    ids=tuple(f"flip-it-{n}" for n in SIZES),
    make=_make,
    order=10,
)
