"""Daily puzzles: a date gives the same list everywhere (pinned for one date, computed once and
pasted here), each family with random games takes part, and the share line reads right."""

from __future__ import annotations

import random
from datetime import date

import pytest

from kaeru.engine.catalogue.daily import (
    DAILY_IDS,
    daily_date,
    daily_games,
    share_line,
    short_title,
)
from kaeru.engine.catalogue.random_games import random_game_ids
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock

EXPECTED_2026_11_23 = [  # (game id, optimal)
    ("sliding-3x3:_,5,2/7,6,1/3,4,8", 22),
    ("sliding-4x4:10,14,11,4/_,1,6,12/2,3,15,9/5,8,13,7", None),
    ("flip-it-8:BWWBBB_B", 11),
    ("oshidori:W__BBBWWWB", 5),
    ("frogs-4:BWBWBWBW_", 14),
    ("number-reversal-7:536_142", 8),
    ("two-blank-4x3:3,8,9,6/7,10,1,4/5,2,_,_", 22),  # ids paste unquoted: no spaces
    ("knights-3x4:___/BW_/W_B/BW_", 18),
]


def test_a_fixed_date_gives_the_pinned_list():
    random.seed(99)  # the global generator has no say
    games = daily_games("2026-11-23")
    assert [(g.game_id, g.optimal) for g in games] == EXPECTED_2026_11_23
    assert [g.id for g in games] == list(DAILY_IDS)
    for game in games:
        puzzle = get_puzzle(game.id)
        assert puzzle.game_id(puzzle.parse(game.start)) == game.game_id


def test_the_date_alone_decides():
    assert daily_games(date(2026, 11, 23)) == daily_games(" 2026-11-23 ")
    other = daily_games("2026-11-24")
    assert all(a.start != b.start for a, b in zip(daily_games("2026-11-23"), other, strict=True))


def test_every_family_with_random_games_takes_part_with_the_8_and_15_puzzles():
    families = {get_puzzle(pid).family for pid in random_game_ids()}
    assert {get_puzzle(pid).family for pid in DAILY_IDS} == families
    assert {"sliding-3x3", "sliding-4x4"} <= set(DAILY_IDS)


def test_dates_are_checked():
    assert daily_date(date(2026, 1, 2)) == "2026-01-02"
    assert len(daily_date()) == 10
    with pytest.raises(BadInput, match="not a date"):
        daily_date("2026-02-30")


def test_share_line():
    assert (
        share_line("2026-11-23", "15-puzzle", 58, 52, 192.7)
        == "Kaeru 2026-11-23 · 15-puzzle · 58 moves (optimal 52) · 3:12"
    )
    assert share_line(date(2026, 1, 5), "Oshidori", 1, None, 5) == (
        "Kaeru 2026-01-05 · Oshidori · 1 move · 0:05"
    )
    assert clock(3723) == "1:02:03" and clock(-1) == "0:00"
    assert short_title("sliding-4x4") == "15-puzzle"
