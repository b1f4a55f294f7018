"""Regenerate the README's screenshots: `python docs/screenshots.py [FOLDER]`.

Writes home.svg, game.svg, playback.svg and explorer.svg (Textual's SVG export of the screen)
at 100×30 into FOLDER (default: this docs/ folder). The same code gives the same files: fresh
saved-games and cache folders, no resumed game, the game clock and playback animation off,
searches in this process, the default theme (as a true-colour terminal shows it), the search
clock frozen so the "time" a search took always reads the same, and the home screen's longer
catalogue survey held back (it would fill in facts while the shot is taken).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from textual.pilot import Pilot

SIZE = (100, 30)
HERE = Path(__file__).resolve().parent

Scene = Callable[[Pilot], Awaitable[None]]


def quiet_environment(folder: str) -> None:
    """The environment a reproducible screenshot needs (set before the app is made): saved
    games and caches in `folder`, so the catalogue knows only what it finds at once."""
    os.environ.update(
        KAERU_DATA_DIR=str(Path(folder, "data")),
        KAERU_CACHE_DIR=str(Path(folder, "cache")),
        KAERU_PDB_BUILD="off",
        KAERU_SEARCH_MODE="thread",
        COLORTERM="truecolor",
    )
    for name in ("NO_COLOR", "KAERU_ASCII", "TEXTUAL_COLOR_SYSTEM", "TEXTUAL_THEME"):
        os.environ.pop(name, None)


async def settle(pilot: Pilot) -> None:
    """`tui.headless.settle`, imported once the environment is set."""
    from kaeru.tui.headless import settle as settled

    await settled(pilot)


async def press(pilot: Pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def home(pilot: Pilot) -> None:
    """The puzzles by family, Frog jump opened on its presets."""
    await settle(pilot)
    await press(pilot, "down", "down", "right", "down")


async def game(pilot: Pilot) -> None:
    """Frog jump, five a side, three good moves in (i shows the hint, m plays it), a hint
    shown."""
    pilot.app.open_game("frogs-5")  # type: ignore[attr-defined]
    await settle(pilot)
    await press(pilot, "i", "m", "i", "m", "i", "m", "i")


async def playback(pilot: Pilot) -> None:
    """Flip It's solution played back, four steps in."""
    pilot.app.open_game("flip-it-8")  # type: ignore[attr-defined]
    await settle(pilot)
    await press(pilot, "s", "right", "right", "right", "right")


async def explorer(pilot: Pilot) -> None:
    """Every position of the two-blank 7-puzzle, counted by distance to the goal."""
    pilot.app.open_explorer("two-blank-3x3")  # type: ignore[attr-defined]
    await settle(pilot)


SCENES: dict[str, Scene] = {
    "home": home,
    "game": game,
    "playback": playback,
    "explorer": explorer,
}


async def shoot(scene: Scene) -> str:
    """One scene's SVG, from an app of its own."""
    from kaeru.tui.app import KaeruApp

    app = KaeruApp(resume=False)
    app.store.set_setting("timer", "off")
    app.store.set_setting("animation", "off")
    async with app.run_test(size=SIZE) as pilot:
        await scene(pilot)
        app.clear_notifications()
        await pilot.pause()
        return app.export_screenshot(title="Kaeru Arcade")


def frozen_clocks() -> ExitStack:
    """The engine's search clock stopped, and the home screen's longer survey held back."""
    from kaeru.engine.rules import control
    from kaeru.screens.home import survey as home_survey

    stack = ExitStack()
    stopped = SimpleNamespace(perf_counter=lambda: 0.0)
    stack.enter_context(mock.patch.object(control, "time", stopped))
    stack.enter_context(mock.patch.object(home_survey, "SURVEY_DELAY", 24 * 3600.0))
    return stack


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else HERE
    folder.mkdir(parents=True, exist_ok=True)
    with frozen_clocks():
        for name, scene in SCENES.items():
            with tempfile.TemporaryDirectory() as scratch:  # nothing kept from scene to scene
                quiet_environment(scratch)
                svg = asyncio.run(shoot(scene))
            path = folder / f"{name}.svg"
            path.write_text(svg, encoding="utf-8")
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
