"""River crossings (seed 001, problem 3, and kin): published figures, the rule checker, text."""

from __future__ import annotations

from collections import deque
from itertools import combinations

import pytest

from bench.knights_river import seed_couples
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles._river_rules import LEFT, RIGHT
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs

SOLVABLE = [
    # id, optimal crossings, where the figure comes from
    ("jealous-husbands-3", 11, "seed 001, problem 3"),
    ("missionaries-3", 11, "RULES.md digest of seed 001"),
    ("wolf-goat-cabbage", 7, "RULES.md digest of seed 001"),
    ("jealous-husbands-4", 9, "our BFS (boat of 3); the classic figure is 9 as well"),
    ("jealous-husbands-5", 11, "our BFS (boat of 3); the classic figure is 11 as well"),
]


def reachable(puzzle, root):
    seen, queue = {root}, deque([root])
    while queue:
        state = queue.popleft()
        for move in puzzle.moves(state):
            child = puzzle.apply(state, move)
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return seen


def is_safe(puzzle, state) -> bool:
    rules = puzzle.river_rules
    return not rules.trouble(puzzle.bank(state, True), LEFT) and not rules.trouble(
        puzzle.bank(state, False), RIGHT
    )


# ---- the published figures -----------------------------------------------------------------------
@pytest.mark.parametrize(("puzzle_id", "length", "source"), SOLVABLE)
def test_optimal_crossings(puzzle_id, length, source):
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    assert solution.length == length, source
    assert solution.optimal
    assert bfs(puzzle, start, start).length == length


@pytest.mark.parametrize(("puzzle_id", "length", "source"), SOLVABLE)
def test_solutions_replay_safely(puzzle_id, length, source):
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    state = start
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        assert move in puzzle.moves(state)
        assert len(move) <= puzzle.capacity
        assert puzzle.river_rules.trouble(move, "boat") is None
        state = puzzle.apply(state, move)
        assert state == after and is_safe(puzzle, state)
    assert puzzle.is_goal(state, start)
    assert puzzle.format(state).startswith(" | boat")


def test_seed_bitmask_search_agrees():
    """The seed's own method (bit masks, the safe boat loads, bank checks; the bench's baseline)
    gives 11 for three couples and no solution for four couples in a boat of two."""
    assert seed_couples(3, 2) == 11
    assert seed_couples(4, 2) is None


def test_four_couples_in_a_boat_of_two_is_proved_impossible():
    puzzle = get_puzzle("jealous-husbands-4-boat2")
    start = puzzle.initial()
    with pytest.raises(Unsolvable) as error:
        dispatch.solve(puzzle, start, start)
    assert "cannot be done" in error.value.reason
    assert f"all {len(reachable(puzzle, start))} safe positions" in error.value.reason
    assert all(not puzzle.is_goal(s, start) for s in reachable(puzzle, start))
    with pytest.raises(Unsolvable):
        bfs(puzzle, start, start)


def test_missionaries_four_in_a_boat_of_two_is_impossible():
    puzzle = get_puzzle("missionaries-4-boat2")
    with pytest.raises(Unsolvable):
        dispatch.solve(puzzle, puzzle.initial(), puzzle.initial())


def test_mid_game_solve_is_optimal_everywhere():
    puzzle = get_puzzle("jealous-husbands-3")
    start = puzzle.initial()
    for state in reachable(puzzle, start):
        assert dispatch.solve(puzzle, state, start).length == bfs(puzzle, state, start).length


# ---- the rule checker: every kind of refusal, in words -------------------------------------------
JH3 = get_puzzle("jealous-husbands-3")
JH4 = get_puzzle("jealous-husbands-4")
MC3 = get_puzzle("missionaries-3")
WGC = get_puzzle("wolf-goat-cabbage")


