"""Stepping through a solution: forward, back, seek, play/pause and speed, as the playback bar
drives it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.game.playback import SPEEDS, Playback
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.search import dispatch

PUZZLE = get_puzzle("flip-it-5")
SOLUTION = dispatch.solve(PUZZLE, "_BBBB", "_BBBB")  # 8 moves


def test_it_starts_at_the_first_position_paused():
    playback = Playback(SOLUTION)
    assert playback.index == 0 and playback.at_start and not playback.at_end
    assert playback.state == "_BBBB" and not playback.playing
    assert playback.length == 8
    assert playback.last_move is None and playback.next_move == SOLUTION.moves[0]


def test_forward_to_the_end_and_back():
    playback = Playback(SOLUTION)
    for step in range(1, 9):
        assert playback.forward()
        assert playback.state == SOLUTION.states[step]
        assert playback.last_move == SOLUTION.moves[step - 1]
    assert playback.at_end and playback.state == "_WWWW" and playback.next_move is None
    assert not playback.forward() and playback.index == 8
    while playback.back():
        pass
    assert playback.at_start and playback.state == "_BBBB"


def test_playing_stops_at_the_end_and_restarts_from_the_beginning():
    playback = Playback(SOLUTION)
    assert playback.toggle() and playback.playing
    while playback.forward():
        pass
    assert playback.at_end and not playback.playing
    assert playback.toggle()  # play again from the end: back to the start
    assert playback.index == 0 and playback.playing
    assert not playback.toggle() and not playback.playing


def test_seek_clamps_to_the_solution():
    playback = Playback(SOLUTION)
    playback.seek(5)
    assert playback.state == SOLUTION.states[5]
    playback.seek(-3)
    assert playback.index == 0
    playback.seek(99)
    assert playback.index == 8 and playback.at_end


def test_speed_levels_are_bounded_and_faster_means_shorter():
    playback = Playback(SOLUTION)
    intervals = [playback.interval]
    for _ in range(len(SPEEDS) + 2):
        playback.faster()
        intervals.append(playback.interval)
    assert playback.speed_level == len(SPEEDS) - 1
    assert intervals == sorted(intervals, reverse=True)
    for _ in range(len(SPEEDS) + 2):
        playback.slower()
    assert playback.speed_level == 0 and playback.interval == max(SPEEDS)


def test_an_empty_solution_is_at_both_ends():
    playback = Playback(dispatch.solve(PUZZLE, "_WWWW", "_BBBB"))
    assert playback.at_start and playback.at_end and playback.length == 0
    assert not playback.forward() and not playback.back()
    assert playback.state == "_WWWW"


@settings(deadline=None)
@given(st.lists(st.sampled_from(["forward", "back", "toggle", "seek"]), max_size=30),
       st.integers(-2, 10))
def test_the_cursor_always_shows_a_state_of_the_solution(actions, where):
    playback = Playback(SOLUTION)
    for action in actions:
        if action == "seek":
            playback.seek(where)
        else:
            getattr(playback, action)()
        assert 0 <= playback.index <= playback.length
        assert playback.state == SOLUTION.states[playback.index]
