"""Summaries of finished games for the records screen: counts, personal bests, streaks and the
recent moves-over-optimal series (see `PuzzleSummary` for what each figure means)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from kaeru.engine.store.models import FinishedGame, PuzzleSummary

RECENT = 30  # games in the chart


def summarise(puzzle_id: str, games: Sequence[FinishedGame], today: date) -> PuzzleSummary:
    """The summary of `games` (one puzzle's, newest first) as of `today` (UTC)."""
    clean = [g for g in games if not g.helped]
    with_optimal = [g for g in clean if g.optimal is not None]
    streak = 0
    for game in games:
        if game.helped:
            break
        streak += 1
    recent = [(g.move_count - g.optimal, g.helped) for g in games if g.optimal is not None]
    return PuzzleSummary(
        puzzle_id=puzzle_id,
        solved=len(games),
        clean=len(clean),
        helped=len(games) - len(clean),
        best_over_optimal=min(
            (g.move_count - g.optimal for g in with_optimal if g.optimal is not None), default=None
        ),
        best_moves=min((g.move_count for g in clean), default=None),
        best_seconds=min((g.seconds for g in clean), default=None),
        streak=streak,
        day_streak=day_streak({_day(g.finished) for g in games}, today),
        recent=tuple(reversed(recent[:RECENT])),
    )


def day_streak(days: set[date | None], today: date) -> int:
    """Days in a row with a win, ending today (or yesterday, when today has none yet)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def _day(stamp: str) -> date | None:
    try:
        return date.fromisoformat(stamp[:10])
    except ValueError:
        return None
