"""The classic starting shapes on the English board; every one finishes with a peg in d4.

Each shape is written in the board's own text form (the seed's: rows of `o` pegs and `.`
empty holes, the 3-3-7-7-7-3-3 rows of the cross-shaped board).
"""

from __future__ import annotations

from kaeru.engine.pegs.boards import english

SHAPES: dict[str, tuple[str, str]] = {
    # key: (title, position)
    "cross": ("Cross", ".../.o./..ooo../...o.../...o.../.../..."),
    "plus": ("Plus", ".../.o./...o.../.ooooo./...o.../.o./..."),
    "fireplace": ("Fireplace", "ooo/ooo/..ooo../..o.o../......./.../..."),
    "arrow": ("Arrow", ".o./ooo/.ooooo./...o.../...o.../ooo/ooo"),
    "pyramid": ("Pyramid", ".../.o./..ooo../.ooooo./ooooooo/.../..."),
    "diamond": ("Diamond", ".o./ooo/.ooooo./ooo.ooo/.ooooo./ooo/.o."),
    "t": ("T", ".../.../......./..ooo../...o.../.o./..."),
}


def shape_state(key: str) -> int:
    """The position of a classic shape on the English board."""
    return english().parse_state(SHAPES[key][1])
