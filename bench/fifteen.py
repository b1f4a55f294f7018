"""Benchmark for the 15-puzzle (issues 15 and 24), every table measured in one run.

1. Cold start: the first optimal hint on a fresh install (empty KAERU_CACHE_DIR: no database,
   no compiled code), each in a fresh process: before (BFIDA* over the 6-6-3 databases, which it
   must build first) and now (compiled IDA*, walking distance at once); then warm.
2. Korf's 100 (bench/data/korf100.txt) by heuristic tier, CPU seconds per instance, each answer
   checked optimal: walking distance alone (today's cold path, capped), the 7-7-1 middle tier,
   the 7-8 databases.
3. The seventeen 80-move positions, one fresh process each (the tables on disk, mapped): the
   middle tier and the 7-8 databases (length checked: 80); walking distance alone (today's cold
   path) on the first --wd-positions of them, capped at --cap CPU seconds.
4. Builds from scratch in a fresh process (--build): the 7-7-1 tier and the 7-8 databases, CPU,
   wall and peak memory, beside today's figures (issue 24: 534 s of CPU, 1.65 GB).
5. A process that uses the 7-8 databases: open them and answer an easy position, before (read
   and checksum the 577 MB each time) and now (mapped, checked once per file version).
6. Cancel: from the cancel to the search's end, walking distance and the middle tier.
(The 7-8 search over mapped tables, before and now, and the conversion of a version-3 cache:
bench/fifteen_mapping.py.)

Published anchors, printed beside ours (other machines, other languages): an additive 7-8
pattern database solver in C++ averages 15 s on the 80-move positions (worst 30 s); a Java
solver with 7-8 databases and symmetry reports a worst of 44 s; a plain 6-6-3 IDA* in C takes
12-68 s each (issue 24, run beside this one) and 150-390 s in other reports.

    python bench/fifteen.py --tables DIR         # DIR: a cache folder holding (or to hold)
                                                 # the databases; built there if missing
    python bench/fifteen.py --tables DIR --quick # 20 of Korf's 100, 3 of the 80-move positions
    python bench/fifteen.py --tiers              # section 2 with every tier (else 7-8 only)
    python bench/fifteen.py --build              # section 4 too (a minute or two)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"
sys.path.insert(0, str(ROOT))

ANCHORS = [
    ("C++, additive 7-8 PDB", "mean 15 s, worst 30 s"),
    ("Java, 7-8 PDB + symmetry", "worst 44 s"),
    ("C, plain 6-6-3 IDA* (issue 24, same machine)", "12-68 s each, + 16 s of tables"),
]
TODAY = {  # issue 24, measured before this change on this machine
    "build": "534 s of CPU, 1.65 GB",
    "build-levels-in-bytes": "about 50 s of CPU, 1,012 MB",  # issue 24's first round
    "build-block-order": "45 s of CPU, 759 MB",  # issue 24's second round (stored as built)
    "korf-wd": "74.6 s of search in all",
    "eighty-wd": "still at bound 76-78 after 120 s of CPU",
    "open": "0.29 s of CPU, up to 761 MB a process",
}


def korf100() -> list[tuple[int, int, tuple[int, ...]]]:
    rows = []
    for line in (DATA / "korf100.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            number, length, *tiles = (int(x) for x in line.split())
            state = tuple(16 - t if t else 0 for t in reversed(tiles))  # Korf's convention
            rows.append((number, length, state))
    return rows


def eighty() -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in line.split())
            for line in (DATA / "fifteen_80.txt").read_text().splitlines()
            if line and not line.startswith("#")]


def table(rows: list[list[str]], head: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(f"{c:>{w}}" for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def child(mode: str, payload: dict) -> dict:
    """Run this script in a fresh process in `mode`; its last output line is JSON."""
    env = dict(os.environ)
    if "cache" in payload:
        env["KAERU_CACHE_DIR"] = payload["cache"]
        env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, __file__, "--child", mode, json.dumps(payload)],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_child(mode: str, payload: dict) -> None:
    started = time.perf_counter()
    from kaeru.engine.puzzles.sliding import HEURISTICS, make_sliding
    from kaeru.engine.rules.control import Control
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida

    puzzle = make_sliding(4, 4)
    state = tuple(payload.get("state", puzzle.grid.goal))
    free = Control(budget=None)
    cpu = time.process_time()
    extra: dict = {}
    if mode == "hint-old":
        solution = puzzle.solve_with(HEURISTICS[0], state, state, free)
        length, stats = solution.length, solution.stats
    elif mode == "hint-new":
        solution = puzzle.own_solve(state, state, free)
        length, stats = solution.length, solution.stats
    elif mode == "build":  # a tier from scratch
        pdb78.pattern_set(payload["tier"], free)
        length, stats = 0, None
    elif mode in ("open-read", "open-mapped"):  # open the 7-8 databases, answer an easy one
        if mode == "open-read":
            from kaeru.engine.tables import files, store

            store.map_table = files.read_table  # type: ignore[attr-defined] - before: read all
        opened = time.process_time()
        pdb78.pattern_set(pdb78.FULL)
        extra["open_cpu"] = time.process_time() - opened
        found = ida.solve_pattern(state, free, pdb78.FULL)
        assert found is not None
        length, stats = len(found.states) - 1, found.stats
    else:  # a tier's search: "tier:<name>" (built if missing)
        found = ida.solve_pattern(state, free, mode.split(":", 1)[1])
        assert found is not None
        length, stats = len(found.states) - 1, found.stats
    out = {
        "length": length,
        "wall": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "nodes": stats.generated if stats is not None else 0,
        "peak": peak_resident(),
        "process_cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
    } | extra | resident()
    print(json.dumps(out))


def peak_resident() -> int:
    """This process's peak resident memory in bytes (VmHWM: ru_maxrss would keep the parent's
    peak across the exec of a child)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def resident() -> dict:
    """This process's resident memory now, in bytes: private (anonymous: its own) and
    file-backed (mapped tables and libraries: shared with every process mapping them)."""
    out = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("RssAnon", "RssFile"):
                out[name] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


