"""Peg solitaire, "Last One" (seed 004): the English cross, the French board and the triangle.

A peg jumps over a neighbouring peg into an empty hole just beyond it and the jumped peg is
removed; finish with one peg (in a given hole, or anywhere). Ids: `pegs-<board>` for the board's
own game, `pegs-english-<shape>` for a classic shape, `pegs-<board>-<hole>` for the game with
that one hole empty, and `@<hole>` or `@any` after any of them to choose where to finish.
One move of the protocol is one jump; `chains` groups a peg's consecutive jumps into the moves
players count.
"""

from __future__ import annotations

from collections.abc import Iterable

from kaeru.engine.pegs.boards import BOARDS, Board, Jump, board
from kaeru.engine.pegs.enumeration import enumerate_positions
from kaeru.engine.pegs.fewest_moves import fewest_move_solution
from kaeru.engine.pegs.pagoda import PagodaTest, library
from kaeru.engine.pegs.position_class import class_reason
from kaeru.engine.pegs.shapes import SHAPES, shape_state
from kaeru.engine.pegs.solver import PegSolver
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.layout import HOLE, PEG, Cell, HolesScene, Layout, LayoutMove
from kaeru.engine.rules.protocol import (
    BadInput,
    BudgetExceeded,
    Capabilities,
    GoalKind,
    Puzzle,
    Solution,
    Unsolvable,
)
from kaeru.engine.rules.results import Enumeration

DEAD_END_BUDGET = 3_000_000  # positions the lost-position check searches before saying nothing
MEMO_LIMIT = 3_000_000  # dead positions a puzzle remembers between searches

# Listed variants: the English single-vacancy classes up to symmetry, the French problems
# that can be won (a lone survivor anywhere), the triangle's holes up to symmetry.
ENGLISH_VACANCIES = ("c1", "d1", "c2", "d2", "c3", "d3")
FRENCH_VACANCIES = ("c1", "d2", "d3")
TRIANGLE_VACANCIES = ("a1", "a2", "a3", "b3")


