"""Benchmark: the 15-puzzle's 7-8 search over its tables mapped from the cache folder, against
an in-memory copy (issue 24: the search ran about 2x slower once the tables were mapped, then
1.6x once they were mapped in huge pages, from the build's block order).

Korf's 100 (twice: the first pass reads the pages from disk) and the seventeen 80-move
positions, in one process per way of holding the tables, all in one run:

- before: the engine at --before REV (default 8c186b9: tables in the build's block order, where
  every move lands 40 kB away), unpacked by `git archive` and run from there, mapped with huge
  pages advised, over the version-3 tables of --before-tables (convert a copy of them with this
  engine to fill --tables);
- now: tables in tile order (`engine.sliding.databases.pdb_order`), mapped with huge pages
  advised (`engine.tables.files.advise_lookups`), shared by every process;
- an in-memory copy of today's tables (numpy advises huge pages for it).

Each process first drops the tables' pages from the page cache, so the ways do not inherit each
other's pages: they must be mapped by no other process (use --tables folders of your own).
Each row says how much of the mapping was mapped in 2 MB pages.

    python bench/fifteen_mapping.py --tables DIR --before-tables DIR3   # the 7-8 databases
    python bench/fifteen_mapping.py --tables DIR --quick                # Korf's 100 only
    python bench/fifteen_mapping.py --convert DIR3   # converting them, as a player's cache does
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import fifteen
from fifteen import eighty, korf100, table

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "8c186b9"  # the last commit with the tables in block order (version 3)


def child(payload: dict, code: Path | None = None) -> dict:
    """Run this script's `search_set(payload)` in a fresh process (from the unpacked engine
    `code` when given, else this checkout); its last line is JSON."""
    env = dict(os.environ, KAERU_CACHE_DIR=payload["cache"])
    env.pop("NUMBA_CACHE_DIR", None)
    script = Path(__file__) if code is None else code / "bench" / Path(__file__).name
    if code is not None:
        env["PYTHONPATH"] = str(code)
    done = subprocess.run([sys.executable, str(script), "--child", json.dumps(payload)],
                          capture_output=True, text=True, env=env, check=False,
                          cwd=None if code is None else code)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


HOLDINGS = (("before", "before: block order, mapped (huge pages)"),
            ("new", "now: tile order, mapped (huge pages)"),
            ("copy", "now: tile order, in-memory copy"))


def unpack(rev: str) -> Path | None:
    """The engine at `rev`, unpacked by `git archive` into a temporary folder (None: failed)."""
    folder = Path(tempfile.mkdtemp(prefix="kaeru-before-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                             check=False)
    if archive.returncode == 0:
        unpacked = subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout,
                                  check=False)
        if unpacked.returncode == 0:
            return folder
    shutil.rmtree(folder, ignore_errors=True)
    return None


def drop_cached_pages(folder: Path) -> None:
    """Drop the 7-8 tables' pages from the page cache (only pages no process maps go)."""
    for path in folder.glob("sliding-4x4.pdb-*.table"):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def mapped_in_huge_pages() -> tuple[int, int]:
    """(resident kB, kB mapped in 2 MB pages) of this process's mappings of table files."""
    rss = huge = 0
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5:
            inside = line.endswith(".table")
        elif inside and head[0] == "Rss:":
            rss += int(head[1])
        elif inside and head[0] == "FilePmdMapped:":
            huge += int(head[1])
    return rss, huge


def search_set(payload: dict) -> dict:
    """Search Korf's 100 or the 80-move positions with the 7-8 tables held one way."""

    import numpy as np

    from kaeru.engine.rules.control import Control
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida

    drop_cached_pages(Path(payload["cache"]))
    patterns = pdb78.pattern_set(pdb78.FULL)
    if payload["holding"] == "copy":
        copies = []
        for mapped in patterns.tables:
            copy = np.array(mapped)  # numpy advises huge pages for a large array of its own
            copy.flags.writeable = False
            copies.append(copy)
        pdb78._loaded[pdb78.FULL] = pdb78.make_set(pdb78.GROUPS, tuple(copies))
    free = Control(budget=None)
    ida.solve_pattern(korf100()[11][2], free, pdb78.FULL)  # the kernel loaded: not timed
    if payload["set"] == "korf":
        cases = [(length, state) for _, length, state in korf100()]
    else:
        cases = [(80, state) for state in eighty()]
    out: dict = {}
    for sweep in range(payload.get("passes", 1)):  # the first reads the pages from disk
        times, nodes = [], 0
        for length, state in cases:
            cpu = time.process_time()
            found = ida.solve_pattern(state, free, pdb78.FULL)
            times.append(time.process_time() - cpu)
            assert found is not None and len(found.states) - 1 == length
            nodes += found.stats.generated
        out[str(sweep)] = {"search_cpu": sum(times), "worst": max(times),
                           "mean": statistics.mean(times), "search_nodes": nodes}
    rss, huge = mapped_in_huge_pages()
    return {"passes": out, "mapped_kb": rss, "huge_kb": huge}


