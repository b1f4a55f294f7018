"""`--notation` for `kaeru solve` and `kaeru grade` on sliding puzzles: the speedsolvers'
letters (`engine.sliding.board.notation`: U D L R for the way a tile moves, runs such as `R3`) read
and written beside the engine's own move texts (`7 left`)."""

from __future__ import annotations

import argparse
from collections.abc import Hashable, Sequence
from typing import Any

from kaeru.engine.puzzles.sliding import SlidingPuzzle
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.sliding.board import notation

AUTO = "auto"


def add_notation_argument(sub: argparse.ArgumentParser, *, reading: bool) -> None:
    """`--notation words|slidysim` (and `auto` when reading, the default)."""
    if reading:
        sub.add_argument(
            "--notation",
            choices=(AUTO, *notation.NOTATIONS),
            default=AUTO,
            help="how the moves are written: words ('7 left'), slidysim (sliding puzzles: "
            "U D L R for the way the tile moves, runs such as R3, e.g. 'R3DLU2'), or auto "
            "(slidysim when the moves are only those letters; the default)",
        )
    else:
        sub.add_argument(
            "--notation",
            choices=notation.NOTATIONS,
            default=notation.WORDS,
            help="also write the moves as sliding-puzzle speedsolvers do (slidysim: U D L R "
            "for the way the tile moves, runs such as R3); JSON gets `notation`",
        )


def check_sliding(puzzle: Puzzle[Any, Any], chosen: str) -> None:
    if chosen == notation.NAME and not isinstance(puzzle, SlidingPuzzle):
        raise BadInput(f"--notation {notation.NAME} is for sliding puzzles, not {puzzle.id}")


def moves_in_words(
    puzzle: Puzzle[Any, Any], start: Hashable, moves: Sequence[str], chosen: str
) -> list[str]:
    """The moves as the engine's texts: notation turned into slides played from `start` when
    asked for or (auto) when the texts are only the notation's letters; else as given."""
    check_sliding(puzzle, chosen)
    if not isinstance(puzzle, SlidingPuzzle) or chosen == notation.WORDS:
        return list(moves)
    if chosen == AUTO and not notation.looks_like_notation(moves):
        return list(moves)
    assert isinstance(start, tuple)
    slides = notation.slides_from_notation(puzzle.grid, start, " ".join(moves))
    return [puzzle.format_move(slide) for slide in slides]


def written(puzzle: Puzzle[Any, Any], moves: Sequence[Any], chosen: str) -> str | None:
    """A solution's moves in the notation asked for by `kaeru solve`, None for words."""
    check_sliding(puzzle, chosen)
    if chosen != notation.NAME:
        return None
    return notation.format_slides(moves)