class PegSolitaire(Puzzle[int, Jump]):
    """One game on one board: a start position and where the last peg must stand."""

    family = "pegs"
    board = "pegs"
    capabilities = Capabilities(
        goal=GoalKind.TEST,  # one peg left, in a given hole or anywhere
        own_solver=True,
        own_enumerator=True,
        dead_ends=True,
        chains=True,
        fewest_moves=True,
    )

    def __init__(
        self,
        puzzle_id: str,
        geometry: Board,
        start: int,
        goal_hole: int | None,
        title: str,
    ) -> None:
        self.id = puzzle_id
        self.geometry = geometry
        self.start = start
        self.goal_hole = goal_hole
        self.title = title
        where = f"in {geometry.names[goal_hole]}" if goal_hole is not None else "anywhere"
        directions = "six directions" if geometry.lattice == "triangle" else "straight lines"
        self.rules = (
            f"A peg jumps over a neighbouring peg ({directions}) into the empty hole just\n"
            "beyond it; the jumped peg is taken off. Several jumps in a row by one peg count as\n"
            f"one move. Goal: one peg left, {where}."
        )
        self.pagodas = PagodaTest(geometry, goal_hole, library(geometry))
        self._memos: dict[int, set[int]] = {}  # dead positions by goal hole, kept between searches

    # ---- rules ----------------------------------------------------------------------------------
    def initial(self) -> int:
        return self.start

    def moves(self, state: int) -> list[Jump]:
        return [
            (a, b, c) for a, b, c in self.geometry.jumps
            if state >> a & 1 and state >> b & 1 and not state >> c & 1
        ]

    def apply(self, state: int, move: Jump) -> int:
        a, b, c = move
        return state & ~(1 << a) & ~(1 << b) | (1 << c)

    def parse(self, text: str) -> int:
        return self.geometry.parse_state(text)

    def format(self, state: int) -> str:
        return self.geometry.format_state(state)

    def describe(self, move: Jump) -> str:
        names = self.geometry.names
        return f"{names[move[0]]}-{names[move[2]]}"

    def move_aliases(self, move: Jump) -> tuple[str, ...]:
        """`d2d4` and `d2 d4` besides `d2-d4`."""
        names = self.geometry.names
        return f"{names[move[0]]}{names[move[2]]}", f"{names[move[0]]} {names[move[2]]}"

    def layout(self, state: int) -> Layout:
        """The holes in the board's own shape (a triangle's rows offset by half a hole, so
        `col` counts half holes); a jump takes the jumping and the jumped peg away."""
        geometry = self.geometry
        top = max(y for _, y in geometry.coords)
        triangle = geometry.lattice == "triangle"
        cells = tuple(
            Cell(
                geometry.names[hole],
                y,
                2 * x + (top - y if triangle else 0),
                PEG if state >> hole & 1 else HOLE,
            )
            for hole, (x, y) in enumerate(geometry.coords)
        )
        moves = tuple(
            LayoutMove(move, self.describe(move), (move[0], move[1]), (move[2],))
            for move in self.moves(state)
        )
        columns = max(x for x, _ in geometry.coords) + 1
        middle = geometry.centre if geometry.centre is not None else len(geometry.coords) // 2
        cx, cy = geometry.coords[middle]
        movable = sorted(
            {entry.sources[0] for entry in moves},
            key=lambda hole: (abs(geometry.coords[hole][0] - cx) + abs(geometry.coords[hole][1]
                                                                        - cy), hole),
        )
        scene = HolesScene(
            "pegs",
            tuple(str(row + 1) for row in range(len(geometry.rows))),
            () if triangle else tuple(chr(97 + col) for col in range(columns)),
            note="a = each row's left" if triangle else "",
            chains=True,
            cursor=movable[0] if movable else middle,  # the peg nearest the middle that can move
        )
        width = max(cell.col for cell in cells) + 1
        return Layout("holes", len(geometry.rows), width, cells, moves, holes=scene)

    def move_cells(self, state: int, move: Jump) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (move[0],), (move[2],)

    def explain_illegal(self, state: int, move: Jump) -> str:
        names = self.geometry.names
        a, b, c = move
        if move not in self.geometry.jumps:
            return f"{names[a]}-{names[c]} is not a jump: a peg jumps one neighbour in a line"
        if not state >> a & 1:
            return f"there is no peg in {names[a]} to jump"
        if not state >> b & 1:
            return f"{names[a]}-{names[c]} needs a peg in {names[b]} to jump over"
        return f"{names[c]} is not empty"

    def chains(self, moves: Iterable[Jump]) -> list[str]:
        """Consecutive jumps by the same peg as one move: `d2-d4-f4`."""
        names = self.geometry.names
        out: list[list[int]] = []
        for a, _, c in moves:
            if out and out[-1][-1] == a:
                out[-1].append(c)
            else:
                out.append([a, c])
        return ["-".join(names[h] for h in chain) for chain in out]

    # ---- goals ----------------------------------------------------------------------------------
    def goal(self, start: int) -> int | None:
        return None if self.goal_hole is None else 1 << self.goal_hole

    def is_goal(self, state: int, start: int) -> bool:
        if self.goal_hole is None:
            return state.bit_count() == 1
        return state == 1 << self.goal_hole

    def goal_text(self, start: int) -> str:
        if self.goal_hole is None:
            return "one peg left, in any hole"
        return f"one peg left, in {self.geometry.names[self.goal_hole]}"

    def _target(self) -> str:
        if self.goal_hole is None:
            return "one peg"
        return f"one peg in {self.geometry.names[self.goal_hole]}"

    def unsolvable_reason(self, state: int, start: int) -> str | None:
        """The quick proofs: position classes, then the pagoda functions, then no jump left."""
        reason = class_reason(self.geometry, state, self.goal_hole)
        if reason is None:
            reason = self.pagodas.reason(state)
        if reason is None and state.bit_count() > 1 and not self.moves(state):
            reason = f"no jump is possible and {state.bit_count()} pegs are left"
        if reason is None and self.goal_hole is not None and state.bit_count() == 1:
            if state != 1 << self.goal_hole:
                reason = f"the last peg is not in {self.geometry.names[self.goal_hole]}"
        return reason

    # ---- solving --------------------------------------------------------------------------------
    def _solver(self, meter: Meter) -> PegSolver:
        if sum(len(m) for m in list(self._memos.values())) > MEMO_LIMIT:
            self._memos.clear()
        return PegSolver(self.geometry, self.goal_hole, meter=meter, memos=self._memos)

    def own_solve(self, state: int, start: int, control: Control) -> Solution[int, Jump]:
        """Any solution: with n pegs every solution has n - 1 jumps, so it is optimal in jumps."""
        reason = self.unsolvable_reason(state, start)
        meter = Meter("peg DFS + pagoda + symmetry memo", control)
        if reason:
            raise Unsolvable(reason, meter.finish())
        jumps = self._solver(meter).solve(state)
        if jumps is None:
            searched = f" ({meter.expanded:,} positions searched)" if meter.expanded else ""
            raise Unsolvable(
                f"no sequence of jumps from here leaves {self._target()}{searched}",
                meter.finish(),
            )
        moves = [self.geometry.jumps[j] for j in jumps]
        states = [state]
        for move in moves:
            states.append(self.apply(states[-1], move))
        meter.depth = len(moves)
        return Solution(tuple(moves), tuple(states), True, meter.finish())

    def solve_fewest_moves(
        self, state: int, start: int, control: Control
    ) -> Solution[int, Jump]:
        """A solution with the fewest moves, a move being one peg's chain of jumps (see
        `chains`); optimal in moves. Its jumps are the Solution's moves, as for `own_solve`."""
        reason = self.unsolvable_reason(state, start)
        if reason:
            raise Unsolvable(reason, Meter("fewest moves", control).finish())
        found, stats = fewest_move_solution(self.geometry, state, self.goal_hole, control)
        if found is None:
            raise Unsolvable(f"no sequence of jumps from here leaves {self._target()}", stats)
        moves = [self.geometry.jumps[j] for j in found]
        states = [state]
        for move in moves:
            states.append(self.apply(states[-1], move))
        return Solution(tuple(moves), tuple(states), True, stats)

    def own_enumerate(self, root: int, control: Control) -> Enumeration:
        """Positions by jumps made, one layer at a time, counted through symmetry classes."""
        return enumerate_positions(self.geometry, root, control)

    def dead_end_check(self, state: int, start: int, control: Control) -> str | None:
        """Why `state` is lost: a quick proof at once, else the search's verdict; None while it
        can still be won (or the search ran out of its allowance)."""
        reason = self.unsolvable_reason(state, start)
        if reason is not None:
            return reason
        allowance = Control(control.progress, control.cancelled, DEAD_END_BUDGET)
        try:
            self.own_solve(state, start, allowance)
        except Unsolvable as lost:
            return lost.reason
        except BudgetExceeded:
            return None
        return None


