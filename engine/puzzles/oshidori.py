"""Oshidori (seed 001, problem 1): move two adjacent stones together, order kept, into the two
adjacent empty cells, until the row reads the goal."""

from __future__ import annotations

import random

from kaeru.engine.puzzles._line import EMPTY, LinePuzzle, Move
from kaeru.engine.puzzles._random import draw_reachable
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import BadInput, Capabilities

GOALS = {"oshidori": "__WWWWBBBB", "oshidori-bw": "__BBBBWWWW"}
START = "BWBWBWBW__"


class Oshidori(LinePuzzle):
    family = "oshidori"
    alphabet = "BW"
    empties = 2
    width = 2
    size = 10
    example = START
    capabilities = Capabilities(reversible=True, random_starts=True)
    rules = (
        "Pick two neighbouring stones and slide them together, order kept,\n"
        "into the two neighbouring empty cells.\n"
        "Goal: the row shown as the goal, empties at the left."
    )

    def __init__(self, puzzle_id: str) -> None:
        self.id = puzzle_id
        self._goal = GOALS[puzzle_id]
        self.title = f"Oshidori → {self._goal}"

    def validate(self, state: str) -> None:
        if EMPTY * 2 not in state:
            raise BadInput(f"{self.id}: the two empty cells must be side by side, e.g. {START}")
        if sorted(state) != sorted(self._goal):
            raise BadInput(f"{self.id}: needs 4 B and 4 W stones, like the goal {self._goal}")

    def initial(self) -> str:
        return START

    def goal(self, start: str) -> str:
        return self._goal

    def random_start(self, rng: random.Random, depth: int | None = None) -> str:
        """A position from which the goal can be reached, drawn uniformly among all of them (the
        goal left out), or among those exactly `depth` moves away: a breadth-first search back
        from the goal lists them (engine.puzzles._random, at most 100,000 positions)."""
        return str(draw_reachable(self, self._goal, rng, depth))

    def moves(self, state: str) -> list[Move]:
        e = state.index(EMPTY * 2)
        return [
            (i, e)
            for i in range(self.size - 1)
            if state[i] != EMPTY and state[i + 1] != EMPTY
        ]

    def apply(self, state: str, move: Move) -> str:
        i, e = move
        cells = list(state)
        pair = cells[i : i + 2]
        cells[i : i + 2] = [EMPTY, EMPTY]
        cells[e : e + 2] = pair
        return "".join(cells)


def _make(puzzle_id: str) -> Oshidori | None:
    return Oshidori(puzzle_id) if puzzle_id in GOALS else None


FAMILY = Family(
    key="oshidori",
    title="Oshidori",
    blurb="Slide stones in pairs into the double gap.",
    ids=tuple(GOALS),
    make=_make,
    order=20,
)
