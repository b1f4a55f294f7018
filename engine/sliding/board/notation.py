"""The move notation of sliding-puzzle speedsolvers (slidysim and the timers like it): one letter
per move, `U D L R`, naming the direction the TILE moves (so `R` slides the tile on the gap's
left into it), with run lengths for repeats: `R3` is `RRR`. Reading takes upper or lower case,
spaces anywhere, and runs of any length; writing gives upper case, runs joined (`R3D2L`) or
spelled out (`RRRDDL`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.sliding.board.geometry import OPPOSITE, Grid, Slide, State

NAME = "slidysim"
WORDS = "words"
NOTATIONS = (WORDS, NAME)  # how moves are written on the command line
LETTER = {"up": "U", "down": "D", "left": "L", "right": "R"}
EDGE = {"up": "top", "down": "bottom", "left": "left", "right": "right"}
DIRECTION = {letter: direction for direction, letter in LETTER.items()}
MAX_MOVES = 100_000  # far more than any real solve; keeps `R999999999` from filling memory

_WHOLE = re.compile(r"(?:\s*[UDLR][0-9]*)+\s*", re.IGNORECASE)
_TOKEN = re.compile(r"([UDLR])([0-9]*)", re.IGNORECASE)


def looks_like_notation(texts: Sequence[str]) -> bool:
    """Whether these move texts, together, are written in the notation (`R3 D L`, `RDDL`):
    only the four letters with run lengths. The sliding puzzles' own move texts (`7 left`,
    `7`, `left`) never are."""
    joined = " ".join(texts)
    return bool(joined.strip()) and _WHOLE.fullmatch(joined) is not None


def parse_directions(text: str) -> list[str]:
    """The directions the tiles move ("up", "down", ...) one per move, runs spelled out (none
    for blank text); BadInput with one line when the text is not the notation."""
    if not text.strip():
        return []
    if _WHOLE.fullmatch(text) is None:
        bad = re.sub(r"[\sUDLRudlr0-9]", "", text)[:1] or text.strip()[:1]
        raise BadInput(
            f"{bad!r} is not {NAME} notation: moves are the letters U D L R (the way the tile "
            f"moves), each with an optional run length such as R3"
        )
    out: list[str] = []
    for letter, run in _TOKEN.findall(text):
        if run and (len(run) > 6 or int(run) == 0):
            raise BadInput(f"'{letter}{run}': a run length is 1 to {MAX_MOVES:,}")
        out.extend([DIRECTION[letter.upper()]] * (int(run) if run else 1))
        if len(out) > MAX_MOVES:
            raise BadInput(f"too many moves: at most {MAX_MOVES:,} in {NAME} notation")
    return out


def format_directions(directions: Iterable[str], runs: bool = True) -> str:
    """The notation for these tile directions: `R3D2L` (runs) or `RRRDDL`."""
    letters = [LETTER[d] for d in directions]
    if not runs:
        return "".join(letters)
    out: list[str] = []
    i = 0
    while i < len(letters):
        j = i
        while j < len(letters) and letters[j] == letters[i]:
            j += 1
        out.append(letters[i] + (str(j - i) if j - i > 1 else ""))
        i = j
    return "".join(out)


def format_slides(moves: Iterable[Slide], runs: bool = True) -> str:
    """A solution's slides in the notation."""
    return format_directions((move.direction for move in moves), runs)


def slides_from_notation(grid: Grid, state: State, text: str) -> list[Slide]:
    """The slides the notation plays from `state`; BadInput naming the first move that has no
    tile to move (e.g. `R` with the gap on the left edge)."""
    moves: list[Slide] = []
    blank = state.index(0)
    cells = list(state)
    for index, direction in enumerate(parse_directions(text), 1):
        source = grid.step(blank, OPPOSITE[direction])
        if source is None:
            raise BadInput(
                f"move {index} '{LETTER[direction]}' is not legal: no tile can move "
                f"{direction}, the gap is on the {EDGE[OPPOSITE[direction]]} edge"
            )
        moves.append(Slide(cells[source], direction))
        cells[blank], cells[source] = cells[source], 0
        blank = source
    return moves
