"""Ranking shared results: the daily leaderboard and the hall of fame.

Clean games (no hint, solve or take-over) are ranked: those that reached the proved optimum
first, then fewest moves, then least time, then who finished first. Helped games are listed
apart, in the same order, never ranked with clean ones. A player counts once: on a daily, with
their first win of that day's puzzle; in the hall of fame, with their best clean win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from kaeru.engine.store.records import day_streak as days_in_a_row


@dataclass(frozen=True)
class Result:
    """One shared win."""

    id: int
    player: str
    name: str
    puzzle_id: str
    game_id: str
    day: str | None
    moves: tuple[str, ...]
    move_count: int
    optimal: int | None
    seconds: float
    hints: int
    helped: bool
    finished: str

    @property
    def optimal_reached(self) -> bool:
        return self.optimal is not None and self.move_count <= self.optimal

    @property
    def over(self) -> int | None:
        """Moves beyond the optimum, when it is known."""
        return None if self.optimal is None else self.move_count - self.optimal

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "puzzle": self.puzzle_id, "game_id": self.game_id,
            "day": self.day, "moves": self.move_count, "optimal": self.optimal,
            "seconds": round(self.seconds, 3), "hints": self.hints, "helped": self.helped,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class Board:
    """A ranked list (`ranked`, best first) and the helped games apart (`helped`)."""

    ranked: tuple[Result, ...] = ()
    helped: tuple[Result, ...] = ()

    def rank_of(self, player: str) -> int | None:
        """1-based rank of `player` among the clean results, or None."""
        for place, result in enumerate(self.ranked, start=1):
            if result.player == player:
                return place
        return None


def order_key(result: Result) -> tuple[int, int, float, str]:
    return (0 if result.optimal_reached else 1, result.move_count, result.seconds,
            result.finished)


def first_each(results: Iterable[Result]) -> list[Result]:
    """Each player's first result (by finish time)."""
    seen: dict[str, Result] = {}
    for result in sorted(results, key=lambda r: (r.finished, r.id)):
        seen.setdefault(result.player, result)
    return list(seen.values())


def daily_board(results: Iterable[Result]) -> Board:
    """One daily puzzle's leaderboard from its shared wins."""
    firsts = first_each(results)
    return Board(
        ranked=tuple(sorted((r for r in firsts if not r.helped), key=order_key)),
        helped=tuple(sorted((r for r in firsts if r.helped), key=order_key)),
    )


def hall_of_fame(results: Iterable[Result], limit: int = 10) -> tuple[Result, ...]:
    """Each player's best clean result of a puzzle, best first."""
    best: dict[str, Result] = {}
    for result in results:
        if result.helped:
            continue
        held = best.get(result.player)
        if held is None or order_key(result) < order_key(held):
            best[result.player] = result
    return tuple(sorted(best.values(), key=order_key)[:limit])


def day_streak(days: Sequence[str], today: date) -> int:
    """Days in a row with a daily win, ending today (or yesterday, when today has none yet)."""
    known: set[date | None] = set()
    for text in days:
        try:
            known.add(date.fromisoformat(text))
        except ValueError:
            continue
    return days_in_a_row(known, today)
