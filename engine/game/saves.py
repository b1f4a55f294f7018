"""A game as the player's store keeps it: in progress (`SavedGame`) or won (`FinishedGame`),
moves as their text form so a save outlives any change in the order a puzzle lists moves.

A move saves what changed, not the game: `save_progress` compares the session's line (moves
played, then the moves to redo) with what the store was last given (`SavedLine`) from where
the game last stood, so a move formats and sends one text, an undo or a redo none, and the store
appends a row (`Store.save_progress`) instead of rewriting the whole list."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict
from weakref import WeakKeyDictionary

from kaeru.engine.coach.session_coach import SessionCoach
from kaeru.engine.game.record import GameStore, Outcome, takes_lines
from kaeru.engine.rules.protocol import M, Puzzle, S
from kaeru.engine.store.models import FinishedGame, SavedGame, now_iso


class Game(Protocol):
    """What saving reads of a game (`engine.game.session.Session`, which imports this module, so
    it is described here rather than imported; mypy checks Session against it). Saving sets
    nothing on it: the session keeps the slot the store answers and restores a save itself."""

    @property
    def puzzle(self) -> Puzzle[Any, Any]: ...

    @property
    def game_id(self) -> str: ...

    @property
    def daily(self) -> str | None: ...

    @property
    def history(self) -> tuple[Hashable, ...]: ...

    @property
    def redo_moves(self) -> tuple[Hashable, ...]: ...

    @property
    def coach(self) -> SessionCoach: ...

    def line(self) -> tuple[Sequence[Hashable], Sequence[Hashable]]: ...

    def outcome(self) -> Outcome: ...


def saved_game(session: Game, slot: int | None) -> SavedGame:
    """The game in progress (in the store's row `slot`); the undone moves listed next-to-redo
    first."""
    puzzle = session.puzzle
    outcome = session.outcome()
    return SavedGame(
        slot=slot,
        puzzle_id=puzzle.id,
        game_id=session.game_id,
        moves=tuple(puzzle.format_move(m) for m in session.history),
        redo=tuple(puzzle.format_move(m) for m in session.redo_moves),
        seconds=round(outcome.seconds, 1),
        hints=outcome.hints,
        helped=outcome.helped,
        daily=session.daily,
        updated=now_iso(),
        hint_levels=session.coach.hint_levels,
    )


@dataclass
class SavedLine:
    """What the store was last given of a session's line: its texts, and how many of them are
    played (the rest are the moves to redo, the next first)."""

    texts: list[str] = field(default_factory=list)
    position: int = 0


# What the store was last given of each live session's line: this module's own knowledge, kept
# beside the session rather than as an attribute written onto it (gone with the session).
_LAST_SAVED: WeakKeyDictionary[Game, SavedLine] = WeakKeyDictionary()


def remember_saved(session: Game, saved: SavedGame) -> None:
    """The store holds `saved`'s line for `session` (a game just restored from it)."""
    _LAST_SAVED[session] = SavedLine([*saved.moves, *saved.redo], len(saved.moves))


def save_progress(session: Game, store: GameStore, slot: int | None) -> int:
    """Save the game in progress (in the store's row `slot`, None for a new row) by what changed
    since the last save; returns its slot."""
    if not takes_lines(store):  # a store that only takes whole games
        return store.save_game(saved_game(session, slot))
    line = _LAST_SAVED.get(session)
    history, redo = session.line()
    change = None if line is None or slot is None else _change(session, line)
    if change is not None:
        keep, added = change
        try:
            new_slot = store.save_progress(slot, *_values(session), keep=keep, added=added,
                                           position=len(history), **_figures(session))
        except LookupError:  # the store does not hold this game's line: send it whole
            change = None
        else:
            assert line is not None
            del line.texts[keep:]
            line.texts.extend(added)
            line.position = len(history)
            return new_slot
    format_move = session.puzzle.format_move
    texts = [format_move(m) for m in history] + [format_move(m) for m in reversed(redo)]
    new_slot = store.save_progress(slot, *_values(session), keep=0, added=texts,
                                   position=len(history), **_figures(session))
    _LAST_SAVED[session] = SavedLine(texts, len(history))
    return new_slot


def _change(session: Game, line: SavedLine) -> tuple[int, list[str]] | None:
    """(moves of the saved line kept, texts that follow) to bring it to the session's line;
    None when the change is not one a game makes (then the line is sent whole).

    Only a new move (or a take-over) changes the line, from where the game stood at the last
    save on, and it drops the moves to redo; undo, redo and restart only move the position."""
    (history, redo), texts = session.line(), line.texts
    format_move = session.puzzle.format_move
    for ply in range(min(line.position, len(history)), len(history)):
        text = format_move(history[ply])
        if ply >= len(texts) or texts[ply] != text:
            if redo:
                return None
            return ply, [text, *(format_move(m) for m in history[ply + 1 :])]
    if not redo:
        return len(history), []  # the moves to redo were dropped (if there were any)
    if len(history) + len(redo) == len(texts):
        return len(texts), []
    return None


def _values(session: Game) -> tuple[str, str]:
    return session.puzzle.id, session.game_id


class Figures(TypedDict):
    """A save's figures besides its line, as `Store.save_progress` takes them."""

    seconds: float
    hints: int
    helped: bool
    daily: str | None
    hint_levels: tuple[int, int, int]


def _figures(session: Game) -> Figures:
    outcome = session.outcome()
    return {
        "seconds": round(outcome.seconds, 1),
        "hints": outcome.hints,
        "helped": outcome.helped,
        "daily": session.daily,
        "hint_levels": session.coach.hint_levels,
    }


def finished_game(session: Game) -> FinishedGame:
    """The won game as a record: moves counted the way players count them (peg chains)."""
    outcome = session.outcome()
    return FinishedGame(
        game_id=session.game_id,
        puzzle_id=session.puzzle.id,
        moves=tuple(session.puzzle.format_move(m) for m in session.history),
        move_count=outcome.chains if outcome.chains is not None else outcome.moves,
        # pegs: the optimal length the session knows counts jumps, not moves: no claim
        optimal=None if outcome.chains is not None else outcome.optimal,
        seconds=round(outcome.seconds, 1),
        hints=outcome.hints,
        helped=outcome.helped,
        finished=now_iso(),
        daily=session.daily,
        hint_levels=session.coach.hint_levels,
    )


def saved_move(puzzle: Puzzle[S, M], text: str, state: S) -> M:
    """The legal move a saved text names: the one `format_move` writes as exactly that text (a
    save holds those: no normalising needed, a 200,000-move game opens several times faster),
    else as `parse_move` reads any text (BadInput when none)."""
    legal = list(puzzle.moves(state))
    for move in legal:
        if puzzle.format_move(move) == text:
            return move
    return puzzle.parse_move(text, state)
