"""The README's pictures as text: `python docs/screen_text.py [SCENE ...]` prints the screens of
docs/screenshots.py (the same scenes, the same reproducible set-up) as plain text, for the
README, where a package index shows them (it cannot show the SVGs: their paths are relative to
the repository, and the project has no public host for absolute ones).
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile

from rich.console import Console
from screenshots import SCENES, SIZE, Scene, frozen_clocks, quiet_environment


async def text_of(scene: Scene) -> str:
    """One scene's screen as text, from an app of its own (as `screenshots.shoot`)."""
    from kaeru.tui.app import KaeruApp

    app = KaeruApp(resume=False)
    app.store.set_setting("timer", "off")
    app.store.set_setting("animation", "off")
    async with app.run_test(size=SIZE) as pilot:
        await scene(pilot)
        app.clear_notifications()
        await pilot.pause()
        console = Console(
            width=SIZE[0], height=SIZE[1], file=io.StringIO(), record=True, color_system=None,
            legacy_windows=False, safe_box=False,
        )
        console.print(app.screen._compositor.render_update(full=True))
        lines = [line.rstrip() for line in console.export_text(styles=False).splitlines()]
        kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
        return "\n".join(kept).strip("\n")  # runs of empty lines kept as one


def main(argv: list[str]) -> int:
    with frozen_clocks():
        for name in argv or list(SCENES):
            with tempfile.TemporaryDirectory() as scratch:
                quiet_environment(scratch)
                print(f"<!-- {name} -->\n```text\n{asyncio.run(text_of(SCENES[name]))}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
