"""Benchmark: what saving one move costs the thread that made it, in games of 1,000 to 200,000
moves, and what opening such a game costs.

Baseline (before issue 26): the whole game is formatted and written on the caller's thread at
every move (`store.save_game(saved_game(session))`, then waiting for the write). Now: the
session sends what changed (`session_saves.save_progress`: one move's text) and the store's
writer thread appends one row; the caller's share is timed, then the writer's (`flush`).
Printed: milliseconds per move (median of the moves timed) and the ratio to the baseline.

    python bench/save_moves.py                 # 1,000 / 30,000 / 200,000 moves (about a minute)
    python bench/save_moves.py --sizes 1000 5000 --moves 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.game.saves import save_progress, saved_game
from kaeru.engine.game.session import Session
from kaeru.engine.store import Store

PUZZLE = "sliding-3x3"


def long_game(store: Store, length: int) -> tuple[Session, list[int]]:
    """A game of `length` moves (back and forth), saved once whole; with its slot (a list the
    timed saves update: the session keeps its own slot private)."""
    session = Session.from_game_id(PUZZLE)
    for n in range(length):
        moves = session.legal_moves()
        session._play(moves[n % len(moves)])
    slot = [save_progress(session, store, None)]
    assert store.flush(600)
    return session, slot


def timed(work, rounds: int) -> float:
    """Median milliseconds of `work()` over `rounds` calls."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(size: int, rounds: int) -> tuple[float, float, float, float]:
    """(baseline ms, caller ms, writer ms, seconds to open the game) for a game of `size`."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder))
        session, slot = long_game(store, size)

        def one_move() -> None:
            session._play(session.legal_moves()[0])

        def whole() -> None:
            one_move()
            slot[0] = store.save_game(saved_game(session, slot[0]))
            store.flush()

        def delta() -> None:
            one_move()
            slot[0] = save_progress(session, store, slot[0])

        def delta_written() -> None:
            delta()
            store.flush()

        baseline = timed(whole, rounds)
        caller = timed(delta, rounds)
        writer = timed(delta_written, rounds) - caller
        store.close()
        again = Store.open(Path(folder))
        started = time.perf_counter()
        [game] = again.games_in_progress(PUZZLE)
        Session.from_saved(game, store=again)
        opened = time.perf_counter() - started
        again.close()
    return baseline, caller, max(writer, 0.0), opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 30_000, 200_000])
    parser.add_argument("--moves", type=int, default=10, help="moves timed per size")
    args = parser.parse_args()
    print(f"{'moves':>8}  {'baseline ms':>11}  {'now: caller':>11}  {'now: writer':>11}"
          f"  {'ratio':>7}  {'open game s':>11}")
    for size in args.sizes:
        baseline, caller, writer, opened = measure(size, args.moves)
        print(f"{size:>8,}  {baseline:>11.2f}  {caller:>11.3f}  {writer:>11.3f}"
              f"  {baseline / caller:>6.0f}×  {opened:>11.2f}")


if __name__ == "__main__":
    main()
