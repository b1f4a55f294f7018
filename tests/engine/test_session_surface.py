"""The midend's boundary: a Session's state is private. A front end reads it through read-only
properties and changes it through the actions; the save and answer modules and the coach read
its public surface and change it only through the `GameHooks` it hands them. Nothing outside
`engine/game/session.py` writes a Session attribute or reaches into a private one, and the
public surface (counted from the class) stays as small as it is, each member in the docs' table."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from kaeru.engine.game.saves import saved_game
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle

ROOT = Path(__file__).resolve().parents[2]
SESSION_FILE = ROOT / "engine" / "game" / "session.py"
PRODUCT = [p for top in ("engine", "screens", "tui") for p in sorted((ROOT / top).rglob("*.py"))]
# Everything that could touch a Session: the product, the tests and the benches
EVERYWHERE = [*PRODUCT, *sorted((ROOT / "tests").rglob("*.py")),
              *sorted((ROOT / "bench").glob("*.py"))]
# Session's public methods and properties; a new one is added here only with a line in
# docs/architecture.md's table (test below) and a reason a front end needs it
SURFACE = 46


def public_members() -> list[str]:
    """Session's public surface as a front end sees it: the class's public methods and
    properties, and any public attribute an instance holds."""
    session = Session(get_puzzle("sliding-3x3"))
    on_class = {name for name, _ in inspect.getmembers(Session) if not name.startswith("_")}
    on_instance = {name for name in dir(session) if not name.startswith("_")}
    return sorted(on_class | on_instance)


def private_attributes() -> set[str]:
    """The names of a Session's private state (the slots of its classes)."""
    return {name for cls in Session.__mro__ for name in getattr(cls, "__slots__", ())
            if not name.startswith("__")}


def test_the_public_surface_does_not_grow():
    members = public_members()
    assert len(members) <= SURFACE, f"{len(members)} public members: {members}"


def test_every_public_member_is_a_method_or_a_read_only_property():
    session = Session(get_puzzle("sliding-3x3"))
    for name in public_members():
        member = inspect.getattr_static(Session, name)
        if isinstance(member, property):
            assert member.fset is None, f"{name} can be set"
        else:
            assert callable(member) or isinstance(member, classmethod), name
        with pytest.raises(AttributeError):
            setattr(session, name, None)
    with pytest.raises(AttributeError):  # no new field either: the state is the slots
        session.anything_new = 1  # type: ignore[attr-defined]


def test_every_public_member_is_in_the_docs_table():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("### The midend's surface"):]
    listed = set(re.findall(r"`(\w+)", table[: table.index("\n\n", table.index("|"))]))
    assert set(public_members()) <= listed, sorted(set(public_members()) - listed)


def written_attributes(tree: ast.AST) -> list[tuple[int, ast.expr, str]]:
    """(line, object, attribute) of every attribute written: assigned, augmented, deleted, set
    with setattr(), or changed through a subscript (`x.levels[-1] += 1`)."""
    found: list[tuple[int, ast.expr, str]] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "setattr" and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            found.append((node.lineno, node.args[0], node.args[1].value))
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store | ast.Del):
                    found.append((part.lineno, part.value, part.attr))
                elif isinstance(part, ast.Subscript) and isinstance(part.ctx, ast.Store | ast.Del):
                    held = part.value  # `x.levels[-1] = ...` changes what `x.levels` holds
                    while isinstance(held, ast.Subscript):
                        held = held.value
                    if isinstance(held, ast.Attribute):
                        found.append((part.lineno, held.value, held.attr))
    return found


def names_a_session(node: ast.expr) -> bool:
    """Whether an expression is spelled as a session: `session`, `self.session`, `x.session`,
    `fresh_session`… (not the class `Session`: a tool may patch a method out, which changes no
    game's state)."""
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(
        node, ast.Name) else ""
    return "session" in name.lower() and name != "Session"


def test_nothing_outside_the_session_module_writes_a_session_attribute():
    """A write of one of the Session's private attributes on anything but `self` (whatever the
    variable's name), or of any attribute on an object spelled as a session, is refused. At
    run time `__slots__` and the setter-less properties refuse the rest."""
    private, public = private_attributes(), set(public_members())
    found = []
    for path in EVERYWHERE:
        if path == SESSION_FILE:
            continue
        for line, target, attr in written_attributes(ast.parse(path.read_text(encoding="utf-8"))):
            mine = isinstance(target, ast.Name) and target.id in ("self", "cls")
            if (attr in private and not mine) or (
                names_a_session(target) and (attr in public or attr in private)
            ):
                found.append(f"{path.relative_to(ROOT)}:{line} .{attr}")
    assert found == []


def test_nothing_outside_the_coach_module_writes_the_coachs_state():
    """The coach a session hands out (`session.coach`) is read and asked, not written: its hint
    levels come back from a save through `restore_levels`, a whole-move hint is counted by
    `count_whole_move`."""
    own = ROOT / "engine" / "coach" / "session_coach.py"
    found = []
    for path in EVERYWHERE:
        if path in (own, Path(__file__)):
            continue
        for line, target, attr in written_attributes(ast.parse(path.read_text(encoding="utf-8"))):
            base = target.value if isinstance(target, ast.Subscript) else target
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if name == "coach":
                found.append(f"{path.relative_to(ROOT)}:{line} coach.{attr}")
    assert found == []


def test_the_write_check_sees_a_write():
    """The scan above is not blind: it finds the writes the old code made."""
    old = "session.message = 'x'\nsession.coach.levels[-1] += 1\nfresh._slot = 3\n"
    written = written_attributes(ast.parse(old))
    found = [(line, attr) for line, target, attr in written
             if names_a_session(target) or attr in private_attributes()]
    assert found == [(1, "message"), (3, "_slot")]
    assert [(line, attr) for line, target, attr in written
            if isinstance(target, ast.Attribute) and target.attr == "coach"] == [(2, "levels")]


def test_no_reach_ins_into_the_sessions_privates():
    found = []
    for path in PRODUCT:
        if path == SESSION_FILE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Attribute | ast.Name)
                and names_a_session(node.value)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} session.{node.attr}")
    assert found == []


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


def test_a_saved_game_comes_back_with_its_line_hints_and_slot():
    puzzle = get_puzzle("sliding-3x3")
    played = Session(puzzle)
    for _ in range(3):
        played.push(played.legal_moves()[0])
    played.undo()
    saved = saved_game(played, 7)
    copy = Session.from_saved(saved)
    assert copy.history == played.history and copy.redo_moves == played.redo_moves
    assert copy.state == played.state and copy.last_move == played.history[-1]
    assert copy.saved().slot == 7 and copy.outcome().hints == played.outcome().hints


def test_replay_keeps_the_options_and_says_so():
    puzzle = get_puzzle("sliding-3x3")
    played = Session(puzzle, daily="2026-11-25")
    for _ in range(4):
        played.push(played.legal_moves()[0])
    fresh = played.replay(2)
    assert fresh.history == played.history[:2] and fresh.daily == "2026-11-25"
    assert fresh.searcher is played.searcher and "move 3" in fresh.message
