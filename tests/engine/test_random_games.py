"""Random games: the generator we own, fair draws (chi-square on small boards, the 8-puzzle's
mean distance, the 15-puzzle's tile frequencies), exact depths, seeds."""

from __future__ import annotations

import random
from collections import Counter
from math import factorial, sqrt

import numpy as np
import pytest

from kaeru.engine.catalogue.random_games import RandomGame, random_game, random_game_ids
from kaeru.engine.puzzles._chosen_goal import swap_colours
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import QUIET, Meter
from kaeru.engine.rules.prng import SplitMix64
from kaeru.engine.rules.protocol import BadInput, BudgetExceeded
from kaeru.engine.search.dispatch import solve
from kaeru.engine.sliding.board import parity
from kaeru.engine.tables.dense import UNREACHED, dense_bfs

MEAN_8_PUZZLE = 21.97  # mean distance to the goal over the 9!/2 solvable 8-puzzle positions


def chi_square_limit(df: int, z: float = 3.29) -> float:
    """The chi-square value exceeded with probability about 0.0005 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


# ---- the generator ---------------------------------------------------------------------------
def test_splitmix64_matches_the_reference_outputs():
    rng = SplitMix64(1234567)  # the reference implementation's published first outputs
    assert [rng.next64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_generator_draws_are_its_own_and_in_range():
    rng = SplitMix64.from_text("kaeru-test")
    random.seed(1)  # the global generator has no say
    first = [rng.randrange(10) for _ in range(2000)]
    assert set(first) == set(range(10))
    assert chi_square(list(Counter(first).values()), 200) < chi_square_limit(9)
    again = SplitMix64.from_text("kaeru-test")
    random.seed(2)
    assert [again.randrange(10) for _ in range(2000)] == first
    cells = list(range(20))
    rng.shuffle(cells)
    assert sorted(cells) == list(range(20)) and cells != list(range(20))
    assert 0 <= rng.random() < 1 and rng.randint(3, 3) == 3 and rng.choice("x") == "x"
    assert rng.randrange(5, 15, 5) in (5, 10) and rng.getrandbits(130) < 2**130


# ---- fairness ----------------------------------------------------------------------------------
def test_sliding_2x3_draws_are_uniform_over_the_360_solvable_layouts():
    puzzle = get_puzzle("sliding-3x2")
    rng = SplitMix64(2026)
    draws = 360 * 40
    counts = Counter(puzzle.random_start(rng) for _ in range(draws))
    assert len(counts) == factorial(6) // 2
    assert all(parity.unsolvable_reason(puzzle.grid, s) is None for s in counts)
    assert chi_square(list(counts.values()), 40) < chi_square_limit(359)


def test_mean_distance_of_random_8_puzzles_is_the_known_21_97():
    puzzle = get_puzzle("sliding-3x3")
    rng = SplitMix64(8)
    lengths = [solve(puzzle, s, s).length for s in (puzzle.random_start(rng) for _ in range(400))]
    # the distances' spread is about 3.2 moves, so 400 draws give a mean within ±0.16 (1 sigma)
    assert abs(np.mean(lengths) - MEAN_8_PUZZLE) < 0.65


def test_15_puzzle_draws_put_every_tile_everywhere_equally_and_are_solvable():
    puzzle = get_puzzle("sliding-4x4")
    rng = SplitMix64(15)
    draws = 1600
    where = np.zeros((16, 16), dtype=np.int64)  # tile x cell
    for _ in range(draws):
        state = puzzle.random_start(rng)
        assert parity.unsolvable_reason(puzzle.grid, state) is None
        where[list(state), range(16)] += 1
    assert chi_square(where.ravel().tolist(), draws / 16) < chi_square_limit(225)


def test_flip_it_layouts_form_one_space_from_5_cells_so_every_draw_can_be_won():
    for size in range(5, 11):
        puzzle = get_puzzle(f"flip-it-{size}")
        code = puzzle.encode(puzzle.initial())
        depth = dense_bfs(
            puzzle.space_size,
            np.array([code]),
            puzzle.expand_codes,
            Meter("test", QUIET.unlimited()),
        )
        assert int(np.count_nonzero(depth != UNREACHED)) == size * 2 ** (size - 1)
    puzzle = get_puzzle("flip-it-6")
    rng = SplitMix64(6)
    counts = Counter(puzzle.random_start(rng) for _ in range(192 * 30))
    assert len(counts) == 192
    assert chi_square(list(counts.values()), 30) < chi_square_limit(191)
    with pytest.raises(BadInput):
        get_puzzle("flip-it-4").random_start(rng)


def test_guarini_draws_never_strand_a_knight_and_always_solve():
    puzzle = get_puzzle("knights-3x3")
    rng = SplitMix64(3)
    for _ in range(10):
        start = puzzle.random_start(rng)
        assert start[4] == "_"  # a knight in the centre of 3x3 can never move
        assert solve(puzzle, start, start).states[-1] == swap_colours(start)


# ---- exact depths ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("puzzle_id", "depth"),
    [
        ("sliding-3x3", 31),
        ("sliding-3x3", 5),
        ("two-blank-4x3", 20),
        ("oshidori", 4),
        ("oshidori-bw", 5),
        ("frogs-3", 9),
        ("number-reversal-6", 12),
        ("knights-3x4", 16),
        ("flip-it-7", 12),
    ],
)
def test_a_draw_at_a_depth_is_exactly_that_far_by_the_solver(puzzle_id: str, depth: int):
    game = random_game(puzzle_id, seed=11, depth=depth)
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.parse(game.start)
    assert game.optimal == depth == solve(puzzle, start, start).length
    assert game.game_id == puzzle.game_id(start)


def test_draws_without_a_depth_carry_the_solver_s_length():
    for puzzle_id in ("frogs-4", "number-reversal-5", "oshidori", "knights-3x4", "flip-it-9"):
        game = random_game(puzzle_id, seed=1)
        puzzle = get_puzzle(puzzle_id)
        start = puzzle.parse(game.start)
        assert game.optimal == solve(puzzle, start, start).length > 0


def test_impossible_depths_and_puzzles_without_random_games_are_bad_input(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr("kaeru.engine.catalogue.random_games.MAX_DRAWS", 25)
    monkeypatch.setattr("kaeru.engine.puzzles._random.MAX_POSITIONS", 5000)
    with pytest.raises(BadInput, match="depth must be 0 to 31"):
        random_game("sliding-3x3", 1, 32)
    with pytest.raises(BadInput, match="depth must be 1 to"):
        random_game("oshidori", 1, 60)
    with pytest.raises(BadInput, match="one start only"):
        random_game("pegs-english", 1)
    with pytest.raises(BadInput, match="one start only"):
        random_game("wolf-goat-cabbage", 1)
    with pytest.raises(BadInput, match="more than 5,000 positions"):
        random_game("number-reversal-9", 1)
    with pytest.raises(BadInput, match="exact difficulty"):
        random_game("sliding-4x4", 1, 40)
    with pytest.raises(BudgetExceeded, match="no start 40 moves from its goal"):
        random_game("flip-it-5", 1, 40)  # Flip It 5's starts are 8 to 16 moves away


# ---- seeds -------------------------------------------------------------------------------------
def test_a_seed_gives_the_same_game_and_another_seed_another():
    first = random_game("sliding-4x4", seed=42)
    assert first == random_game("sliding-4x4", seed=42)
    assert first != random_game("sliding-4x4", seed=43)
    assert first.optimal is None  # the 15-puzzle is not solved unless asked
    assert first.as_json().keys() == {"id", "game_id", "start", "optimal"}
    assert random_game("sliding-4x4") != random_game("sliding-4x4")  # fresh seeds


def test_random_game_ids_cover_every_family_with_random_starts():
    ids = random_game_ids()
    assert {
        "sliding-3x3",
        "sliding-4x4",
        "two-blank-4x3",
        "knights-3x4",
        "flip-it-5",
        "oshidori",
        "frogs-10",
        "number-reversal-8",
    } <= set(ids)
    assert not {"flip-it-4", "number-reversal-9", "pegs-english"} & set(ids)
    assert isinstance(random_game(ids[0], 0), RandomGame)
