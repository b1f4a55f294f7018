"""Coach mode inside a `Session`: the distance to the goal after every move, each move marked,
graded hints, and undo to the last position that could still be won.

The session owns one `SessionCoach` and calls it at a few hooks (a position changed, a
"distance" job ended, a hint search ended); everything else is here. Distances come at once from
a table at hand or what the coach has learned (the memo: every position along an optimal
solution the engine found), else from a SOLVE job tagged "distance" on the session's searcher —
one at a time, the current position first, then the game's earlier positions for the move list;
an answer for a position no longer current still fills the memo, and the tag's newest job wins.
A family whose depth table builds in seconds gets it built in a background thread when the coach
is turned on, after which every distance is a lookup.

Graded hints (coach on): the first press tells how far, the second which piece moves (its cells
in `hint_cells`, named in the message), the third the whole move (`session.hint_move`). Each
level pressed is counted in `levels`; `session.hints` counts the presses. With the coach off, a
hint shows the whole move at once (and counts as a third-level hint).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from kaeru.engine.coach import tables
from kaeru.engine.coach.distance import Distance, best_moves, known_distance, learn, unit_of
from kaeru.engine.coach.grading import verdict
from kaeru.engine.game.jobs import TaggedJobs
from kaeru.engine.game.modes import Mode, Refused
from kaeru.engine.game.record import GameHooks
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.protocol import Puzzle, Solution
from kaeru.engine.service.jobs import JobKind, JobResult


class Game(Protocol):
    """What the coach reads of its session (`engine.game.session.Session`, which imports this
    module, so it is described here rather than imported; mypy checks Session against it); it
    changes the session only through the `GameHooks` the session hands it."""

    @property
    def puzzle(self) -> Puzzle[Any, Any]: ...

    @property
    def start(self) -> Hashable: ...

    @property
    def mode(self) -> Mode: ...

    @property
    def state(self) -> Hashable: ...

    @property
    def states(self) -> tuple[Hashable, ...]: ...

    @property
    def history(self) -> tuple[Hashable, ...]: ...

    def layout(self) -> Layout: ...

    def undo(self) -> Hashable: ...

TAG = "distance"
SLOW_JOB = 1.0  # seconds: past this, only the current position's distance is searched
LEVELS = 3


@dataclass(frozen=True)
class MoveMark:
    """A move of the game in the coach's move list; `verdict` None while a distance is unknown."""

    index: int  # 1-based
    move: str
    before: Distance | None
    after: Distance | None
    verdict: str | None

    @property
    def reason(self) -> str | None:
        return self.after.reason if self.verdict == "lost" and self.after is not None else None


