"""Benchmark: the 15-puzzle's 7-8 search over its tables mapped from the cache folder, against
an in-memory copy (issue 24: the search ran about 2x slower once the tables were mapped).

Korf's 100 (twice: the first pass reads the pages from disk) and the seventeen 80-move
positions, in one process per way of holding the tables, all in one run:

- mapped as before: random access advised, so every page came in alone, 4 kB at a time, and
  each lookup over 577 MB missed the TLB;
- mapped now: huge pages advised too (`engine.tables.files.advise_lookups`): the page cache
  reads 2 MB folios and maps them whole, still shared by every process;
- an in-memory copy of the same tables (the baseline; numpy advises huge pages for it).

Each process first drops the tables' pages from the page cache, so the ways do not inherit each
other's pages: they must be mapped by no other process (use a --tables folder of your own).
Each row says how much of the mapping was mapped in 2 MB pages.

    python bench/fifteen_mapping.py --tables DIR            # DIR holds the 7-8 databases
    python bench/fifteen_mapping.py --tables DIR --quick    # Korf's 100 only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from fifteen import eighty, korf100, table


def child(payload: dict) -> dict:
    """Run this script's `search_set(payload)` in a fresh process; its last line is JSON."""
    env = dict(os.environ, KAERU_CACHE_DIR=payload["cache"])
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, __file__, "--child", json.dumps(payload)],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


HOLDINGS = (("old", "mapped, as before (4 kB pages)"), ("new", "mapped, now (huge pages advised)"),
            ("copy", "in-memory copy (baseline)"))


def drop_cached_pages(folder: Path) -> None:
    """Drop the 7-8 tables' pages from the page cache (only pages no process maps go)."""
    for path in folder.glob("sliding-4x4.pdb-*.v3.table"):
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
    import mmap

    import numpy as np

    from kaeru.engine.rules.control import Control
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida
    from kaeru.engine.tables import files

    drop_cached_pages(Path(payload["cache"]))
    if payload["holding"] == "old":
        files.advise_lookups = lambda mapped: mapped.madvise(mmap.MADV_RANDOM)  # type: ignore[assignment]
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


def section_mapping(tables: str, quick: bool) -> str:
    rows = []
    sets = (("korf", 2, ("Korf's 100, pages read from disk", "Korf's 100 again, pages in memory")),
            ("eighty", 1, ("the 80-move positions",)))
    for which, passes, labels in sets[:1] if quick else sets:
        got = {holding: child({"cache": tables, "holding": holding, "set": which,
                               "passes": passes}) for holding, _ in HOLDINGS}
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
    return ("The 7-8 search, tables mapped vs an in-memory copy (one process per way, the "
            "tables' pages dropped from the page cache first; CPU of the searches, the reads "
            "from disk included)\n"
            + table(rows, ["set", "tables", "search CPU", "mean", "worst", "nodes",
                           "mapped in 2 MB", "vs copy"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", help="cache folder holding the 7-8 databases")
    parser.add_argument("--quick", action="store_true", help="Korf's 100 only")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(search_set(json.loads(args.child))))
        return 0
    if args.tables:
        os.environ["KAERU_CACHE_DIR"] = args.tables
    from kaeru.engine.tables.folder import cache_dir

    print(section_mapping(str(cache_dir()), args.quick), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
