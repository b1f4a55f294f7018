"""How much a running search delays the UI, with searches in threads or in a worker process.

A stand-in for key echo: an asyncio task asks to run every 20 ms and records how late it runs;
and a tiny real Textual app under `App.run_test()` gets a key every 50 ms and records press to
handler. Both while 0, 1 or 3 pure-Python searches run (each loops: when one ends the next
starts) in thread mode, in process mode with one worker (3 jobs share it, as one player's
searches do), and with 3 services of one worker each (as 3 players of a shared arcade).
Also the fixed costs of process mode: the worker's start, and the first search in a fresh
worker (tables cold: read from the disk cache) against the second (tables warm).

    python bench/search_latency.py [--seconds 2] [--rounds 6] [--no-textual]

Run it without `nice`, as the UI runs: the worker processes lower their own priority by 10
(the service's default); search threads keep the app's (the default) or are niced where a row
says so. The machine's other load makes single rounds noisy: rounds interleave the scenarios,
and the table gives the pooled figures and each scenario's best round.

The load is a hint on `sliding-4x4` from a 57-move position (BFIDA* over pattern databases:
pure Python once the tables are loaded, ~1.5 s); its tables are built into the cache folder
first if missing (a one-off minute). The trivial job is a dead-end check on `frogs-3`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import threading
import time
from collections.abc import Callable

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service import Job, JobKind, JobRequest, JobResult, SearchService
from kaeru.engine.service.process_runner import ProcessRunner

TABLE_ID = "sliding-4x4"
TABLE_START = "12 13 8 14/7 1 9 4/10 5 11 3/6 15 _ 2"  # 57 moves, ~1.5 s of IDA* once warm
TRIVIAL_ID = "frogs-3"


def load_request() -> JobRequest:
    return JobRequest(JobKind.SOLVE, TABLE_ID, TABLE_START, TABLE_START, tag="load")


def table_request() -> JobRequest:
    return JobRequest(JobKind.SOLVE, TABLE_ID, TABLE_START, TABLE_START, tag="hint")


def trivial_request() -> JobRequest:
    puzzle = get_puzzle(TRIVIAL_ID)
    start = puzzle.format(puzzle.initial())
    return JobRequest(JobKind.DEAD_END, TRIVIAL_ID, start, start)


class Load:
    """Keeps one search running per (service, slot): when one ends, the next starts."""

    def __init__(self, slots: list[SearchService]) -> None:
        self.slots = slots
        self.stopping = False
        self.finished = 0
        self.lock = threading.Lock()

    def _submit(self, service: SearchService) -> None:
        def again(job: Job, result: JobResult) -> None:
            if self.stopping:
                return
            with self.lock:
                self.finished += 1
            self._submit(service)

        service.submit(load_request(), on_done=again)

    def start(self) -> None:
        for service in self.slots:
            self._submit(service)

    def stop(self) -> None:
        self.stopping = True
        for service in set(self.slots):
            service.cancel_all("load")


async def timer_lateness(seconds: float, period: float = 0.020) -> list[float]:
    """How late (s) a task that wants to run every `period` actually runs."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    end = loop.time() + seconds
    due = loop.time() + period
    while due < end:
        await asyncio.sleep(max(0.0, due - loop.time()))
        now = loop.time()
        late.append(now - due)
        due = now + period
    return late


async def key_latency(seconds: float, period: float = 0.050) -> list[float]:
    """Key → handler (s) in a tiny Textual app under run_test, a key every `period`.

    Keys come from a thread of their own, as a terminal driver's input thread sends them
    (`driver.process_message`); a key counts from when it is due, so the latency includes
    waking that thread (it needs the GIL) and the event loop.
    Pilot.press is not used: it also waits for the process to look idle, which it never does
    while a search thread runs in it."""
    from textual import events
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    handled: list[float] = []

    class Echo(App[None]):
        BINDINGS = [("k", "echo", "echo")]

        def compose(self) -> ComposeResult:
            yield Static("0", id="echo")

        def action_echo(self) -> None:
            handled.append(time.perf_counter())
            self.query_one("#echo", Static).update(str(len(handled)))

    pressed: list[float] = []
    async with Echo().run_test() as pilot:
        await pilot.pause()
        driver = pilot.app._driver
        assert driver is not None

        def typist() -> None:
            due = time.perf_counter()
            end = due + seconds
            while due < end:
                time.sleep(max(0.0, due - time.perf_counter()))
                pressed.append(due)  # the key "arrives" now: waking this thread counts too
                driver.process_message(events.Key("k", "k"))
                due = max(due + period, time.perf_counter())

        thread = threading.Thread(target=typist, name="typist")
        thread.start()
        give_up = time.perf_counter() + seconds + 30
        while (thread.is_alive() or len(handled) < len(pressed)) and time.perf_counter() < give_up:
            await asyncio.sleep(0.01)
        thread.join()
    return [done - press for press, done in zip(pressed, handled, strict=False)]


def figures(samples: list[float]) -> tuple[float, float, float]:
    ms = sorted(s * 1000 for s in samples)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return statistics.median(ms), p90, ms[-1]


