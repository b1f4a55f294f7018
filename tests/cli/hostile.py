"""Hostile command lines for `kaeru` and an in-process runner that judges them.

Shared by the hypothesis fuzz test (`test_fuzz.py`) and the campaign script (`campaign.py`)
that measures a tree before and after a change. A case is an argv, the exit codes the policy
allows for it, and where stdout goes (a normal stream, a full disk, an ASCII-only encoding or
a pipe whose reader has gone). `judge` runs `kaeru.tui.cli.main` on it and lists what is
wrong: an exception escaping (a traceback), an exit code outside the policy, more than one
stderr line, raw control characters in the output, or a hang.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

OK, NO_SOLUTION, BAD_INPUT, GAVE_UP, INTERNAL = 0, 1, 2, 3, 4
BAD = frozenset({BAD_INPUT})
ANY_ANSWER = frozenset({OK, NO_SOLUTION, BAD_INPUT, GAVE_UP})
OUTPUTS = ("normal", "full", "ascii", "closed")

# Digits `str.isdigit()` accepts that `int()` refuses, digits of other scripts, and the
# characters that rewrite a terminal or split a line when echoed raw.
ODD_DIGITS = ("²", "③", "④", "٣", "߂", "𝟗", "¹", "৩")
CONTROL = (
    "\n",
    "\r",
    "\x1b[2J\x1b[31mred",
    "\x07",
    "\x00",
    "\u2028",
    "\u2029",
    "\x85",
    "\u202e",
    "\x9b31m",
    "\t",
    "\x7f",
)
WORDS = ("--", "-", "", " ", "@", ":", "x", "-1", "0", "999", "NaN", "∞", "__", "🐸")
HOSTILE_IDS = (
    "flip-it-²",
    "two-blank-④x③",
    "frogs-٣",
    "sliding-³x3",
    "number-reversal-¹⁰",
    "flip-it-" + "9" * 5000,
    "frogs-" + "1" * 4400,
    "sliding-4x" + "7" * 4500,
    "jealous-husbands-" + "3" * 5000,
    "two-blank-" + "4" * 5000 + "x3",
    "flip-it-99999999999",
    "flip-it-5\nflip-it-6",
    "\x1b[2J\x1b[31mred",
    "--",
    "",
    " ",
    "flip-it-",
    "flip-it-05x",
    "sliding-0x0",
    "sliding-1x1",
    "knights-9x9",
    "pegs-",
    "pegs-english-z9",
    "missionaries-",
    "missionaries-9",
    "missionaries-3-boat9",
    "jealous-husbands-3-boat",
    "frogs-0",
    "two-blank-3x",
    "two-blank-x3",
    "two-blank-5x5",
    "oshidori-",
    "a" * 100_000,
    "flip-it-5\u2028x",
    "FLIP-IT-5",
    "flip-it-5:",
    "flip-it-5::",
    "flip-it-5:" + "B" * 9000,
)
FILE_KINDS = (
    "bom",
    "plain",
    "latin1",
    "big",
    "dev-zero",
    "fifo",
    "dir",
    "missing",
    "dev-null",
    "empty",
    "nul",
)
FAST_IDS = (
    "flip-it-5",
    "flip-it-8",
    "flip-it-12",
    "oshidori",
    "oshidori-bw",
    "frogs-1",
    "frogs-4",
    "number-reversal-4",
    "number-reversal-7",
    "two-blank-3x3",
    "knights-3x3",
    "knights-3x4",
    "pegs-english-cross",
    "pegs-english-plus",
    "pegs-triangle",
    "jealous-husbands-3",
    "missionaries-3",
    "wolf-goat-cabbage",
    "sliding-3x3",
    "sliding-5x2",
)


@dataclass(frozen=True)
class Case:
    """One command line, the exit codes allowed for it, and where its stdout goes."""

    argv: tuple[str, ...]
    allowed: frozenset[int]
    output: str = "normal"
    why: str = ""


@dataclass
class Verdict:
    case: Case
    code: int | None = None
    out: str = ""
    err: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def traceback(self) -> bool:
        return any(p.startswith("traceback") for p in self.problems)


class FileZoo:
    """Files to name in `--from-file`: made once in a private folder, by kind and content."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def path(self, kind: str, state: str) -> str:
        fixed = {"dev-zero": "/dev/zero", "dev-null": "/dev/null"}
        if kind in fixed:
            return fixed[kind]
        self.count += 1
        target = self.root / f"{kind}-{self.count}"
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "dir":
            target.mkdir()
        elif kind == "missing":
            pass
        else:
            data = {
                "bom": b"\xef\xbb\xbf" + state.encode(),
                "plain": state.encode() + b"\n",
                "latin1": state.encode() + b"\xe9\xff\xfe",
                "big": (state + "\n").encode() * (3_000_000 // (len(state) + 1) + 1),
                "empty": b"",
                "nul": state.encode() + b"\x00\x00",
            }[kind]
            target.write_bytes(data)
        return str(target)


def valid_states() -> dict[str, str]:
    """Every listed puzzle id and the text of its start, from the tree under test."""
    from kaeru.engine.puzzles.registry import all_ids, get_puzzle

    out = {}
    for pid in all_ids():
        puzzle = get_puzzle(pid)
        out[pid] = puzzle.format(puzzle.initial())
    return out


def _hostile_text(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(CONTROL)
    if pick < 0.5:
        return rng.choice(ODD_DIGITS)
    if pick < 0.7:
        return rng.choice(WORDS)
    if pick < 0.8:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(1, 12)))
    return rng.choice("B_W123456789x/,.") * rng.choice((2, 50, 5000, 200_000))


