"""What a front end reads of a game: `GameView`, the read-only half of the midend's `Session`.

It holds the game's private state (its slots, typed below) and the read-only properties over
it; `engine.game.session.Session` adds the actions and is the only module that writes the
state. A screen learns what it may read here and what it may do there."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

from kaeru.engine.coach.session_coach import SessionCoach
from kaeru.engine.game.clock import GameClock
from kaeru.engine.game.jobs import Post, TaggedJobs
from kaeru.engine.game.modes import Mode
from kaeru.engine.game.playback import Playback
from kaeru.engine.game.record import Change, GameHooks, GameStatus, GameStore, Outcome, SearchView
from kaeru.engine.game.saves import saved_game
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.protocol import Puzzle
from kaeru.engine.service.inline import Searcher
from kaeru.engine.store.models import SavedGame

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
Listener = Callable[[Change], None]


class GameView(Generic[S, M]):
    """A game's state, private, and what may be read of it."""

    __slots__ = (
        "__weakref__", "_autoplay", "_clock", "_coach", "_daily", "_dead_end",
        "_helped", "_hint_move", "_hints", "_hooks", "_jobs", "_last_move", "_listeners",
        "_message", "_mode", "_moves", "_optimal_length", "_paused", "_playback", "_post",
        "_puzzle", "_recorded", "_redo", "_search", "_searcher", "_slot", "_start", "_states",
        "_store",
    )

    _puzzle: Puzzle[S, M]
    _start: S
    _searcher: Searcher
    _store: GameStore | None
    _post: Post
    _daily: str | None
    _autoplay: bool  # a solution found starts playing back by itself
    _slot: int | None  # the store's row for this game in progress
    _listeners: list[Listener]
    _states: list[S]
    _moves: list[M]
    _redo: list[M]  # moves undone, the next to redo last
    _mode: Mode
    _optimal_length: int | None  # from the start, once a search has told
    _dead_end: str | None  # why the current position cannot be won
    _hint_move: M | None
    _last_move: M | None
    _message: str
    _search: SearchView
    _playback: Playback[S, M] | None
    _hints: int
    _helped: bool
    _recorded: bool  # the win has gone into the records
    _jobs: TaggedJobs
    _hooks: GameHooks
    _coach: SessionCoach
    _clock: GameClock
    _paused: bool

    # ---- reading: the game ---------------------------------------------------------------------
    @property
    def puzzle(self) -> Puzzle[S, M]:
        return self._puzzle

    @property
    def start(self) -> S:
        return self._start

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def history(self) -> tuple[M, ...]:
        return tuple(self._moves)

    @property
    def states(self) -> tuple[S, ...]:
        return tuple(self._states)

    @property
    def redo_moves(self) -> tuple[M, ...]:
        """The moves undone, the next to redo first."""
        return tuple(reversed(self._redo))

    def line(self) -> tuple[Sequence[M], Sequence[M]]:
        """The moves played and the moves undone (the next to redo last), as read-only views
        (no copy: a save compares them on every move of a game of any length)."""
        return self._moves, self._redo

    @property
    def moves_made(self) -> int:
        return len(self._moves)

    @property
    def last_move(self) -> M | None:
        """The move that led here (None after an undo, a restart or at the start)."""
        return self._last_move

    @property
    def solved(self) -> bool:
        return self._puzzle.is_goal(self.state, self._start)

    @property
    def game_id(self) -> str:
        return self._puzzle.game_id(self._start)

    @property
    def daily(self) -> str | None:
        """The day whose daily game this is, or None."""
        return self._daily

    @property
    def seconds(self) -> float:
        """Time played: stopped during playback, while paused, and once won."""
        return self._clock.seconds

    def legal_moves(self) -> list[M]:
        return list(self._puzzle.moves(self.state))

    def layout(self) -> Layout:
        """What the board draws now (the playback's position during playback)."""
        shown = self._playback.state if self._playback is not None else self.state
        return self._puzzle.layout(shown)

    # ---- reading: what the player is told ----------------------------------------------------
    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def message(self) -> str:
        """The one line the player reads after the last action or answer."""
        return self._message

    @property
    def search(self) -> SearchView:
        """The player's last hint or solve search, as the stats panel shows it."""
        return self._search

    @property
    def running_searches(self) -> tuple[str, ...]:
        """The tags of the searches under way ("hint", "solve", "optimal", "distance"…)."""
        return tuple(self._jobs.tags)

    @property
    def hint_move(self) -> M | None:
        """The hinted move (`play_hint` plays it), once a hint shows a whole move."""
        return self._hint_move

    @property
    def playback(self) -> Playback[S, M] | None:
        """The solution being shown (mode PLAYBACK), else None."""
        return self._playback

    @property
    def coach(self) -> SessionCoach:
        """The coach: distances, graded hints, move verdicts (off until enabled)."""
        return self._coach

    @property
    def searcher(self) -> Searcher:
        """The search service this game's searches run on (a new game may share it)."""
        return self._searcher

    def outcome(self) -> Outcome:
        chains = self._puzzle.chains(self._moves) if self._puzzle.capabilities.chains else None
        status: GameStatus = "won" if self.solved else "lost" if self._dead_end else "in progress"
        return Outcome(
            status=status,
            moves=self.moves_made,
            chains=len(chains) if chains is not None else None,
            optimal=self._optimal_length,
            helped=self._helped,
            hints=self._hints,
            seconds=self.seconds,
            reason=self._dead_end,
        )

    def saved(self) -> SavedGame:
        """The game as the store keeps it: moves as text, so saves outlive move order."""
        return saved_game(self, self._slot)
