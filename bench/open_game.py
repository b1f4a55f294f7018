"""Benchmark: opening a game, with Textual's own footer (the baseline) and with `KeysFooter`.

Textual's footer rebuilds its keys on every bindings refresh; `tui.widgets.keys_footer` rebuilds
at most once a frame and only when the keys change. Each round, once with each footer (in the
same run, in alternating order), goes from home into every game on the home screen and back in
one headless app, then launches the arcade straight into the first game of each family (as
`kaeru play ID` does). Printed: milliseconds per game (the median of the rounds), footer
rebuilds per game, and the ratio to the baseline. (Moves refresh no bindings: a move costs the
same with either footer.)

    python bench/open_game.py                  # 80×24, 3 rounds (about four minutes)
    python bench/open_game.py --size 60x20 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.widgets import Footer

import kaeru.screens.play.screen as play_module
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import families
from kaeru.screens.play.screen import PlayScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.keys_footer import KeysFooter

FOOTERS: dict[str, type[Footer]] = {"Textual Footer": Footer, "KeysFooter": KeysFooter}
rebuilds = 0


def counting_recompose() -> None:
    """Count every footer rebuild, whichever footer."""
    original = Footer.recompose

    async def recompose(self: Footer) -> None:
        global rebuilds
        rebuilds += 1
        await original(self)

    Footer.recompose = recompose  # type: ignore[method-assign, assignment]


async def open_every_game(footer: type[Footer], size: tuple[int, int]) -> tuple[float, float]:
    """(seconds per game, footer rebuilds per game) opening every id in one app."""
    global rebuilds
    play_module.KeysFooter = footer  # type: ignore[misc, assignment]
    ids = [puzzle_id for family in families() for puzzle_id in family.ids]
    app = KaeruApp(resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        rebuilds = 0
        start = time.perf_counter()
        for puzzle_id in ids:  # from home into the game and back, as a player goes
            app.open_game(puzzle_id, fresh=True)
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen), puzzle_id
            await app.pop_screen()
            await pilot.pause()
        seconds = time.perf_counter() - start
    return seconds / len(ids), rebuilds / len(ids)


async def launch_on_games(footer: type[Footer], size: tuple[int, int]) -> tuple[float, float]:
    """(seconds, footer rebuilds) per launch of the arcade straight into a game (`kaeru play
    ID`), until its first frame is settled, for the first game of every family."""
    global rebuilds
    play_module.KeysFooter = footer  # type: ignore[misc, assignment]
    ids = [family.ids[0] for family in families()]
    rebuilds = 0
    start = time.perf_counter()
    for puzzle_id in ids:
        app = KaeruApp(puzzle_id, resume=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen), puzzle_id
    return (time.perf_counter() - start) / len(ids), rebuilds / len(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="80x24", help="terminal size, e.g. 60x20")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    folder = tempfile.mkdtemp(prefix="kaeru-bench-")
    os.environ.update(KAERU_DATA_DIR=folder, KAERU_CACHE_DIR=folder, KAERU_SEARCH_MODE="thread",
                      KAERU_PDB_BUILD="off")
    Session.find_optimal_length = lambda self: None  # type: ignore[method-assign]
    counting_recompose()
    cases = {"into a game and back": open_every_game, "launched on a game": launch_on_games}
    times: dict[tuple[str, str], list[float]] = {(c, n): [] for c in cases for n in FOOTERS}
    counts: dict[tuple[str, str], float] = {}
    for round_ in range(args.rounds):
        order = list(FOOTERS.items())
        for name, footer in order if round_ % 2 == 0 else reversed(order):
            for case, run in cases.items():
                seconds, per_game = asyncio.run(run(footer, (width, height)))
                times[case, name].append(seconds)
                counts[case, name] = per_game
    print(f"at {width}×{height}, median of {args.rounds} rounds")
    print(f"{'case':<22}{'footer':<16}{'ms per game':>12}{'rebuilds':>10}{'ratio':>8}")
    for case in cases:
        baseline = statistics.median(times[case, "Textual Footer"])
        for name in FOOTERS:
            median = statistics.median(times[case, name])
            print(f"{case:<22}{name:<16}{median * 1000:>12.0f}{counts[case, name]:>10.1f}"
                  f"{median / baseline:>8.2f}")


if __name__ == "__main__":
    main()
