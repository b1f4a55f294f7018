"""Moves have a text form both ways on every puzzle: `parse_move(format_move(m), s) == m` for
every legal move of random reachable positions, the texts of one position's moves are distinct
and ASCII, the natural forms players type are read, and a text naming no legal move is a
one-line BadInput."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import random_walk

from kaeru.engine.puzzles.registry import all_ids, get_puzzle
from kaeru.engine.rules.protocol import BadInput, ascii_move_text, normalise_move_text


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(all_ids()), st.integers(0, 30), st.randoms(use_true_random=False))
def test_every_legal_move_round_trips_through_its_text(pid, steps, rng):
    puzzle = get_puzzle(pid)
    state = random_walk(puzzle, puzzle.initial(), rng, steps)
    legal = list(puzzle.moves(state))
    texts = [puzzle.format_move(move) for move in legal]
    assert len(set(map(normalise_move_text, texts))) == len(texts), (pid, texts)
    for move, text in zip(legal, texts, strict=True):
        assert text.isascii() and "\n" not in text, text
        assert ascii_move_text(puzzle.describe(move)).isascii(), puzzle.describe(move)
        assert puzzle.parse_move(text, state) == move, (pid, text)
        assert puzzle.parse_move(puzzle.describe(move), state) == move, (pid, text)
        assert puzzle.parse_move(f"  {text.upper()} ", state) == move, (pid, text)


def test_a_text_naming_no_legal_move_is_refused_in_one_line():
    for pid in all_ids():
        puzzle = get_puzzle(pid)
        state = puzzle.initial()
        for text in ("", "zz9-qq7", "42 sideways"):
            with pytest.raises(BadInput) as refused:
                puzzle.parse_move(text, state)
            assert "\n" not in str(refused.value) and str(refused.value), pid


def test_natural_forms_players_type():
    sliding = get_puzzle("sliding-3x3")
    goal = sliding.goal(sliding.initial())  # gap bottom right: 6 can slide down, 8 right
    assert sliding.format_move(sliding.parse_move("8 right", goal)) == "8 right"
    assert sliding.parse_move("8", goal) == sliding.parse_move("8 right", goal)
    assert sliding.parse_move("down", goal).tile == 6
    with pytest.raises(BadInput, match="not a legal move"):
        sliding.parse_move("7", goal)

    knights = get_puzzle("knights-3x4")  # black on rank 4, white on rank 1
    start = knights.initial()
    move = knights.parse_move("a1-b3", start)
    assert knights.format_move(move) == "a1-b3" == knights.describe(move)
    assert knights.parse_move("A1B3", start) == knights.parse_move("a1 b3", start) == move

    pegs = get_puzzle("pegs-english")
    assert pegs.format_move(pegs.parse_move("d2-d4", pegs.initial())) == "d2-d4"
    assert pegs.parse_move("d2d4", pegs.initial()) == pegs.parse_move("D2 - D4", pegs.initial())

    river = get_puzzle("jealous-husbands-3")
    crossing = river.parse_move("Wa Ha", river.initial())
    assert crossing == ("Ha", "Wa") and river.format_move(crossing) == "Ha Wa"
    assert river.parse_move("ha wa cross", river.initial()) == crossing
    with pytest.raises(BadInput, match="nobody here is called Zed"):
        river.parse_move("Zed", river.initial())
    with pytest.raises(BadInput, match="cannot cross"):
        river.parse_move("Wa Hb", river.initial())

    frogs = get_puzzle("frogs-3")  # BBB_WWW: the frog in cell 3 steps into cell 4
    step = frogs.parse_move("3->4", "BBB_WWW")
    assert step == (2, 3) and frogs.format_move(step) == "3->4"
    assert frogs.parse_move("3→4", "BBB_WWW") == frogs.parse_move("3-4", "BBB_WWW") == step
    assert frogs.parse_move("3 4", "BBB_WWW") == step

    oshidori = get_puzzle("oshidori")  # pairs: cells 1-2 to the gap at 9-10
    pair = oshidori.parse_move("1-2->9-10", oshidori.initial())
    assert pair == (0, 8) and oshidori.parse_move("1→9", oshidori.initial()) == pair

    ten = get_puzzle("two-blank-4x3")
    goal = ten.goal(ten.initial())
    for move in ten.moves(goal):
        assert ten.parse_move(move[0], goal) == move  # the direction alone


def test_move_texts_survive_a_random_game_replayed_from_text():
    rng = random.Random(11)
    for pid in ("flip-it-7", "pegs-triangle", "missionaries-3", "two-blank-3x3", "knights-3x3"):
        puzzle = get_puzzle(pid)
        state = puzzle.initial()
        texts, states = [], [state]
        for _ in range(8):
            legal = list(puzzle.moves(state))
            if not legal:
                break
            move = rng.choice(legal)
            texts.append(puzzle.format_move(move))
            state = puzzle.apply(state, move)
            states.append(state)
        replayed = puzzle.initial()
        for text, expected in zip(texts, states[1:], strict=True):
            replayed = puzzle.apply(replayed, puzzle.parse_move(text, replayed))
            assert replayed == expected
