"""A board part way through line by line: the whole board's states so far, and the part left
(`Peeled`), with the two mappings between the part and the whole (`sub_state`, `play_part`).
Shared by `peel` (which brings the lines home) and `candidates` (which finishes the best)."""

from __future__ import annotations

from dataclasses import dataclass

from kaeru.engine.sliding.board.geometry import Grid, State, grid


def sub_state(full: Grid, state: State, top: int, left: int, shape: Grid) -> State:
    """The part of `state` at rows top.. and columns left.., relabelled as `shape`'s tiles."""
    out = []
    for r in range(shape.height):
        for c in range(shape.width):
            tile = state[(top + r) * full.width + left + c]
            if tile:
                home_r, home_c = divmod(tile - 1, full.width)
                tile = (home_r - top) * shape.width + (home_c - left) + 1
            out.append(tile)
    return tuple(out)


def play_part(full: Grid, states: list[State], sub_states: list[State], top: int, left: int,
          shape: Grid) -> None:
    """Append to `states` the whole-board positions of a path found on the part."""
    for before, after in zip(sub_states, sub_states[1:], strict=False):
        gap, to = before.index(0), after.index(0)
        cell_of = [(top + c // shape.width) * full.width + left + c % shape.width
                   for c in (gap, to)]
        current = list(states[-1])
        current[cell_of[0]], current[cell_of[1]] = current[cell_of[1]], 0
        states.append(tuple(current))


@dataclass
class Peeled:
    """Lines brought home in one order: the whole board's states, and the part left."""

    states: list[State]
    top: int = 0
    left: int = 0
    failed: bool = False

    def rest(self, full: Grid) -> Grid:
        return grid(full.width - self.left, full.height - self.top)

    def rest_state(self, full: Grid) -> State:
        return sub_state(full, self.states[-1], self.top, self.left, self.rest(full))
