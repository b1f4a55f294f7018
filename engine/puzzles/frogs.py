"""Frog jump (seed 001, problem 2): black frogs move only right, white only left; a frog steps
into the empty cell next to it or jumps over one frog of the other colour into it."""

from __future__ import annotations

import random
from collections.abc import Iterator

from kaeru.engine.puzzles._line import EMPTY, LinePuzzle, Move
from kaeru.engine.puzzles._random import draw_reachable
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import BadInput, Capabilities
from kaeru.engine.rules.text_input import ascii_number

SIZES = range(1, 11)


class Frogs(LinePuzzle):
    family = "frogs"
    alphabet = "BW"
    capabilities = Capabilities(predecessors=True, random_starts=True)  # frogs never move back
    rules = (
        "Black frogs move only right, white frogs only left.\n"
        "A frog steps into the empty cell beside it, or jumps over one frog\n"
        "of the other colour into it. Goal: swap the two teams."
    )

    def __init__(self, frogs: int) -> None:
        self.frogs = frogs
        self.size = 2 * frogs + 1
        self.id = f"frogs-{frogs}"
        self.title = f"Frog jump ({frogs} a side)"
        self.example = "B" * frogs + EMPTY + "W" * frogs

    def validate(self, state: str) -> None:
        if state.count("B") != self.frogs:
            raise BadInput(
                f"{self.id}: needs {self.frogs} B and {self.frogs} W, e.g. {self.example}"
            )

    def initial(self) -> str:
        return self.example

    def goal(self, start: str) -> str:
        return "W" * self.frogs + EMPTY + "B" * self.frogs

    def random_start(self, rng: random.Random, depth: int | None = None) -> str:
        """A position from which the goal can be reached, drawn uniformly among all of them (the
        goal left out), or among those exactly `depth` moves away: a breadth-first search back
        from the goal lists them (engine.puzzles._random, at most 100,000 positions)."""
        return str(draw_reachable(self, self.goal(self.example), rng, depth))

    def moves(self, state: str) -> list[Move]:
        e = state.index(EMPTY)
        found = []
        for j in (e - 2, e - 1, e + 1, e + 2):
            if not 0 <= j < self.size:
                continue
            frog = state[j]
            if (frog == "B") != (j < e):
                continue  # black only rightwards, white only leftwards
            if abs(j - e) == 2 and state[(j + e) // 2] in (frog, EMPTY):
                continue  # jumps go over one frog of the other colour
            found.append((j, e))
        return found

    def apply(self, state: str, move: Move) -> str:
        j, e = move
        cells = list(state)
        cells[e], cells[j] = state[j], EMPTY
        return "".join(cells)

    def predecessors(self, state: str) -> Iterator[tuple[str, Move]]:
        e = state.index(EMPTY)
        for p in (e - 2, e - 1, e + 1, e + 2):
            if not 0 <= p < self.size:
                continue
            before = self.apply(state, (p, e))  # the frog at p came from e
            move = (e, p)
            if move in self.moves(before):
                yield before, move


def _make(puzzle_id: str) -> Frogs | None:
    prefix = "frogs-"
    frogs = ascii_number(puzzle_id[len(prefix) :]) if puzzle_id.startswith(prefix) else None
    if frogs is None:
        return None
    if frogs not in SIZES:
        raise BadInput(f"frogs takes 1 to 10 frogs a side, not {frogs}")
    return Frogs(frogs)


FAMILY = Family(
    key="frogs",
    title="Frog jump",
    blurb="Two teams of frogs swap sides; nobody steps back.",
    ids=tuple(f"frogs-{n}" for n in SIZES),
    make=_make,
    order=30,
)
