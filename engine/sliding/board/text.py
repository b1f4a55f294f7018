"""Reading and writing sliding-puzzle states as text.

The form is rows separated by `/`, tiles by spaces: `1 2 3/4 5 6/7 8 _`. Reading also takes `0`
for the blank, commas between tiles, new lines between rows, one flat list of every tile, and
for boards of at most ten cells the seed pages' compact digits (`64785_321`).
"""

from __future__ import annotations

import re

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.sliding.board.geometry import Grid, State

BLANK_TOKENS = {"_", "0"}


def format_state(grid: Grid, state: State, sep: str = " ") -> str:
    """Rows joined by `/`, tiles by `sep`, the blank as `_`."""
    rows = []
    for r in range(grid.height):
        row = state[r * grid.width : (r + 1) * grid.width]
        rows.append(sep.join("_" if t == 0 else str(t) for t in row))
    return "/".join(rows)


def parse_state(grid: Grid, text: str, puzzle_id: str) -> State:
    """A state from text; BadInput with one line saying what is wrong and what is expected."""
    n, w, h = grid.cells, grid.width, grid.height
    example = format_state(grid, grid.goal)
    expected = (
        f"expected {h} rows of {w} tiles (1 to {n - 1} once each and _ for the gap), "
        f"e.g. '{example}'"
    )
    raw = text.strip()
    if not raw:
        raise BadInput(f"{puzzle_id}: empty layout; {expected}")
    rows = [r for r in re.split(r"[/\n;]+", raw) if r.strip()]
    split_rows = [[t for t in re.split(r"[\s,]+", row.strip()) if t] for row in rows]
    tokens = [t for row in split_rows for t in row]
    if len(tokens) == 1 and n <= 10 and len(tokens[0]) == n:
        tokens = list(tokens[0])  # compact digits: 64785_321
        split_rows = [tokens]
    if len(tokens) != n:
        raise BadInput(f"{puzzle_id}: got {len(tokens)} tiles, {expected}")
    if len(split_rows) > 1 and any(len(row) != w for row in split_rows):
        sizes = ", ".join(str(len(row)) for row in split_rows)
        raise BadInput(f"{puzzle_id}: rows have {sizes} tiles; {expected}")
    values = []
    for token in tokens:
        if token in BLANK_TOKENS:
            values.append(0)
        elif token.isascii() and token.isdigit() and len(token) < 6 and 1 <= int(token) < n:
            values.append(int(token))
        else:
            raise BadInput(f"{puzzle_id}: {token!r} is not a tile; {expected}")
    seen: set[int] = set()
    for v in values:
        if v in seen:
            what = "the gap" if v == 0 else f"tile {v}"
            raise BadInput(f"{puzzle_id}: {what} appears twice; {expected}")
        seen.add(v)
    return tuple(values)
