"""The puzzle protocol every family implements: its rules as pure functions, its declared
capabilities as data, and its moves as text both ways.

A puzzle is a small object of pure functions over immutable, hashable states (the "backend" of
Simon Tatham's collection). Everything else — undo, hints, solving, playback — is built on top of
it by `engine.game.session` and `engine.search.dispatch`, which reads `capabilities` (as the midend
reads `struct game`'s flags) to pick what to call; a new family only writes its rules here.
The values and errors searches produce live in `engine.rules.results` (re-exported here).

A new family's author reads this file: what to implement, in three groups.

1. Required: the abstract `initial`, `moves`, `apply`, `parse`, `format`, `describe`; `goal`
   or `is_goal` (one of them); `layout` (what a board draws, `engine.rules.layout`; the default
   refuses); the class attributes `id`, `title`, `family` and `board` (which board draws it).
2. Optional, each declared as data in `capabilities` and tied to its hook by
   tests/engine/test_capabilities.py (a flag without its hook, or a hook without its flag,
   fails there):
     heuristic -> `heuristic`        own_solver -> `own_solve`     own_enumerator -> `own_enumerate`
     dead_ends -> `dead_end_check`   chains -> `chains`            random_starts -> `random_start`
     tables -> `tables_ready`        fewest_moves -> `solve_fewest_moves`
     heuristics (names) -> `solve_with`                  predecessors -> `predecessors`
     perfect_index -> `space_size`, `encode`, `decode`, `expand_codes`: the `CodedPuzzle`
       protocol in `engine/tables/coded.py` (the dense breadth-first search reads them)
     packed (needs reversible) -> `pack`, `unpack`, `neighbours_packed`: the `PackedPuzzle`
       protocol in `engine/search/packed.py` (the numpy layered searches read them)
3. Plain overrides with a default here: `format_move` and `parse_move` (moves as text both
   ways; `describe` and the legal moves by default), `goal_text`, `aiming_at`, `move_aliases`,
   `move_cells`, `explain_illegal`, `unsolvable_reason`, `explore_root`, `game_id`.

Nothing else calls a family by name: the one dispatcher (`engine.search.dispatch`) reads the
flags, and the registry (`engine.puzzles.registry`) lists the family.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Generic

from kaeru.engine.rules.control import Control
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.results import (
    DEFAULT_BUDGET,
    BadInput,
    BudgetExceeded,
    CancelCheck,
    Cancelled,
    Enumeration,
    M,
    Progress,
    S,
    SearchStats,
    Solution,
    Unsolvable,
)

__all__ = [
    "DEFAULT_BUDGET",
    "BadInput",
    "BudgetExceeded",
    "CancelCheck",
    "Cancelled",
    "Capabilities",
    "Control",
    "Enumeration",
    "GoalKind",
    "M",
    "Progress",
    "Puzzle",
    "S",
    "SearchStats",
    "Solution",
    "Unsolvable",
]

ASCII_MOVE_TEXT = {"→": "->", "←": "<-", "↔": "<->", "×": "x", "–": "-", "—": "-"}
MOVES_LISTED = 8  # legal moves named in a BadInput from parse_move


class GoalKind(Enum):
    """How a puzzle says a game is won."""

    STATE = "state"  # `goal(start)` is the one goal position
    TEST = "test"  # `is_goal(state, start)` decides; `goal(start)` may be None


@dataclass(frozen=True)
class Capabilities:
    """What a puzzle class can do beyond the required core, declared once as data (the flags of
    Simon Tatham's `struct game`). Each flag says whether the dispatcher and the front end may
    call the matching hook; a test checks every registered puzzle's flags against its hooks."""

    goal: GoalKind = GoalKind.STATE
    reversible: bool = False  # every move is undone by one legal move (an undirected graph)
    predecessors: bool = False  # `predecessors(state)` works: searches may go backwards
    heuristic: bool = False  # `heuristic(state, start)` is an admissible lower bound
    perfect_index: bool = False  # `space_size`, `encode`, `decode`, `expand_codes` (numpy)
    packed: bool = False  # `pack`, `unpack`, `neighbours_packed` (needs `reversible`)
    own_solver: bool = False  # `own_solve(state, start, control)` beats the generic searches
    own_enumerator: bool = False  # `own_enumerate(root, control)`
    dead_ends: bool = False  # `dead_end_check` is worth asking after each player move
    chains: bool = False  # `chains(moves)` groups moves the way players count them
    random_starts: bool = False  # `random_start(rng, depth)` draws new games
    tables: bool = False  # `tables_ready()`: the solver may build a table first (slow once)
    fewest_moves: bool = False  # `solve_fewest_moves`: fewest moves as players count them
    heuristics: tuple[str, ...] = ()  # heuristics a caller may choose by name (`solve_with`)

    def __post_init__(self) -> None:
        if self.packed and not self.reversible:
            raise ValueError("packed searches need an undirected move graph: declare reversible")
        if self.reversible and not self.predecessors:
            object.__setattr__(self, "predecessors", True)


def ascii_move_text(text: str) -> str:
    """`describe`'s words with arrows and dashes in ASCII ("3 → 1" -> "3 -> 1"), for output
    encodings without them; `format_move` is ASCII already."""
    for fancy, plain in ASCII_MOVE_TEXT.items():
        text = text.replace(fancy, plain)
    return text


def normalise_move_text(text: str) -> str:
    """Move text as compared by `parse_move`: ASCII arrows, lower case, single spaces, no
    spaces around arrows, dashes and commas."""
    text = " ".join(ascii_move_text(text).lower().split())
    return re.sub(r" ?(->|<-|-|,) ?", r"\1", text)


def legal_moves_hint(puzzle: Puzzle[S, M], legal: Sequence[M]) -> str:
    """A short list of the legal moves, for a BadInput."""
    if not legal:
        return "no move is possible"
    named = [puzzle.format_move(move) for move in legal[:MOVES_LISTED]]
    more = f", ... {len(legal) - MOVES_LISTED} more" if len(legal) > MOVES_LISTED else ""
    return "legal: " + ", ".join(named) + more


class Puzzle(ABC, Generic[S, M]):
    """One puzzle variant: its rules as pure functions. Subclasses set the class attributes.

    `capabilities` declares, once per class, which optional hooks below the class implements;
    callers ask it rather than probing methods (`engine.search.dispatch` does the asking for
    solving, enumerating and dead ends). `board` names the board shape a front end draws it
    with ("row", "grid", "knights", "river", "pegs"); the engine never looks at it.
    """

    id: str
    title: str
    family: str
    board: str = "row"
    rules: str = ""
    capabilities: ClassVar[Capabilities] = Capabilities()

    # ---- the required core ------------------------------------------------------------------
    @abstractmethod
    def initial(self) -> S:
        """The default start position."""

    @abstractmethod
    def moves(self, state: S) -> Iterable[M]:
        """Legal moves from `state`, in a deterministic order."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The position after `move`; never mutates `state`."""

    @abstractmethod
    def parse(self, text: str) -> S:
        """A state from its text form; raises BadInput with one clear line."""

    @abstractmethod
    def format(self, state: S) -> str:
        """The text form of a state: `parse(format(s)) == s`."""

    @abstractmethod
    def describe(self, move: M) -> str:
        """A move in words a player reads: "4 right", "d2-d4"."""

    # ---- goals -------------------------------------------------------------------------------
    def goal(self, start: S) -> S | None:
        """The one goal position for games begun at `start`, or None when the goal is a test."""
        return None

    def is_goal(self, state: S, start: S) -> bool:
        """Whether `state` finishes a game begun at `start`."""
        target = self.goal(start)
        if target is None:
            raise NotImplementedError(f"{type(self).__name__} must define goal() or is_goal()")
        return state == target

    def aiming_at(self, goal: S) -> Puzzle[S, M]:
        """This puzzle with `goal` the goal of every game, whatever its start: how a position is
        opened as a game towards the standard game's goal. Families whose goal follows the
        start (Flip It, knights) make one whose id carries the goal (`flip-it-7@_WWWWWW`,
        `engine.puzzles._chosen_goal`); elsewhere it is `self` when `goal` is already the goal,
        and BadInput (one line) otherwise."""
        if self.goal(self.initial()) == goal:
            return self
        raise BadInput(f"{self.id}: the goal of its games cannot be chosen")

    def goal_text(self, start: S) -> str:
        """The goal in words or state text, for the UI and JSON."""
        target = self.goal(start)
        return self.format(target) if target is not None else "solved"

    # ---- moves as text (both ways) ------------------------------------------------------------
    def format_move(self, move: M) -> str:
        """The move as ASCII text a player could type back: `parse_move` reads it. The texts of
        the legal moves of one position are distinct. Families override the default (describe)."""
        return self.describe(move)

    def move_aliases(self, move: M) -> Iterable[str]:
        """Further texts that name `move` (the natural forms players type: "7" for "7 left")."""
        return ()

    def parse_move(self, text: str, state: S) -> M:
        """The legal move in `state` that `text` names, as `format_move` writes it, as `describe`
        does, or in one of its aliases. BadInput with a one-line reason when none is."""
        wanted = normalise_move_text(text)
        if not wanted:
            raise BadInput("no move given")
        legal = list(self.moves(state))
        for move in legal:
            if normalise_move_text(self.format_move(move)) == wanted:
                return move
        for move in legal:
            names = (self.describe(move), *self.move_aliases(move))
            if any(normalise_move_text(name) == wanted for name in names):
                return move
        hint = legal_moves_hint(self, legal)
        raise BadInput(f"'{text.strip()}' is not a legal move here ({hint})")

    # ---- optional hooks: called only where `capabilities` declares them ------------------------
    def unsolvable_reason(self, state: S, start: S) -> str | None:
        """A quick proof that `state` cannot be won (a parity rule), or None when not known."""
        return None

    def heuristic(self, state: S, start: S) -> int:
        """An admissible lower bound on the moves left (`capabilities.heuristic`)."""
        raise NotImplementedError(f"{self.id} has no heuristic")

    def layout(self, state: S) -> Layout:
        """What a board widget draws for `state` and the legal moves it may pick (pure data,
        `engine.rules.layout`); every family that can be played on a board defines it."""
        raise NotImplementedError(f"{self.id} has no board layout")

    def move_cells(self, state: S, move: M) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(cells the move takes pieces from, cells it puts them on), in the board's own cell
        numbering: board widgets use it to pick a move from a cursor and to highlight hints."""
        return (), ()

    def explain_illegal(self, state: S, move: M) -> str:
        """Why `move` is refused in `state`, in words ("Wa would be with Hb while Ha is away")."""
        return f"not a legal move here: {self.describe(move)}"

    def predecessors(self, state: S) -> Iterable[tuple[S, M]]:
        """(previous state, move from it to `state`) pairs (`capabilities.predecessors`); the
        default serves puzzles declared `reversible`."""
        if not self.capabilities.reversible:
            raise NotImplementedError(f"{self.id} cannot search backwards")
        for move in self.moves(state):
            before = self.apply(state, move)
            for back in self.moves(before):
                if self.apply(before, back) == state:
                    yield before, back
                    break

    def own_solve(self, state: S, start: S, control: Control) -> Solution[S, M]:
        """The family's own solver (`capabilities.own_solver`); the dispatcher calls it."""
        raise NotImplementedError(f"{self.id} has no solver of its own")

    def solve_with(self, heuristic: str, state: S, start: S, control: Control) -> Solution[S, M]:
        """An optimal search with a heuristic chosen by name from `capabilities.heuristics`."""
        raise NotImplementedError(f"{self.id} offers no choice of heuristic")

    def solve_fewest_moves(self, state: S, start: S, control: Control) -> Solution[S, M]:
        """A solution with the fewest moves as players count them, one move being a chain
        (`capabilities.fewest_moves`)."""
        raise NotImplementedError(f"{self.id} counts no chains of moves")

    def own_enumerate(self, root: S, control: Control) -> Enumeration:
        """The family's own enumeration (`capabilities.own_enumerator`)."""
        raise NotImplementedError(f"{self.id} has no enumeration of its own")

    def chains(self, moves: Iterable[M]) -> list[str]:
        """Moves grouped the way players count them (`capabilities.chains`): peg chains
        `d2-d4-f4`; one text per move where moves are not grouped."""
        return [self.format_move(move) for move in moves]

    def dead_end_check(self, state: S, start: S, control: Control) -> str | None:
        """Why `state` can no longer be won, or None while it still can or is not known
        (`capabilities.dead_ends`: worth asking after each player move, in a worker)."""
        return None

    def explore_root(self) -> S:
        """Where the state-space explorer enumerates from: the start unless a family says (the
        sliding families: the goal). No flag: every caller may call it."""
        return self.initial()

    def random_start(self, rng: random.Random, depth: int | None = None) -> S:
        """A random start position, at exactly `depth` moves from the goal where supported
        (`capabilities.random_starts`)."""
        raise NotImplementedError(f"{self.id} has no random starts")

    def tables_ready(self) -> bool:
        """Whether a solve can start at once (`capabilities.tables`: some solvers build a table
        on first use, which takes a while once and is cached after)."""
        return True

    def game_id(self, start: S) -> str:
        """A shareable text that names the puzzle and its start: `flip-it-6:B_BBBB`."""
        return f"{self.id}:{self.format(start)}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"
