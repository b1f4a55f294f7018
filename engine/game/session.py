"""The midend: one game in progress, as `midend.c` is in Simon Tatham's collection.

Everything a front end does to a game goes through a Session: moves, undo, redo, restart, hint,
solve, playback and take-over, the optimal length from the start (distances are the coach's),
the dead-end verdict, the outcome, the timer and persistence through the store it is given. It
owns the mode (playing, searching, playback, see `engine.game.modes`) and refuses what the mode does
not allow, with a one-line reason. Searches are jobs on a searcher (the search service, or the
inline one for scripts and tests); an answer for a position that is no longer current is
dropped. Listeners are told after every change; a front end redraws from what it reads of the
session (`engine.game.view.GameView`: the state, private, and its read-only properties). Only
this module writes the state. Nothing here needs a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, TypedDict, Unpack, cast

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.coach.session_coach import SessionCoach
from kaeru.engine.game.answers import optimal_done, plural, reach_done, user_search_done
from kaeru.engine.game.clock import GameClock
from kaeru.engine.game.jobs import Post, TaggedJobs
from kaeru.engine.game.modes import Mode, Refused, check
from kaeru.engine.game.playback import Playback
from kaeru.engine.game.record import Change, GameHooks, GameStore, SearchStatus, SearchView
from kaeru.engine.game.saves import finished_game, remember_saved, save_progress, saved_move
from kaeru.engine.game.view import GameView, Listener, M, S
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.rules.results import SearchStats, Solution
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import JobKind, JobRequest, JobResult
from kaeru.engine.store.models import SavedGame

OPTIMAL_BUDGET = 3_000_000  # positions for the quiet "optimal from the start" search
REACH_BUDGET = 300_000  # positions for the quiet "can this still be won" after a move
NO_MOVE_LEFT = "no move is left"


class Options(TypedDict, total=False):
    """A Session's keyword options that `from_game_id` and `from_saved` pass on."""

    searcher: Searcher | None
    store: GameStore | None
    post: Post | None
    clock: Callable[[], float]
    autoplay: bool