def _mutate(rng: random.Random, state: str) -> str:
    at = rng.randrange(len(state) + 1)
    return state[:at] + _hostile_text(rng) + state[at + rng.randrange(2) :]


def random_case(rng: random.Random, states: dict[str, str], zoo: FileZoo) -> Case:
    """One hostile (or ordinary) command line with the exit codes the policy allows for it."""
    kind = rng.random()
    command = rng.choice(("solve", "enumerate", "play"))
    # Where the input may turn out valid, a search runs: only `play` (which opens no search
    # here) takes every puzzle; solve and enumerate take the cheap ones.
    ids = list(states) if command == "play" else [p for p in FAST_IDS if p in states]
    if kind < 0.2:  # an id no puzzle owns
        argv = [command, rng.choice(HOSTILE_IDS)]
        return Case(tuple(argv), BAD, why="hostile id")
    if kind < 0.3:  # an id with odd text around it
        pid = rng.choice(ids)
        argv = [command, pid + rng.choice(("", "-")) + _hostile_text(rng)]
        return Case(tuple(argv), ANY_ANSWER, why="mutated id")
    if kind < 0.5:  # a real id, a broken start position
        pid = rng.choice(ids)
        state = _mutate(rng, states[pid])
        form = rng.random()
        if form < 0.5:
            argv = [command, pid, "--from", state]
        elif form < 0.75:
            argv = [command, pid, f"--from={state}"]
        else:
            argv = [command, f"{pid}:{state}"]
        return Case(tuple(argv), ANY_ANSWER, why="mutated state")
    if kind < 0.62:  # odd characters in a real id or state: always refused
        pid = rng.choice(ids)
        state = states[pid]
        odd = rng.choice(ODD_DIGITS + ("\x1b[2J\x1b[31mred", "\x00", "\x07"))
        argv = rng.choice(
            (
                [command, pid, "--from", odd + state],
                [command, pid + odd],
                [command, pid, "--from=--"],
                [command, pid, "--from", state * 5000],
            )
        )
        return Case(tuple(argv), BAD, why="odd characters")
    if kind < 0.77:  # --from-file with every kind of file
        pid = rng.choice(FAST_IDS) if command != "play" else rng.choice(ids)
        file_kind = rng.choice(FILE_KINDS)
        path = zoo.path(file_kind, states[pid])
        allowed = ANY_ANSWER if file_kind in ("bom", "plain") else BAD
        return Case((command, pid, "--from-file", path), allowed, why=f"file {file_kind}")
    if kind < 0.85:  # goals and options
        pid = rng.choice([p for p in ids if p.startswith("pegs-")] or ids)
        argv = [command, pid, "--goal", _hostile_text(rng)]
        return Case(tuple(argv), ANY_ANSWER, why="goal")
    # ordinary commands on cheap puzzles, with stdout going somewhere hostile
    pid = rng.choice([p for p in FAST_IDS if p in states])
    argv = rng.choice(
        (
            ["solve", pid],
            ["enumerate", pid],
            ["list"],
            ["solve", pid, "--json"],
            ["list", "--json"],
            ["solve", f"{pid}:{states[pid]}"],
        )
    )
    output = rng.choice(OUTPUTS)
    allowed = frozenset({OK, NO_SOLUTION, GAVE_UP})
    if output == "full":
        allowed = frozenset({INTERNAL})
    return Case(tuple(argv), allowed, output=output, why=f"output {output}")