@pytest.mark.parametrize(
    ("puzzle", "state", "move", "reason"),
    [
        # a wife left on the bank the boat leaves
        (JH3, "Ha Wa Hb Wb Hc Wc boat |", ("Ha",), "Wa would be with Hb while Ha is across"),
        # a wife with another man in the boat
        (JH3, "Ha Wa Hb Wb Hc Wc boat |", ("Wa", "Hb"),
         "Wa would be in the boat with Hb without Ha"),
        (JH4, "Ha Wa Hb Wb boat | Hc Wc Hd Wd", ("Ha", "Wa", "Hb"), None),  # Ha is aboard: fine
        (JH4, "Ha Wa Hb Wb Hc Wc Hd Wd boat |", ("Ha", "Wb", "Hc"),
         "Wb would be in the boat with Ha without Hb"),
        # a wife meeting another man on the bank the boat lands on
        (JH3, "Wa | boat Ha Hb Wb Hc Wc", ("Hb", "Wb"), "Wa would be with Hb while Ha is across"),
        # the boat's size, the rower, who is where, who exists
        (JH3, "Ha Wa Hb Wb Hc Wc boat |", ("Ha", "Wa", "Hb"), "the boat holds 2"),
        (JH3, "Ha Wa Hb Wb Hc Wc boat |", (), "the boat needs a rower: nobody is aboard"),
        (JH3, "Hb Wb Hc Wc | boat Ha Wa", ("Hb",),
         "Hb is not on the right bank, where the boat is"),
        (JH3, "Ha Wa Hb Wb Hc Wc boat |", ("Zed",), "nobody here is called Zed"),
        # cannibals outnumbering missionaries on the bank left behind, on arrival, in the boat
        (MC3, "M M M C C C boat |", ("M",),
         "the cannibals would outnumber the missionaries on the left bank (3 to 2)"),
        (MC3, "M M M C boat | C C", ("M",),
         "the cannibals would outnumber the missionaries on the right bank (2 to 1)"),
        (get_puzzle("missionaries-4"), "M M M M C C C C boat |", ("M", "C", "C"),
         "the cannibals would outnumber the missionaries in the boat (2 to 1)"),
        (MC3, "M M M C C C boat |", ("M", "M", "M"), "the boat holds 2"),
        (MC3, "M M C C | boat M C", ("M", "M"), "only 1 M on the right bank, where the boat is"),
        # the farmer's story
        (WGC, "Farmer Wolf Goat Cabbage boat |", ("Goat",),
         "the boat needs a rower: only the Farmer can row"),
        (WGC, "Farmer Wolf Goat Cabbage boat |", ("Farmer",),
         "the Wolf would eat the Goat on the left bank"),
        (WGC, "Farmer Wolf Goat Cabbage boat |", ("Farmer", "Wolf"),
         "the Goat would eat the Cabbage on the left bank"),
        (WGC, "Farmer Wolf Goat Cabbage boat |", ("Farmer", "Wolf", "Goat"), "the boat holds 2"),
    ],
)
def test_refusals_say_why(puzzle, state, move, reason):
    position = puzzle.parse(state)
    if reason is None:
        assert move in puzzle.moves(position)
        return
    assert move not in puzzle.moves(position)
    assert puzzle.explain_illegal(position, move).startswith(reason)
    with pytest.raises(BadInput, match="^" + reason.replace("(", r"\(").replace(")", r"\)")):
        Session(puzzle, position).push(move)


@pytest.mark.parametrize("puzzle_id", ["jealous-husbands-3", "missionaries-3", "wolf-goat-cabbage",
                                       "jealous-husbands-4"])
