"""The store on a real PostgreSQL (tests/place/pg_cluster.py) and the faults of a shared store:
the server unreachable at start or lost while running (writes held, nothing lost or written
twice), two sessions of one player saving the same game (the later save wins, both are told),
on SQLite as on PostgreSQL."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from kaeru.engine.store import FinishedGame, SavedGame, Store, postgres, writer
from kaeru.engine.store.postgres_schema import PLACE_SCHEMA, player_schema
from kaeru.engine.store.schema import LATEST
from tests.place.pg_cluster import SKIP_REASON, free_port, shared


@pytest.fixture
def cluster():
    made = shared()
    if made is None:
        pytest.skip(SKIP_REASON)
    return made


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "RETRY_SECONDS", (0.1,))
    monkeypatch.setattr(writer, "PAUSED_CLOSE_SECONDS", 0.2)
    monkeypatch.setattr(postgres, "RETRY_SECONDS", 0.1)
    monkeypatch.setenv("KAERU_PLAYER", f"test-{uuid.uuid4().hex}")


def won(game_id: str = "sliding-3x3:x") -> FinishedGame:
    return FinishedGame(game_id, "sliding-3x3", ("1 up",), 1, 1, 3.0, 0, False)


def test_each_player_has_a_migrated_schema_of_their_own(cluster, monkeypatch):
    import psycopg

    url = cluster.url()
    with Store.open(url=url) as first:
        first.set_setting("theme", "nord")
    monkeypatch.setenv("KAERU_PLAYER", "someone-else")
    with Store.open(url=url) as second:
        assert second.get_setting("theme") is None
    with psycopg.connect(url) as db:
        schema = player_schema("someone-else")
        assert db.execute(f"SELECT version FROM {schema}.kaeru_version").fetchone() == (LATEST,)
        assert db.execute(f"SELECT version FROM {PLACE_SCHEMA}.kaeru_version").fetchone() == (1,)


def test_unreachable_at_start_the_game_goes_on_and_saves_are_paused():
    url = f"postgresql://kaeru@127.0.0.1:{free_port()}/postgres"
    store = Store.open(url=url)
    assert store.writable and store.notice.startswith("Saves are paused")
    slot = store.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:a", ("1 up",)))
    assert [g.slot for g in store.games_in_progress()] == [slot]  # held, read back
    assert store.load_game(slot).moves == ("1 up",)
    store.close()
    assert store.unsaved >= 1 and "could not be written" in store.notice


def test_lost_while_running_holds_the_writes_and_makes_them_once_when_it_returns(cluster):
    url = cluster.url()
    lines: list[str] = []
    store = Store.open(url=url)
    store.on_notice = lines.append
    slot = store.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:a", ("1 up",)))
    assert store.flush(10)
    cluster.stop()
    try:
        store.save_progress(slot, "sliding-3x3", "sliding-3x3:a", keep=1, added=("2 up",),
                            position=2)
        store.finish_game(None, won())
        assert not store.flush(1.0)
        assert any(line.startswith("Saves are paused") for line in lines)
        assert store.load_game(slot).moves == ("1 up", "2 up")  # held, still seen
        assert len(store.records()) == 1
    finally:
        cluster.start()
    assert store.flush(30)
    assert lines[-1].startswith("Saves are back")
    store.close()
    with Store.open(url=url) as again:
        assert again.load_game(slot).moves == ("1 up", "2 up")
        assert len(again.records()) == 1  # written once


@pytest.fixture(params=["sqlite", "postgresql"])
def two_sessions(request, tmp_path: Path):
    """Two stores of one player (two terminals, or two connections of one key)."""
    if request.param == "sqlite":
        return lambda: Store.open(tmp_path)
    made = shared()
    if made is None:
        pytest.skip(SKIP_REASON)
    return lambda: Store.open(url=made.url())


def test_two_sessions_saving_one_game_the_later_save_wins_and_each_is_told(two_sessions):
    first, second = two_sessions(), two_sessions()
    told_first: list[str] = []
    told_second: list[str] = []
    first.on_notice, second.on_notice = told_first.append, told_second.append
    slot = first.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:a", ("1 up", "2 up")))
    assert first.flush(10)
    second.save_game(SavedGame(slot, "sliding-3x3", "sliding-3x3:a", ("3 left",)))
    assert second.flush(10)
    assert any("another session" in line for line in told_second)
    first.save_progress(slot, "sliding-3x3", "sliding-3x3:a", keep=2, added=("4 down",),
                        position=3)
    assert first.flush(10)
    assert any("another session" in line for line in told_first)
    first.close()
    second.close()
    with two_sessions() as again:  # the later save, whole: never a mix of the two lines
        assert again.load_game(slot).moves == ("1 up", "2 up", "4 down")


def test_concurrent_writers_and_first_opens_lose_nothing_and_migrate_once(cluster):
    """Four arcades of one new player start at once (each migrates or finds it done) and each
    saves and finishes games at the same time: every record is there, once."""
    import threading

    import psycopg

    url, games = cluster.new_database(), 15
    errors: list[BaseException] = []

    def arcade(name: str) -> None:
        try:
            with Store.open(url=url) as store:
                for n in range(games):
                    slot = store.save_game(SavedGame(None, "oshidori", f"oshidori:{name}-{n}",
                                                     ("1",)))
                    store.finish_game(slot, won(f"oshidori:{name}-{n}"))
                    store.set_setting(name, str(n))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=arcade, args=(f"p{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    with Store.open(url=url) as store:
        assert len({r.game_id for r in store.records()}) == len(store.records()) == 4 * games
        assert store.games_in_progress() == []
        assert all(store.get_setting(f"p{i}") == str(games - 1) for i in range(4))
    with psycopg.connect(url) as db:
        schemas = db.execute("SELECT count(*) FROM information_schema.schemata"
                             " WHERE schema_name LIKE 'player_%'").fetchone()
        assert schemas == (1,)


def test_on_postgresql_a_move_appends_a_row_and_two_arcades_never_share_a_slot(cluster):
    import psycopg

    url = cluster.url()
    first, second = Store.open(url=url), Store.open(url=url)
    slot = first.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("a", "b")))
    assert first.flush(10)
    assert first.claim(slot) and not second.claim(slot)
    schema = first._connection.schema
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"UPDATE {schema}.moves SET move = 'A' WHERE slot = %s AND ply = 0", (slot,))
        first.save_progress(slot, "oshidori", "oshidori:BWBWBWBW__", keep=2, added=("c",),
                            position=3)
        assert first.flush(10)
        rows = db.execute(f"SELECT ply, move FROM {schema}.moves WHERE slot = %s ORDER BY ply",
                          (slot,)).fetchall()
    assert rows == [(0, "A"), (1, "b"), (2, "c")]  # one row appended, none rewritten
    first.close()
    assert second.claim(slot)  # let go when the first closed
    second.close()
