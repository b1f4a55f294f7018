"""Daily puzzles: for each family with random games, one start that depends on the date alone —
the same on every machine and every Python version — and the share line of a daily win.

Each start is drawn by the puzzle's own `random_start` from `engine.rules.prng.SplitMix64` seeded
with the first 8 bytes of SHA-256 of `kaeru-daily:<YYYY-MM-DD>:<puzzle id>`; that generator, and the
Fisher–Yates shuffles in the puzzles' draws, are the project's own code, so nothing depends on
`random`'s algorithms (tests/engine/test_daily.py pins the list of one date). The puzzles of the
day are DAILY_IDS (one size per family, always the 8- and the 15-puzzle). Optimal lengths come
with them where quick (the 15-puzzle's is null). The first call of a day takes a second or two
(tables and the knights' placements): run it in a worker from the app.
"""

from __future__ import annotations

from datetime import date as Date

from kaeru.engine.catalogue.random_games import RandomGame, draw_game
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.prng import SplitMix64
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock

DAILY_IDS = (
    "sliding-3x3",
    "sliding-4x4",
    "flip-it-8",
    "oshidori",
    "frogs-4",
    "number-reversal-7",
    "two-blank-4x3",
    "knights-3x4",
)


def daily_date(value: Date | str | None = None) -> str:
    """A date as YYYY-MM-DD (today, local time, when None); BadInput for anything else."""
    if value is None:
        return Date.today().isoformat()
    if isinstance(value, Date):
        return value.isoformat()
    try:
        return Date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise BadInput(f"not a date: {value!r} (expected YYYY-MM-DD)") from None


def daily_seed(day: str, puzzle_id: str) -> SplitMix64:
    return SplitMix64.from_text(f"kaeru-daily:{day}:{puzzle_id}")


def daily_games(day: Date | str | None = None, control: Control = QUIET) -> list[RandomGame]:
    """The daily puzzles of `day` (default today), in DAILY_IDS order."""
    iso = daily_date(day)
    return [
        draw_game(get_puzzle(puzzle_id), daily_seed(iso, puzzle_id), control=control)
        for puzzle_id in DAILY_IDS
    ]


def short_title(puzzle_id: str) -> str:
    """A puzzle's title without the part in brackets: "15-puzzle (4×4)" -> "15-puzzle"."""
    title = get_puzzle(puzzle_id).title
    return title.split(" (", 1)[0].strip() or title


def share_line(day: Date | str, title: str, moves: int, optimal: int | None, seconds: float) -> str:
    """`Kaeru 2026-11-23 · 15-puzzle · 58 moves (optimal 52) · 3:12`."""
    count = f"{moves} move" if moves == 1 else f"{moves} moves"
    if optimal is not None:
        count += f" (optimal {optimal})"
    return f"Kaeru {daily_date(day)} · {title} · {count} · {clock(seconds)}"
