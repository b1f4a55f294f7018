"""The shared place on SQLite and on a real PostgreSQL: names, daily leaderboards (clean optimal
first, then fewest moves, then time; helped apart), hall of fame, streaks, optima, presence."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaeru.engine.place.names import MAX_LENGTH, refusal
from kaeru.engine.place.place import Place
from kaeru.engine.place.ranking import Result, daily_board
from kaeru.engine.store.models import FinishedGame
from tests.place.pg_cluster import SKIP_REASON, shared

DAY = "2026-11-25"


@pytest.fixture(params=["sqlite", "postgresql"])
def place_of(request, tmp_path: Path):
    """Opens the place as a given player (the same place each time)."""
    if request.param == "sqlite":
        return lambda player: Place.open(tmp_path, url="", player=player)
    cluster = shared()
    if cluster is None:
        pytest.skip(SKIP_REASON)
    url = cluster.new_database()
    return lambda player: Place.open(url=url, player=player)


def win(moves: int, seconds: float, helped: bool = False, optimal: int | None = 20,
        day: str | None = DAY, when: str = "2026-11-25T10:00:00+00:00") -> FinishedGame:
    return FinishedGame("sliding-3x3:x", "sliding-3x3", ("1 up",) * moves, moves, optimal,
                        seconds, 1 if helped else 0, helped, when, daily=day)


@pytest.mark.parametrize(
    ("name", "why"),
    [("", "empty"), ("   ", "empty"), ("x" * (MAX_LENGTH + 1), "at most"),
     ("bad\x1bname", "control"), ("zero\u200bwidth", "control"), ("a<b", "letters")],
)
def test_bad_names_are_refused_in_one_line(name: str, why: str):
    line = refusal(name)
    assert line is not None and why in line and "\n" not in line


def test_names_are_unique_on_the_server_whatever_the_case(place_of):
    ann, bob = place_of("key-ann"), place_of("key-bob")
    assert ann.set_name("Ann") is None and ann.name_of() == "Ann"
    assert "taken" in bob.set_name("  ANN ")
    assert bob.set_name("Bob") is None
    assert ann.set_name("ann") is None  # one's own name, in another case
    guest = place_of("guest-1")
    generated = guest.ensure_name(guest=True)
    assert refusal(generated) is None and guest.ensure_name() == generated


def test_daily_board_ranks_clean_optimal_first_and_lists_helped_apart(place_of):
    players = {"a": (22, 30.0, False), "b": (20, 90.0, False), "c": (20, 50.0, False),
               "d": (20, 5.0, True), "e": (21, 10.0, False)}
    for player, (moves, seconds, helped) in players.items():
        place = place_of(player)
        place.set_name(player.upper())
        assert place.record_win(win(moves, seconds, helped))
    # a second win of the same day by c does not count: the first does
    place_of("c").record_win(win(20, 1.0, when="2026-11-25T11:00:00+00:00"))
    me = place_of("b")
    board = me.daily_board("sliding-3x3", DAY)
    assert [r.name for r in board.ranked] == ["C", "B", "E", "A"]
    assert [r.name for r in board.helped] == ["D"]
    assert board.rank_of("b") == 2 and board.rank_of("d") is None
    assert me.daily_board("sliding-3x3", "2026-11-24").ranked == ()
    hall = me.hall_of_fame("sliding-3x3")
    assert [r.name for r in hall] == ["C", "B", "E", "A"]  # best clean win each, D helped
    assert hall[0].seconds == 1.0
    replay = me.win(board.ranked[0].id)
    assert replay is not None and replay.moves == ("1 up",) * 20


def test_streak_optimum_and_presence(place_of):
    me = place_of("me")
    for day in ("2026-11-23", "2026-11-24", "2026-11-25"):
        me.record_win(win(20, 10.0, day=day, when=f"{day}T10:00:00+00:00"))
    assert me.streak(today=date(2026, 11, 25)) == 3
    assert me.streak(today=date(2026, 11, 27)) == 0
    me.set_optimum(DAY, "sliding-4x4", "sliding-4x4:x", 48)
    me.set_optimum(DAY, "sliding-4x4", "sliding-4x4:x", 50)  # computed once: the first stays
    assert me.optimum(DAY, "sliding-4x4") == 48 and me.optimum(DAY, "flip-it-5") is None
    assert me.beat("Me", "sliding-3x3", "sliding-3x3:x", ("1 up",), 3.0) is False
    other = place_of("other")
    seen = other.watch("me")
    assert seen is not None and seen.moves == ("1 up",) and seen.name == "Me"
    assert me.beat("Me", "sliding-3x3", "sliding-3x3:x", ("1 up", "2 up"), 4.0) is True
    assert [p.name for p in other.online()] == ["Me"]
    me.beat("Me", watchable=False)
    assert other.watch("me") is None
    me.leave()
    assert other.online() == []


results = st.builds(
    Result, id=st.integers(0, 10**6), player=st.sampled_from("abcdefgh"), name=st.just("n"),
    puzzle_id=st.just("p"), game_id=st.just("g"), day=st.just(DAY), moves=st.just(()),
    move_count=st.integers(1, 40), optimal=st.sampled_from([None, 10, 20]),
    seconds=st.floats(0, 1000), hints=st.integers(0, 3), helped=st.booleans(),
    finished=st.sampled_from(["2026-11-25T01", "2026-11-25T02", "2026-11-25T03"]),
)


@given(st.lists(results, max_size=30))
def test_a_board_never_mixes_helped_and_clean_and_counts_each_player_once(entries):
    board = daily_board(entries)
    assert all(not r.helped for r in board.ranked) and all(r.helped for r in board.helped)
    players = [r.player for r in (*board.ranked, *board.helped)]
    assert len(players) == len(set(players))
    keys = [(not r.optimal_reached, r.move_count, r.seconds) for r in board.ranked]
    assert keys == sorted(keys)


def test_a_daily_optimum_is_searched_once_stored_and_ranks_wins_saved_without_it(
    tmp_path, monkeypatch
):
    from kaeru.engine.place import optima

    searched: list[str] = []

    def fake_search(game_id: str, control=None) -> int | None:
        searched.append(game_id)
        return 50 if game_id.startswith("sliding-4x4") else None

    monkeypatch.setattr(optima, "searched_optimum", fake_search)
    place = Place.open(tmp_path, url="", player="me")
    fifteen = FinishedGame("sliding-4x4:x", "sliding-4x4", ("1 up",) * 52, 52, None, 80.0, 0,
                           False, f"{DAY}T10:00:00+00:00", daily=DAY)
    place.record_win(fifteen)
    assert place.daily_board("sliding-4x4", DAY).ranked[0].over is None
    assert optima.daily_optima(place, DAY)["sliding-4x4"] is None  # not searched unasked
    found = optima.daily_optima(place, DAY, search=True)
    assert found["sliding-4x4"] == 50 and found["sliding-3x3"] is not None
    assert [g.split(":")[0] for g in searched] == ["sliding-4x4"]  # the others come with theirs
    other = Place.open(tmp_path, url="", player="someone")  # another arcade of the server
    assert optima.daily_optima(other, DAY, search=True)["sliding-4x4"] == 50
    assert len(searched) == 1  # once per day per server
    assert other.daily_board("sliding-4x4", DAY).ranked[0].over == 2


def test_only_a_daily_whose_optimum_neither_it_nor_the_place_knows_is_unknown(tmp_path):
    from kaeru.engine.catalogue.daily import daily_games
    from kaeru.engine.place.optima import daily_optima, unknown_daily

    place = Place.open(tmp_path, url="", player="me")
    fifteen = next(g for g in daily_games(DAY) if g.id == "sliding-4x4")
    assert fifteen.optimal is None  # the 15-puzzle's daily comes without its optimum
    assert unknown_daily(place, DAY, "sliding-4x4") == fifteen.game_id
    assert unknown_daily(place, DAY, "sliding-3x3") is None  # it comes with its own
    place.set_optimum(DAY, "sliding-4x4", fifteen.game_id, 50)
    assert unknown_daily(place, DAY, "sliding-4x4") is None
    assert daily_optima(place, DAY)["sliding-4x4"] == 50


def test_the_optimum_search_proves_a_small_daily():
    from kaeru.engine.place.optima import searched_optimum

    assert searched_optimum("sliding-3x3:1,2,3/4,5,6/_,7,8") == 2


def test_a_win_that_cannot_be_written_is_kept_and_written_with_the_next_call(monkeypatch):
    import sqlite3

    place = Place.memory("me")
    real = place._transaction
    calls = {"n": 0}

    def failing_once(work):
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database is locked")
        return real(work)

    monkeypatch.setattr(place, "_transaction", failing_once)
    assert place.record_win(win(20, 5.0)) is False
    assert "kept" in place.notice and len(place.pending) == 1
    assert [r.move_count for r in place.results("sliding-3x3", DAY)] == [20]  # written now
    assert place.pending == [] and len(place.results("sliding-3x3", DAY)) == 1  # once


def test_a_guest_s_made_up_name_is_let_go_when_they_leave_without_a_win():
    place = Place.memory("guest-1")
    name = place.ensure_name(guest=True)
    place.leave(guest=True)
    assert place.name_of() is None
    winner = Place(place._db, (), "guest-2")
    kept = winner.ensure_name(guest=True)
    winner.record_win(win(20, 5.0))
    winner.leave(guest=True)
    assert winner.name_of() == kept and name