class Session(GameView[S, M]):
    """A game of one puzzle from one start position. Its state is private: a front end reads it
    through `GameView`'s read-only properties and changes it through the actions here; the coach
    and the answers change it through the `GameHooks` it hands them. Only this module writes
    the state, and the slots refuse any other attribute: `session.message = ...` from outside
    is an AttributeError, not a new field."""

    __slots__ = ()  # the state is `GameView`'s slots

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
        self._puzzle = puzzle
        self._start = puzzle.initial() if start is None else start
        self._searcher = searcher if searcher is not None else InlineSearcher()
        self._store = store
        self._post = post if post is not None else (lambda fn: fn())
        self._daily = daily
        self._autoplay = autoplay  # a solution found starts playing back by itself
        self._slot = None  # the store's row for this game in progress
        self._listeners = []
        self._states = [self._start]
        self._moves = []
        self._redo = []  # moves undone, the next to redo last
        self._mode = Mode.PLAYING
        self._optimal_length = None  # from the start, once a search has told
        self._dead_end = None  # why the current position cannot be won
        self._hint_move = None
        self._last_move = None
        self._message = ""
        self._search = SearchView("", "idle", None)
        self._playback = None
        self._hints = 0
        self._helped = False
        self._recorded = False  # the win has gone into the records
        self._jobs = TaggedJobs(self._searcher, self._post)
        self._hooks = GameHooks(
            changed=self._changed, persist=self._persist, update_clock=self._update_clock,
            start_user_search=self._start_user_search, submit=self._submit_quiet,
            say=self.say, know_optimal=self._know_optimal,
            lose=self._lose, count_hint=self._count_hint, clear_hint=self._clear_hint,
            end_search=self._end_search, show_solution=self._show_solution,
        )
        # distances, graded hints, move verdicts
        self._coach = SessionCoach(self, self._hooks, self._jobs)
        self._clock = GameClock(clock)
        self._paused = False
        self._update_clock()

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

    def say(self, message: str) -> None:
        """Set the one line the player reads (the front end's own words: a refusal, a notice);
        listeners are not told, the caller shows it."""
        self._message = message

    # ---- the hooks the coach and the answers are handed (`GameHooks`) ------------------------
    def _know_optimal(self, length: int) -> None:
        self._optimal_length = length

    def _lose(self, reason: str) -> None:
        self._dead_end = reason

    def _count_hint(self, move: Hashable | None) -> None:
        self._hints += 1
        self._helped = True
        if move is not None:
            self._hint_move = cast(M, move)

    def _clear_hint(self) -> None:
        self._hint_move = None

    def _end_search(self, tag: str, status: SearchStatus, stats: SearchStats | None) -> None:
        self._mode = Mode.PLAYING
        self._search = SearchView(tag, status, stats)

    def _show_solution(self, solution: Solution[Any, Any]) -> bool:
        self._helped = True
        self._playback = Playback(solution)
        self._mode = Mode.PLAYBACK
        if self._autoplay:
            self._playback.toggle()
        self._update_clock()
        return self._autoplay

    # ---- playing -----------------------------------------------------------------------------
    def push(self, move: M) -> S:
        """Make a move; BadInput when it is not legal here, Refused when the mode forbids."""
        check("move", self._mode)
        if move not in self.legal_moves():
            raise BadInput(self._puzzle.explain_illegal(self.state, move))
        self._play(move)
        self._redo.clear()
        self._after_change(self._puzzle.describe(move), move)
        return self.state

    def _play(self, move: M) -> None:
        self._states.append(self._puzzle.apply(self.state, move))
        self._moves.append(move)

    def undo(self) -> M:
        """Take back the last move; Refused when there is none."""
        check("undo", self._mode)
        if not self._moves:
            raise Refused("Nothing to undo.")
        self._states.pop()
        move = self._moves.pop()
        self._redo.append(move)
        self._after_change(f"Undid {self._puzzle.describe(move)}", None)
        return move

    def redo(self) -> M:
        """Replay the last undone move; Refused when there is none."""
        check("redo", self._mode)
        if not self._redo:
            raise Refused("Nothing to redo.")
        move = self._redo.pop()
        self._play(move)
        self._after_change(f"Redid {self._puzzle.describe(move)}", move)
        return move

    def restart(self) -> None:
        """Back to the start; the moves stay available to redo, so no work is lost."""
        check("restart", self._mode)
        if not self._moves:
            raise Refused("Already at the start.")
        while self._moves:
            self._states.pop()
            self._redo.append(self._moves.pop())
        self._after_change("Back at the start (r redoes the moves).", None)

    def _after_change(self, message: str, last_move: M | None) -> None:
        """After the live position changed: drop stale answers, re-check, save, tell."""
        self.cancel_searches(quiet_too=False)
        if self._mode is Mode.SEARCHING:
            self._mode = Mode.PLAYING
            self._search = SearchView(self._search.tag, "cancelled", self._search.stats)
        elif self._search.status not in ("idle", "cancelled"):  # its figures were of another place
            self._search = SearchView(self._search.tag, "earlier", self._search.stats)
        self._jobs.cancel("dead-end")
        self._jobs.cancel("reach")
        self._hint_move = None
        self._last_move = last_move
        self._dead_end = None
        self._message = message
        self._update_clock()
        self._coach.position_changed()
        self._check_dead_end()
        self._persist()
        self._changed("position")

    def _check_dead_end(self) -> None:
        """Whether the new position can still be won: at once when no move is left; else a
        quiet check where a family can lose (pegs' verdict; a search where no move goes back)."""
        if self.solved:
            return
        caps = self._puzzle.capabilities
        if not self.legal_moves():
            self._dead_end = NO_MOVE_LEFT
        elif caps.dead_ends:
            self._submit(JobKind.DEAD_END, "dead-end", self.state)
        elif not caps.reversible:
            self._submit(JobKind.SOLVE, "reach", self.state, budget=REACH_BUDGET)

    # ---- asking the engine -------------------------------------------------------------------
    def hint(self) -> None:
        """Search the first move of an optimal solution from here; the answer arrives later
        (at once with the inline searcher) as `hint_move` and a message."""
        check("hint", self._mode)
        if self.solved:
            raise Refused("Already solved.")
        if self._coach.enabled:  # graded: how far, then which piece, then the move
            self._coach.hint()
            return
        self._start_user_search("hint", "Thinking about a hint… (Escape cancels)")

    def play_hint(self) -> S:
        """Make the hinted move (the `m` key); Refused when no move is hinted."""
        check("move", self._mode)
        if self._hint_move is None:
            raise Refused("No hint yet: press i for one.")
        return self.push(self._hint_move)

    def solve(self) -> None:
        """Search a solution from here, then play it back."""
        check("solve", self._mode)
        if self.solved:
            raise Refused("Already solved.")
        self._start_user_search("solve", "Solving… (Escape cancels)")

    def _start_user_search(self, tag: str, message: str) -> None:
        self._mode = Mode.SEARCHING
        self._message = message
        self._search = SearchView(tag, "running", None)
        self._changed("search")
        self._submit(JobKind.SOLVE, tag, self.state)

    def find_optimal_length(self) -> None:
        """Quietly find the optimal length from the start (for the move counter)."""
        if self._optimal_length is None and "optimal" not in self._jobs:
            self._submit(JobKind.SOLVE, "optimal", self._start, budget=OPTIMAL_BUDGET)

    def cancel_searches(self, *, quiet_too: bool = True) -> bool:
        """Cancel the hint/solve (and the quiet searches too); True when one was running."""
        was_searching = self._mode is Mode.SEARCHING
        tags = self._jobs.tags if quiet_too else [t for t in ("hint", "solve") if t in self._jobs]
        for tag in tags:
            self._jobs.cancel(tag)
        if was_searching:
            self._mode = Mode.PLAYING
            self._search = SearchView(self._search.tag, "cancelled", self._search.stats)
            self._message = "Search cancelled."
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
            puzzle_id=self._puzzle.id,
            state=self._puzzle.format(state),
            start=self._puzzle.format(self._start),
            budget=budget,
            tag=tag,
        )
        self._jobs.submit(
            request,
            on_progress=lambda stats: self._progress(tag, stats),
            on_done=lambda result: self._done(tag, state, result),
        )

    def _progress(self, tag: str, stats: SearchStats) -> None:
        if tag in ("hint", "solve"):
            self._search = SearchView(tag, "running", stats)
            self._changed("progress")

    def _done(self, tag: str, state: S, result: JobResult) -> None:
        if tag == "optimal":
            optimal_done(self, result, self._hooks)
        elif tag == "distance":
            self._coach.distance_done(state, result)
        elif tag == "reach":
            if state == self.state:
                reach_done(self, result, self._hooks)
        elif tag == "dead-end":
            if result.outcome == "done" and result.verdict and state == self.state:
                self._dead_end = result.verdict
                self._changed("outcome")
        elif state == self.state and self._mode is Mode.SEARCHING:
            user_search_done(self, tag, result, self._hooks)

    # ---- playback ----------------------------------------------------------------------------
    def playback_command(self, name: str) -> None:
        """toggle, forward, back, first, last, faster, slower, tick (the UI timer's step)."""
        check("playback", self._mode)
        assert self._playback is not None
        self._playback.command(name)
        self._changed("playback")

    def take_over(self) -> int:
        """Continue playing from the playback's current step; returns the moves adopted."""
        check("take_over", self._mode)
        playback = self._playback
        assert playback is not None
        steps = playback.index
        self._leave_playback()
        for move in playback.solution.moves[:steps]:
            if move not in self.legal_moves():  # cannot happen: the live game was frozen
                raise BadInput(self._puzzle.explain_illegal(self.state, move))
            self._play(move)
        if steps:
            self._redo.clear()
        self._after_change(f"Took over after {plural(steps, 'move')} of the solution.",
                           self._moves[-1] if steps else None)
        return steps

    def leave_playback(self) -> None:
        check("leave_playback", self._mode)
        self._leave_playback()
        self._message = "Left the playback."
        self._changed("playback")

    def _leave_playback(self) -> None:
        self._playback = None
        self._mode = Mode.PLAYING
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
        self._clock.run(not self._paused and self._mode is not Mode.PLAYBACK and not self.solved)

    # ---- saving ------------------------------------------------------------------------------
    def _persist(self) -> None:
        """Save the game in progress; record a win once (and drop its in-progress row)."""
        if self._store is None:
            return
        if self.solved and self._moves and not self._recorded:
            self._recorded = True
            self._store.finish_game(self._slot, finished_game(self))
            self._slot = None
        elif not self.solved:  # what changed: a move appends one row
            self._slot = save_progress(self, self._store, self._slot)
        elif self._slot is not None:  # won again after an undo: the win is already recorded
            self._store.delete_game(self._slot)
            self._slot = None

    def _restore(self, saved: SavedGame) -> None:
        """Bring this new game to where the save left it: its moves replayed (no mode check, no
        save), its undone moves ready to redo, its hints and time; BadInput (one line) when the
        save no longer makes sense."""
        self._clock = GameClock(self._clock.clock, saved.seconds)  # runs once the line is in
        try:
            for text in (*saved.moves, *saved.redo):  # the moves to redo: the next first
                self._play(saved_move(self._puzzle, text, self.state))
        except BadInput as error:
            raise BadInput(f"the saved game of {saved.puzzle_id} is damaged: {error}") from None
        for _ in saved.redo:
            self._states.pop()
            self._redo.append(self._moves.pop())
        self._last_move = self._moves[-1] if self._moves else None
        self._slot = saved.slot
        self._hints, self._helped = saved.hints, saved.helped
        self._coach.restore_levels(saved.hint_levels)
        remember_saved(self, saved)
        self._update_clock()

    # ---- new games -----------------------------------------------------------------------------
    @classmethod
    def from_game_id(cls, game_id: str, *, daily: str | None = None,
                     **options: Unpack[Options]) -> Session[Any, Any]:
        """A new game from `puzzle-id:state` (or just `puzzle-id` for its default start)."""
        parsed: tuple[Puzzle[Any, Any], Any] = parse_game_id(game_id)
        return cls(*parsed, daily=daily, **options)

    @classmethod
    def from_saved(cls, saved: SavedGame, **options: Unpack[Options]) -> Session[Any, Any]:
        """A game the store kept; BadInput (one line) when it no longer makes sense."""
        session = cls.from_game_id(saved.game_id, daily=saved.daily, **options)
        session._restore(saved)
        return session

    def replay(self, count: int) -> Session[S, M]:
        """A new game from this one's start with its first `count` moves replayed (the position
        before a chosen mistake); the same searcher, store and coach mode."""
        fresh = Session(self._puzzle, self._start, searcher=self._searcher, store=self._store,
                        post=self._post, daily=self._daily, autoplay=self._autoplay)
        for move in self._moves[:count]:
            fresh.push(move)
        if self._coach.enabled:
            fresh.coach.enable()
        fresh.say(f"Replaying from move {count + 1}: your game up to there.")
        return fresh
