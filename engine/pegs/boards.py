"""Peg board geometry: the holes of each board, their names, the jumps and the symmetries,
and the text form of a position (rows of `o` pegs and `.` holes).

Holes are numbered row by row from the top left; that number is also the hole's bit in a
position (an int). Holes are named by column letter and row number from the top: `d4` is the
centre of the English board. On the triangle a row's holes are lettered from its left end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from kaeru.engine.rules.protocol import BadInput

Coord = tuple[int, int]
Jump = tuple[int, int, int]  # (from hole, jumped hole, to hole)

PEG, HOLE = "o", "."
SQUARE_STEPS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
TRIANGLE_STEPS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
ROW_SEPARATORS = re.compile(r"[\s/]+")


@dataclass(frozen=True)
class Board:
    """One board: where its holes are, which jumps exist, which symmetries it has."""

    key: str  # "english"
    title: str  # "English board (33 holes)"
    lattice: str  # "square" or "triangle"
    coords: tuple[Coord, ...]  # (column, row) of each hole, 0-based
    centre: int | None  # the hole games finish in by default; None on the triangle
    steps: tuple[Coord, ...]
    rows: tuple[tuple[int, ...], ...] = field(init=False)
    names: tuple[str, ...] = field(init=False)
    jumps: tuple[Jump, ...] = field(init=False)
    symmetries: tuple[tuple[int, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        at = {xy: i for i, xy in enumerate(self.coords)}
        height = max(y for _, y in self.coords) + 1
        rows = tuple(
            tuple(i for i, (_, y) in enumerate(self.coords) if y == r) for r in range(height)
        )
        names = tuple(f"{chr(97 + x)}{y + 1}" for x, y in self.coords)
        jumps = []
        for a, (x, y) in enumerate(self.coords):
            for dx, dy in self.steps:
                b, c = at.get((x + dx, y + dy)), at.get((x + 2 * dx, y + 2 * dy))
                if b is not None and c is not None:
                    jumps.append((a, b, c))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "jumps", tuple(jumps))
        object.__setattr__(self, "symmetries", _symmetries(self.lattice, self.coords, at))

    @property
    def size(self) -> int:
        return len(self.coords)

    @property
    def full(self) -> int:
        """The position with a peg in every hole."""
        return (1 << self.size) - 1

    def hole(self, name: str) -> int:
        """The hole called `name` (`d4`); BadInput naming the board's holes when unknown."""
        key = name.strip().lower()
        if key in self.names:
            return self.names.index(key)
        raise BadInput(
            f"no hole '{name.strip()}' on the {self.key} board "
            f"(holes are named by column letter and row number from the top, e.g. "
            f"{self.names[self.centre or 0]})"
        )

    def holes_text(self, holes: Iterable[int]) -> str:
        return ", ".join(self.names[h] for h in sorted(holes))

    # ---- the text form of a position -----------------------------------------------------------
    def format_state(self, state: int, separator: str = "/") -> str:
        return separator.join(
            "".join(PEG if state >> h & 1 else HOLE for h in row) for row in self.rows
        )

    def parse_state(self, text: str) -> int:
        """A position from rows of `o` and `.` separated by `/`, spaces or new lines (the seed's
        format), or from all the holes in one run of characters."""
        lengths = "-".join(str(len(r)) for r in self.rows)
        expected = (
            f"{len(self.rows)} rows of {lengths} holes, `o` a peg and `.` an empty hole, "
            f"e.g. {self.format_state(self.full & ~(1 << (self.centre or 0)))}"
        )
        tokens = [t for t in ROW_SEPARATORS.split(text.strip()) if t]
        if not tokens:
            raise BadInput(f"{self.key} board: no position given; expected {expected}")
        for number, token in enumerate(tokens, 1):
            stray = [c for c in token.lower() if c not in (PEG, HOLE)]
            if stray:
                raise BadInput(
                    f"{self.key} board: unexpected {stray[0]!r} in row {number} "
                    f"({token}); use `o` for a peg and `.` for an empty hole"
                )
        if len(tokens) == 1 and len(tokens[0]) == self.size:
            cells = tokens[0]
        else:
            if len(tokens) != len(self.rows):
                raise BadInput(f"{self.key} board: got {len(tokens)} rows, expected {expected}")
            for number, (token, row) in enumerate(zip(tokens, self.rows, strict=True), 1):
                if len(token) != len(row):
                    raise BadInput(
                        f"{self.key} board: row {number} ({token}) has {len(token)} holes, "
                        f"expected {len(row)}; rows are {lengths} holes long"
                    )
            cells = "".join(tokens)
        order = [h for row in self.rows for h in row]
        state = sum(1 << h for h, c in zip(order, cells.lower(), strict=True) if c == PEG)
        if not state:
            raise BadInput(f"{self.key} board: the position has no peg at all")
        return state


def _symmetries(lattice: str, coords: tuple[Coord, ...], at: dict[Coord, int]) -> tuple:
    """Every permutation of the holes that maps the board onto itself (identity first)."""
    if lattice == "square":
        xs, ys = [x for x, _ in coords], [y for _, y in coords]
        cx, cy = min(xs) + max(xs), min(ys) + max(ys)  # twice the centre
        maps = [
            lambda x, y: (x, y),
            lambda x, y: (cx - x, y),
            lambda x, y: (x, cy - y),
            lambda x, y: (cx - x, cy - y),
            lambda x, y: ((cx - cy) // 2 + y, (cy - cx) // 2 + x),
            lambda x, y: ((cx + cy) // 2 - y, (cy - cx) // 2 + x),
            lambda x, y: ((cx - cy) // 2 + y, (cx + cy) // 2 - x),
            lambda x, y: ((cx + cy) // 2 - y, (cx + cy) // 2 - x),
        ]
    else:
        top = max(y for _, y in coords)  # barycentric (k, r - k, top - r) permuted

        def tri(order: tuple[int, int, int]):  # a small coordinate map
            def apply(x: int, y: int) -> Coord:
                bary = (x, y - x, top - y)
                u, _, w = (bary[i] for i in order)
                return u, top - w

            return apply

        maps = [tri(o) for o in ((0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1))]
    found = []
    for fn in maps:
        images = [image for x, y in coords if (image := at.get(fn(x, y))) is not None]
        if len(images) == len(coords) and sorted(images) == list(range(len(coords))):
            perm = tuple(images)
            if perm not in found:
                found.append(perm)
    return tuple(found)


def _square(widths: tuple[int, ...]) -> tuple[Coord, ...]:
    side = max(widths)
    return tuple(
        (x, y) for y, w in enumerate(widths) for x in range((side - w) // 2, (side + w) // 2)
    )


@cache
def english() -> Board:
    return Board("english", "English board (33 holes)", "square",
                 _square((3, 3, 7, 7, 7, 3, 3)), 16, SQUARE_STEPS)


@cache
def french() -> Board:
    return Board("french", "French board (37 holes)", "square",
                 _square((3, 5, 7, 7, 7, 5, 3)), 18, SQUARE_STEPS)


@cache
def triangle() -> Board:
    coords = tuple((x, y) for y in range(5) for x in range(y + 1))
    return Board("triangle", "Triangle (15 holes)", "triangle", coords, None, TRIANGLE_STEPS)


BOARDS = {"english": english, "french": french, "triangle": triangle}


def board(key: str) -> Board:
    return BOARDS[key]()
