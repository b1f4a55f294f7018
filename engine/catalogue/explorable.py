"""Whether the state-space explorer can count a puzzle to the end, and where it counts from.

The explorer shows every position by its distance *to the goal* of the puzzle's standard game
(`puzzle.goal(puzzle.initial())`), so "farthest" always means farthest from that goal, and a
farthest position opened as a game (`puzzle:position`) is a game of that many moves with the
usual goal. How the distance to the goal is counted follows the declared capabilities:

- moves that can be taken back (`reversible`): the move graph is undirected, so a
  breadth-first search *from* the goal gives every position's distance *to* it; it runs on the
  family's fastest enumerator (`dispatch.enumerate_space`: perfect index, packed, own);
- moves that cannot be taken back but can be traced back (`predecessors`, the frogs): a
  breadth-first search backwards from the goal, over predecessors. It finds every position
  from which the goal can be reached (those a random game draws from), some of which the
  standard start never reaches; positions reachable from the start but stuck are not in it,
  as they have no distance to the goal;
- the goal a test and no way back (peg solitaire): refused. Every jump takes one peg off, so a
  position that can still be won is exactly (pegs - 1) jumps from the end, whatever the
  position: counted from the start (as before) the "farthest" positions were the finished
  boards, and counted from the finish the farthest are the fullest winnable boards, whose
  count needs the family to trace jumps back (not declared) and, on the 33-hole board, is the
  187,636,299 positions George Bell counts (74 s, then the memory runs out);
- a goal that follows the start (`goal(start)` differs per start: Flip It, knights): counted
  from the standard goal as above; a game opened at a counted position is the puzzle with that
  goal chosen (`Puzzle.aiming_at`, `flip-it-7@_WWWWWW:W_BWBWB`), so it still aims at the usual
  goal (`game_towards_goal`).

`explore_refusal` decides from the engine's own figures, before anything runs: the perfect
index's size where the puzzle declares one, else an upper bound from the board (the ways to
arrange its pieces on its cells; exact for a one-gap sliding board, half its arrangements as a
slide keeps the permutation's parity), against a limit per kind of search, measured on this
machine (`nice -n 10 python bench/explore_sizes.py`): the numpy searches count about a million
positions a second (sliding-5x2, 1,814,400 positions: 1.2 s, 75 MB; number-reversal-10,
3,628,800: 1.6 s, 100 MB), so NUMPY_LIMIT is some ten seconds; the Python search 25,000 to
65,000 a second, so a space as big as PYTHON_LIMIT would take a minute or more, but no puzzle
comes near it: the board's bound is loose where pieces cannot go everywhere (frogs-10: 22,041
positions of the 3,879,876 arrangements, 0.34 s). A puzzle with a perfect index whose family
keeps a table (`capabilities.tables`: the two-blank boards' distance tables) is counted past
the limit by reading its table once it is built (the 14-puzzle's 76M positions: 1.6 s), and
refused before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from math import factorial, prod
from typing import Any

from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.layout import GAP, Layout
from kaeru.engine.rules.protocol import GoalKind, Puzzle
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.search import dispatch
from kaeru.engine.search.enumerate import enumerate_bfs

AnyPuzzle = Puzzle[Any, Any]

# Positions the explorer will count, by how it counts them (measured: see the module docstring).
NUMPY_LIMIT = 20_000_000  # perfect index / packed / the family's own numpy enumerator
PYTHON_LIMIT = 4_000_000  # plain breadth-first search in Python sets (~200 bytes a position)
SHOWN_DIGITS = 16  # longer numbers are written as powers of ten


# ---- sizes ------------------------------------------------------------------------------------
def arrangements(layout: Layout) -> tuple[int, bool]:
    """(count, exact): how many ways the pieces of `layout` can stand on its cells, an upper
    bound on the positions: the multinomial of the pieces; for a river, each person on either
    bank and the boat on either; for a one-gap grid of distinct tiles exactly the half that a
    slide can reach (slides keep the parity)."""
    pieces = Counter((cell.piece, cell.label) for cell in layout.cells)
    if layout.kind == "river":
        return 2 * prod(count + 1 for count in pieces.values()), False
    ways = factorial(len(layout.cells)) // prod(factorial(n) for n in pieces.values())
    one_gap_tiles = pieces[(GAP, "")] == 1 and all(n == 1 for n in pieces.values())
    if layout.kind == "grid" and one_gap_tiles and min(layout.rows, layout.columns) > 1:
        return ways // 2, True
    return ways, False


def position_count(puzzle: AnyPuzzle) -> tuple[int, bool]:
    """(positions, exact): the perfect index's size where declared (exact), else the board's
    arrangements."""
    size = dispatch.space_size(puzzle)
    if size is not None:
        return size, True
    return arrangements(puzzle.layout(goal_of(puzzle)))


def goal_of(puzzle: AnyPuzzle) -> Hashable:
    """The goal of the puzzle's standard game (its start, for a puzzle whose goal is a test)."""
    start = puzzle.initial()
    goal = puzzle.goal(start)
    return start if goal is None else goal


