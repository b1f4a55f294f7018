"""The midend's boundary: listeners can leave, and the save and answer modules, the coach and
the screens reach into no private member of a Session (they go through its typed methods,
`line` and `load_line`, or the `GameHooks` the session hands them)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle

ROOT = Path(__file__).resolve().parents[2]
FRIENDS = ("kaeru.engine.game.saves", "kaeru.engine.game.answers",
           "kaeru.engine.coach.session_coach")
SEALED = [*(Path(str(importlib.import_module(name).__file__)) for name in FRIENDS),
          *sorted((ROOT / "screens").glob("*.py")),
          *sorted((ROOT / "tui").rglob("*.py"))]


def test_a_listener_that_unsubscribes_is_not_told_again():
    session = Session(get_puzzle("sliding-3x3"))
    told: list[str] = []
    session.subscribe(told.append)
    session.push(session.legal_moves()[0])
    assert told
    session.unsubscribe(told.append)
    heard = len(told)
    session.push(session.legal_moves()[0])
    assert len(told) == heard
    session.unsubscribe(told.append)  # twice: nothing to do, no error


def test_a_saved_line_comes_back_through_load_line():
    puzzle = get_puzzle("sliding-3x3")
    played = Session(puzzle)
    for _ in range(3):
        played.push(played.legal_moves()[0])
    played.undo()
    moves, redo = played.line()
    texts = [puzzle.format_move(m) for m in (*moves, *reversed(redo))]
    copy = Session(puzzle)
    copy.load_line(texts, len(redo), lambda state, text: puzzle.parse_move(text, state))
    assert copy.history == played.history and copy.redo_moves == played.redo_moves
    assert copy.state == played.state and copy.last_move == played.history[-1]


def test_no_reach_ins_into_the_sessions_privates():
    found = []
    for path in SEALED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Attribute | ast.Name)
                and (node.value.attr if isinstance(node.value, ast.Attribute)
                     else node.value.id) == "session"
            ):
                found.append(f"{path.name}:{node.lineno} session.{node.attr}")
    assert found == []
