"""Measure the command line under hostile input: N random cases, counted by what went wrong.

    python -m tests.cli.campaign 4000 [seed]

Runs every case in this process (stdout captured, `kaeru play` not opening the arcade), with
an alarm per case and an address-space limit, and prints the tracebacks, exit codes outside the
policy, multi-line errors, raw control characters and hangs. Point PYTHONPATH at another
checkout to measure it instead (the "before" figures).
"""

from __future__ import annotations

import collections
import os
import random
import resource
import sys
import tempfile


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))  # 1.5 GiB
    os.environ.setdefault("KAERU_LOG_DIR", tempfile.mkdtemp(prefix="kaeru-log-"))
    import kaeru.tui.cli.commands.play as play
    from kaeru.tui.cli.main import main as kaeru_main
    from tests.cli.hostile import Hung, Verdict, judge, private_zoo, random_case, valid_states

    play.open_arcade = lambda game_id: 0  # type: ignore[assignment]
    out = sys.__stdout__
    print(f"measuring {kaeru_main.__module__} from {sys.modules['kaeru'].__file__}")
    rng = random.Random(seed)
    states = valid_states()
    zoo = private_zoo()
    kinds: collections.Counter[str] = collections.Counter()
    failed_cases = 0
    examples: dict[str, str] = {}
    for number in range(count):
        case = random_case(rng, states, zoo)
        if os.environ.get("CAMPAIGN_TRACE"):
            print(number, case.argv[:3], file=sys.__stderr__, flush=True)
        try:
            verdict = judge(kaeru_main, case, seconds=5.0)
        except Hung:  # the alarm fired while the verdict was being written: count it
            verdict = Verdict(case, problems=["hang"])
        if verdict.problems:
            failed_cases += 1
        for problem in verdict.problems:
            kind = problem.split(",")[0] if problem.startswith("exit") else problem.split(":")[0]
            kinds[kind] += 1
            examples.setdefault(kind, f"{case.why}: {str(case.argv)[:100]} -> {problem[:100]}")
    print(f"{count} command lines, {failed_cases} with a problem", file=out)
    for kind, n in kinds.most_common():
        print(f"  {n:5}  {kind}   e.g. {examples[kind]}", file=out)


if __name__ == "__main__":
    main()
