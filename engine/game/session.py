"""The midend: one game in progress, as `midend.c` is in Simon Tatham's collection.

Everything a front end does to a game goes through a Session: moves, undo, redo, restart, hint,
solve, playback and take-over, the optimal length from the start and the distance where known,
the dead-end verdict, the outcome, the timer and persistence through the store it is given. It
owns the mode (playing, searching, playback, see `engine.game.modes`) and refuses what the mode does
not allow, with a one-line reason. Searches are jobs on a searcher (the search service, or the
inline one for scripts and tests); an answer for a position that is no longer current is
dropped. Listeners are told after every change; a front end redraws from the session's state.
Nothing here needs a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar, cast

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.coach.session_coach import SessionCoach
from kaeru.engine.game.answers import optimal_done, plural, reach_done, user_search_done
from kaeru.engine.game.clock import GameClock
from kaeru.engine.game.jobs import Post, TaggedJobs
from kaeru.engine.game.modes import Mode, Refused, check
from kaeru.engine.game.playback import Playback
from kaeru.engine.game.record import (
    Change,
    GameHooks,
    GameStatus,
    GameStore,
    Outcome,
    SearchView,
)
from kaeru.engine.game.saves import finished_game, restore_saved, save_progress, saved_game
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.rules.results import SearchStats
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import JobKind, JobRequest, JobResult
from kaeru.engine.store.models import SavedGame

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

OPTIMAL_BUDGET = 3_000_000  # positions for the quiet "optimal from the start" search
REACH_BUDGET = 300_000  # positions for the quiet "can this still be won" after a move
NO_MOVE_LEFT = "no move is left"
Listener = Callable[[Change], None]


class Session(Generic[S, M]):
    """A game of one puzzle from one start position."""

    def __init__(
        self,
        puzzle: Puzzle[S, M],
        start: S | None = None,
        *,
        searcher: Searcher | None = None,
        store: GameStore | None = None,
        post: Post | None = None,
        clock: Callable[[], float] = time.monotonic,
        daily: str | None = None,
        autoplay: bool = True,
    ) -> None:
        self.puzzle = puzzle
        self.start: S = puzzle.initial() if start is None else start
        self.searcher: Searcher = searcher if searcher is not None else InlineSearcher()
        self.store = store
        self.post: Post = post if post is not None else (lambda fn: fn())
        self.daily = daily
        self.autoplay = autoplay  # a solution found starts playing back by itself
        self.slot: int | None = None  # the store's row for this game in progress
        self._listeners: list[Listener] = []
        self._states: list[S] = [self.start]
        self._moves: list[M] = []
        self._redo: list[M] = []  # moves undone, the next to redo last
        self.mode = Mode.PLAYING
        self.optimal_length: int | None = None  # from the start, once a search has told
        self.distance: int | None = None  # from the current position, where known
        self.dead_end: str | None = None  # why the current position cannot be won
        self.hint_move: M | None = None
        self.last_move: M | None = None
        self.message = ""
        self.search = SearchView("", "idle", None)
        self.playback: Playback[S, M] | None = None
        self.hints = 0
        self.helped = False
        self._recorded = False  # the win has gone into the records
        self.jobs = TaggedJobs(self.searcher, self.post)
        self._hooks = GameHooks(self._changed, self._persist, self._update_clock,
                                self._start_user_search, self._submit_quiet)
        self.coach = SessionCoach(self, self._hooks)  # distances, graded hints, move verdicts
        self.clock = GameClock(clock)
        self._paused = False
        self._update_clock()

    # ---- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def shown_state(self) -> S:
        """The position on the board: the playback's step during playback, else the game's."""
        return self.playback.state if self.playback is not None else self.state

    def line(self) -> tuple[Sequence[M], Sequence[M]]:
        """The moves played and the moves undone (the next to redo last), as read-only views
        (no copy: a save compares them on every move of a game of any length)."""
        return self._moves, self._redo

    def load_line(self, texts: Sequence[str], redo: int, read: Callable[[S, str], M]) -> None:
        """Bring a new game to a saved line: play the moves `texts` name from the start (each
        read at its position by `read`; no mode check, no save), then take the last `redo` of
        them back as the moves to redo."""
        for text in texts:
            self._play(read(self.state, text))
        for _ in range(redo):
            self._states.pop()
            self._redo.append(self._moves.pop())
        self.last_move = self._moves[-1] if self._moves else None
        self._update_clock()

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

    @property
    def moves_made(self) -> int:
        return len(self._moves)

    @property
    def solved(self) -> bool:
        return self.puzzle.is_goal(self.state, self.start)

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def game_id(self) -> str:
        return self.puzzle.game_id(self.start)

    @property
    def seconds(self) -> float:
        """Time played: stopped during playback, while paused, and once won."""
        return self.clock.seconds

    def legal_moves(self) -> list[M]:
        return list(self.puzzle.moves(self.state))

    def layout(self) -> Layout:
        """What the board draws now (the playback's position during playback)."""
        return self.puzzle.layout(self.shown_state)

    def outcome(self) -> Outcome:
        chains = self.puzzle.chains(self._moves) if self.puzzle.capabilities.chains else None
        status: GameStatus = "won" if self.solved else "lost" if self.dead_end else "in progress"
        return Outcome(
            status=status,
            moves=self.moves_made,
            chains=len(chains) if chains is not None else None,
            optimal=self.optimal_length,
            helped=self.helped,
            hints=self.hints,
            seconds=self.seconds,
            reason=self.dead_end,
        )

    # ---- listeners ---------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call `listener(what)` after every change from now on."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop telling `listener` (nothing happens when it was not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, what: Change) -> None:
        for listener in list(self._listeners):
            listener(what)

    # ---- playing -----------------------------------------------------------------------------
    def push(self, move: M) -> S:
        """Make a move; BadInput when it is not legal here, Refused when the mode forbids."""
        check("move", self.mode)
        if move not in self.legal_moves():
            raise BadInput(self.puzzle.explain_illegal(self.state, move))
        self._play(move)
        self._redo.clear()
        self._after_change(self.puzzle.describe(move), move)
        return self.state

    def push_text(self, text: str) -> S:
        """Make a move given in its text form (`"7 left"`, `"d2-d4"`)."""
        check("move", self.mode)
        return self.push(self.puzzle.parse_move(text, self.state))

    def _play(self, move: M) -> None:
        self._states.append(self.puzzle.apply(self.state, move))
        self._moves.append(move)

    def undo(self) -> M:
        """Take back the last move; Refused when there is none."""
        check("undo", self.mode)
        if not self._moves:
            raise Refused("Nothing to undo.")
        self._states.pop()
        move = self._moves.pop()
        self._redo.append(move)
        self._after_change(f"Undid {self.puzzle.describe(move)}", None)
        return move

    def redo(self) -> M:
        """Replay the last undone move; Refused when there is none."""
        check("redo", self.mode)
        if not self._redo:
            raise Refused("Nothing to redo.")
        move = self._redo.pop()
        self._play(move)
        self._after_change(f"Redid {self.puzzle.describe(move)}", move)
        return move

    def restart(self) -> None:
        """Back to the start; the moves stay available to redo, so no work is lost."""
        check("restart", self.mode)
        if not self._moves:
            raise Refused("Already at the start.")
        while self._moves:
            self._states.pop()
            self._redo.append(self._moves.pop())
        self._after_change("Back at the start (r redoes the moves).", None)

    def _after_change(self, message: str, last_move: M | None) -> None:
        """After the live position changed: drop stale answers, re-check, save, tell."""
        self.cancel_searches(quiet_too=False)
        if self.mode is Mode.SEARCHING:
            self.mode = Mode.PLAYING
            self.search = SearchView(self.search.tag, "cancelled", self.search.stats)
        elif self.search.status not in ("idle", "cancelled"):  # its figures were of another place
            self.search = SearchView(self.search.tag, "earlier", self.search.stats)
        self.jobs.cancel("dead-end")
        self.jobs.cancel("reach")
        self.hint_move = None
        self.last_move = last_move
        self.dead_end = None
        self.distance = self.optimal_length if self.state == self.start else None
        self.message = message
        self._update_clock()
        self.coach.position_changed()
        self._check_dead_end()
        self._persist()
        self._changed("position")

    def _check_dead_end(self) -> None:
        """Whether the new position can still be won: at once when no move is left; else a
        quiet check where a family can lose (pegs' verdict; a search where no move goes back)."""
        if self.solved:
            return
        caps = self.puzzle.capabilities
        if not self.legal_moves():
            self.dead_end = NO_MOVE_LEFT
        elif caps.dead_ends:
            self._submit(JobKind.DEAD_END, "dead-end", self.state)
        elif not caps.reversible:
            self._submit(JobKind.SOLVE, "reach", self.state, budget=REACH_BUDGET)

    # ---- asking the engine -------------------------------------------------------------------
    def hint(self) -> None:
        """Search the first move of an optimal solution from here; the answer arrives later
        (at once with the inline searcher) as `hint_move` and a message."""
        check("hint", self.mode)
        if self.solved:
            raise Refused("Already solved.")
        if self.coach.enabled:  # graded: how far, then which piece, then the move
            self.coach.hint()
            return
        self._start_user_search("hint", "Thinking about a hint… (Escape cancels)")

    def play_hint(self) -> S:
        """Make the hinted move (the `m` key); Refused when no move is hinted."""
        check("move", self.mode)
        if self.hint_move is None:
            raise Refused("No hint yet: press i for one.")
        return self.push(self.hint_move)

    def solve(self) -> None:
        """Search a solution from here, then play it back."""
        check("solve", self.mode)
        if self.solved:
            raise Refused("Already solved.")
        self._start_user_search("solve", "Solving… (Escape cancels)")

    def _start_user_search(self, tag: str, message: str) -> None:
        self.mode = Mode.SEARCHING
        self.message = message
        self.search = SearchView(tag, "running", None)
        self._changed("search")
        self._submit(JobKind.SOLVE, tag, self.state)

    def find_optimal_length(self) -> None:
        """Quietly find the optimal length from the start (for the move counter)."""
        if self.optimal_length is None and "optimal" not in self.jobs:
            self._submit(JobKind.SOLVE, "optimal", self.start, budget=OPTIMAL_BUDGET)

    def cancel_searches(self, *, quiet_too: bool = True) -> bool:
        """Cancel the hint/solve (and the quiet searches too); True when one was running."""
        was_searching = self.mode is Mode.SEARCHING
        tags = self.jobs.tags if quiet_too else [t for t in ("hint", "solve") if t in self.jobs]
        for tag in tags:
            self.jobs.cancel(tag)
        if was_searching:
            self.mode = Mode.PLAYING
            self.search = SearchView(self.search.tag, "cancelled", self.search.stats)
            self.message = "Search cancelled."
            self._changed("search")
        return was_searching

    def close(self) -> None:
        """The game is put away: every search of it stops; the time and moves are saved."""
        self.cancel_searches()
        self.pause()

    def _submit_quiet(self, kind: JobKind, tag: str, state: Hashable) -> None:
        """`_submit` as the coach asks it: a position it got from this session's own states."""
        self._submit(kind, tag, cast(S, state))

    def _submit(self, kind: JobKind, tag: str, state: S, budget: int | None = None) -> None:
        request = JobRequest(
            kind=kind,
            puzzle_id=self.puzzle.id,
            state=self.puzzle.format(state),
            start=self.puzzle.format(self.start),
            budget=budget,
            tag=tag,
        )
        self.jobs.submit(
            request,
            on_progress=lambda stats: self._progress(tag, stats),
            on_done=lambda result: self._done(tag, state, result),
        )

    def _progress(self, tag: str, stats: SearchStats) -> None:
        if tag in ("hint", "solve"):
            self.search = SearchView(tag, "running", stats)
            self._changed("progress")

    def _done(self, tag: str, state: S, result: JobResult) -> None:
        if tag == "optimal":
            optimal_done(self, result, self._hooks)
        elif tag == "distance":
            self.coach.distance_done(state, result)
        elif tag == "reach":
            if state == self.state:
                reach_done(self, result, self._hooks)
        elif tag == "dead-end":
            if result.outcome == "done" and result.verdict and state == self.state:
                self.dead_end = result.verdict
                self._changed("outcome")
        elif state == self.state and self.mode is Mode.SEARCHING:
            user_search_done(self, tag, result, self._hooks)

    # ---- playback ----------------------------------------------------------------------------
    def playback_command(self, name: str) -> None:
        """toggle, forward, back, first, last, faster, slower, tick (the UI timer's step)."""
        check("playback", self.mode)
        assert self.playback is not None
        self.playback.command(name)
        self._changed("playback")

    def take_over(self) -> int:
        """Continue playing from the playback's current step; returns the moves adopted."""
        check("take_over", self.mode)
        playback = self.playback
        assert playback is not None
        steps = playback.index
        self._leave_playback()
        for move in playback.solution.moves[:steps]:
            if move not in self.legal_moves():  # cannot happen: the live game was frozen
                raise BadInput(self.puzzle.explain_illegal(self.state, move))
            self._play(move)
        if steps:
            self._redo.clear()
        self._after_change(f"Took over after {plural(steps, 'move')} of the solution.",
                           self._moves[-1] if steps else None)
        return steps

    def leave_playback(self) -> None:
        check("leave_playback", self.mode)
        self._leave_playback()
        self.message = "Left the playback."
        self._changed("playback")

    def _leave_playback(self) -> None:
        self.playback = None
        self.mode = Mode.PLAYING
        self._update_clock()

    # ---- the clock ---------------------------------------------------------------------------
    def pause(self) -> None:
        """Stop the clock (the app went to the background, or the game was put away)."""
        self._paused = True
        self._update_clock()

    def resume(self) -> None:
        self._paused = False
        self._update_clock()

    def _update_clock(self) -> None:
        self.clock.run(not self._paused and self.mode is not Mode.PLAYBACK and not self.solved)

    # ---- saving ------------------------------------------------------------------------------
    def saved(self) -> SavedGame:
        """The game as the store keeps it: moves as text, so saves outlive move order."""
        return saved_game(self)

    def _persist(self) -> None:
        """Save the game in progress; record a win once (and drop its in-progress row)."""
        if self.store is None:
            return
        if self.solved and self._moves and not self._recorded:
            self._recorded = True
            self.store.finish_game(self.slot, finished_game(self))
            self.slot = None
        elif not self.solved:
            self.slot = save_progress(self)  # what changed: a move appends one row
        elif self.slot is not None:  # won again after an undo: the win is already recorded
            self.store.delete_game(self.slot)
            self.slot = None

    @classmethod
    def from_game_id(cls, game_id: str, **kwargs: Any) -> Session[Any, Any]:
        """A new game from `puzzle-id:state` (or just `puzzle-id` for its default start)."""
        parsed: tuple[Puzzle[Any, Any], Any] = parse_game_id(game_id)
        return cls(*parsed, **kwargs)

    @classmethod
    def from_saved(cls, saved: SavedGame, **kwargs: Any) -> Session[Any, Any]:
        """A game the store kept; BadInput (one line) when it no longer makes sense."""
        return restore_saved(cls.from_game_id(saved.game_id, daily=saved.daily, **kwargs), saved)
