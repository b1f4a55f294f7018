"""How long `kaeru --version`, `kaeru --help` and `kaeru list` take to start, this checkout
against another commit: `python bench/startup.py [--baseline REF] [--runs N]`.

The baseline is cloned into a temporary folder at REF (default: the commit before the lazy
command imports, 00edf96) and run from there with the same interpreter; the two are run in
turn, N times each, and the median wall time of each is shown with their ratio. Also prints how
many `kaeru.engine` modules `kaeru --version` imports in each.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
COMMANDS = (["--version"], ["--help"], ["list"])
COUNT_ENGINE = (
    "import sys; from kaeru.tui.cli.main import main; main(['--version']); "
    "print(sum(m.startswith('kaeru.engine') for m in sys.modules), file=sys.stderr)"
)


def run_once(where: Path, words: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kaeru.tui.cli", *words], cwd=where, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def engine_modules(where: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", COUNT_ENGINE], cwd=where, capture_output=True, text=True, check=True
    )
    return int(done.stderr.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="00edf96", help="the commit to compare with")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "baseline"
        subprocess.run(["git", "clone", "-q", str(HERE), str(base)], check=True)
        subprocess.run(["git", "checkout", "-q", args.baseline], cwd=base, check=True)
        print(f"{'command':<16}{'baseline ms':>12}{'this ms':>10}{'ratio':>8}")
        for words in COMMANDS:
            times: dict[Path, list[float]] = {base: [], HERE: []}
            for _ in range(args.runs):
                for where in (base, HERE):
                    times[where].append(run_once(where, words))
            old, new = (statistics.median(times[w]) * 1000 for w in (base, HERE))
            print(f"{'kaeru ' + ' '.join(words):<16}{old:>12.0f}{new:>10.0f}{old / new:>7.1f}x")
        print(f"kaeru.engine modules imported by --version: baseline {engine_modules(base)}, "
              f"this {engine_modules(HERE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