def test_moves_are_exactly_the_loads_with_no_reason_against(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    for state in reachable(puzzle, puzzle.initial()):
        legal = set(puzzle.moves(state))
        here = puzzle.bank(state, state.boat_left)
        for size in range(puzzle.capacity + 2):
            for load in set(combinations(here, size)):
                if load in legal:
                    assert is_safe(puzzle, puzzle.apply(state, load))
                else:
                    assert not puzzle.explain_illegal(state, load).startswith("not a legal move")


def test_a_crossing_can_always_row_straight_back():
    for puzzle_id in ("jealous-husbands-3", "missionaries-3", "wolf-goat-cabbage"):
        puzzle = get_puzzle(puzzle_id)
        for state in reachable(puzzle, puzzle.initial()):
            for move in puzzle.moves(state):
                after = puzzle.apply(state, move)
                assert move in puzzle.moves(after) and puzzle.apply(after, move) == state


def test_a_load_in_another_form_is_refused_with_the_right_form():
    start = JH3.initial()
    assert JH3.explain_illegal(start, frozenset({"Wa", "Ha"})) == (
        "write the crossing as ('Ha', 'Wa'): a tuple, people in roster order"
    )
    assert JH3.explain_illegal(start, "Ha").startswith("not a crossing")


def test_crossing_puts_a_load_in_canonical_order():
    assert JH3.crossing({"Wb", "Ha"}) == ("Ha", "Wb")
    assert MC3.crossing(["C", "M"]) == ("M", "C")
    assert JH3.describe(("Ha", "Wa")) == "Ha Wa cross"


# ---- text ----------------------------------------------------------------------------------------
def test_the_start_text_is_the_issue_example():
    assert JH3.format(JH3.initial()) == "Ha Wa Hb Wb Hc Wc boat | "
    assert JH3.parse("Ha Wa Hb Wb Hc Wc boat | ") == JH3.initial()
    assert JH3.format(JH3.goal(JH3.initial())) == " | boat Ha Wa Hb Wb Hc Wc"


@pytest.mark.parametrize("puzzle_id", ["jealous-husbands-5", "missionaries-3", "wolf-goat-cabbage"])
def test_text_round_trips(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    for state in reachable(puzzle, puzzle.initial()):
        text = puzzle.format(state)
        assert puzzle.parse(text) == state
        left_only = text.split("|")[0] + "|" + (" boat" if not state.boat_left else "")
        assert puzzle.parse(left_only) == state  # the right bank may be left out


def test_parse_is_forgiving_about_case_and_order():
    assert JH3.parse("wb hb BOAT ha wa hc wc |") == JH3.initial()


@pytest.mark.parametrize(
    ("puzzle", "text", "words"),
    [
        (JH3, "Ha Wa Hb Wb Hc Wc boat", "expected the left bank, a |"),
        (JH3, "Ha Wa Hb Wb Hc Wc | ", "write 'boat' once"),
        (JH3, "Ha Wa boat | boat Hb Wb Hc Wc", "write 'boat' once"),
        (JH3, "Ha Wa Hx boat |", "unknown 'Hx'"),
        (JH3, "Ha Ha Wa Hb Wb Hc Wc boat |", "too many on the left bank"),
        (JH3, "Ha Wa boat | Hb", "must hold everyone"),
        (JH3, "Ha Wb Hb boat | Wa Hc Wc", "not a safe position: Wa would be with Hc"),
        (MC3, "M C C boat | M M C", "not a safe position: the cannibals would outnumber"),
        (WGC, "Wolf Goat boat | Farmer Cabbage", "not a safe position: the Wolf would eat"),
        (WGC, "Wolf Cabbage boat | Farmer Goat", "nobody on the boat's bank can row it"),
        (JH3, " | boat", None),  # nobody on the left: the goal, fine
    ],
)
def test_bad_text_is_one_clear_line(puzzle, text, words):
    if words is None:
        assert puzzle.is_goal(puzzle.parse(text), puzzle.initial())
        return
    with pytest.raises(BadInput, match=words) as error:
        puzzle.parse(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("puzzle_id", "words"),
    [
        ("jealous-husbands-9", "1 to 5 couples"),
        ("jealous-husbands-3-boat7", "the boat holds 1 to 4"),
        ("missionaries-x", "bad river id"),
    ],
)
def test_bad_ids(puzzle_id, words):
    with pytest.raises(BadInput, match=words):
        get_puzzle(puzzle_id)


def test_ids_and_default_boats():
    assert get_puzzle("jealous-husbands-3").capacity == 2
    assert get_puzzle("jealous-husbands-4").capacity == 3
    assert get_puzzle("jealous-husbands-5").capacity == 3
    assert get_puzzle("jealous-husbands-4-boat2").capacity == 2
    assert get_puzzle("missionaries-3").capacity == 2


def test_game_id_and_save_round_trip():
    session = Session.from_game_id("jealous-husbands-3:Ha Wa Hb Wb Hc Wc boat | ")
    session.push(("Wa", "Wb"))
    session.push(("Wb",))
    again = Session.from_saved(session.saved())
    assert again.state == session.state
    assert JH3.format(again.state) == "Ha Hb Wb Hc Wc boat | Wa"
