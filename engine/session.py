"""The midend: one game in progress — history, undo, redo, restart, hint, solve, save and load.

Everything a front end does to a game goes through a Session, so all of it is testable without
a terminal. Moves are saved as their index among the legal moves of the position they were made
in, which works for every puzzle without a move codec.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kaeru.engine.core import DEFAULT_BUDGET, BadInput, CancelCheck, Progress, Puzzle, Solution
from kaeru.engine.registry import get_puzzle

SAVE_VERSION = 1


class Session:
    """A game of one puzzle from one start position."""

    def __init__(self, puzzle: Puzzle, start: Hashable | None = None) -> None:
        self.puzzle = puzzle
        self.start = puzzle.initial() if start is None else start
        self._states: list[Hashable] = [self.start]
        self._moves: list[Hashable] = []
        self._redo: list[Hashable] = []  # moves undone, the next to redo last
        self.optimal_length: int | None = None  # from the start, once a search has told

    # ---- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Hashable:
        return self._states[-1]

    @property
    def history(self) -> tuple[Hashable, ...]:
        return tuple(self._moves)

    @property
    def states(self) -> tuple[Hashable, ...]:
        return tuple(self._states)

    @property
    def moves_made(self) -> int:
        return len(self._moves)

    @property
    def solved(self) -> bool:
        return self.puzzle.is_goal(self.state, self.start)

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def game_id(self) -> str:
        return self.puzzle.game_id(self.start)

    def legal_moves(self) -> list[Hashable]:
        return list(self.puzzle.moves(self.state))

    # ---- playing -----------------------------------------------------------------------------
    def push(self, move: Hashable) -> Hashable:
        """Make a move; BadInput when it is not legal here. Returns the new state."""
        if move not in self.legal_moves():
            raise BadInput(self.puzzle.explain_illegal(self.state, move))
        self._play(move)
        self._redo.clear()
        return self.state

    def _play(self, move: Hashable) -> None:
        self._states.append(self.puzzle.apply(self.state, move))
        self._moves.append(move)

    def undo(self) -> Hashable | None:
        """Take back the last move; returns it, or None when there is none."""
        if not self._moves:
            return None
        self._states.pop()
        move = self._moves.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Hashable | None:
        """Replay the last undone move; returns it, or None when there is none."""
        if not self._redo:
            return None
        move = self._redo.pop()
        self._play(move)
        return move

    def restart(self) -> None:
        """Back to the start; the moves stay available to redo, so no work is lost."""
        while self._moves:
            self.undo()

    def adopt(self, solution: Solution, steps: int) -> None:
        """Take over a solution (from the current state) after `steps` of its moves."""
        for move in solution.moves[:steps]:
            self.push(move)

    # ---- asking the engine -------------------------------------------------------------------
    def solve(
        self,
        *,
        progress: Progress = None,
        cancelled: CancelCheck = None,
        budget: int = DEFAULT_BUDGET,
    ) -> Solution:
        """A solution from the current state (optimal where the puzzle's solver says so)."""
        return self.puzzle.solve(
            self.state, self.start, progress=progress, cancelled=cancelled, budget=budget
        )

    def hint(self, **kwargs: Any) -> Hashable | None:
        """The first move of a solution from here, or None when already solved."""
        solution = self.solve(**kwargs)
        return solution.moves[0] if solution.moves else None

    # ---- saving ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        indices, redo = [], []
        state = self.start
        for move in self._moves:
            indices.append(list(self.puzzle.moves(state)).index(move))
            state = self.puzzle.apply(state, move)
        for move in reversed(self._redo):
            redo.append(list(self.puzzle.moves(state)).index(move))
            state = self.puzzle.apply(state, move)
        return {"version": SAVE_VERSION, "game_id": self.game_id, "moves": indices, "redo": redo}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        try:
            session = cls.from_game_id(str(data["game_id"]))
            for index in data.get("moves", []):
                session._play(session._saved_move(index))
            undo_count = 0
            for index in data.get("redo", []):
                session._play(session._saved_move(index))
                undo_count += 1
        except (KeyError, IndexError, TypeError, ValueError) as error:
            if isinstance(error, BadInput):
                raise
            raise BadInput(f"saved game is damaged ({type(error).__name__}: {error})") from None
        for _ in range(undo_count):
            session.undo()
        return session

    def _saved_move(self, index: Any) -> Hashable:
        """The legal move a save names by its index; IndexError when out of range (even < 0)."""
        legal = self.legal_moves()
        at = int(index)
        if not 0 <= at < len(legal):
            raise IndexError(f"move {at} of {len(legal)} legal moves")
        return legal[at]

    @classmethod
    def from_game_id(cls, game_id: str) -> Session:
        """A new game from `puzzle-id:state` (or just `puzzle-id` for its default start)."""
        puzzle_id, sep, state_text = game_id.partition(":")
        puzzle = get_puzzle(puzzle_id)
        return cls(puzzle, puzzle.parse(state_text) if sep else None)
