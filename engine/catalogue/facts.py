"""What the engine can tell a newcomer about a preset before it is played: its difficulty (the
optimal solution length from the start where the engine finds it quickly, else how many
positions the puzzle has), or the one-line proof that it cannot be won (a curiosity).

Nothing here is written down by hand: every figure is asked of the engine, in three steps of
growing cost, so a front end can show the cheap answers at once and the dearer ones as they
come (in a worker thread), and keep them (`engine.catalogue.cache`) for the next launch:

- `instant_facts`: the puzzle's own quick proofs (`unsolvable_reason`, the parity and
  position-class arguments) and, for puzzles of at most `TINY` positions, a solve (about half
  a second for the whole catalogue, in a worker).
- `survey(puzzle, QUICK)`: a solve with a small budget of positions and seconds.
- `survey(puzzle, THOROUGH)`: a longer solve, then the family's dead-end check
  (`dispatch.dead_end`, the peg pagoda and class arguments) when the solve gave up.

A solve builds no table that takes long (`random_games.optimal_is_quick`,
`dispatch.tables_ready`): a puzzle whose solver needs one shows its size until the table
exists. Peg solitaire's length is counted in moves (one peg's chain of jumps) where the
fewest-moves solver finishes within the step's budget, else in jumps, which every solution of
a game has the same number of (the pegs taken off).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from kaeru.engine.catalogue.explorable import position_count
from kaeru.engine.catalogue.random_games import optimal_is_quick
from kaeru.engine.puzzles.pegs import PegSolitaire
from kaeru.engine.puzzles.registry import AnyPuzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.results import BudgetExceeded, CancelCheck, Cancelled, Unsolvable
from kaeru.engine.rules.words import plural
from kaeru.engine.search.dispatch import dead_end, solve, solve_fewest_moves, tables_ready

TINY = 2_000  # positions (at most): solved at once, on any thread


@dataclass(frozen=True)
class Effort:
    """How much a survey step may spend on one preset: positions held, and seconds."""

    name: str
    budget: int
    seconds: float
    final: bool  # what this step finds stands (no later step would change it)


QUICK = Effort("quick", budget=50_000, seconds=0.4, final=False)
THOROUGH = Effort("thorough", budget=1_000_000, seconds=6.0, final=True)


@dataclass(frozen=True)
class Facts:
    """What the engine knows about a preset's start.

    `length`: optimal solution length from the start, counted in `unit` ("move", or "jump"
    for peg solitaire when the fewest moves are not known); `positions`: how many positions
    the puzzle has (`exact`, else an upper bound from the board); `unwinnable`: why the start
    cannot be won; `settled`: whether a longer look could still change these."""

    puzzle_id: str
    length: int | None = None
    unit: str = "move"
    positions: int | None = None
    exact: bool = False
    unwinnable: str | None = None
    settled: bool = False
    note: str = ""  # why the length is not known ("its table is not built yet")

    @property
    def difficulty(self) -> str:
        """A few words for a list line: "15 moves", "31 jumps", "≤3.6M positions"."""
        if self.unwinnable:
            return "cannot be won"
        if self.length is not None:
            return plural(self.length, self.unit)
        if self.positions is not None:
            return f"{'' if self.exact else '≤'}{short_number(self.positions)} positions"
        return ""

    def described(self) -> str:
        """One or two sentences for the panel beside the list."""
        if self.unwinnable:
            return f"Cannot be won: {self.unwinnable}"
        parts = []
        if self.length is not None:
            parts.append(f"Shortest solution: {plural(self.length, self.unit)}.")
        if self.positions is not None:
            how_many = f"{self.positions:,}" if self.exact else f"at most {self.positions:,}"
            parts.append(f"Positions: {how_many}.")
        if self.length is None and self.note:
            parts.append(self.note[0].upper() + self.note[1:] + ".")
        return " ".join(parts)

    def as_json(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "unit": self.unit,
            "positions": self.positions,
            "exact": self.exact,
            "unwinnable": self.unwinnable,
            "settled": self.settled,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, puzzle_id: str, data: dict[str, Any]) -> Facts:
        """Facts read back from `as_json`; ValueError/TypeError when the data is not that."""
        length, positions = data.get("length"), data.get("positions")
        for number in (length, positions):
            if number is not None and (not isinstance(number, int) or number < 0):
                raise ValueError(f"bad figure {number!r}")
        unwinnable = data.get("unwinnable")
        return cls(
            puzzle_id,
            length=length,
            unit=str(data.get("unit", "move")),
            positions=positions,
            exact=bool(data.get("exact")),
            unwinnable=None if unwinnable is None else str(unwinnable),
            settled=bool(data.get("settled")),
            note=str(data.get("note", "")),
        )


SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def short_number(n: int) -> str:
    """A count in a few characters: 3,150; 230k; 3.6M; 76M; 1.0×10¹³."""
    if n < 10_000:
        return f"{n:,}"
    if n < 1_000_000:
        return f"{round(n / 1000)}k"
    if n < 10_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n < 1_000_000_000:
        return f"{round(n / 1_000_000)}M"
    mantissa, power = f"{n:.1e}".split("e")
    return f"{mantissa}×10" + str(int(power)).translate(SUPERSCRIPTS)


def positions_of(puzzle: AnyPuzzle) -> tuple[int, bool]:
    """(positions, exact): the perfect index's size or the board's arrangements
    (`explorable.position_count`); for peg solitaire, where pegs leave the board, each hole
    full or empty (2 ** holes, an upper bound)."""
    if isinstance(puzzle, PegSolitaire):
        return 2 ** len(puzzle.geometry.names), False
    return position_count(puzzle)


def instant_facts(puzzle: AnyPuzzle) -> Facts | None:
    """The facts known at once: a quick proof that the start cannot be won, or a tiny puzzle
    solved. None when finding out takes a survey."""
    start = puzzle.initial()
    reason = puzzle.unsolvable_reason(start, start)
    if reason:
        return Facts(puzzle.id, unwinnable=reason, settled=True)
    positions, exact = positions_of(puzzle)
    if positions > TINY or not optimal_is_quick(puzzle):
        return None
    return survey(puzzle, THOROUGH)


def survey(puzzle: AnyPuzzle, effort: Effort, cancelled: CancelCheck = None) -> Facts:
    """The facts one survey step finds (see the module docstring). Raises Cancelled when
    `cancelled` says so (running out of seconds is not a cancel: the step gives up)."""
    start = puzzle.initial()
    positions, exact = positions_of(puzzle)
    sized = Facts(puzzle.id, positions=positions, exact=exact, settled=effort.final)
    reason = puzzle.unsolvable_reason(start, start)
    if reason:
        return Facts(puzzle.id, unwinnable=reason, settled=True)
    if not (tables_ready(puzzle) or optimal_is_quick(puzzle)):
        return Facts(
            puzzle.id, positions=positions, exact=exact, note="its solver's table is not built yet"
        )
    if not (effort.final or optimal_is_quick(puzzle)):
        return Facts(puzzle.id, positions=positions, exact=exact)  # a solve takes seconds
    control = _control(effort, cancelled)
    try:
        solution = solve(puzzle, start, start, control)
    except Unsolvable as error:
        return Facts(puzzle.id, unwinnable=error.reason, settled=True)
    except (BudgetExceeded, Cancelled):
        _raise_if_cancelled(cancelled)
        return _dead_end_or(sized, puzzle, effort, cancelled)
    if not solution.optimal:
        return Facts(
            puzzle.id,
            positions=positions,
            exact=exact,
            settled=True,
            note="its solver finds a solution, not the shortest",
        )
    length, unit = solution.length, "move"
    if puzzle.capabilities.fewest_moves:
        length, unit = _fewest_moves(puzzle, start, effort, cancelled) or (length, "jump")
    settled = effort.final or unit == "move"  # a longer step may count the jumps as moves
    return Facts(puzzle.id, length=length, unit=unit, settled=settled)


def _fewest_moves(
    puzzle: AnyPuzzle, start: Any, effort: Effort, cancelled: CancelCheck
) -> tuple[int, str] | None:
    """The fewest moves as players count them (peg chains), when found within the effort."""
    try:
        solution = solve_fewest_moves(puzzle, start, start, _control(effort, cancelled))
    except (BudgetExceeded, Cancelled, Unsolvable):
        _raise_if_cancelled(cancelled)
        return None
    return len(puzzle.chains(solution.moves)), "move"


def _dead_end_or(sized: Facts, puzzle: AnyPuzzle, effort: Effort, cancelled: CancelCheck) -> Facts:
    """After a solve gave up: the family's dead-end check (a thorough step only)."""
    if not effort.final or not puzzle.capabilities.dead_ends:
        return sized
    start = puzzle.initial()
    try:
        reason = dead_end(puzzle, start, start, _control(effort, cancelled))
    except (BudgetExceeded, Cancelled):
        _raise_if_cancelled(cancelled)
        return sized
    if reason:
        return Facts(puzzle.id, unwinnable=reason, settled=True)
    return sized


def _control(effort: Effort, cancelled: CancelCheck) -> Control:
    """A control that stops at the effort's budget or seconds, or when cancelled."""
    deadline = time.monotonic() + effort.seconds

    def stop() -> bool:
        return bool(cancelled and cancelled()) or time.monotonic() > deadline

    return Control(cancelled=stop, budget=effort.budget)


def _raise_if_cancelled(cancelled: CancelCheck) -> None:
    if cancelled and cancelled():
        raise Cancelled("survey cancelled")
