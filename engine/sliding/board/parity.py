"""The parity rule: which sliding layouts can be solved, and why not in one line.

Every slide swaps the blank with a tile (one transposition of the cells) and moves the blank
one step. So the parity of the permutation (counted with the blank, from the goal) and the
parity of the blank's row + column distance from its goal cell change together on every move;
the goal has both even. A layout is solvable exactly when the two parities agree.
"""

from __future__ import annotations

from kaeru.engine.sliding.board.geometry import Grid, State


def swaps_to_sort(grid: Grid, state: State) -> int:
    """The fewest swaps (blank included) that put every tile and the blank home."""
    target = [grid.home(t) for t in state]  # where the piece on each cell belongs
    seen = [False] * len(state)
    cycles = 0
    for cell in range(len(state)):
        if not seen[cell]:
            cycles += 1
            while not seen[cell]:
                seen[cell] = True
                cell = target[cell]
    return len(state) - cycles


def blank_steps(grid: Grid, state: State) -> int:
    """Row + column distance of the blank from its goal cell."""
    return grid.distance(state.index(0), grid.blank_goal)


def is_solvable(grid: Grid, state: State) -> bool:
    return swaps_to_sort(grid, state) % 2 == blank_steps(grid, state) % 2


def unsolvable_reason(grid: Grid, state: State) -> str | None:
    """None when `state` can be solved, else the parity argument in one line."""
    swaps, steps = swaps_to_sort(grid, state), blank_steps(grid, state)
    if swaps % 2 == steps % 2:
        return None

    def odd_even(k: int) -> str:
        return "odd" if k % 2 else "even"

    return (
        f"unsolvable: sorting this layout takes {swaps} swap{'s' * (swaps != 1)} "
        f"({odd_even(swaps)}) but the gap is {steps} step{'s' * (steps != 1)} from its goal cell "
        f"({odd_even(steps)}); every slide is one swap and one "
        "step, so the two parities stay different and can never both reach 0"
    )
