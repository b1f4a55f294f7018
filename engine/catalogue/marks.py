"""The player's marks and records as the catalogue shows them: a preset's ✓ and its bests belong
to games from that preset's own start. A daily, a random draw or a typed layout of the same
puzzle is another start: its wins are kept apart ("other starts"), never a preset's best or ✓.

A preset stays ✓ once won from its start, whatever is played after (one more move after the
win saves a game in progress again; the mark does not go back to "in progress").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.store import IN_PROGRESS, SOLVED, FinishedGame, PuzzleSummary, Store
from kaeru.engine.store.records import summarise


@lru_cache(maxsize=4096)
def preset_start(game_id: str) -> bool:
    """Whether `game_id` is its puzzle's standard start (`frogs-4`, or `frogs-4:` followed by
    the standard start written out); False for any other start or an id that no longer parses."""
    if ":" not in game_id:
        return True
    try:
        puzzle, start = parse_game_id(game_id)
    except BadInput:
        return False
    return bool(start == puzzle.initial())


def progress_marks(store: Store) -> dict[str, str]:
    """puzzle id -> SOLVED (won from the preset's start) or IN_PROGRESS (a game is saved and
    the preset was not won yet)."""
    marks = {g.puzzle_id: SOLVED for g in store.records() if preset_start(g.game_id)}
    for saved in store.games_in_progress():
        marks.setdefault(saved.puzzle_id, IN_PROGRESS)
    return marks


def split_by_start(
    games: Iterable[FinishedGame],
) -> tuple[list[FinishedGame], list[FinishedGame]]:
    """(games from the preset's start, games from other starts), each in the order given."""
    own: list[FinishedGame] = []
    others: list[FinishedGame] = []
    for game in games:
        (own if preset_start(game.game_id) else others).append(game)
    return own, others


def summaries(store: Store, puzzle_id: str) -> tuple[PuzzleSummary, PuzzleSummary]:
    """(the preset's own summary, the summary of its other starts) for the records."""
    own, others = split_by_start(store.records(puzzle_id))
    return summary_of(puzzle_id, own), summary_of(puzzle_id, others)


def summary_of(puzzle_id: str, games: Sequence[FinishedGame]) -> PuzzleSummary:
    return summarise(puzzle_id, games, datetime.now(UTC).date())