# ---- 1. cold start -------------------------------------------------------------------------------
def section_cold(quick: bool) -> str:
    cases = [("Korf #1", korf100()[0][2]), ("Korf #60", korf100()[59][2])]
    rows = []
    for name, state in cases[:1] if quick else cases:
        times = {}
        for mode in ("hint-old", "hint-new"):
            with tempfile.TemporaryDirectory() as folder:
                cold = child(mode, {"cache": folder, "state": state})
                again = mode == "hint-new"
                warm = child(mode, {"cache": folder, "state": state}) if again else {}
            times[mode] = (cold, warm)
        old, new, warm = times["hint-old"][0], times["hint-new"][0], times["hint-new"][1]
        def both(got: dict) -> str:
            return f"{got.get('wall', 0):.1f} s / {got.get('process_cpu', 0):.1f} s"

        rows.append([name, str(new.get("length")), both(old), both(new), both(warm),
                     f"{old.get('wall', 0) / max(new.get('wall', 1e-9), 1e-9):.0f}x"])
    head = ["position", "moves", "before: 6-6-3 build + BFIDA*", "now, cold: WD IDA*",
            "now, warm", "speed-up (wall)"]
    return ("1. First optimal hint on a fresh install: whole process (wall / CPU), empty cache "
            "folder (target < 5 s)\n" + table(rows, head))


# ---- 2. Korf's 100 -------------------------------------------------------------------------------
def capped_walking(state: tuple[int, ...], cap: float) -> tuple[float, int | None, int]:
    """(CPU seconds, length or None when capped, nodes) of walking distance alone."""
    from kaeru.engine.rules.control import Control
    from kaeru.engine.rules.results import Cancelled
    from kaeru.engine.sliding.optimal import ida

    cpu = time.process_time()
    over = lambda: time.process_time() - cpu > cap  # noqa: E731
    try:
        walked = ida.solve_walking(4, state, Control(budget=None, cancelled=over))
    except Cancelled:
        return cap, None, 0
    assert walked is not None
    return time.process_time() - cpu, len(walked.states) - 1, walked.stats.generated


