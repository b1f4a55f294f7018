"""Fuzzing `kaeru.tui.cli.main` with hostile ids, states, files and output streams.

Every case must end by the exit-code policy (0 done, 1 no solution, 2 bad input, 3 gave up,
4 output could not be written), with exactly one stderr line for an error, no raw control
characters in what is printed, no exception escaping and no hang (`tests/cli/hostile.py`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kaeru.tui.cli.commands.play as play_command
from kaeru.engine.puzzles.registry import all_ids
from kaeru.tui.cli.main import main
from tests.cli.hostile import (
    BAD,
    HOSTILE_IDS,
    Case,
    FileZoo,
    judge,
    random_case,
    valid_states,
)

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], FileZoo]]:
    """Valid starts of every puzzle, a folder of hostile files, and `play` not opening the
    arcade (what it would open is checked; the arcade itself has the monkey test)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(play_command, "open_arcade", lambda game_id: 0)
        patch.setenv("KAERU_LOG_DIR", str(tmp_path_factory.mktemp("logs")))
        yield valid_states(), FileZoo(tmp_path_factory.mktemp("files"))


def check(case: Case) -> None:
    verdict = judge(main, case, seconds=20.0)
    assert not verdict.problems, (case.argv, verdict.problems, verdict.err[:300])


@settings(max_examples=150, **SETTINGS)
@given(st.randoms(use_true_random=False))
def test_hostile_command_lines_follow_the_policy(world, rng: random.Random) -> None:
    states, zoo = world
    check(random_case(rng, states, zoo))


@pytest.mark.slow
@settings(max_examples=5000, **SETTINGS)
@given(st.randoms(use_true_random=False))
def test_hostile_command_lines_follow_the_policy_at_length(world, rng: random.Random) -> None:
    states, zoo = world
    check(random_case(rng, states, zoo))


@pytest.mark.parametrize("puzzle_id", all_ids())
def test_every_puzzle_refuses_odd_digits_and_controls_in_its_state(world, puzzle_id) -> None:
    states, _ = world
    for odd in ("²", "④", "\x1b[2J"):
        check(Case(("solve", puzzle_id, "--from", odd + states[puzzle_id]), BAD))
    check(Case(("solve", f"{puzzle_id}:{states[puzzle_id] * 3000}"), BAD))


@pytest.mark.parametrize("puzzle_id", HOSTILE_IDS)
def test_hostile_ids_are_bad_input(world, puzzle_id) -> None:
    for command in ("solve", "enumerate", "play"):
        check(Case((command, puzzle_id), BAD))