# ---- running one case in this process -----------------------------------------------------


class Hung(BaseException):
    """Raised by the alarm when a case runs past its time."""


class _Alarm:
    """Raises Hung once when the timer fires (a second firing cannot escape a handler)."""

    def __init__(self) -> None:
        self.armed = True

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:
            self.armed = False
            raise Hung()


@contextlib.contextmanager
def _stdout_for(kind: str) -> Iterator[tuple[io.TextIOWrapper, Callable[[], str]]]:
    if kind == "full":
        stream = open("/dev/full", "w", encoding="utf-8")
        yield stream, lambda: ""
    elif kind == "closed":
        read_end, write_end = os.pipe()
        os.close(read_end)
        stream = open(write_end, "w", encoding="utf-8")
        yield stream, lambda: ""
    else:
        buffer = io.BytesIO()
        encoding = "ascii" if kind == "ascii" else "utf-8"
        stream = io.TextIOWrapper(buffer, encoding=encoding, errors="strict")
        yield stream, lambda: buffer.getvalue().decode(encoding, errors="replace")
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def raw_controls(text: str) -> list[str]:
    """Characters that move the cursor, recolour, ring or split lines when printed raw."""
    found = []
    for ch in text:
        if ch in "\n":
            continue
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in "\u202a\u202b\u202c\u202d\u202e":
            found.append(ch)
    return found


def judge(main: Callable[[Sequence[str]], int], case: Case, seconds: float = 20.0) -> Verdict:
    """Run `main(case.argv)` here, with stdout as the case says, and list what went wrong."""
    verdict = Verdict(case)
    err = io.StringIO()
    old_out, old_err = sys.stdout, sys.stderr
    previous = signal.signal(signal.SIGALRM, _Alarm())
    code: object = None
    with _stdout_for(case.output) as (stream, read_out):
        try:
            sys.stdout, sys.stderr = stream, err
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                code = main(list(case.argv))
            except SystemExit as stop:
                code = stop.code
        except Hung:
            verdict.problems.append("hang")
        except BaseException as error:  # what the campaign counts
            verdict.problems.append(f"traceback {type(error).__name__}: {str(error)[:80]!r}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = old_out, old_err
            signal.signal(signal.SIGALRM, previous)
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
        verdict.out = read_out()
    verdict.err = err.getvalue() if not err.closed else ""
    verdict.code = code if isinstance(code, int) else (None if code is None else -1)
    if verdict.code is not None and verdict.code not in case.allowed:
        verdict.problems.append(f"exit {verdict.code}, allowed {sorted(case.allowed)}")
    lines = verdict.err.splitlines()
    if verdict.code in (BAD_INPUT, INTERNAL) and len(lines) != 1:
        verdict.problems.append(f"{len(lines)} stderr lines for exit {verdict.code}")
    elif len(lines) > 1:
        verdict.problems.append(f"{len(lines)} stderr lines")
    if raw_controls(verdict.err) or raw_controls(verdict.out):
        verdict.problems.append("raw control characters")
    return verdict


def private_zoo() -> FileZoo:
    return FileZoo(Path(tempfile.mkdtemp(prefix="kaeru-fuzz-")))
