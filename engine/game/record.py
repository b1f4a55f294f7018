"""Values the midend hands out about a game: its outcome, what the last search did, and the store
it saves through."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeGuard

from kaeru.engine.rules.results import SearchStats, Solution
from kaeru.engine.service.jobs import JobKind
from kaeru.engine.store.models import FinishedGame, SavedGame

# One spelling per state: each is a Literal, so mypy refuses any other string.
GameStatus = Literal["in progress", "won", "lost"]
# What changed, as the session tells its listeners
Change = Literal["position", "search", "progress", "outcome", "playback", "coach", "hint"]
# How the last search stands, as the stats panel shows it; "earlier": done before the game
# moved on (its figures are of an earlier position)
SearchStatus = Literal[
    "idle", "running", "done", "no solution", "cancelled", "gave up", "failed", "earlier"
]


@dataclass(frozen=True)
class Outcome:
    """Where a game stands: in progress, won or lost, and how it was played."""

    status: GameStatus
    moves: int  # moves made (jumps, for pegs)
    chains: int | None  # moves as players count them where that differs (peg chains)
    optimal: int | None  # the optimal length from the start, where known
    helped: bool  # a hint, a solution or a take-over was used
    hints: int
    seconds: float
    reason: str | None = None  # why the game is lost

    @property
    def won(self) -> bool:
        return self.status == "won"


@dataclass(frozen=True)
class SearchView:
    """What the stats panel shows: the search asked for, how it stands, and its figures."""

    tag: str  # "hint" | "solve" | "" (the player's searches; SearchTag)
    status: SearchStatus
    stats: SearchStats | None


@dataclass(frozen=True)
class GameHooks:
    """What a session lets its coach and its answers do to it, each an intention: the only way
    to change a session from outside its module (its state is private; they read its public,
    read-only surface). Every hook is typed; the positions and moves are the session's own."""

    changed: Callable[[Change], None]  # tell the listeners
    persist: Callable[[], None]  # save the game in progress (a win once)
    update_clock: Callable[[], None]  # run or stop the clock as the mode says
    start_user_search: Callable[[str, str], None]  # (tag, message): the player's hint or solve
    submit: Callable[[JobKind, str, Hashable], None]  # (kind, tag, position): a quiet job
    say: Callable[[str], None]  # the one-line message the player reads
    know_optimal: Callable[[int], None]  # the optimal length from the start, found
    lose: Callable[[str], None]  # (reason): the current position is proved lost
    count_hint: Callable[[Hashable | None], None]  # a hint given (with the move, if shown)
    clear_hint: Callable[[], None]  # no move is hinted any more
    end_search: Callable[[str, SearchStatus, SearchStats | None], None]  # back to playing
    show_solution: Callable[[Solution[Any, Any]], bool]  # playback starts; True if it plays


class GameStore(Protocol):
    """What the midend needs of the player's store (`engine.store.Store` keeps it in SQLite)."""

    def save_game(self, game: SavedGame) -> int: ...

    def finish_game(self, slot: int | None, game: FinishedGame) -> None: ...

    def delete_game(self, slot: int) -> None: ...


class LineStore(GameStore, Protocol):
    """A store that also takes a game's line by its changes (`engine.store.Store`: one row a
    move); the midend sends whole games to a plain `GameStore`."""

    def save_progress(
        self, slot: int | None, puzzle_id: str, game_id: str, *, keep: int,
        added: Sequence[str], position: int, seconds: float = 0.0, hints: int = 0,
        helped: bool = False, daily: str | None = None,
        hint_levels: tuple[int, int, int] = (0, 0, 0),
    ) -> int: ...


def takes_lines(store: GameStore) -> TypeGuard[LineStore]:
    """Whether `store` takes a line by its changes (a plain attribute test: a save runs on
    every move, and `isinstance` against a Protocol costs 60 times as much)."""
    return hasattr(store, "save_progress")