def counts_forward(puzzle: AnyPuzzle) -> bool:
    """Whether a search from the goal along the moves gives distances to it (reversible)."""
    return puzzle.capabilities.reversible


def uses_numpy(puzzle: AnyPuzzle) -> bool:
    caps = puzzle.capabilities
    return counts_forward(puzzle) and (caps.own_enumerator or caps.perfect_index or caps.packed)


def game_towards_goal(puzzle: AnyPuzzle, position: Hashable) -> str:
    """The game id of a game from `position` towards the standard game's goal: the plain one
    where that is already the position's goal, else with the goal chosen (`aiming_at`:
    BadInput where the family cannot choose it)."""
    goal = goal_of(puzzle)
    if puzzle.goal(position) == goal:
        return puzzle.game_id(position)
    return puzzle.aiming_at(goal).game_id(position)


def shown(count: int) -> str:
    """A count with thousands separators, or as a power of ten when it is very long."""
    text = f"{count:,}"
    if len(str(count)) <= SHOWN_DIGITS:
        return text
    digits = str(count)
    return f"about {digits[0]}.{digits[1]} × 10^{len(digits) - 1}"


# ---- the verdict -------------------------------------------------------------------------------
def explore_refusal(puzzle: AnyPuzzle) -> str | None:
    """None when the explorer can count this puzzle's positions to the end in reasonable time
    and memory; else one line saying why not."""
    caps = puzzle.capabilities
    name = puzzle.title
    if caps.goal is not GoalKind.STATE:
        return f"{name}: moves cannot be taken back, so the explorer cannot count back from the end"
    if not caps.predecessors:
        return f"{name}: moves cannot be traced back, so the explorer cannot count from the goal"
    positions, exact = position_count(puzzle)
    if caps.tables and caps.perfect_index and positions > NUMPY_LIMIT:
        if puzzle.tables_ready():  # the family's distance table over its index: read, not counted
            return None
        return (
            f"{name} has {shown(positions)} positions: the explorer reads them from the distance "
            "table, built the first time a game asks for a hint"
        )
    limit = NUMPY_LIMIT if uses_numpy(puzzle) else PYTHON_LIMIT
    if positions <= limit:
        return None
    many = shown(positions) if exact else f"up to {shown(positions)}"
    return f"{name} has {many} positions: too many to count"


# ---- counting ----------------------------------------------------------------------------------
class _Backwards(Puzzle[Any, Any]):
    """`puzzle` with its moves turned around: a move goes to a predecessor. A breadth-first
    search of it from the goal gives each position's distance to the goal."""

    def __init__(self, puzzle: AnyPuzzle) -> None:
        self.inner = puzzle
        self.id = puzzle.id
        self.title = puzzle.title

    def initial(self) -> Any:
        return goal_of(self.inner)

    def moves(self, state: Any) -> Iterable[Any]:
        return [before for before, _ in self.inner.predecessors(state)]

    def apply(self, state: Any, move: Any) -> Any:
        return move

    def parse(self, text: str) -> Any:
        return self.inner.parse(text)

    def format(self, state: Any) -> str:
        return self.inner.format(state)

    def describe(self, move: Any) -> str:
        return f"back to {self.inner.format(move)}"


def count_to_goal(puzzle: AnyPuzzle, control: Control = QUIET) -> Enumeration:
    """Every position that can reach the standard game's goal, by its distance to it. Progress
    reports carry (depth, frontier) = (a distance, the positions found at it)."""
    goal = goal_of(puzzle)
    if counts_forward(puzzle):
        return dispatch.enumerate_space(puzzle, goal, control)
    return enumerate_bfs(_Backwards(puzzle), goal, control)
