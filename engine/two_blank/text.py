"""Two-blank states as text: `1 2 3 4/5 6 7 8/9 10 _ _` (rows split by `/`), and the seed
page's compact form `123456789a__` (one character a cell, 10 and up as a, b, c, ...)."""

from __future__ import annotations

import re

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.two_blank.geometry import BLANK, Geometry, State

BLANK_TOKENS = {"_", ".", "0"}
COMPACT_DIGITS = "123456789abcdefghijklmnopqrstuvwxyz"


def format_state(geometry: Geometry, state: State) -> str:
    w = geometry.width
    rows = (state[r * w : (r + 1) * w] for r in range(geometry.height))
    return "/".join(" ".join("_" if t == BLANK else str(t) for t in row) for row in rows)


def format_compact(state: State) -> str:
    """The seed's form: `16329a5478__`."""
    return "".join("_" if t == BLANK else COMPACT_DIGITS[t - 1] for t in state)


def parse_state(geometry: Geometry, text: str, name: str) -> State:
    """A state from either text form; BadInput (naming `name`) saying what is wrong."""
    g = geometry
    example = format_state(g, g.goal)
    expected = f"{g.height} rows of {g.width} cells, tiles 1-{g.tiles} and two _, e.g. '{example}'"
    cleaned = text.strip()
    if not cleaned:
        raise BadInput(f"{name}: empty position, expected {expected}")
    tokens = _tokens(g, cleaned, name, expected)
    if len(tokens) != g.cells:
        raise BadInput(f"{name}: got {len(tokens)} cells, expected {expected}")
    cells = []
    for token in tokens:
        if token in BLANK_TOKENS:
            cells.append(BLANK)
        elif token.isascii() and token.isdigit() and len(token) < 6 and 1 <= int(token) <= g.tiles:
            cells.append(int(token))
        else:
            raise BadInput(f"{name}: '{token}' is not a tile 1-{g.tiles} or _, expected {expected}")
    state = tuple(cells)
    _check_tiles(g, state, name)
    return state


def _tokens(g: Geometry, text: str, name: str, expected: str) -> list[str]:
    text = text.replace(",", " ")  # `1,2,4/7,5,6/3,_,_`: the game id's form, no spaces
    rows = [row for row in re.split(r"[/;\n]", text) if row.strip()]
    if len(rows) == 1 and len(rows[0].split()) == 1 and len(rows[0].strip()) == g.cells:
        return [_from_compact(ch, g, name) for ch in rows[0].strip().lower()]
    if len(rows) > 1:
        for number, row in enumerate(rows, 1):
            if len(row.split()) != g.width:
                raise BadInput(
                    f"{name}: row {number} has {len(row.split())} cells, expected {expected}"
                )
    return [token for row in rows for token in row.split()]


def _from_compact(ch: str, g: Geometry, name: str) -> str:
    if ch in BLANK_TOKENS:
        return "_"
    position = COMPACT_DIGITS.find(ch)
    if position < 0:
        raise BadInput(f"{name}: '{ch}' is not a tile in the compact form (1-9, then a, b, ...)")
    return str(position + 1)


def _check_tiles(g: Geometry, state: State, name: str) -> None:
    counts = [0] * (g.tiles + 1)
    for tile in state:
        counts[tile] += 1
    if counts[0] != 2:
        raise BadInput(f"{name}: needs exactly two empty cells _, got {counts[0]}")
    twice = [t for t in range(1, g.tiles + 1) if counts[t] > 1]
    if twice:
        raise BadInput(f"{name}: tile {twice[0]} appears {counts[twice[0]]} times")
    left = state.index(BLANK)
    if left % g.width == g.width - 1 or state[left + 1] != BLANK:
        raise BadInput(f"{name}: the two empty cells must be side by side in one row")
