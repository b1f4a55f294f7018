"""What the store was told and the file does not hold yet: the games, records and settings of
writes still in line (or paused), read back from here so that every read sees every write at
once, and the writes that carry them to the file (`engine.store.writer.Write`).

A game in progress is its line (moves played, then the moves to redo) and where it stands; a
save says what changed (`progress`), and its write sends the rows from the first changed one
on (`HeldGame.from_ply`) — one row for a move. Everything here is guarded by the store's lock,
which the writer also holds around each commit and its `done`.
"""

from __future__ import annotations

import itertools
import json
import secrets
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kaeru.engine.store.holders import held_elsewhere
from kaeru.engine.store.models import FinishedGame, SavedGame, now_iso
from kaeru.engine.store.rows import FINISHED_COLUMNS
from kaeru.engine.store.writer import Write

SLOT_BASE = 2**40  # new slots are random above this: chosen here, never clashing


def new_slot() -> int:
    return SLOT_BASE + secrets.randbelow(2**52 - SLOT_BASE)


@dataclass
class HeldGame:
    """A game in progress whose latest state is not yet in the file; rows of its line from
    `from_ply` on are to be written."""

    puzzle_id: str
    game_id: str
    position: int
    seconds: float
    hints: int
    helped: bool
    daily: str | None
    hint_levels: tuple[int, int, int]
    updated: str
    from_ply: int
    version: int = 1


