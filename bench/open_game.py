"""Benchmark: opening a game, with Textual's own footer (the baseline) and with `KeysFooter`.

Textual's footer rebuilds its keys on every bindings refresh; `tui.widgets.keys_footer` rebuilds
at most once a frame and only when the keys change. Each round goes from home into every game
on the home screen and back, in one headless app, once with each footer, in the same run, in
alternating order. Printed: milliseconds per game (opened and left; the median of the rounds),
footer rebuilds per game, and the ratio to the baseline.

    python bench/open_game.py                  # 80×24, 3 rounds (about a minute and a half)
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

from textual.widgets import Footer  # noqa: E402

import kaeru.screens.play as play_module  # noqa: E402
from kaeru.engine.registry import families  # noqa: E402
from kaeru.engine.session import Session  # noqa: E402
from kaeru.screens.play import PlayScreen  # noqa: E402
from kaeru.tui.app import KaeruApp  # noqa: E402
from kaeru.tui.widgets.keys_footer import KeysFooter  # noqa: E402

FOOTERS: dict[str, type[Footer]] = {"Textual Footer": Footer, "KeysFooter": KeysFooter}
rebuilds = 0


def counting_recompose() -> None:
    """Count every footer rebuild, whichever footer."""
    original = Footer.recompose

    async def recompose(self: Footer) -> None:
        global rebuilds
        rebuilds += 1
        await original(self)

    Footer.recompose = recompose  # type: ignore[method-assign]


async def open_every_game(footer: type[Footer], size: tuple[int, int]) -> tuple[float, float]:
    """(seconds per game, footer rebuilds per game) opening every id in one app."""
    global rebuilds
    play_module.KeysFooter = footer  # type: ignore[attr-defined, misc]
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
    times: dict[str, list[float]] = {name: [] for name in FOOTERS}
    counts: dict[str, float] = {}
    for round_ in range(args.rounds):
        order = list(FOOTERS.items())
        for name, footer in order if round_ % 2 == 0 else reversed(order):
            seconds, per_game = asyncio.run(open_every_game(footer, (width, height)))
            times[name].append(seconds)
            counts[name] = per_game
    baseline = statistics.median(times["Textual Footer"])
    print(f"opening every game at {width}×{height}, median of {args.rounds} rounds")
    print(f"{'footer':<16}{'ms per game':>12}{'rebuilds':>10}{'ratio':>8}")
    for name in FOOTERS:
        median = statistics.median(times[name])
        print(f"{name:<16}{median * 1000:>12.0f}{counts[name]:>10.1f}{median / baseline:>8.2f}")


if __name__ == "__main__":
    main()