def section_mapping(tables: str, quick: bool, before: Path | None, before_tables: str | None,
                    rev: str) -> str:
    rows = []
    sets = (("korf", 2, ("Korf's 100, pages read from disk", "Korf's 100 again, pages in memory")),
            ("eighty", 1, ("the 80-move positions",)))
    for which, passes, labels in sets[:1] if quick else sets:
        got = {}
        for holding, _ in HOLDINGS:
            payload = {"cache": tables, "holding": holding, "set": which, "passes": passes}
            if holding != "before":
                got[holding] = child(payload)
            elif before is None or before_tables is None:
                got[holding] = {"error": f"not run: no {rev} or no --before-tables"}
            else:
                got[holding] = child(payload | {"cache": before_tables, "holding": "new"}, before)
        for sweep, label in enumerate(labels):
            base = got["copy"].get("passes", {}).get(str(sweep), {}).get("search_cpu")
            for holding, name in HOLDINGS:
                run = got[holding]
                if "error" in run:
                    rows.append([label, name, run["error"][:60], "", "", "", "", ""])
                    continue
                figures = run["passes"][str(sweep)]
                share = f"{run['huge_kb'] / run['mapped_kb']:.0%}" if run["mapped_kb"] else "-"
                ratio = f"{figures['search_cpu'] / base:.2f}x" if base else ""
                rows.append([label, name, f"{figures['search_cpu']:.2f} s",
                             f"{figures['mean']:.3f} s", f"{figures['worst']:.2f} s",
                             f"{figures['search_nodes']:,}", share, ratio])
    return (f"The 7-8 search, before ({rev}) and now, tables mapped vs an in-memory copy (one "
            "process per way, the tables' pages dropped from the page cache first; CPU of the "
            "searches, the reads from disk included)\n"
            + table(rows, ["set", "tables", "search CPU", "mean", "worst", "nodes",
                           "mapped in 2 MB", "vs copy"]))


def section_convert(before_tables: str) -> str:
    """The 7-8 tier had from version-3 tables (block order), converted into tile order as on a
    player's first use, in a fresh process: CPU, wall and peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        for path in Path(before_tables).glob("sliding-4x4.pdb-*.v3.table*"):
            try:  # a link keeps the file's version: its checked stamp holds, as at home
                os.link(path, Path(folder) / path.name)
            except OSError:
                shutil.copyfile(path, Path(folder) / path.name)
        got = fifteen.child("build", {"cache": folder, "tier": "7-8"})
    row = ([got["error"][:60], "", ""] if "error" in got else
           [f"{got['wall']:.0f} s", f"{got['process_cpu']:.0f} s",
            f"{got['peak'] / 2**20:.0f} MiB"])
    return ("Converting version-3 tables on first use (a fresh process; CPU includes its start "
            "and compiling; the peak counts the earlier file's pages, mapped)\n"
            + table([["7-8, from block order", *row]], ["tier", "wall", "CPU", "peak memory"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", help="cache folder holding the 7-8 databases")
    parser.add_argument("--quick", action="store_true", help="Korf's 100 only")
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--before-tables", help="cache folder of its (version 3) databases")
    parser.add_argument("--convert", metavar="DIR3", help="time converting these (version 3)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(search_set(json.loads(args.child))))
        return 0
    if args.convert:
        print(section_convert(args.convert), flush=True)
        return 0
    if args.tables:
        os.environ["KAERU_CACHE_DIR"] = args.tables
    from kaeru.engine.tables.folder import cache_dir

    before = unpack(args.before) if args.before_tables else None
    try:
        print(section_mapping(str(cache_dir()), args.quick, before, args.before_tables,
                              args.before), flush=True)
    finally:
        if before is not None:
            shutil.rmtree(before, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