def scenario(
    label: str, slots: Callable[[], list[SearchService]], seconds: float, textual: bool
) -> tuple[str, list[float], list[float] | None, float]:
    services = slots()
    for service in set(services):  # start the workers (and their imports) before measuring
        if service.mode == "process":
            service.submit(trivial_request()).wait()
    load = Load(services)
    load.start()
    time.sleep(0.3)
    started = time.perf_counter()
    timer = asyncio.run(timer_lateness(seconds))
    keys = asyncio.run(key_latency(seconds)) if textual else None
    rate = load.finished / (time.perf_counter() - started)
    load.stop()
    for service in set(services):
        service.shutdown()
    return label, timer, keys, rate


def timed_wait(service: SearchService, request: JobRequest) -> tuple[float, str]:
    started = time.perf_counter()
    result = service.submit(request).wait()
    assert result is not None
    return time.perf_counter() - started, result.outcome


def fixed_costs() -> list[tuple[str, float, str]]:
    """(what, seconds, outcome) for starting a worker and for cold and warm tables."""
    rows: list[tuple[str, float, str]] = []

    def row(label: str, service: SearchService, request: JobRequest) -> None:
        rows.append((label, *timed_wait(service, request)))

    # the pattern databases on disk first (a one-off build when the cache folder is empty)
    with SearchService("process") as service:
        row("setup: sliding-4x4 tables on disk (fresh worker)", service, table_request())
    with SearchService("thread") as service:
        row("thread: solve, tables cold (read from disk)", service, table_request())
        row("thread: same solve again, tables warm", service, table_request())
    with SearchService("process") as service:
        row("process: start worker + a trivial job", service, trivial_request())
        runner = service.runner
        handle = runner.handle if isinstance(runner, ProcessRunner) else None
        if handle is not None and handle.startup_seconds is not None:
            rows.append(("process: of which spawn to worker ready", handle.startup_seconds, ""))
        row("process: trivial job, warm worker", service, trivial_request())
        row("process: solve, tables cold (warm worker)", service, table_request())
        row("process: same solve again, tables warm", service, table_request())
    with SearchService("process") as service:
        row("process: solve in a fresh worker (start + cold)", service, table_request())
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per scenario and probe")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds")
    parser.add_argument("--no-textual", action="store_true", help="skip the Textual key probe")
    args = parser.parse_args()

    print("Fixed costs (seconds)")
    for label, seconds, outcome in fixed_costs():
        print(f"  {label:<50} {seconds:8.3f}  {outcome}")

    scenarios: list[tuple[str, Callable[[], list[SearchService]]]] = [
        ("no search", lambda: []),
        ("thread, 1 search", lambda: [SearchService("thread")]),
        ("thread, 1 search at nice +10", lambda: [SearchService("thread", niceness=10)]),
        ("thread, 3 searches", lambda: [SearchService("thread")] * 3),
        ("process, 1 search", lambda: [SearchService("process")]),
        ("process, 3 searches, 1 worker", lambda: [SearchService("process")] * 3),
        ("process, 3 searches, 3 workers", lambda: [SearchService("process") for _ in range(3)]),
    ]
    # rounds interleave the scenarios, so drift in the machine's other load spreads evenly
    timers: dict[str, list[float]] = {label: [] for label, _ in scenarios}
    keys: dict[str, list[float]] = {label: [] for label, _ in scenarios}
    best_timer: dict[str, float] = {label: float("inf") for label, _ in scenarios}
    best_key: dict[str, float] = {label: float("inf") for label, _ in scenarios}
    rates: dict[str, list[float]] = {label: [] for label, _ in scenarios}
    load_before = os.getloadavg()[0]
    for _ in range(args.rounds):
        for label, make in scenarios:
            _, timer, key, rate = scenario(label, make, args.seconds, not args.no_textual)
            timers[label] += timer
            best_timer[label] = min(best_timer[label], figures(timer)[0])
            if key:
                keys[label] += key
                best_key[label] = min(best_key[label], figures(key)[0])
            rates[label].append(rate)
    print(
        f"\nLatency, ms, while searches run (load: solve {TABLE_ID}, 57 moves, in a loop; "
        f"{args.rounds} rounds x {args.seconds:g} s per probe; load average "
        f"{load_before:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print("  timer: an asyncio task due every 20 ms, how late it runs; key: Textual key → handler")
    header = f"  {'scenario':<30} {'timer p50':>9} {'p90':>6} {'max':>6} {'best':>5}"
    if not args.no_textual:
        header += f"  {'key p50':>7} {'p90':>6} {'max':>6} {'best':>5}"
    print(header + f"  {'solves/s':>8}")
    for label, _ in scenarios:
        p50, p90, peak = figures(timers[label])
        line = f"  {label:<30} {p50:9.2f} {p90:6.1f} {peak:6.0f} {best_timer[label]:5.2f}"
        if not args.no_textual:
            k50, k90, kmax = figures(keys[label])
            line += f"  {k50:7.2f} {k90:6.1f} {kmax:6.0f} {best_key[label]:5.2f}"
        print(line + f"  {statistics.mean(rates[label]):8.2f}")
    print("  best: the lowest p50 of any one round")


if __name__ == "__main__":
    main()
