"""Random games: a fair new start for any puzzle that has more than one, with its optimal length
when that is quick to know. `kaeru random ID [--seed N] [--depth D]` prints one; the app's `n`
offers one; `engine.catalogue.daily` draws the daily puzzles with the same machinery.

What "fair" means, per family (each puzzle's `random_start` documents its own draw):

- sliding puzzles: uniform over the solvable layouts (seed 003's Fisher–Yates with a parity
  fix; the 15-puzzle: uniform over its 16!/2 solvable layouts); with `depth`, uniform among
  the layouts exactly that far from the goal, from the depth table (boards of at most 10 cells);
- two-blank puzzles: uniform over the problem set (the pair at the bottom right, the goal left
  out); with `depth`, from the depth table;
- Oshidori, Frog jump, Number reversal (one fixed goal): uniform over every position that can
  reach the goal; with `depth`, among those exactly that far (a search back from the goal);
- Flip It (goal: every stone flipped): uniform over all layouts — empty cell anywhere, each
  stone black or white — all solvable from 5 cells up;
- knights: the knights placed uniformly among the placements that can swap colours.
  For these last two the goal follows the start, so no one table holds every distance: a draw
  at an exact `depth` is made by drawing starts and solving each until one is that far
  (rejection sampling, uniform among the starts at that depth; BudgetExceeded after MAX_DRAWS
  draws or DRAW_SECONDS — a knights draw costs about 0.3 s, so a rare depth such as 22 may
  not be found).

Pegs and river crossings have one start per puzzle id: no random games.

The generator is `engine.rules.prng.SplitMix64`, seeded from SHA-256 of `kaeru-random:<id>:<seed>`,
so `--seed` gives the same game on every machine and Python version (as long as the puzzle's
own draw is unchanged). `optimal` is the solver's length where that is quick — every family
but the large sliding boards (the 15-puzzle's random positions take long to solve: null unless
`solve_slow`) and two-blank boards whose table is not built yet (the 14-puzzle's takes minutes).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Hashable
from dataclasses import dataclass
from math import factorial
from typing import Any

from kaeru.engine.puzzles._random import MAX_POSITIONS
from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.prng import SplitMix64
from kaeru.engine.rules.protocol import BadInput, BudgetExceeded, Puzzle
from kaeru.engine.search.dispatch import solve, space_size

GOAL_FOLLOWS_START = frozenset({"knights", "flip-it"})  # families drawn at a depth by solving
MAX_DRAWS = 300
DRAW_SECONDS = 20.0
QUICK_TABLE = 1_000_000  # positions: a table this size builds in a few seconds, once


@dataclass(frozen=True)
class RandomGame:
    """A new game: the puzzle `id`, its shareable `game_id`, the `start` position as text and the
    optimal length from it (None when not computed)."""

    id: str
    game_id: str
    start: str
    optimal: int | None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game_id": self.game_id,
            "start": self.start,
            "optimal": self.optimal,
        }


def has_random_games(puzzle: Puzzle[Any, Any]) -> bool:
    return puzzle.capabilities.random_starts


def random_game_ids() -> list[str]:
    """Every offered puzzle id with random games, in list order."""
    return [
        pid
        for family in families()
        for pid in family.ids
        if has_random_games(get_puzzle(pid)) and _drawable(pid)
    ]


def random_game(
    puzzle_id: str,
    seed: int | None = None,
    depth: int | None = None,
    *,
    solve_slow: bool = False,
    control: Control = QUIET,
) -> RandomGame:
    """A random start of `puzzle_id` (at exactly `depth` moves from its goal when given).

    `seed` None draws a fresh one. `solve_slow` computes the optimal length even where it is
    slow (the 15-puzzle). BadInput for a puzzle without random games or a depth it cannot
    have; BudgetExceeded when no start at `depth` turned up (knights, Flip It); Cancelled when
    `control` says so."""
    puzzle = get_puzzle(puzzle_id)
    if not has_random_games(puzzle):
        raise BadInput(
            f"{puzzle.id} has one start only; random games are offered for "
            + ", ".join(sorted({get_puzzle(pid).family for pid in random_game_ids()}))
        )
    if depth is not None and depth < 0:
        raise BadInput(f"depth must be 0 or more, not {depth}")
    rng = SplitMix64.from_text(
        f"kaeru-random:{puzzle.id}:{seed if seed is not None else secrets.randbits(64)}"
    )
    return draw_game(puzzle, rng, depth, solve_slow=solve_slow, control=control)


def draw_game(
    puzzle: Puzzle[Any, Any],
    rng: SplitMix64,
    depth: int | None = None,
    *,
    solve_slow: bool = False,
    control: Control = QUIET,
) -> RandomGame:
    """A start drawn with `rng` (see `random_game`)."""
    known: int | None = None
    if depth is not None and puzzle.family in GOAL_FOLLOWS_START:
        start = _draw_by_solving(puzzle, rng, depth, control)
        known = depth
    else:
        start = puzzle.random_start(rng, depth)
        known = depth
    optimal = known if known is not None else optimal_length(puzzle, start, solve_slow, control)
    return RandomGame(puzzle.id, puzzle.game_id(start), puzzle.format(start), optimal)


def optimal_length(
    puzzle: Puzzle[Any, Any], start: Hashable, solve_slow: bool = False, control: Control = QUIET
) -> int | None:
    """The optimal length from `start` when quick to know (or when `solve_slow`), else None."""
    if not (solve_slow or optimal_is_quick(puzzle)):
        return None
    return solve(puzzle, start, start, control).length


def optimal_is_quick(puzzle: Puzzle[Any, Any]) -> bool:
    """Whether solving a random start optimally takes about a second: true unless the solver
    needs tables (sliding, two-blank) and the position space is too big for a quick table that
    is not built yet (the 14-puzzle) or has no table at all (the 15-puzzle's pattern databases
    still leave a long search)."""
    if not puzzle.capabilities.tables:
        return True
    size = space_size(puzzle)  # declared by `capabilities.perfect_index`
    if size is None:
        return False
    return size <= QUICK_TABLE or puzzle.tables_ready()


def _draw_by_solving(
    puzzle: Puzzle[Any, Any], rng: SplitMix64, depth: int, control: Control
) -> Hashable:
    """Rejection sampling: draw starts until one is exactly `depth` moves from its goal.
    BudgetExceeded after MAX_DRAWS draws or DRAW_SECONDS (a rare depth, or one no start has)."""
    seen: set[int] = set()
    began = time.monotonic()
    draws = 0
    while draws < MAX_DRAWS and time.monotonic() - began < DRAW_SECONDS:
        draws += 1
        start = puzzle.random_start(rng)
        length = solve(puzzle, start, start, control).length
        if length == depth:
            return start
        seen.add(length)
    drawn = ", ".join(str(d) for d in sorted(seen))
    raise BudgetExceeded(
        f"no start {depth} moves from its goal in {draws} random draws "
        f"({time.monotonic() - began:.0f} s; depths drawn: {drawn})"
    )


def _drawable(puzzle_id: str) -> bool:
    """Offered ids whose draw works: Flip It needs 5 cells; Number reversal's draw searches
    every position (size!), refused past `engine.puzzles._random.MAX_POSITIONS` (size 8)."""
    puzzle = get_puzzle(puzzle_id)
    size = int(getattr(puzzle, "size", 0))
    if puzzle.family == "flip-it":
        return size >= 5
    if puzzle.family == "number-reversal":
        return factorial(size) <= MAX_POSITIONS
    return True
