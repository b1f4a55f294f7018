"""The home screen's catalogue survey on a cold cache: does it hold up the keys, and what does
it leave in the app's process? (Issue 23: the survey is a SURVEY job of the search service.)

Each row is one fresh app process (the real KaeruApp under `App.run_test()`, a cold cache
folder of its own, the longer survey steps started after 0.5 s instead of 4 s) that presses
down/up on the home list every 100 ms for `--seconds` while the survey runs, and records how
long each key takes from its arrival (`App.simulate_key`) to the list's highlight moving, and
how late a 20 ms timer of the app's event loop runs. Then the app's own process: CPU seconds,
peak and final RSS; and how many presets the survey settled meanwhile.

- "thread": the search service in threads of the app's process: the survey's engine work runs
  in the app's process, as the old thread workers ran it (the baseline);
- "process": the search service's worker process, as the app runs by default.

    python bench/survey_keys.py [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def measure(seconds: float) -> dict[str, float]:
    from textual.widgets import OptionList

    from kaeru.screens.home import survey as home_survey
    from kaeru.tui.app import KaeruApp

    home_survey.SURVEY_DELAY = 0.5
    app = KaeruApp(None, resume=False)
    presses: list[float] = []
    late: list[float] = []
    async with app.run_test(size=(100, 30)):
        loop = asyncio.get_running_loop()
        stop = loop.time() + seconds

        async def ticker() -> None:
            while loop.time() < stop:
                asked = loop.time()
                await asyncio.sleep(0.02)
                late.append((loop.time() - asked - 0.02) * 1000)

        tick = asyncio.create_task(ticker())
        listing = app.screen.query_one("#puzzles", OptionList)
        keys = ["down", "up"]
        while loop.time() < stop:
            before = listing.highlighted
            began = time.perf_counter()
            app.simulate_key(keys[len(presses) % 2])  # as a terminal's key arrives
            while listing.highlighted == before and time.perf_counter() - began < 10:
                await asyncio.sleep(0.001)
            presses.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(0.1)
        await tick
        home = app.screen
        settled = sum(1 for f in getattr(home, "facts", {}).values() if f.settled)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    quantiles = statistics.quantiles(presses, n=10)
    late_q = statistics.quantiles(late, n=10)
    return {
        "presses": len(presses),
        "press_p50": statistics.median(presses),
        "press_p90": quantiles[-1],
        "press_max": max(presses),
        "timer_late_p50": statistics.median(late),
        "timer_late_p90": late_q[-1],
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "rss_mb": rss_mb(),
        "settled": settled,
    }


def run_mode(mode: str, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="kaeru-survey-bench-") as folder:
        env = dict(os.environ, KAERU_SEARCH_MODE=mode, KAERU_CACHE_DIR=f"{folder}/cache",
                   KAERU_DATA_DIR=f"{folder}/data", COLORTERM="truecolor")
        done = subprocess.run(
            [sys.executable, __file__, "--child", str(seconds)], env=env,
            capture_output=True, text=True,
        )
    if done.returncode != 0:
        raise SystemExit(f"the {mode} run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--child", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(asyncio.run(measure(args.child))))
        return
    rows = {mode: run_mode(mode, args.seconds) for mode in ("thread", "process")}
    names = list(rows["thread"])
    print(f"cold-cache survey, {args.seconds:.0f} s of keys on home (app process figures)")
    print(f"{'':<16}{'thread (old)':>14}{'process (new)':>15}{'new/old':>9}")
    for name in names:
        old, new = rows["thread"][name], rows["process"][name]
        ratio = f"{new / old:.2f}" if old else "-"
        print(f"{name:<16}{old:>14.1f}{new:>15.1f}{ratio:>9}")


if __name__ == "__main__":
    main()
