"""The catalogue of puzzle families and the lookup from a puzzle id to its Puzzle.

Each module in `engine.puzzles` that defines `FAMILY` (an `engine.rules.family.Family`) joins the
catalogue by itself: adding a puzzle means adding one module, nothing else. Puzzle modules never
import this one (they import `engine.rules.family`), so discovery makes no import cycle.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache, lru_cache
from typing import Any

from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.rules.text_input import MAX_ID_LENGTH, bounded, shown

AnyPuzzle = Puzzle[Any, Any]
CHOSEN_GOALS_KEPT = 64  # puzzles with a chosen goal (`@`) kept built

__all__ = ["AnyPuzzle", "Family", "all_ids", "families", "family_of", "get_puzzle"]


@cache
def families() -> tuple[Family, ...]:
    """Every family found in engine.puzzles, in list order."""
    import kaeru.engine.puzzles as package

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"kaeru.engine.puzzles.{info.name}")
        family = getattr(module, "FAMILY", None)
        if isinstance(family, Family):
            found.append(family)
    return tuple(sorted(found, key=lambda f: (f.order, f.key)))


def get_puzzle(puzzle_id: str) -> AnyPuzzle:
    """The puzzle for an id such as `flip-it-6`, or one with a chosen goal such as
    `flip-it-6@_WWWWW` or `pegs-english@d4`; BadInput naming the way out when unknown."""
    text = bounded(puzzle_id, MAX_ID_LENGTH, "puzzle id").strip()
    return _with_goal(text) if "@" in text else _standard(text)


@cache
def _standard(text: str) -> AnyPuzzle:
    return _make(text)


@lru_cache(maxsize=CHOSEN_GOALS_KEPT)
def _with_goal(text: str) -> AnyPuzzle:
    """Kept for a while, not for ever: a player can name a great many goals."""
    return _make(text)


def _make(text: str) -> AnyPuzzle:
    for family in families():
        puzzle = family.make(text)
        if puzzle is not None:
            return puzzle
    raise BadInput(f"unknown puzzle id {shown(text)} (run `kaeru list` to see every id)")


def family_of(puzzle: AnyPuzzle) -> Family:
    for family in families():
        if family.key == puzzle.family:
            return family
    raise KeyError(puzzle.family)


def all_ids() -> list[str]:
    return [pid for family in families() for pid in family.ids]
