"""Knights' squares are named by row from the top, as peg holes are (issue 25: knights counted
ranks from the bottom while pegs counted rows from the top), and a knights game saved before
that, in the old names, resumes to the same position: the store's schema 5 renames the saved
moves (on SQLite here; the same step is PostgreSQL's schema 5)."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import pytest

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.store import DB_NAME, Store, postgres_schema
from kaeru.engine.store.schema import LATEST, MIGRATIONS, _statements, schema_version
from tests.place.pg_cluster import SKIP_REASON, shared

EXCHANGE = get_puzzle("knights-3x4")
GUARINI = get_puzzle("knights-3x3")
PEGS = get_puzzle("pegs-english")


def old_name(puzzle, square: int) -> str:
    """A square as it was named before: chess ranks from the bottom."""
    row, col = divmod(square, puzzle.width)
    return f"{'abc'[col]}{puzzle.height - row}"


def old_text(puzzle, move: tuple[int, int]) -> str:
    return f"{old_name(puzzle, move[0])}-{old_name(puzzle, move[1])}"


def a_line(puzzle, length: int) -> tuple[list[tuple[int, int]], list[str]]:
    """`length` moves from the start (each the last legal move, never undoing the one before),
    and the positions they reach."""
    state, moves, states = puzzle.initial(), [], []
    for _ in range(length):
        move = [m for m in puzzle.moves(state) if not moves or m != moves[-1][::-1]][-1]
        state = puzzle.apply(state, move)
        moves.append(move)
        states.append(state)
    return moves, states


def test_squares_are_named_by_row_from_the_top_as_pegs_holes_are() -> None:
    assert [EXCHANGE.square_name(i) for i in (0, 2, 9, 11)] == ["a1", "c1", "a4", "c4"]
    assert EXCHANGE.layout(EXCHANGE.initial()).holes.row_labels == ("1", "2", "3", "4")
    assert PEGS.layout(PEGS.initial()).holes.row_labels[0] == "1"  # pegs: the top row is 1
    assert PEGS.geometry.names[0][1] == "1"  # the top row's holes end in 1, as knights' do
    assert EXCHANGE.parse_move("a1-c2", EXCHANGE.initial()) == (0, 5)  # B at the top moves
    assert "row 1–4\nfrom the top" in EXCHANGE.rules


def test_a_knights_game_saved_in_the_old_names_resumes_to_the_same_position(
    tmp_path: Path,
) -> None:
    db = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    for step in MIGRATIONS[:4]:  # a data folder of before: schema 4
        for statement in _statements(step.sql):
            db.execute(statement)
    db.execute("PRAGMA user_version = 4")
    played, states = a_line(EXCHANGE, 5)  # 4 played, the 5th undone (to redo)
    db.execute(
        "INSERT INTO games (slot, puzzle_id, game_id, updated, position)"
        " VALUES (7, 'knights-3x4', 'knights-3x4', '2026-11-01T00:00:00+00:00', 4)"
    )
    for ply, move in enumerate(played):
        db.execute("INSERT INTO moves VALUES (7, ?, ?)", (ply, old_text(EXCHANGE, move)))
    guarini, guarini_states = a_line(GUARINI, 3)  # a game still in the JSON columns
    texts = [old_text(GUARINI, m) for m in guarini]
    db.execute(
        "INSERT INTO games (slot, puzzle_id, game_id, moves, redo, updated)"
        " VALUES (8, 'knights-3x3', 'knights-3x3', ?, ?, '2026-11-02T00:00:00+00:00')",
        (f'["{texts[0]}", "{texts[1]}"]', f'["{texts[2]}"]'),
    )
    db.execute(
        "INSERT INTO games (slot, puzzle_id, game_id, moves, updated) VALUES"
        " (9, 'flip-it-5', 'flip-it-5:_BBBB', '[\"4 -> 1\"]', '2026-11-03T00:00:00+00:00')"
    )
    db.execute(
        "INSERT INTO finished (game_id, puzzle_id, moves, move_count, finished) VALUES"
        " ('knights-3x4', 'knights-3x4', ?, 1, '2026-11-04T00:00:00+00:00')",
        (f'["{old_text(EXCHANGE, played[0])}"]',),
    )
    db.close()
    (tmp_path / "saves").mkdir()  # nothing to import
    with Store.open(tmp_path) as store:
        assert store.writable and store.notice is None
        games = {game.slot: game for game in store.games_in_progress()}
        exchange = Session.from_saved(games[7])
        assert exchange.state == states[3]  # where the player left it, not its mirror
        assert games[7].redo == (EXCHANGE.format_move(played[4]),)
        first = EXCHANGE.format_move(played[0])
        assert games[7].moves[0] == first != old_text(EXCHANGE, played[0])  # renamed
        assert Session.from_saved(games[8]).state == guarini_states[1]
        assert games[9].moves == ("4 -> 1",)  # other families' moves untouched
        assert store.records()[0].moves == (EXCHANGE.format_move(played[0]),)
    assert schema_version(sqlite3.connect(tmp_path / DB_NAME)) == LATEST == 5


def test_postgresql_gets_the_same_step(monkeypatch: pytest.MonkeyPatch) -> None:
    [step] = [s for s in postgres_schema.PLAYER_MIGRATIONS if s.version == 5]
    assert step.sql == MIGRATIONS[4].sql
    assert postgres_schema.PLAYER_MIGRATIONS[-1].version == LATEST
    cluster = shared()
    if cluster is None:
        pytest.skip(SKIP_REASON)
    import psycopg

    player = f"test-{uuid.uuid4().hex}"
    monkeypatch.setenv("KAERU_PLAYER", player)
    schema = postgres_schema.player_schema(player)
    played, states = a_line(EXCHANGE, 3)
    with psycopg.connect(cluster.url(), autocommit=True) as db:  # a player's schema 4, by hand
        postgres_schema.migrate_namespace(db, schema, postgres_schema.PLAYER_MIGRATIONS[:1])
        db.execute(
            f"INSERT INTO {schema}.games (slot, puzzle_id, game_id, updated, position)"
            " VALUES (7, 'knights-3x4', 'knights-3x4', '2026-11-01T00:00:00+00:00', 3)"
        )
        for ply, move in enumerate(played):
            db.execute(f"INSERT INTO {schema}.moves VALUES (7, %s, %s)",
                       (ply, old_text(EXCHANGE, move)))
    with Store.open(url=cluster.url()) as store:
        [game] = store.games_in_progress()
        assert Session.from_saved(game).state == states[-1]


def test_the_cli_hint_solve_and_grade_name_squares_as_the_board_does(capsys) -> None:
    """One numbering everywhere: the board's row labels, the CLI's hint, solve and grade."""
    import json

    from kaeru.tui.cli import main

    layout = EXCHANGE.layout(EXCHANGE.initial())
    top_left = next(cell for cell in layout.cells if (cell.row, cell.col) == (0, 0))
    assert top_left.name == "a1" and layout.holes.row_labels[0] == "1"
    assert main(["hint", "knights-3x4", "--json"]) == 0
    hint = json.loads(capsys.readouterr().out)["move"]
    assert hint[1] == "1"  # a black knight of the top row (row 1) moves first
    assert main(["solve", "knights-3x4", "--json"]) == 0
    assert capsys.readouterr().out.count('"a1-') >= 1
    assert main(["grade", "knights-3x4", hint, "--json"]) == 0
    graded = json.loads(capsys.readouterr().out)["moves"]
    assert graded[0]["move"] == hint and graded[0]["verdict"] == "optimal"
