"""The fit sweep: open every game on the home screen in one app at one terminal size and list
what does not fit (`fit_problems`), with the checks the play-screen tests share.

`tests/app/test_play_fits.py::test_every_puzzle_fits` runs it for 80×24 and 60×20. Opening 71
games takes Textual some 25–35 s a size, so the two sweeps run in a child process
(`python -m tests.app.fit_sweep 80x24 60x20`, printing the problems as JSON), started as soon as
the tests are collected (`Sweep`, from `tests/app/conftest.py`): it uses the second core while
the other tests run on the first, and the test collects what it found. Each child is
the real app driven by Pilot, as in any other test here.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from kaeru.engine.puzzles.registry import families
from kaeru.screens.play.layout import plan
from kaeru.screens.play.screen import PlayScreen
from kaeru.tui.app import KaeruApp

PUZZLE_IDS = [puzzle_id for family in families() for puzzle_id in family.ids]
SIZES = [(80, 24), (60, 20)]
ROOT = Path(__file__).resolve().parents[2]
SWEEP_TIMEOUT = 600.0  # seconds the fit sweeps may take (about 60 s alone, more beside a run)


def shown_whole(widget: Widget, width: int, height: int) -> str | None:
    """None when `widget` is drawn, non-empty, inside the screen (above the footer); else what
    is wrong."""
    region = widget.region
    screen = Region(0, 0, width, height - 1)
    if not widget.display or region.area == 0:
        return f"{widget.id or type(widget).__name__} not shown"
    if screen.intersection(region) != region:
        return f"{widget.id or type(widget).__name__} at {region} leaves the screen"
    return None


def footer_cut(screen: PlayScreen) -> list[str]:
    """The footer's keys that are not shown whole."""
    width = screen.size.width
    return [str(key.description) for key in screen.query_one(Footer).query(FooterKey)
            if key.region.width == 0 or key.region.right > width]


def board_problems(screen: PlayScreen, width: int, height: int) -> list[str]:
    board = screen.board
    problems = [p for p in [shown_whole(board, width, height)] if p]
    need_w, need_h = board.needed_size()
    got_w, got_h = board.outer_size
    if got_w < need_w or got_h < need_h:
        problems.append(f"board given {got_w}×{got_h}, needs {need_w}×{need_h}")
    rendered = board.render()
    lines = rendered.split(allow_blank=True) if hasattr(rendered, "split") else []
    inner_w, inner_h = board.content_size
    if any(line.cell_len > inner_w for line in lines):
        problems.append(f"board lines cut at {inner_w} columns")
    if len(lines) > inner_h and any(line.plain.strip() for line in lines[inner_h:]):
        problems.append(f"board rows cut at {inner_h} rows")
    return problems


async def visible_in_some_pane(pilot: Pilot, screen: PlayScreen, selector: str) -> str | None:
    """Whether the part is shown whole, in the pane that holds it where the layout is tabbed."""
    width, height = screen.size
    widget = screen.query_one(selector)
    for _ in range(max(1, len(screen.plan.panes))):
        if shown_whole(widget, width, height) is None:
            return None
        await pilot.press("w")
        await pilot.pause()
    return shown_whole(widget, width, height)


async def fit_problems(size: tuple[int, int], puzzle_ids: list[str]) -> dict[str, list[str]]:
    """Open each game in turn in one app (each replacing the last) and list what does not
    fit: board cut or clipped, goal or search not shown, no room for the playback bar."""
    width, height = size
    failures: dict[str, list[str]] = {}
    app = KaeruApp(resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for puzzle_id in puzzle_ids:
            screen = PlayScreen(app.new_session(puzzle_id, resume=False))
            if isinstance(app.screen, PlayScreen):
                await app.switch_screen(screen)
            else:
                await app.push_screen(screen)
            await pilot.pause()
            problems: list[str] = []
            if screen.plan.mode == "too-small":
                problems.append(f"too small: needs {screen.plan.need}")
            else:
                problems += board_problems(screen, width, height)
                for part in ("#goal-panel", "#stats"):
                    problem = await visible_in_some_pane(pilot, screen, part)
                    if problem:
                        problems.append(problem)
                in_playback = replace(screen.needs(), playback=True)
                if plan(width, height, in_playback).mode == "too-small":
                    problems.append("no room for the playback bar")
            if problems:
                failures[puzzle_id] = problems
    return failures


def report(failures: dict[str, list[str]]) -> str:
    return "\n".join(f"{key}: {'; '.join(value)}" for key, value in failures.items())


def size_name(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


class Sweep:
    """The sweeps of `sizes`, one after the other, in a child process (one core, not two: the
    test run has the other); its output in a temporary file."""

    def __init__(self, sizes: list[tuple[int, int]]) -> None:
        self.sizes = sizes
        self.folder = tempfile.TemporaryDirectory(prefix="kaeru-fit-")
        env = dict(os.environ, KAERU_SEARCH_MODE="thread", COLORTERM="truecolor",
                   KAERU_PDB_BUILD="off", KAERU_DATA_DIR=f"{self.folder.name}/data",
                   KAERU_CACHE_DIR=f"{self.folder.name}/cache")
        self.out = open(Path(self.folder.name, "out.json"), "w+")
        self.err = open(Path(self.folder.name, "err.txt"), "w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.app.fit_sweep", *map(size_name, sizes)],
            cwd=ROOT, env=env, stdout=self.out, stderr=self.err,
        )
        self.found: dict[str, dict[str, list[str]]] | None = None

    def result(self, size: tuple[int, int], timeout: float) -> dict[str, list[str]]:
        """The problems found at `size`; RuntimeError saying why when the sweep did not
        finish."""
        if self.found is None:
            try:
                code = self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.close()
                raise RuntimeError(f"the fit sweep took over {timeout:.0f} s") from None
            self.out.seek(0)
            self.err.seek(0)
            text, errors = self.out.read(), self.err.read()
            if code != 0:
                raise RuntimeError(f"the fit sweep failed ({code})\n{errors[-3000:]}")
            self.found = json.loads(text)
        return self.found[size_name(size)]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.out.close()
        self.err.close()
        self.folder.cleanup()


SWEEP = pytest.StashKey[Sweep]()  # the run's sweep (here: conftest.py may load twice)


def main() -> None:
    """`python -m tests.app.fit_sweep 80x24 60x20`: the problems at each size, as JSON."""
    from kaeru.engine.game.session import Session

    Session.find_optimal_length = lambda self: None  # type: ignore[method-assign]
    found = {}
    for name in sys.argv[1:]:
        width, height = (int(n) for n in name.split("x"))
        found[name] = asyncio.run(fit_problems((width, height), PUZZLE_IDS))
    print(json.dumps(found))


if __name__ == "__main__":
    main()
