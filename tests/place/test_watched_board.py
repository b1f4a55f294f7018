"""A watched game's board comes from the engine (`engine.place.replay.watched_board`): the
position after the moves the place reports and the last of them. No screen applies or parses a
move itself (keys -> screen -> session -> engine -> widgets): checked on the source with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kaeru.screens as screens
from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.place.replay import game_line, watched_board
from kaeru.engine.rules.protocol import BadInput

GAME = "sliding-3x3:1,2,3/4,5,6/_,7,8"  # two moves from the goal
ENGINE_WORK = {"apply", "parse_move", "parse_game_id"}  # a move applied or parsed, a game read


def test_a_watched_game_at_its_start_has_no_last_move():
    puzzle, start = parse_game_id(GAME)
    shown = watched_board(GAME, ())
    assert shown.layout == puzzle.layout(start)
    assert shown.last_move is None


def test_a_watched_game_shows_the_position_after_the_reported_moves_and_the_last_move():
    puzzle, start = parse_game_id(GAME)
    first = puzzle.parse_move("7 left", start)
    after_first = puzzle.apply(start, first)
    second = puzzle.parse_move("8 left", after_first)
    shown = watched_board(GAME, ("7 left", "8 left"))
    assert shown.layout == puzzle.layout(puzzle.apply(after_first, second))
    assert shown.last_move == second
    _, line = game_line(GAME, ("7 left", "8 left"))
    assert line.moves == (first, second) and len(line.states) == 3


@pytest.mark.parametrize("game_id, moves", [(GAME, ("8 up",)), ("sliding-3x3:nonsense", ())])
def test_a_move_or_game_that_does_not_parse_is_bad_input(game_id, moves):
    with pytest.raises(BadInput):
        watched_board(game_id, moves)


def engine_work(source: str) -> list[str]:
    """The calls of `source` that apply or parse a move or read a game id, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ENGINE_WORK:
                found.append(f"{node.lineno}: calls {name}()")
    return found


def test_no_screen_applies_or_parses_a_move():
    root = Path(screens.__file__).resolve().parent
    found = {
        str(path.relative_to(root)): problems
        for path in sorted(root.rglob("*.py"))
        if (problems := engine_work(path.read_text(encoding="utf-8")))
    }
    assert found == {}
