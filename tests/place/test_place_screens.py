"""The shared place's screens driven with Pilot: another player of the same server (a second
arcade's link to the place) is seen on Who is here and watched move by move; their daily win
is ranked on the leaderboard and replayed to its last position; the arcade's own win is
shared; a watched player is told, and turning watching off in Settings ends the view."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList

from kaeru.engine.catalogue.daily import daily_date, daily_games
from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.place.link import PlaceLink
from kaeru.engine.place.place import Place
from kaeru.engine.search import dispatch
from kaeru.engine.store.models import FinishedGame
from kaeru.screens.home.screen import HomeScreen
from kaeru.screens.place.leaderboard import LeaderboardScreen
from kaeru.screens.place.replay import ReplayScreen
from kaeru.screens.place.watch import WatchScreen
from kaeru.screens.place.who import WhoScreen
from kaeru.screens.settings import SettingsScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenScreen

GAME = "sliding-3x3:1,2,3/4,5,6/_,7,8"  # two moves from the goal


@pytest.fixture(autouse=True)
def one_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    place = tmp_path / "place.sqlite3"
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "me"))
    monkeypatch.setenv("KAERU_PLACE", str(place))
    monkeypatch.setenv("KAERU_PLAYER", "key-me")
    monkeypatch.delenv("KAERU_STORE", raising=False)
    monkeypatch.setenv("KAERU_SEARCH_MODE", "thread")
    monkeypatch.setattr("kaeru.engine.place.link.BEAT_SECONDS", 0.2)
    return place


async def until(pilot: Pilot, done: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the condition was not met in time"
        await pilot.pause(0.02)


def other_player(name: str = "Bob") -> PlaceLink:
    link = PlaceLink(lambda: Place.open(player="key-bob"))
    link.ready.wait(10)
    assert link.place is not None
    link.place.set_name(name)
    link.name = name
    return link


async def test_who_is_here_and_watching_follows_the_other_player_move_by_move():
    bob = other_player()
    bob.live("sliding-3x3", GAME, (), 1.0)
    app = KaeruApp(resume=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.place_link is not None and app.place_link.ready.is_set())
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, WhoScreen)
                        and app.screen.query_one(OptionList).option_count >= 1
                        and "key-bob" in app.screen.here)
            app.screen.query_one(OptionList).highlighted = list(app.screen.here).index("key-bob")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, WatchScreen)
                        and app.screen.seen == (GAME, ()) and app.screen.board is not None)
            watch = app.screen
            await until(pilot, lambda: bob.watched)  # Bob is told he is watched
            bob.live("sliding-3x3", GAME, ("7 left",), 2.0)
            await until(pilot, lambda: watch.seen == (GAME, ("7 left",)))
            assert watch.board.locked
            assert "1 move" in str(watch.query_one("#watch-status").content)
    finally:
        bob.close()


def solved_daily() -> FinishedGame:
    day = daily_date()
    game = next(g for g in daily_games(day) if g.id == "sliding-3x3")
    puzzle, start = parse_game_id(game.game_id)
    solution = dispatch.solve(puzzle, start, start)
    moves = tuple(puzzle.format_move(m) for m in solution.moves)
    return FinishedGame(game.game_id, "sliding-3x3", moves, len(moves), game.optimal, 42.0, 0,
                        False, daily=day)


async def test_a_daily_win_is_ranked_and_its_replay_reaches_the_final_position():
    bob = other_player()
    win = solved_daily()
    bob.share(win)
    app = KaeruApp(resume=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.place_link is not None and app.place_link.ready.is_set())
            await until(pilot, lambda: bool(Place.open(player="x").results("sliding-3x3")))
            app.store.finish_game(None, FinishedGame(  # the arcade's own win, helped
                win.game_id, "sliding-3x3", win.moves, win.move_count, win.optimal, 9.0, 1,
                True, daily=win.daily))
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                        and app.screen.query_one(DataTable).row_count == 2)
            table = app.screen.query_one(DataTable)
            assert [table.get_row_at(n)[:2] for n in range(2)] == [
                ["1", "Bob"], ["helped", app.place_link.name]]
            assert "no clean win" in str(app.screen.query_one("#leaderboard-you").content)
            table.move_cursor(row=0)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replay = app.screen
            await until(pilot, lambda: replay.marks is not None)
            await pilot.press("end")
            await until(pilot, lambda: replay.playback.index == win.move_count)
            puzzle, start = parse_game_id(win.game_id)
            assert puzzle.is_goal(replay.playback.state, start)
            assert replay.marks == ["optimal"] * win.move_count
            await pilot.press("escape", "h")  # the hall of fame: clean results only
            await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                        and app.screen.hall and app.screen.query_one(DataTable).row_count == 1)
    finally:
        bob.close()


async def test_a_watched_player_is_told_and_turning_watching_off_ends_the_view():
    bob = other_player()
    app = KaeruApp(GAME, resume=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.place_link is not None and app.place_link.ready.is_set())
            await pilot.press("left")  # a move: the live game goes to the place at once
            me = app.place_link.place.player
            await until(pilot, lambda: (bob.place.watch(me) or None) is not None
                        and len(bob.place.watch(me).moves) >= 1)
            await until(pilot, lambda: app.place_link.watched)
            await until(pilot, lambda: any("watching your game" in str(n.message)
                                           for n in app._notifications))
            await pilot.press("escape", "escape")  # home: no game on screen any more
            await until(pilot, lambda: isinstance(app.screen, HomeScreen)
                        and (bob.place.watch(me) or None) is not None
                        and bob.place.watch(me).game_id is None)
            app.post_message(OpenScreen("settings"))
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
            options = app.screen.query_one(OptionList)
            options.highlighted = options.get_option_index("watching")
            await pilot.press("enter")
            await until(pilot, lambda: app.store.get_setting("watching") == "off")
            await until(pilot, lambda: bob.place.watch(me) is None)
    finally:
        bob.close()


async def test_a_name_is_chosen_in_settings_and_a_taken_or_bad_one_is_refused_in_one_line():
    from textual.widgets import Input

    from kaeru.screens.place.name import NameScreen

    bob = other_player("Bob")
    app = KaeruApp(resume=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.place_link is not None and app.place_link.ready.is_set())
            assert app.place_link.name  # a made-up one to start with
            app.post_message(OpenScreen("settings"))
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
            options = app.screen.query_one(OptionList)
            options.highlighted = options.get_option_index("name")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, NameScreen))
            field = app.screen.query_one(Input)
            why = app.screen.query_one("#name-why")
            for typed, refusal in (("bob", "taken"), ("", "empty"), ("a\tb", "control")):
                field.value = typed
                await pilot.press("enter")
                await until(pilot, lambda r=refusal: r in str(why.content))
                assert "\n" not in str(why.content)
            field.value = "Alice"
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
            assert app.place_link.name == "Alice"
            assert bob.place.name_of(app.place_link.place.player) == "Alice"
            await until(pilot, lambda: "Name: Alice" in str(
                app.screen.query_one(OptionList).get_option("name").prompt))
    finally:
        bob.close()


async def test_the_leaderboard_asks_the_search_service_for_an_unknown_optimum_and_keeps_it(
    monkeypatch: pytest.MonkeyPatch,
):
    """The 15-puzzle's daily optimum is not known ahead: the screen asks the search service
    for it (a SOLVE job, not a search on the app's threads) and keeps it in the place."""
    from kaeru.engine.rules.results import Solution
    from kaeru.engine.service.jobs import DONE, JobKind, JobRequest, JobResult

    asked: list[JobRequest] = []

    async def solved(app: object, request: JobRequest) -> JobResult:
        asked.append(request)
        found = Solution(tuple(range(50)), tuple(range(51)), optimal=True)
        return JobResult(request, DONE, solution=found)

    monkeypatch.setattr("kaeru.screens.place.leaderboard.await_job", solved)
    day = daily_date(None)
    (game,) = [g for g in daily_games(day) if g.id == "sliding-4x4"]
    app = KaeruApp(resume=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.place_link is not None and app.place_link.ready.is_set())
        assert app.place_link is not None and app.place_link.place is not None
        await app.push_screen(LeaderboardScreen(app.place_link.place, day, "sliding-4x4"))
        await until(pilot, lambda: Place.open(player="x").optimum(day, "sliding-4x4") == 50)
        _, start = parse_game_id(game.game_id)
        (request,) = asked
        assert request.kind is JobKind.SOLVE and request.puzzle_id == "sliding-4x4"
        assert parse_game_id(f"sliding-4x4:{request.state}")[1] == start