def section_korf(quick: bool, cap: float, tiers: bool) -> str:
    from kaeru.engine.rules.control import Control
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida

    instances = korf100()[:20] if quick else korf100()
    rows = []
    chosen = [pdb78.MIDDLE, pdb78.FULL] if tiers else [pdb78.FULL]
    for tier in chosen:
        pdb78.pattern_set(tier)
        times, nodes, worst = [], [], (0.0, 0)
        for number, length, state in instances:
            cpu = time.process_time()
            found = ida.solve_pattern(state, Control(budget=None), tier)
            seconds = time.process_time() - cpu
            assert found is not None and len(found.states) - 1 == length, f"#{number}"
            times.append(seconds)
            nodes.append(found.stats.generated)
            worst = max(worst, (seconds, number))
        rows.append([f"IDA*, max(WD+ID, {tier} PDB + mirror)", str(len(instances)),
                     f"{sum(times):.1f} s", f"{statistics.mean(times):.3f} s",
                     f"{statistics.median(times):.3f} s", f"{worst[0]:.2f} s (#{worst[1]})",
                     f"{statistics.mean(nodes):,.0f}"])
    if tiers:
        times, capped = [], 0
        for _number, length, state in instances:
            seconds, got, _ = capped_walking(state, cap)
            capped += got is None
            assert got in (None, length)
            times.append(seconds)
        rows.append(["today's cold path: walking + inversion distance", str(len(instances)),
                     f"{sum(times):.1f} s" + (f" ({capped} hit the {cap:.0f} s cap)"
                                               if capped else ""),
                     f"{statistics.mean(times):.3f} s", f"{statistics.median(times):.3f} s",
                     f"{max(times):.2f} s", ""])
    rows.append(["today, issue 24: walking distance (all 100)", "100", TODAY["korf-wd"], "", "",
                 "", ""])
    head = ["solver", "instances", "CPU in all", "mean", "median", "max", "mean nodes"]
    return ("2. Korf's 100, every one optimal (CPU seconds, databases loaded)\n"
            + table(rows, head))


# ---- 3. the 80-move positions --------------------------------------------------------------------
def section_eighty(quick: bool, tables: str, wd_positions: int, cap: float) -> str:
    from kaeru.engine.sliding.databases import pdb78

    rows = []
    positions = eighty()[:3] if quick else eighty()
    times: dict[str, list[float]] = {pdb78.MIDDLE: [], pdb78.FULL: []}
    for number, state in enumerate(positions, 1):
        row = [str(number)]
        for tier in (pdb78.MIDDLE, pdb78.FULL):
            got = child(f"tier:{tier}", {"cache": tables, "state": list(state)})
            if "error" in got:
                row += [got["error"][:40], "", ""]
                continue
            assert got["length"] == 80
            times[tier].append(got["cpu"])
            row += [f"{got['cpu']:.1f} s", f"{got['nodes']:,}", f"{got['peak'] / 2**20:.0f} MB"]
        if number <= wd_positions:
            seconds, length, _ = capped_walking(state, cap)
            row.append(f"{seconds:.0f} s" if length else f"> {cap:.0f} s (capped)")
        else:
            row.append("")
        rows.append(row)
    head = ["#", "7-7-1: CPU", "nodes", "peak", "7-8: CPU", "nodes", "peak",
            "today: walking distance"]
    lines = []
    for tier, got in times.items():
        if got:
            lines.append(f"{tier}: mean {statistics.mean(got):.1f} s, worst {max(got):.1f} s "
                         f"(target for the middle tier: each <= 60 s)")
    lines.append(f"today (issue 24), walking distance alone: {TODAY['eighty-wd']}")
    anchors = "\n".join(f"  published: {who}: {what}" for who, what in ANCHORS)
    return ("3. The seventeen 80-move positions, one fresh process each (CPU of the search; "
            "tables on disk)\n" + table(rows, head) + "\n" + "\n".join(lines) + "\n" + anchors)


# ---- 4. the builds -------------------------------------------------------------------------------
def section_build() -> str:
    from kaeru.engine.sliding.databases import pdb78

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for tier in (pdb78.MIDDLE, pdb78.FULL):  # the 7-8 one reuses the shared group of 7
            got = child("build", {"cache": folder, "tier": tier})
            if "error" in got:
                rows.append([tier, got["error"][:60], "", ""])
                continue
            rows.append([tier, f"{got['wall']:.0f} s", f"{got['process_cpu']:.0f} s",
                         f"{got['peak'] / 2**20:.0f} MB"])
    rows.append(["7-8, today (issue 24)", "", TODAY["build"], ""])
    rows.append(["7-8, levels a byte a placement (issue 24, first round)", "",
                 TODAY["build-levels-in-bytes"], ""])
    rows.append(["7-8, stored in block order (issue 24, second round)", "",
                 TODAY["build-block-order"], ""])
    return ("4. Databases from scratch, a fresh process each (CPU includes the process's start "
            "and compiling)\n" + table(rows, ["tier", "wall", "CPU", "peak memory"]))


