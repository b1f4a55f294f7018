"""Every puzzle's layout: pure data that agrees with the rules (the same legal moves, cells in
range, unique names, pieces from the vocabulary), for the start and a position after a move."""

from __future__ import annotations

import pytest

from kaeru.engine.puzzles.registry import all_ids, get_puzzle
from kaeru.engine.rules.layout import PIECES, Layout

KINDS = {"row", "grid", "holes", "river"}


def check(layout: Layout, legal: list[object], describe: object) -> None:
    assert layout.kind in KINDS
    names = [cell.name for cell in layout.cells]
    assert len(set(names)) == len(names)
    assert all(cell.piece in PIECES for cell in layout.cells)
    assert all(0 <= c.row < layout.rows and 0 <= c.col < layout.columns for c in layout.cells)
    assert [entry.move for entry in layout.moves] == legal
    size = len(layout.cells)
    for entry in layout.moves:
        assert entry.text == describe(entry.move)  # type: ignore[operator]
        assert entry.sources and all(0 <= c < size for c in entry.sources + entry.targets)
        assert layout.find(entry.move) is entry
        if layout.kind != "river":
            assert not layout.cells[entry.sources[0]].vacant
            assert all(layout.cells[t].vacant for t in entry.targets)
    for refusal in layout.refusals:
        assert refusal.reason and all(0 <= c < size for c in refusal.sources)


@pytest.mark.parametrize("puzzle_id", all_ids())
def test_layout_agrees_with_the_rules(puzzle_id: str) -> None:
    puzzle = get_puzzle(puzzle_id)
    state = puzzle.initial()
    for _ in range(2):
        legal = list(puzzle.moves(state))
        check(puzzle.layout(state), legal, puzzle.describe)
        if not legal:
            break
        state = puzzle.apply(state, legal[-1])


def test_river_lists_every_unsafe_boatload_with_the_engines_reason() -> None:
    river = get_puzzle("jealous-husbands-3")
    state = river.initial()
    layout = river.layout(state)
    people = [cell.label for cell in layout.cells]
    reasons = {tuple(people[s] for s in r.sources): r.reason for r in layout.refusals}
    assert reasons[()] == "the boat needs a rower: nobody is aboard"
    assert reasons[("Ha",)] == river.explain_illegal(state, ("Ha",))
    assert len(layout.moves) + len(layout.refusals) == 1 + 6 + 15  # every load of 0 to 2
