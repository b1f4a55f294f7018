"""Run Kaeru Arcade's benchmarks by name; each prints its own table, measured in one run.

    python bench/run.py                      # the line puzzles (issue 2): bench/line_puzzles.py
    python bench/run.py sliding              # bench/sliding.py
    python bench/run.py pegs two-blank       # several, in order
    python bench/run.py all                  # every benchmark that exists
    python bench/run.py line --quick         # options after the names go to each benchmark

A benchmark is a module in bench/ with `main(argv)` (or `main()`, reading sys.argv). Modules are
imported only when run; a name whose file does not exist yet is reported and skipped, and one
that fails is reported (traceback, exit status 1) without stopping the rest.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent
BENCHMARKS = {  # name -> module file in bench/, in the order `all` runs them
    "line": "line_puzzles",
    "sliding": "sliding",
    "pegs": "pegs",
    "two-blank": "two_blank",
    "knights-river": "knights_river",
    "tables": "tables",
}
DEFAULT = ["line"]


def load(name: str) -> ModuleType | None:
    path = BENCH / f"{BENCHMARKS[name]}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(BENCHMARKS[name], path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # lets a benchmark's worker processes find it again
    spec.loader.exec_module(module)
    return module


def run(name: str, options: list[str]) -> int:
    module = load(name)
    if module is None:
        print(f"== {name}: bench/{BENCHMARKS[name]}.py does not exist yet, skipped")
        return 0
    print(f"== {name} (bench/{BENCHMARKS[name]}.py)", flush=True)
    began = time.perf_counter()
    if inspect.signature(module.main).parameters:
        code = module.main(options)
    else:
        saved, sys.argv = sys.argv, [str(BENCH / f"{BENCHMARKS[name]}.py"), *options]
        try:
            code = module.main()
        finally:
            sys.argv = saved
    print(f"== {name}: done in {time.perf_counter() - began:.0f} s\n", flush=True)
    return int(code or 0)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names: list[str] = []
    while args and not args[0].startswith("-"):
        word = args.pop(0)
        if word == "all":
            names.extend(BENCHMARKS)
        elif word in BENCHMARKS:
            names.append(word)
        else:
            print(f"run.py: unknown benchmark '{word}' (choose from all, {', '.join(BENCHMARKS)})",
                  file=sys.stderr)
            return 2
    worst = 0
    for name in names or DEFAULT:
        try:
            worst = max(worst, run(name, args))
        except Exception:  # one broken benchmark must not hide the others' tables
            traceback.print_exc()
            print(f"== {name}: failed\n", flush=True)
            worst = max(worst, 1)
    return worst


if __name__ == "__main__":
    sys.exit(main())