# ---- 5. opening the databases --------------------------------------------------------------------
def section_open(tables: str) -> str:
    easy = korf100()[11][2]  # Korf #12: 45 moves, a few milliseconds
    rows = []
    for mode, label in (("open-read", "before: read + checksum"), ("open-mapped", "now: mapped")):
        got = child(mode, {"cache": tables, "state": list(easy)})
        if "error" in got:
            rows.append([label, got["error"][:60], "", ""])
            continue
        rows.append([label, f"{got['open_cpu']:.3f} s", f"{got['process_cpu']:.2f} s",
                     f"{got['peak'] / 2**20:.0f} MB", f"{got.get('RssAnon', 0) / 2**20:.0f} MB",
                     f"{got.get('RssFile', 0) / 2**20:.0f} MB"])
    rows.append(["today (issue 24)", TODAY["open"], "", "", "", ""])
    return ("5. A process that uses the 7-8 databases: open them, answer Korf #12 (private: its "
            "own memory; file-backed: mapped pages and libraries, one copy in the page cache "
            "for every process)\n"
            + table(rows, ["", "open: CPU", "process CPU", "peak RSS", "private at end",
                           "file-backed at end"]))


# ---- 6. cancel -----------------------------------------------------------------------------------
def section_cancel() -> str:
    import threading

    from kaeru.engine.rules.control import Control
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida

    hard = eighty()[2]
    easy = korf100()[11][2]
    rows = []
    for tier in (None, pdb78.MIDDLE):
        if tier is None:  # compiled first: a kernel still compiling (first use) cannot stop
            ida.solve_walking(4, easy, Control(budget=None))
        else:
            ida.solve_pattern(easy, Control(budget=None), tier)
        waits = []
        for _ in range(5):
            asked = threading.Event()
            stopped: list[float] = []

            def run(tier: str | None = tier, asked: threading.Event = asked,
                    stopped: list[float] = stopped) -> None:
                control = Control(cancelled=asked.is_set, budget=None)
                try:
                    if tier is None:
                        ida.solve_walking(4, hard, control)
                    else:
                        ida.solve_pattern(hard, control, tier)
                except Exception:  # Cancelled, as expected
                    stopped.append(time.perf_counter())

            worker = threading.Thread(target=run, daemon=True)
            worker.start()
            time.sleep(0.5)
            asked_at = time.perf_counter()
            asked.set()
            worker.join(10)
            waits.append((stopped[0] - asked_at) * 1000 if stopped else float("inf"))
        rows.append([tier or "walking distance", f"{statistics.median(waits):.0f} ms",
                     f"{max(waits):.0f} ms"])
    return ("6. Cancel: from the cancel to the end of the search (5 tries, target <= 100 ms)\n"
            + table(rows, ["search", "median", "max"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", help="cache folder for the databases (default: yours)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tiers", action="store_true",
                        help="Korf's 100 with every tier and today's walking distance")
    parser.add_argument("--build", action="store_true", help="also time builds from scratch")
    parser.add_argument("--cap", type=float, default=30.0,
                        help="CPU seconds allowed to walking distance alone per instance")
    parser.add_argument("--wd-positions", type=int, default=2,
                        help="80-move positions also tried with walking distance alone")
    parser.add_argument("--only", nargs="+", choices=("eighty", "build", "open", "cancel"),
                        help="only these sections")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child[0], json.loads(args.child[1]))
        return 0
    if args.tables:
        os.environ["KAERU_CACHE_DIR"] = args.tables
    from kaeru.engine.tables.folder import cache_dir

    tables = str(cache_dir())
    if args.only:
        chosen = {"eighty": lambda: section_eighty(args.quick, tables, args.wd_positions, args.cap),
                  "build": section_build, "open": lambda: section_open(tables),
                  "cancel": section_cancel}
        for name in args.only:
            print(chosen[name]() + "\n", flush=True)
        return 0
    sections = [lambda: section_cold(args.quick),
                lambda: section_korf(args.quick, args.cap, args.tiers),
                lambda: section_eighty(args.quick, tables, args.wd_positions, args.cap),
                lambda: section_open(tables), section_cancel]
    if args.build:
        sections.append(section_build)
    for section in sections:
        print(section() + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
