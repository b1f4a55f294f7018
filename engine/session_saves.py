"""A game as the player's store keeps it: in progress (`SavedGame`) or won (`FinishedGame`),
moves as their text form so a save outlives any change in the order a puzzle lists moves."""

from __future__ import annotations

from typing import Any

from kaeru.engine.core import BadInput
from kaeru.engine.game_clock import GameClock
from kaeru.engine.store.models import FinishedGame, SavedGame, now_iso

Session = Any  # an engine.session.Session (not imported: the session imports this module)


def saved_game(session: Session) -> SavedGame:
    """The game in progress; the undone moves listed next-to-redo first."""
    puzzle = session.puzzle
    return SavedGame(
        slot=session.slot,
        puzzle_id=puzzle.id,
        game_id=session.game_id,
        moves=tuple(puzzle.format_move(m) for m in session.history),
        redo=tuple(puzzle.format_move(m) for m in session.redo_moves),
        seconds=round(session.seconds, 1),
        hints=session.hints,
        helped=session.helped,
        daily=session.daily,
        updated=now_iso(),
        hint_levels=session.coach.hint_levels,
    )


def finished_game(session: Session) -> FinishedGame:
    """The won game as a record: moves counted the way players count them (peg chains)."""
    outcome = session.outcome()
    return FinishedGame(
        game_id=session.game_id,
        puzzle_id=session.puzzle.id,
        moves=tuple(session.puzzle.format_move(m) for m in session.history),
        move_count=outcome.chains if outcome.chains is not None else outcome.moves,
        # pegs: the optimal length the session knows counts jumps, not moves: no claim
        optimal=None if outcome.chains is not None else session.optimal_length,
        seconds=round(session.seconds, 1),
        hints=session.hints,
        helped=session.helped,
        finished=now_iso(),
        daily=session.daily,
        hint_levels=session.coach.hint_levels,
    )


def restore_saved(session: Session, saved: SavedGame) -> Session:
    """A new session of the saved game's start brought to where the save left it: its moves
    replayed, its undone moves ready to redo, its hints and time; BadInput (one line) when the
    save no longer makes sense."""
    try:
        for text in (*saved.moves, *saved.redo):  # redo: the next to redo first
            session._play(session.puzzle.parse_move(text, session.state))
        for _ in saved.redo:
            session._states.pop()
            session._redo.append(session._moves.pop())
    except BadInput as error:
        raise BadInput(f"the saved game of {saved.puzzle_id} is damaged: {error}") from None
    session.slot = saved.slot
    session.hints, session.helped = saved.hints, saved.helped
    session.coach.levels = list(saved.hint_levels)
    session.clock = GameClock(session.clock.clock, saved.seconds)
    session.last_move = session._moves[-1] if session._moves else None
    session._update_clock()
    return session
