"""A monkey for the arcade: random keys and random terminal sizes on every kind of screen.

Shared by `test_monkey.py` and the campaign below, which counts crashing runs in a tree:

    python -m tests.app.monkey RUNS KEYS [seed]

Each run starts the app on one screen kind (home, play for several families, help, new game,
explorer), then presses `KEYS` random keys — paging keys, ctrl keys, Escape, digits, letters —
resizing the terminal now and then down to 10×4. A run crashes when an exception escapes the
app; the crash is reported with the key sequence that led to it.
"""

from __future__ import annotations

import asyncio
import random
import string
import sys
import traceback
from dataclasses import dataclass, field

from textual import events
from textual.pilot import Pilot

PAGING = (
    "pageup",
    "pagedown",
    "home",
    "end",
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift+tab",
    "enter",
    "space",
    "backspace",
    "delete",
    "escape",
)
CTRL = (
    "ctrl+p",
    "ctrl+a",
    "ctrl+e",
    "ctrl+u",
    "ctrl+k",
    "ctrl+w",
    "ctrl+z",
    "ctrl+y",
    "ctrl+l",
    "ctrl+f",
    "ctrl+b",
    "ctrl+n",
    "ctrl+home",
    "ctrl+end",
    "ctrl+pageup",
    "ctrl+pagedown",
    "ctrl+left",
    "ctrl+right",
    "ctrl+up",
    "ctrl+down",
    "ctrl+c",
    "ctrl+d",
)
# No q (quits from home): leaving is not a crash, and a run that has left tests nothing.
LETTERS = tuple(c for c in string.ascii_letters if c != "q")
DIGITS = tuple(string.digits)
SIGNS = ("question_mark", "f1", "minus", "plus", "full_stop", "comma", "slash", "colon")


YIELDS = 12  # event-loop turns after each key: enough for a key to reach its widget


def random_key(rng: random.Random) -> str:
    group = rng.choices((PAGING, CTRL, LETTERS, DIGITS, SIGNS), weights=(10, 3, 5, 3, 1))[0]
    return rng.choice(group)


def random_size(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.5:  # tiny: where the 0-row lists live
        return rng.randint(10, 40), rng.randint(4, 10)
    return rng.randint(10, 140), rng.randint(4, 45)


@dataclass(frozen=True)
class Start:
    """A screen kind to start on: the game the app opens, then keys or a call to get there."""

    name: str
    game_id: str | None = None
    keys: tuple[str, ...] = ()
    explore: str | None = None
    favour: tuple[str, ...] = ()  # keys pressed often (a third of the presses)


STARTS = (
    Start("home"),
    Start("play-frogs", "frogs-3"),
    Start("play-flip-it", "flip-it-6"),
    Start("play-sliding", "sliding-3x3"),
    Start("play-pegs", "pegs-english-cross"),
    Start("play-knights", "knights-3x3"),
    Start("play-river", "wolf-goat-cabbage"),
    Start("play-two-blank", "two-blank-3x3"),
    Start("help", None, ("question_mark",)),
    Start("new-game", "flip-it-7", ("n",)),
    Start("explorer", None, (), "number-reversal-6"),
    Start("drill", "frogs-3", ("D",), favour=("p", "p", "n", "plus")),
)


@dataclass
class Run:
    start: str
    seed: int
    keys: list[str] = field(default_factory=list)
    crash: str | None = None

    def describe(self) -> str:
        tail = " ".join(self.keys[-25:])
        return f"{self.start} seed {self.seed}: {self.crash}\n  last keys: {tail}"


async def monkey(start: Start, seed: int, presses: int) -> Run:
    """Press `presses` random keys on the app started at `start`; the crash if one happened."""
    from kaeru.tui.app import KaeruApp

    rng = random.Random(seed)
    run = Run(start.name, seed)
    app = KaeruApp(start.game_id, resume=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in start.keys:
                await pilot.press(key)
            if start.explore:
                app.open_explorer(start.explore)
                await pilot.pause()
            for _ in range(presses):
                if app._exit or not app.is_running:
                    break
                if rng.random() < 0.06:
                    size = random_size(rng)
                    run.keys.append(f"<{size[0]}x{size[1]}>")
                    await pilot.resize_terminal(*size)
                favoured = start.favour and rng.random() < 1 / 3
                key = rng.choice(start.favour) if favoured else random_key(rng)
                run.keys.append(key)
                await quick_press(pilot, key)
                if len(run.keys) % 20 == 0:
                    await pilot.pause()
            await _settle(pilot)
    except Exception as error:  # a crash is what the monkey looks for
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{frame.filename.rsplit('/', 2)[-1]}:{frame.lineno}"
        run.crash = f"{type(error).__name__}: {str(error)[:120]} (at {where})"
    return run


async def quick_press(pilot: Pilot, key: str) -> None:
    """Send one key as the terminal driver would, and let the app take it in (Pilot.press
    waits for the process to go idle, about 40 ms a key; this takes a few yields)."""
    app = pilot.app
    char = key if len(key) == 1 else {"space": " ", "question_mark": "?"}.get(key)
    event = events.Key(key, char)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
    for _ in range(YIELDS):
        await asyncio.sleep(0)


async def _settle(pilot: Pilot) -> None:
    for worker in list(pilot.app.workers):
        worker.cancel()
    await pilot.pause()


def campaign(runs: int, presses: int, seed: int = 0) -> list[Run]:
    results = []
    for number in range(runs):
        start = STARTS[number % len(STARTS)]
        run = asyncio.run(monkey(start, seed * 100_000 + number, presses))
        results.append(run)
        if run.crash:
            print(run.describe(), flush=True)
    return results


def main(argv: list[str]) -> None:
    runs = int(argv[1]) if len(argv) > 1 else 44
    presses = int(argv[2]) if len(argv) > 2 else 250
    seed = int(argv[3]) if len(argv) > 3 else 0
    results = campaign(runs, presses, seed)
    crashed = [r for r in results if r.crash]
    keys = sum(len(r.keys) for r in results)
    print(f"{len(results)} runs, {keys:,} keys and resizes, {len(crashed)} crashed")


if __name__ == "__main__":
    main(sys.argv)