# ---- ids ---------------------------------------------------------------------------------------
def _goal_from(geometry: Board, text: str | None, default: int | None) -> int | None:
    if text is None:
        return default
    if text.strip().lower() == "any":
        return None
    return geometry.hole(text)


def make_pegs(puzzle_id: str) -> PegSolitaire | None:
    """The puzzle for `pegs-<board>[-<shape or hole>][@<hole or any>]`; None when not ours."""
    if not puzzle_id.startswith("pegs-"):
        return None
    base, at, goal_text = puzzle_id.partition("@")
    if at and not goal_text:
        raise BadInput(f"{puzzle_id}: give a hole or `any` after @ (e.g. {base}@d4)")
    key, _, variant = base[len("pegs-") :].partition("-")
    if key not in BOARDS:
        raise BadInput(f"no peg board '{key}': choose pegs-english, pegs-french or pegs-triangle")
    geometry = board(key)
    names = geometry.names
    if not variant:
        vacancy = geometry.centre if geometry.centre is not None else 0
        start, default_goal = geometry.full & ~(1 << vacancy), geometry.centre
        label = "central game" if geometry.centre is not None else f"{names[vacancy]} empty"
    elif key == "english" and variant in SHAPES:
        start, default_goal = shape_state(variant), geometry.centre
        label = SHAPES[variant][0]
    elif variant.lower() in names:
        vacancy = names.index(variant.lower())
        start = geometry.full & ~(1 << vacancy)
        same = class_reason(geometry, start, vacancy) is None
        default_goal = vacancy if same and key != "triangle" else None
        label = f"{names[vacancy]} empty"
    else:
        shapes = ", ".join(SHAPES) if key == "english" else ""
        raise BadInput(
            f"{puzzle_id}: '{variant}' is not a hole of the {key} board"
            + (f" nor a shape ({shapes})" if shapes else "")
        )
    if key == "triangle" and not variant:
        default_goal = None
    goal_hole = _goal_from(geometry, goal_text if at else None, default_goal)
    finish = f"finish in {names[goal_hole]}" if goal_hole is not None else "finish anywhere"
    title = f"{key.capitalize()} peg solitaire: {label}, {finish}"
    return PegSolitaire(puzzle_id, geometry, start, goal_hole, title)


def _listed() -> tuple[str, ...]:
    ids = ["pegs-english", *(f"pegs-english-{shape}" for shape in SHAPES)]
    ids += [f"pegs-english-{hole}" for hole in ENGLISH_VACANCIES]
    ids += ["pegs-french", *(f"pegs-french-{hole}" for hole in FRENCH_VACANCIES)]
    ids += ["pegs-triangle", *(f"pegs-triangle-{hole}" for hole in TRIANGLE_VACANCIES[1:])]
    return tuple(ids)


FAMILY = Family(
    key="pegs",
    title="Peg solitaire",
    blurb="Jump pegs over pegs until one is left (Last One).",
    ids=_listed(),
    make=make_pegs,
    order=60,
)