class SessionCoach:
    """The coach of one session (off until `enable`)."""

    def __init__(self, session: Game, hooks: GameHooks, jobs: TaggedJobs) -> None:
        self.session = session
        self.hooks = hooks  # what this coach may do to its session (typed intentions)
        self._jobs = jobs  # the session's searches by tag: the coach's own is "distance"
        self.enabled = False
        self.memo: dict[Hashable, Distance] = {}
        self.gave_up: set[Hashable] = set()  # positions whose distance search gave up
        self.levels = [0] * LEVELS  # hint presses by level
        self.hint_level = 0  # hint levels shown at the current position
        self.hint_cells: tuple[int, ...] = ()  # the piece to move, once the second level is shown
        self._best: tuple[Hashable, Hashable] | None = None  # (position, best move) for a hint
        self._pending_level = 0  # the level to show when the hint search ends
        self.warm_thread: threading.Thread | None = None  # building a table to read at once
        self.slowest = 0.0  # seconds the slowest distance job took
        self._asking: Hashable | None = None  # the position the "distance" job is for

    # ---- reading ---------------------------------------------------------------------------------
    @property
    def hint_levels(self) -> tuple[int, int, int]:
        """Hints pressed by level, as the store keeps them."""
        first, second, third = self.levels
        return (first, second, third)

    @property
    def unit(self) -> str:
        return unit_of(self.session.puzzle)

    def known(self, state: Hashable) -> Distance | None:
        """The distance of `state` when known without searching."""
        session = self.session
        found = known_distance(session.puzzle, state, session.start, self.memo)
        if found is not None:
            self.memo[state] = found  # the next look is a dict lookup (long games, redraws)
        return found

    @property
    def current(self) -> Distance | None:
        return self.known(self.session.state)

    @property
    def gave_up_here(self) -> bool:
        """Whether the search for the current position's distance gave up."""
        return self.session.state in self.gave_up

    def marks(self) -> list[MoveMark]:
        """The game's moves with their verdicts (as far as the distances are known)."""
        session = self.session
        states = session.states
        known = [self.known(state) for state in states]
        out = []
        for i, move in enumerate(session.history):
            before, after = known[i], known[i + 1]
            if after is not None and (before is not None or after.lost):
                mark = verdict(before if before is not None else Distance(None), after)
            else:
                mark = None
            out.append(MoveMark(i + 1, session.puzzle.format_move(move), before, after, mark))
        return out

    def curve(self) -> list[int | None]:
        """The distance at each position of the game (None where unknown or lost)."""
        found = [self.known(state) for state in self.session.states]
        return [d.moves if d is not None else None for d in found]

    # ---- switching -------------------------------------------------------------------------------
    def enable(self, on: bool = True) -> None:
        self.enabled = on
        self.hooks.clear_hint()  # hints start afresh in the new way (graded, or whole)
        self.hint_level, self.hint_cells = 0, ()
        if on:
            self._warm()
            self.refresh()
            self.hooks.say("Coach on: the distance to the goal after every move.")
        else:
            self._jobs.cancel(TAG)
            self.hooks.say("Coach off.")
        self.hooks.changed("coach")

    def toggle(self) -> bool:
        self.enable(not self.enabled)
        return self.enabled

    def _warm(self) -> None:
        session = self.session
        if self.warm_thread is not None and self.warm_thread.is_alive():
            return

        def done(lookup: tables.Lookup | None) -> None:
            def arrived() -> None:
                if lookup is not None and self.enabled:
                    self.refresh()
                    self.hooks.changed("coach")

            self._jobs.post(arrived)

        self.warm_thread = tables.warm(session.puzzle, session.start, done)

    # ---- hooks the session calls -----------------------------------------------------------------
    def position_changed(self) -> None:
        """After a move, undo, redo, restart or take-over."""
        self.hint_level = 0
        self.hint_cells = ()
        self._pending_level = 0
        if self.enabled:
            self.refresh()

    def refresh(self) -> None:
        """Ask the searcher for the first unknown distance (the current position first)."""
        wanted = self._first_unknown()
        if wanted is None:
            self._jobs.cancel(TAG)
            self._asking = None
        elif not (TAG in self._jobs and self._asking == wanted):
            self._asking = wanted
            self.hooks.submit(JobKind.SOLVE, TAG, wanted)

    def _first_unknown(self) -> Hashable | None:
        """The current position when unknown; else, while searches are quick, the earliest
        unknown position of the game (for the move list)."""
        states = self.session.states
        earlier = states[:-1] if self.slowest < SLOW_JOB else ()
        for state in (states[-1], *earlier):
            if state not in self.gave_up and self.known(state) is None:
                return state
        return None

    def distance_done(self, state: Hashable, result: JobResult) -> None:
        """A "distance" job ended (for `state`, maybe no longer the current position)."""
        if result.stats is not None:
            self.slowest = max(self.slowest, result.stats.seconds)
        if result.outcome == "done" and result.solution is not None:
            self.learn(result.solution)
            if not result.solution.optimal:
                self.memo[state] = Distance(result.solution.length, exact=False)
        elif result.outcome == "unsolvable":
            reason = result.message.removeprefix("No solution: ")
            self.memo[state] = Distance(None, reason)
        elif result.outcome in ("gave_up", "failed"):
            self.gave_up.add(state)
        else:
            return  # cancelled: a newer job is on its way
        if self.enabled:
            self.refresh()
        self.hooks.changed("coach")

    def learn(self, solution: Solution[Any, Any]) -> None:
        learn(self.memo, solution)

    def count_whole_move(self) -> None:
        """A hint that showed the whole move at once (coach off): a last-level hint."""
        self.levels[-1] += 1

    def restore_levels(self, levels: tuple[int, int, int]) -> None:
        """The hint presses by level a saved game kept."""
        self.levels = list(levels)

    # ---- graded hints ----------------------------------------------------------------------------
    def hint(self) -> None:
        """The next level of hint for the current position (searching first when needed)."""
        if self.hint_level >= LEVELS:
            raise Refused("The whole move is shown already.")
        level = self.hint_level + 1
        here = self.current
        if here is not None and here.lost:
            raise Refused(f"No hint: this position is {here.words(self.unit)}")
        if level == 1 and here is not None:
            self._reveal(1, None, here)
            return
        move = self._best_here()
        if move is not None and here is not None:
            self._reveal(level, move, here)
            return
        self._pending_level = level
        self.hooks.start_user_search("hint", "Thinking about a hint… (Escape cancels)")

    def _best_here(self) -> Hashable | None:
        session = self.session
        if self._best is not None and self._best[0] == session.state:
            return self._best[1]
        found = best_moves(session.puzzle, session.state, session.start)
        if found:
            self._best = (session.state, found[0])
            return found[0]
        return None

    def hint_found(self, solution: Solution[Any, Any]) -> None:
        """The hint search ended with `solution` (not empty) for the current position."""
        session = self.session
        self.learn(solution)
        self._best = (session.state, solution.moves[0])
        here = Distance(solution.length, exact=solution.optimal)
        self._reveal(max(self._pending_level, 1), solution.moves[0], here)

    def _reveal(self, level: int, move: Hashable | None, here: Distance) -> None:
        session = self.session
        puzzle = session.puzzle
        self.hint_level = level
        self._pending_level = 0
        self.levels[level - 1] += 1
        words = here.words(self.unit)
        if level == 1 or move is None:
            self.hooks.count_hint(None)
            self.hooks.say(f"Hint: {words}. (i again: which piece moves)")
        elif level == 2:
            entry = puzzle.layout(session.state).find(move)
            cells = entry.sources[:1] if entry is not None else ()
            self.hint_cells = cells
            self.hooks.count_hint(None)
            self.hooks.say(f"Hint: {piece_words(session, cells)} moves. (i again: the move)")
        else:
            self.hooks.count_hint(move)
            self.hooks.say(f"Hint: {puzzle.describe(move)}  ({words})")
        self.hooks.persist()
        self.hooks.changed("hint")

    # ---- undo to a position that could still be won ----------------------------------------------
    def undo_to_winnable(self) -> int:
        """Undo back to the last position of the game that can still be won; the moves undone."""
        session = self.session
        if session.mode is Mode.PLAYBACK:
            raise Refused("Leave playback first (Escape).")
        if not self.enabled:  # asked for: the coach works out which positions can be won
            self.enable()
        states = session.states
        back = 0
        for state in reversed(states):
            here = self.known(state)
            if here is None:
                self.refresh()
                raise Refused("Still working out which positions can be won; try again soon.")
            if not here.lost:
                break
            back += 1
        else:
            raise Refused("No position of this game can be won: restart (R).")
        if back == 0:
            raise Refused("This position can still be won.")
        for _ in range(back):
            session.undo()
        self.hooks.say(
            f"Back to the last position that can still be won ({back} "
            f"{'move' if back == 1 else 'moves'} undone; r redoes them)."
        )
        self.hooks.changed("coach")
        return back


def piece_words(session: Game, cells: tuple[int, ...]) -> str:
    """ "the piece on d2", "tile 7", "the piece on cell 3": the first source cell of a move."""
    if not cells:
        return "a piece"
    cell = session.layout().cells[cells[0]]
    if cell.label and cell.label != cell.name and session.puzzle.board == "grid":
        return f"tile {cell.label}"
    return f"the piece on {cell.name}"
