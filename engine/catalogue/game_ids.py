"""Game ids: `puzzle-id:start` names a puzzle and a start position, shareable as text
(`flip-it-7:B_BBBBB`); a bare `puzzle-id` means its standard start."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.rules.results import reason_words
from kaeru.engine.rules.text_input import split_game_id


def parse_game_id(game_id: str) -> tuple[Puzzle[Any, Any], Hashable]:
    """The puzzle and start a game id names; BadInput (one line) when either is wrong."""
    puzzle_id, state_text = split_game_id(game_id)
    puzzle = get_puzzle(puzzle_id)
    return puzzle, (puzzle.parse(state_text) if state_text is not None else puzzle.initial())


def playable_start(puzzle: Puzzle[Any, Any], text: str) -> Hashable:
    """A start typed by a player: parsed, and refused at once when a quick proof shows it
    cannot be won (BadInput saying why)."""
    start = puzzle.parse(text) if text.strip() else puzzle.initial()
    reason = puzzle.unsolvable_reason(start, start)
    if reason:
        raise BadInput(f"this start cannot be won: {reason_words(reason)}")
    return start
