"""The shared place and the store, on SQLite and on PostgreSQL (a temporary cluster on loopback,
tests/place/pg_cluster.py), side by side; SQLite is the baseline of each row's ratio.

1. Watch latency: from an arcade's move (`PlaceLink.live`, what the store's save calls) to a
   watcher's look (`Place.watch`, what the watch screen does every 0.1 s) seeing it — the time
   the place adds; the screen's poll adds up to 0.1 s more.
2. A daily leaderboard read (`Place.daily_board`) with N wins of that day.
3. A game's moves saved (`Store.save_progress`, one row a move) and flushed: per move.

    python bench/place.py            # 100 moves watched, 1,000 wins, 200 moves saved
    python bench/place.py --wins 5000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kaeru.engine.place.link import PlaceLink
from kaeru.engine.place.place import Place
from kaeru.engine.store import SavedGame, Store
from kaeru.engine.store.models import FinishedGame
from tests.place.pg_cluster import shared

DAY = "2026-11-25"


def watch_latency(opener: Callable[[str], Place], moves: int) -> float:
    """Median seconds from a move to a watcher seeing it."""
    link = PlaceLink(lambda: opener("watched"))
    link.ready.wait(30)
    watcher = opener("watcher")
    seen: list[float] = []
    line: list[str] = []
    for n in range(moves):
        line.append(f"{n % 8 + 1} up")
        started = time.perf_counter()
        link.live("sliding-3x3", "sliding-3x3:x", tuple(line), float(n))
        while True:
            live = watcher.watch("watched")
            if live is not None and len(live.moves) == len(line):
                break
            time.sleep(0.001)
        seen.append(time.perf_counter() - started)
    link.close()
    watcher.close()
    return statistics.median(seen)


def board_read(opener: Callable[[str], Place], wins: int) -> float:
    place = opener("writer")
    for n in range(wins):
        place.pending.append((f"p{n}", FinishedGame(
            "sliding-3x3:x", "sliding-3x3", ("1 up",) * 3, 20 + n % 9, 20, float(n % 97),
            n % 3, n % 5 == 0, f"{DAY}T10:{n % 60:02d}:00+00:00", daily=DAY)))
    place.record_win(FinishedGame("sliding-3x3:x", "sliding-3x3", (), 20, 20, 1.0, 0, False,
                                  daily=DAY))
    times = []
    for _ in range(5):
        started = time.perf_counter()
        board = place.daily_board("sliding-3x3", DAY)
        times.append(time.perf_counter() - started)
    assert len(board.ranked) + len(board.helped) == wins + 1
    place.close()
    return statistics.median(times)


def saves(store: Store, moves: int) -> float:
    slot = store.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:x"))
    store.flush()
    started = time.perf_counter()
    for n in range(moves):
        store.save_progress(slot, "sliding-3x3", "sliding-3x3:x", keep=n, added=("1 up",),
                            position=n + 1)
        store.flush()
    per_move = (time.perf_counter() - started) / moves
    store.close()
    return per_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--wins", type=int, default=1000)
    parser.add_argument("--saves", type=int, default=200)
    args = parser.parse_args()
    cluster = shared()
    if cluster is None:
        sys.exit("PostgreSQL (initdb, pg_ctl) or psycopg is not installed")
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for what, run in (
            (f"watch latency, median of {args.moves} moves",
             lambda opener: watch_latency(opener, args.moves)),
            (f"leaderboard read, {args.wins} wins", lambda opener: board_read(opener, args.wins)),
        ):
            figures = []
            for backend in ("sqlite", "postgresql"):
                if backend == "sqlite":
                    place_file = Path(folder) / f"{uuid.uuid4().hex}.sqlite3"

                    def opener(player: str, path: Path = place_file) -> Place:
                        import os

                        os.environ["KAERU_PLACE"] = str(path)
                        return Place.open(url="", player=player)
                else:
                    url = cluster.new_database()

                    def opener(player: str, url: str = url) -> Place:
                        return Place.open(url=url, player=player)
                figures.append(run(opener))
            rows.append((what, figures[0], figures[1]))
        sqlite_store = Store.open(Path(folder) / "store", url="")
        import os

        os.environ["KAERU_PLAYER"] = f"bench-{uuid.uuid4().hex}"
        pg_store = Store.open(url=cluster.url())
        rows.append((f"save a move and flush, per move ({args.saves})",
                     saves(sqlite_store, args.saves), saves(pg_store, args.saves)))
    print(f"{'':48} {'SQLite':>10} {'PostgreSQL':>11} {'ratio':>7}")
    for what, lite, pg in rows:
        print(f"{what:48} {lite * 1000:>8.2f}ms {pg * 1000:>9.2f}ms {pg / lite:>6.1f}x")


if __name__ == "__main__":
    main()