class Held:
    """The held state of one store, and the writes that empty it."""

    def __init__(self, lock: threading.RLock, holder: str) -> None:
        self.lock = lock
        self.holder = holder
        self.lines: dict[int, list[str]] = {}  # slot -> its line as this store knows it
        self.json_rows: set[int] = set()  # slots whose row keeps its moves as JSON (before v4)
        self.games: dict[int, HeldGame] = {}
        self.removed: dict[int, int] = {}  # slot -> finishes/deletes not yet in the file
        self.finished: dict[int, FinishedGame] = {}
        self.settings: dict[str, str] = {}
        self._tokens = itertools.count()
        self.on_taken: Callable[[int, str], None] | None = None  # (slot, the other arcade)

    # ---- reading -----------------------------------------------------------------------------
    def game(self, slot: int) -> SavedGame:
        held, line = self.games[slot], self.lines.get(slot, [])
        return SavedGame(
            slot=slot, puzzle_id=held.puzzle_id, game_id=held.game_id,
            moves=tuple(line[: held.position]), redo=tuple(line[held.position :]),
            seconds=held.seconds, hints=held.hints, helped=held.helped, daily=held.daily,
            updated=held.updated, hint_levels=held.hint_levels,
        )

    def remember(self, slot: int, line: list[str], json_row: bool) -> None:
        """A game read from the file: its line, for the saves that follow."""
        self.lines[slot] = line
        if json_row:
            self.json_rows.add(slot)

    # ---- games in progress -------------------------------------------------------------------
    def progress(
        self,
        slot: int | None,
        puzzle_id: str,
        game_id: str,
        keep: int,
        added: Sequence[str],
        position: int,
        figures: dict[str, Any],
    ) -> int:
        """Hold a save (see `Store.save_progress`); the slot."""
        with self.lock:
            if slot is None:
                slot = new_slot()
            line = self.lines.get(slot)
            if line is None and not keep:
                line = self.lines[slot] = []
            if line is None or keep > len(line):
                raise LookupError(f"the store does not hold the first {keep} moves of {slot}")
            del line[keep:]
            line.extend(added)
            from_ply = 0 if slot in self.json_rows else keep
            self.json_rows.discard(slot)
            values = dict(figures, puzzle_id=puzzle_id, game_id=game_id, position=position,
                          updated=now_iso())
            held = self.games.get(slot)
            if held is None:
                self.games[slot] = HeldGame(**values, from_ply=from_ply)
            else:
                for name, value in values.items():
                    setattr(held, name, value)
                held.from_ply = min(held.from_ply, from_ply)
                held.version += 1
            return slot

    def game_write(self, slot: int) -> Write:
        """The write of a held game: its row, and its line's rows from `from_ply` on."""
        taken: list[tuple[HeldGame, int, int]] = []
        replaced: list[str] = []  # the other arcade whose save of this game ours replaced

        def apply(db: sqlite3.Connection) -> None:
            query = "SELECT holder, updated FROM games WHERE slot = ?"
            row = db.execute(query, (slot,)).fetchone()
            other = row[0] if row is not None and row[0] and row[0] != self.holder else None
            alive = other is not None and held_elsewhere(other, self.holder, row[1])
            replaced[:] = [str(other)] if alive else []
            with self.lock:
                held = self.games.get(slot)
                if held is None:
                    return  # written already, or finished since
                line = self.lines.get(slot, [])
                if other is not None:  # the later save wins whole: our line from its start
                    held.from_ply = 0
                start, rows = held.from_ply, line[held.from_ply :]
                taken[:] = [(held, held.version, start)]
                held.from_ply = len(line)  # restored by `failed`
                values = (slot, held.puzzle_id, held.game_id, held.seconds, held.hints,
                          int(held.helped), held.daily, held.updated,
                          json.dumps(list(held.hint_levels)), held.position, self.holder)
            db.execute(
                "INSERT INTO games (slot, puzzle_id, game_id, moves, redo, seconds, hints,"
                " helped, daily, updated, hint_levels, position, holder)"
                " VALUES (?, ?, ?, '[]', '[]', ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (slot) DO UPDATE SET puzzle_id = excluded.puzzle_id,"
                " game_id = excluded.game_id, moves = '[]', redo = '[]',"
                " seconds = excluded.seconds, hints = excluded.hints, helped = excluded.helped,"
                " daily = excluded.daily, updated = excluded.updated,"
                " hint_levels = excluded.hint_levels, position = excluded.position,"
                " holder = excluded.holder",
                values,
            )
            db.execute("DELETE FROM moves WHERE slot = ? AND ply >= ?", (slot, start))
            db.executemany(
                "INSERT INTO moves (slot, ply, move) VALUES (?, ?, ?)",
                ((slot, start + n, move) for n, move in enumerate(rows)),
            )

        def done() -> None:
            if taken:
                held, version, _ = taken.pop()
                if self.games.get(slot) is held and held.version == version:
                    del self.games[slot]
            if replaced and self.on_taken is not None:
                self.on_taken(slot, replaced.pop())

        def failed() -> None:
            with self.lock:
                if taken:
                    held, _, start = taken.pop()
                    held.from_ply = min(held.from_ply, start)

        return Write(apply, ("game", slot), done, failed)

    def drop(self, slot: int | None, record: FinishedGame | None) -> Write:
        """Hold a finish (with `record`) or a delete of the game in `slot`; its write does
        both in one transaction."""
        token = next(self._tokens)
        with self.lock:
            if record is not None:
                self.finished[token] = record
            if slot is not None:
                self.removed[slot] = self.removed.get(slot, 0) + 1
                self.games.pop(slot, None)
                self.lines.pop(slot, None)

        def apply(db: sqlite3.Connection) -> None:
            if record is not None:
                db.execute(
                    f"INSERT INTO finished ({FINISHED_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    finished_values(record),
                )
            if slot is not None:
                db.execute("DELETE FROM games WHERE slot = ?", (slot,))
                db.execute("DELETE FROM moves WHERE slot = ?", (slot,))

        def done() -> None:
            self.finished.pop(token, None)
            if slot is not None:
                left = self.removed.get(slot, 1) - 1
                if left:
                    self.removed[slot] = left
                else:
                    self.removed.pop(slot, None)

        return Write(apply, None, done)

    # ---- settings ----------------------------------------------------------------------------
    def setting(self, key: str, value: str) -> Write:
        """Hold a setting; its write sends the latest value of `key`."""
        with self.lock:
            self.settings[key] = value
        written: list[str] = []

        def apply(db: sqlite3.Connection) -> None:
            with self.lock:
                if key not in self.settings:
                    return
                written[:] = [self.settings[key]]
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, written[0]),
            )

        def done() -> None:
            if written and self.settings.get(key) == written[0]:
                del self.settings[key]

        return Write(apply, ("setting", key), done)


def finished_values(game: FinishedGame) -> tuple[Any, ...]:
    return (
        game.game_id,
        game.puzzle_id,
        json.dumps(list(game.moves)),
        int(game.move_count),
        None if game.optimal is None else int(game.optimal),
        float(game.seconds),
        int(game.hints),
        int(bool(game.helped)),
        game.finished,
        game.daily,
        json.dumps([int(n) for n in game.hint_levels]),
    )
