"""The midend: push, undo, redo, restart, hint, solve, playback, take-over, modes, game ids and
saves, on the line puzzles and a few others. A stateful test drives random action sequences
through a Session whose searches answer late and out of order, and checks its invariants."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from line_checks import assert_replays
from session_helpers import DeferredSearcher, MemoryStore

from kaeru.engine.game.modes import Mode, Refused
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import plural

LINE_IDS = ["flip-it-6", "oshidori", "oshidori-bw", "frogs-3", "number-reversal-6"]


def test_a_new_game_starts_at_the_initial_position():
    session = Session(get_puzzle("flip-it-6"))
    assert session.state == session.start == "_BBBBB"
    assert session.moves_made == 0 and session.history == ()
    assert not session.redo_moves and not session.solved
    assert session.mode is Mode.PLAYING
    with pytest.raises(Refused, match="Nothing to undo"):
        session.undo()
    with pytest.raises(Refused, match="Nothing to redo"):
        session.redo()
    assert session.game_id == "flip-it-6:_BBBBB"


def test_push_undo_redo_restart():
    session = Session(get_puzzle("flip-it-6"), "B_BBBB")
    first, second = (3, 1), (1, 3)  # out and straight back
    assert session.push(first) == "BBW_BB"
    assert session.push(second) == "B_BBBB"
    assert session.history == (first, second) and session.moves_made == 2
    assert session.states == ("B_BBBB", "BBW_BB", "B_BBBB")
    assert session.undo() == second and session.state == "BBW_BB" and session.redo_moves
    assert session.redo() == second and session.state == "B_BBBB" and not session.redo_moves
    session.restart()
    assert session.state == "B_BBBB" and session.moves_made == 0 and session.redo_moves
    assert session.redo() == first and session.redo() == second  # restart loses no work
    session.undo()
    assert session.push((0, 3)) == "_WBBBB"  # a new move forgets what was undone
    assert not session.redo_moves and session.history == (first, (0, 3))


def test_an_illegal_move_is_refused_with_one_line():
    puzzle = get_puzzle("flip-it-6")
    session = Session(puzzle)
    with pytest.raises(BadInput) as caught:
        session.push((1, 0))  # next to the gap: no stone to jump
    message = str(caught.value)
    assert "\n" not in message and puzzle.describe((1, 0)) in message
    assert session.moves_made == 0 and session.state == "_BBBBB"


@pytest.mark.parametrize("pid", LINE_IDS)
def test_hints_lead_the_shortest_way_home(pid):
    session = Session(get_puzzle(pid))
    session.find_optimal_length()
    optimal = session.outcome().optimal
    assert optimal is not None
    while not session.solved:
        session.hint()
        assert session.hint_move is not None and session.mode is Mode.PLAYING
        to_go = plural(optimal - session.moves_made, "move")
        assert f"({to_go} to go, optimal; m plays it)" in session.message
        session.push(session.hint_move)
    assert session.moves_made == optimal
    outcome = session.outcome()
    assert outcome.won and outcome.helped and outcome.hints == optimal
    with pytest.raises(Refused, match="Already solved"):
        session.hint()


@pytest.mark.parametrize("pid", LINE_IDS)
def test_solve_plays_back_and_take_over_adopts(pid):
    puzzle = get_puzzle(pid)
    session = Session(puzzle)
    session.push(session.legal_moves()[0])
    before = session.state
    session.solve()
    assert session.mode is Mode.PLAYBACK and session.playback is not None
    solution = session.playback.solution
    assert_replays(puzzle, solution, before, session.start)
    session.playback_command("forward")
    session.playback_command("forward")
    assert session.playback.state == solution.states[2] and session.state == before
    assert session.layout() == puzzle.layout(solution.states[2])
    assert session.take_over() == 2
    assert session.mode is Mode.PLAYING and session.state == solution.states[2]
    assert session.moves_made == 3 and session.outcome().helped


def test_the_crash_sequences_are_refused_by_the_mode():
    """`kaeru play frogs-3`, keys `3 Enter s Space → → u t`: undo during playback used to be
    accepted, then take-over replayed the solution from another position (BadInput crash)."""
    session = Session(get_puzzle("frogs-3"))
    session.push(session.legal_moves()[0])
    session.solve()
    session.playback_command("toggle")
    session.playback_command("forward")
    session.playback_command("forward")
    for action in (session.undo, session.redo, session.restart, session.hint, session.solve):
        with pytest.raises(Refused, match="Leave playback first"):
            action()
    with pytest.raises(Refused):
        session.push(session.legal_moves()[0])
    session.take_over()
    assert_history_replays(session)


def test_a_late_answer_for_an_old_position_is_dropped():
    searcher = DeferredSearcher()
    session = Session(get_puzzle("frogs-3"), searcher=searcher)
    session.hint()
    assert session.mode is Mode.SEARCHING
    session.push(session.legal_moves()[0])  # moving cancels the hint: its answer is stale
    assert session.mode is Mode.PLAYING
    searcher.deliver_all()
    assert session.hint_move is None and session.outcome().hints == 0


def test_escape_cancels_every_search_of_the_game():
    searcher = DeferredSearcher()
    session = Session(get_puzzle("number-reversal-6"), searcher=searcher)
    session.find_optimal_length()
    session.solve()
    assert len(searcher.pending) == 2
    assert session.cancel_searches()
    assert all(job.cancel_requested for job, *_ in searcher.pending)
    searcher.deliver_all()
    assert session.mode is Mode.PLAYING and session.outcome().optimal is None


def test_saves_store_move_texts_and_come_back():
    store = MemoryStore()
    puzzle = get_puzzle("frogs-3")
    session = Session(puzzle, store=store)
    for _ in range(3):
        session.push(session.legal_moves()[0])
    session.undo()
    saved = store.games[session.saved().slot]
    assert saved.moves == tuple(puzzle.format_move(m) for m in session.history)
    assert len(saved.redo) == 1
    back = Session.from_saved(saved, store=store)
    assert back.history == session.history and back.redo_moves == session.redo_moves
    assert back.saved().slot == session.saved().slot


def test_a_win_is_recorded_once():
    store = MemoryStore()
    session = Session(get_puzzle("frogs-1"), store=store)
    session.find_optimal_length()
    session.solve()
    session.playback_command("last")
    session.take_over()
    assert session.solved and len(store.finished) == 1
    record = store.finished[0]
    assert record.move_count == record.optimal == 3 and record.helped
    assert store.games == {}  # the game in progress became a record
    session.undo()
    session.redo()
    assert len(store.finished) == 1


def test_the_clock_stops_in_playback_and_when_won():
    now = [100.0]
    session = Session(get_puzzle("frogs-1"), clock=lambda: now[0])
    now[0] += 5
    assert session.seconds == 5
    session.solve()
    now[0] += 7  # playback does not count
    assert session.seconds == 5
    session.playback_command("last")
    session.take_over()
    now[0] += 9  # nor does the time after the win
    assert session.solved and session.seconds == 5


def assert_history_replays(session: Session) -> None:
    state = session.start
    for move in session.history:
        state = session.puzzle.apply(state, move)
    assert state == session.state


# ---- game ids -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game_id",
    ["flip-it-6:B_BBBB", "flip-it-16:_BWBWBWBWBWBWBWB", "oshidori:BWBWBWBW__", "frogs-4:BBBB_WWWW",
     "number-reversal-10:2_13456789"],
)
def test_game_ids_round_trip(game_id):
    session = Session.from_game_id(game_id)
    assert session.game_id == game_id
    assert Session.from_game_id(session.game_id).start == session.start


@pytest.mark.parametrize(
    "game_id", ["flip-it-6:B_BBB", "flip-it-99:_BBBB", "nonsense:__", "frogs-3:BBB_WWX"]
)
def test_bad_game_ids_are_refused(game_id):
    with pytest.raises(BadInput):
        Session.from_game_id(game_id)


# ---- the stateful test ----------------------------------------------------------------------
class SessionMachine(RuleBasedStateMachine):
    """Random actions, searches answering late and in any order; only Refused and BadInput may
    come out of an action, and the history always replays to the position shown."""

    def __init__(self) -> None:
        super().__init__()
        self.searcher = DeferredSearcher()
        self.store = MemoryStore()
        self.session: Session | None = None

    @precondition(lambda self: self.session is None)
    @rule(pid=st.sampled_from(["frogs-2", "flip-it-5", "knights-3x3", "oshidori",
                               "wolf-goat-cabbage"]))
    def open(self, pid: str) -> None:
        self.session = Session(get_puzzle(pid), searcher=self.searcher, store=self.store)
        self.session.find_optimal_length()

    def act(self, action, *args) -> None:
        try:
            action(*args)
        except (Refused, BadInput) as refusal:
            assert "\n" not in str(refusal)

    @precondition(lambda self: self.session is not None)
    @rule(pick=st.integers(0, 30))
    def move(self, pick: int) -> None:
        legal = self.session.legal_moves()
        if legal:
            self.act(self.session.push, legal[pick % len(legal)])

    @precondition(lambda self: self.session is not None)
    @rule(name=st.sampled_from(["undo", "redo", "restart", "hint", "solve", "take_over",
                                "leave_playback", "cancel_searches"]))
    def action(self, name: str) -> None:
        self.act(getattr(self.session, name))

    @precondition(lambda self: self.session is not None)
    @rule(command=st.sampled_from(["toggle", "forward", "back", "first", "last", "tick",
                                   "faster", "slower"]))
    def playback(self, command: str) -> None:
        self.act(self.session.playback_command, command)

    @precondition(lambda self: self.session is not None and self.searcher.pending)
    @rule(index=st.integers(0, 10))
    def answer(self, index: int) -> None:
        self.searcher.deliver(index % len(self.searcher.pending))

    @invariant()
    def consistent(self) -> None:
        session = self.session
        if session is None:
            return
        assert_history_replays(session)
        assert (session.mode is Mode.PLAYBACK) == (session.playback is not None)
        if session.playback is not None:
            assert session.playback.solution.states[0] == session.state
        if session.hint_move is not None:
            assert session.hint_move in session.legal_moves()
        slot = session.saved().slot
        if slot is not None:
            saved = self.store.games[slot]
            assert saved.moves == tuple(session.puzzle.format_move(m) for m in session.history)


TestSessionMachine = SessionMachine.TestCase
TestSessionMachine.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)


def test_peg_solutions_and_records_count_moves_and_claim_no_optimum():
    """Pegs are counted in moves (chains of jumps) with the jumps beside; every solution has
    the same jumps, so nothing says "optimal", and the record claims no optimal length."""
    store = MemoryStore()
    puzzle = get_puzzle("pegs-english-cross")
    session = Session(puzzle, store=store)
    session.find_optimal_length()
    session.solve()
    assert session.playback is not None
    solution = session.playback.solution
    chains = len(puzzle.chains(solution.moves))
    words = f"{chains} move{'s' if chains != 1 else ''} ({solution.length} jumps)"
    assert words in session.message and "optimal" not in session.message
    session.playback_command("last")
    session.take_over()
    record = store.finished[0]
    assert record.move_count == chains and record.optimal is None


def test_the_hinted_move_is_played_by_play_hint():
    session = Session(get_puzzle("frogs-2"))
    with pytest.raises(Refused, match="No hint yet"):
        session.play_hint()
    session.hint()
    hinted = session.hint_move
    assert hinted is not None
    session.play_hint()
    assert session.history == (hinted,) and session.hint_move is None
