"""A puzzle family as the catalogue lists it: its variants and how to build a puzzle for an id.

Each module in `engine.puzzles` defines one `FAMILY`; `engine.puzzles.registry` finds them. Puzzle
modules import this module, never the registry, so the catalogue has no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kaeru.engine.rules.protocol import Puzzle


@dataclass(frozen=True)
class Family:
    """A puzzle family: the variants it lists and how to build any id it accepts."""

    key: str  # "flip-it"
    title: str  # "Flip It"
    blurb: str  # one line for lists
    ids: tuple[str, ...]  # the variants offered in lists, in order
    make: Callable[[str], Puzzle[Any, Any] | None]  # a puzzle for an id, or None when not ours
    order: int = 100  # position in lists
