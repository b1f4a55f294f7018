"""The one-time import of the JSON saves of version 0.1 (`<data folder>/saves/<puzzle>.json`).

Those files hold `{"version": 1, "game_id": ..., "moves": [...], "redo": [...]}` where each move
is its index among the legal moves of the position it was made in. Each index is replayed with
the puzzle's current move order to get the moves themselves, which are stored as their text
(`puzzle.format_move`, which `parse_move` reads back). A file that cannot be
read as a game (damaged, too big, too deep, another puzzle's moves) is skipped; every file is
kept where it is.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Hashable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kaeru.engine.rules.protocol import Puzzle
from kaeru.engine.rules.text_input import split_game_id
from kaeru.engine.store.models import SavedGame, now_iso

JSON_IMPORT_KEY = "json_saves_imported"  # the flag in `meta` that the import was done
MAX_BYTES = 1_000_000  # a game of 0.1 is a few kilobytes; anything past this is not one
MAX_MOVES = 100_000


class NotAGame(ValueError):
    """A save file that does not describe a game this program can replay."""


def saved_games(folder: Path) -> Iterator[SavedGame | Path]:
    """Each JSON save in `folder` as a SavedGame, or its path when it cannot be imported."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        try:
            yield read_save(path)
        except (NotAGame, OSError):
            yield path


def read_save(path: Path) -> SavedGame:
    """One save file as a game in progress; NotAGame or OSError when it cannot be."""
    info = os.stat(path)
    if not path.is_file() or info.st_size > MAX_BYTES:
        raise NotAGame("not a save file")
    try:
        data = json.loads(path.read_bytes())
    except (ValueError, RecursionError, UnicodeDecodeError) as error:
        raise NotAGame(f"not JSON: {type(error).__name__}") from None
    updated = datetime.fromtimestamp(info.st_mtime, UTC).isoformat(timespec="microseconds")
    return replay(data, updated)


def replay(data: Any, updated: str) -> SavedGame:
    """The game a version-1 save describes, its moves as texts."""
    from kaeru.engine.puzzles.registry import get_puzzle

    if not isinstance(data, dict) or data.get("version", 1) != 1:
        raise NotAGame("not a version-1 save")
    game_id, moves, redo = data.get("game_id"), data.get("moves", []), data.get("redo", [])
    if not isinstance(game_id, str) or not isinstance(moves, list) or not isinstance(redo, list):
        raise NotAGame("wrong types")
    if len(moves) + len(redo) > MAX_MOVES:
        raise NotAGame("too many moves")
    puzzle_id, state_text = split_game_id(game_id)
    try:
        puzzle = get_puzzle(puzzle_id)
        start = puzzle.parse(state_text) if state_text is not None else puzzle.initial()
        done, state = _replay_indices(puzzle, start, moves)
        undone, _ = _replay_indices(puzzle, state, redo)
    except (ValueError, TypeError, IndexError, OverflowError, RecursionError) as error:
        raise NotAGame(f"cannot replay: {type(error).__name__}") from None
    return SavedGame(
        slot=None,
        puzzle_id=puzzle.id,
        game_id=puzzle.game_id(start),
        moves=tuple(done),
        redo=tuple(undone),
        updated=updated,
    )


def _replay_indices(
    puzzle: Puzzle, state: Hashable, indices: list[Any]
) -> tuple[list[str], Hashable]:
    texts = []
    for index in indices:
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError("a move index is not an integer")
        legal = list(puzzle.moves(state))
        if not 0 <= index < len(legal):
            raise IndexError(f"move {index} of {len(legal)}")
        move = legal[index]
        texts.append(move_text(puzzle, move))
        state = puzzle.apply(state, move)
    return texts, state


def move_text(puzzle: Puzzle, move: Hashable) -> str:
    """A move's text form, as the Session stores it: `puzzle.format_move` (parse_move reads it
    back)."""
    return puzzle.format_move(move)


def import_once(db: sqlite3.Connection, folder: Path) -> tuple[int, tuple[str, ...]] | None:
    """Import the JSON saves in `folder` into `db` once (a flag in `meta` says it was done; the
    files are kept): (games imported, files skipped), or None when it was done before or the
    database cannot be written now (it is tried again at the next start)."""
    try:
        if _meta(db, JSON_IMPORT_KEY) is not None:
            return None
        found = list(saved_games(folder))
        games = [item for item in found if isinstance(item, SavedGame)]
        skipped = tuple(item.name for item in found if isinstance(item, Path))
        db.execute("BEGIN IMMEDIATE")
        try:
            if _meta(db, JSON_IMPORT_KEY) is not None:  # another process did it meanwhile
                db.execute("ROLLBACK")
                return None
            for game in games:
                db.execute(
                    "INSERT INTO games (puzzle_id, game_id, moves, redo, seconds, hints, helped,"
                    " daily, updated) VALUES (?, ?, ?, ?, 0, 0, 0, NULL, ?)",
                    (game.puzzle_id, game.game_id, json.dumps(list(game.moves)),
                     json.dumps(list(game.redo)), game.updated),
                )
            record = {"at": now_iso(), "games": len(games), "skipped": list(skipped)}
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)",
                       (JSON_IMPORT_KEY, json.dumps(record)))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except sqlite3.Error:
        return None
    return len(games), skipped


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])
