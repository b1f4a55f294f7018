"""The catalogue of puzzle families and the lookup from a puzzle id to its Puzzle.

Each module in `engine.puzzles` that defines `FAMILY` joins the catalogue by itself: adding a
puzzle means adding one module, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from kaeru.engine.core import BadInput, Puzzle


@dataclass(frozen=True)
class Family:
    """A puzzle family: the variants it lists and how to build any id it accepts."""

    key: str  # "flip-it"
    title: str  # "Flip It"
    blurb: str  # one line for lists
    ids: tuple[str, ...]  # the variants offered in lists, in order
    make: Callable[[str], Puzzle | None]  # a puzzle for an id, or None when not ours
    order: int = 100  # position in lists


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


@cache
def get_puzzle(puzzle_id: str) -> Puzzle:
    """The puzzle for an id such as `flip-it-6`; BadInput naming the way out when unknown."""
    text = puzzle_id.strip()
    for family in families():
        puzzle = family.make(text)
        if puzzle is not None:
            return puzzle
    raise BadInput(f"unknown puzzle id '{text}' (run `kaeru list` to see every id)")


def family_of(puzzle: Puzzle) -> Family:
    for family in families():
        if family.key == puzzle.family:
            return family
    raise KeyError(puzzle.family)


def all_ids() -> list[str]:
    return [pid for family in families() for pid in family.ids]
