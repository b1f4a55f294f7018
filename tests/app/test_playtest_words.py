"""Words of a full play-test (issue 25): no verdict said twice ("no solution: No solution:",
"cannot be won: unsolvable:"), counts with their noun in the right number, a win's verdict
that agrees with the analysis, proofs written as sentences."""

from __future__ import annotations

import pytest

from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.catalogue.game_ids import playable_start
from kaeru.engine.game.record import Outcome
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.screens.home.about import about_preset
from kaeru.screens.play.text import verdict_text

PARITY = "1 2 3/4 5 6/8 7 _"  # one swap away from the goal: the parity proof


def outcome(moves: int, optimal: int | None, chains: int | None = None) -> Outcome:
    return Outcome("won", moves, chains, optimal, False, 0, 1.0)


def test_a_win_says_how_it_compares_in_plain_words():
    assert verdict_text(outcome(10, 8)) == "Solved in 10 moves (the fewest is 8)."
    assert verdict_text(outcome(8, 8)) == "Solved in 8 moves: a perfect game!"
    assert verdict_text(outcome(1, None)) == "Solved in 1 move!"
    assert verdict_text(outcome(31, None, 9)) == "Solved in 9 moves (31 jumps)."


def test_a_typed_start_that_cannot_be_won_says_so_once():
    with pytest.raises(BadInput) as refused:
        playable_start(get_puzzle("sliding-3x3"), PARITY)
    assert str(refused.value).startswith("this start cannot be won: sorting this layout")


def test_a_curiosity_proof_is_a_sentence():
    facts = Facts("flip-it-5", unwinnable="all 4 positions reachable from _BBB searched",
                  settled=True)
    about = about_preset("flip-it-5", facts, {})
    assert "Cannot be won.[/b] All 4 positions reachable from _BBB searched." in about


def test_the_home_list_shows_one_kind_of_figure():
    """Regression: the list mixed "31 jumps", "5 moves" and "≤8.6×10⁹ positions"."""
    from kaeru.engine.catalogue.entries import preset
    from kaeru.screens.home.puzzle_list import preset_line

    def line(puzzle_id: str, facts: Facts) -> str:
        return preset_line(preset(puzzle_id), {puzzle_id: facts}, {}, 60).plain

    assert line("pegs-english-cross", Facts("pegs-english-cross", length=5)).rstrip().endswith(
        "5 moves")
    jumps = line("pegs-english", Facts("pegs-english", length=31, unit="jump"))
    positions = line("pegs-english-c1", Facts("pegs-english-c1", positions=8_589_934_592))
    assert "jumps" not in jumps and "positions" not in positions
    assert jumps.rstrip().endswith("–") and positions.rstrip().endswith("–")
