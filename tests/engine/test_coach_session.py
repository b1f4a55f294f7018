"""Coach mode in the midend: distances as jobs (late answers, stale ones dropped), learned along
solutions, read at once from a table; move verdicts; graded hints counted by level; undo to the
last position that can still be won."""

from __future__ import annotations

import pytest
from peg_games import PAGODA_LOSS
from session_helpers import DeferredSearcher, MemoryStore

from kaeru.engine.coach import tables
from kaeru.engine.game.modes import Refused
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.search import dispatch


def test_the_coach_is_off_by_default_and_asks_nothing():
    searcher = DeferredSearcher()
    session = Session(get_puzzle("pegs-english"), searcher=searcher)
    session.push(session.puzzle.parse_move("d2-d4", session.state))
    assert not session.coach.enabled
    assert all(request.tag != "distance" for _, request, _ in searcher.pending)


def test_distances_arrive_as_jobs_and_are_learned_along_the_solution():
    searcher = DeferredSearcher()
    puzzle = get_puzzle("pegs-english")
    session = Session(puzzle, searcher=searcher)
    session.coach.enable()
    assert session.coach.current is None  # nothing known before the job answers
    tags = [request.tag for _, request, _ in searcher.pending]
    assert "distance" in tags
    searcher.deliver(tags.index("distance"))
    assert session.coach.current is not None and session.coach.current.moves == 31
    first = dispatch.solve(puzzle, session.start, session.start).moves[0]
    searcher.pending.clear()
    session.push(first)  # along the solution found: known at once, no new job
    assert session.coach.current.moves == 30
    assert [m.verdict for m in session.coach.marks()] == ["optimal"]


def test_a_stale_distance_is_dropped(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(tables, "can_build_quickly", lambda puzzle: False)  # jobs only
    tables.forget()
    searcher = DeferredSearcher()
    puzzle = get_puzzle("oshidori")
    session = Session(puzzle, searcher=searcher)
    goal = puzzle.goal(session.start)
    session.coach.enable()
    assert session.coach.warm_thread is None
    searcher.deliver_all()
    start_distance = session.coach.current.moves
    wrong = next(
        m
        for m in session.legal_moves()
        if dispatch.solve(puzzle, puzzle.apply(session.start, m), session.start).length
        != start_distance - 1
    )
    session.push(wrong)
    session.undo()
    session.redo()
    session.undo()  # back at the start before any answer
    assert session.coach.current.moves == start_distance
    searcher.deliver_all()
    assert session.coach.current.moves == start_distance
    session.push(wrong)
    searcher.deliver_all()
    assert [m.verdict for m in session.coach.marks()] == ["wasted"]
    assert goal is not None


def test_a_built_table_answers_at_once():
    puzzle = get_puzzle("frogs-3")
    tables.forget()
    searcher = DeferredSearcher()
    session = Session(puzzle, searcher=searcher)
    session.coach.enable()
    thread = session.coach.warm_thread
    assert thread is not None
    thread.join(10)
    searcher.pending.clear()
    move = session.legal_moves()[0]
    session.push(move)
    assert session.coach.current is not None
    assert not any(request.tag == "distance" for _, request, _ in searcher.pending)
    assert (
        session.coach.current.moves == dispatch.solve(puzzle, session.state, session.start).length
    )


def test_graded_hints_count_each_level():
    store = MemoryStore()
    session = Session(get_puzzle("frogs-3"), store=store)
    session.coach.enable()
    session.hint()
    assert "15 moves to go" in session.message and session.hint_move is None
    session.hint()
    assert session.coach.hint_cells and session.hint_move is None
    assert "moves." in session.message
    session.hint()
    assert session.hint_move is not None and "Hint: " in session.message
    with pytest.raises(Refused):
        session.hint()
    assert session.coach.levels == [1, 1, 1] and session.outcome().hints == 3
    assert session.outcome().helped
    session.push(session.hint_move)
    assert session.coach.hint_level == 0 and session.coach.hint_cells == ()
    session.hint()
    assert session.coach.levels == [2, 1, 1] and "14 moves to go" in session.message


def test_a_hint_with_the_coach_off_counts_as_the_last_level():
    session = Session(get_puzzle("frogs-3"))
    session.hint()
    assert session.hint_move is not None and session.coach.levels == [0, 0, 1]


def play(session: Session, texts: list[str]) -> None:
    for text in texts:
        session.push(session.puzzle.parse_move(text, session.state))


def test_peg_moves_marked_lost_and_undo_to_the_last_winnable_position():
    session = Session(get_puzzle("pegs-english"))
    session.coach.enable()
    play(session, PAGODA_LOSS)
    session.push(session.legal_moves()[0])  # one more move in a lost game
    marks = session.coach.marks()
    assert [m.verdict for m in marks[: len(PAGODA_LOSS) - 1]] == ["optimal"] * (
        len(PAGODA_LOSS) - 1
    )
    assert marks[len(PAGODA_LOSS) - 1].verdict == "lost"
    assert "d4" in (marks[len(PAGODA_LOSS) - 1].reason or "")
    assert marks[-1].verdict == "lost"
    assert session.coach.undo_to_winnable() == 2
    assert session.moves_made == len(PAGODA_LOSS) - 1
    assert not session.coach.current.lost
    with pytest.raises(Refused, match="can still be won"):
        session.coach.undo_to_winnable()


def test_undo_to_winnable_turns_the_coach_on():
    """U is offered as soon as a game is lost: with the coach off it turns it on (the coach
    knows which positions can be won) instead of refusing."""
    session = Session(get_puzzle("pegs-english"))
    with pytest.raises(Refused, match="can still be won|working out"):
        session.coach.undo_to_winnable()
    assert session.coach.enabled


def test_hint_levels_are_kept_in_the_store(tmp_path):
    from kaeru.engine.store import Store

    store = Store.open(tmp_path)
    try:
        session = Session(get_puzzle("frogs-3"), store=store)
        session.coach.enable()
        session.hint()
        session.hint()
        session.push(session.legal_moves()[0])  # saved with its hints
        saved = store.games_in_progress("frogs-3")[0]
        assert saved.hint_levels == (1, 1, 0) and saved.hints == 2
        again = Session.from_saved(saved, store=store)
        assert again.coach.hint_levels == (1, 1, 0)
        again.coach.enable()
        again.hint()
        again.hint()
        again.hint()
        again.coach.enable(False)  # from here a hint shows the whole move (the last level)
        while not again.solved:
            if again.hint_move is None:
                again.hint()
            again.push(again.hint_move)
        finished = store.records("frogs-3")[0]
        assert finished.hint_levels[0] >= 2 and finished.hint_levels[2] >= 1
    finally:
        store.close()
