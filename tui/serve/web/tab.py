"""The arcade as `kaeru serve web` runs it in each browser tab (forked from the warm parent,
`run_tab`; or in the spawn model `python -m kaeru.tui.serve.web.tab MEMORY_BYTES`): its address
space capped (RLIMIT_AS, inherited by its search worker; 0: none), then KaeruApp with a header
glyph that common fonts have (Textual's default, U+2B58, is missing from most monospace fonts
and shows as an empty box in the browser)."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from textual.screen import Screen
from textual.widgets import Header

from kaeru.tui.app import KaeruApp
from kaeru.tui.serve.processes.limits import apply_memory_limit

HEADER_GLYPH = "○"  # U+25CB WHITE CIRCLE: in WGL4, so in DejaVu, Courier New, Menlo, Consolas


class WebArcade(KaeruApp):
    """KaeruApp; every screen's header gets `HEADER_GLYPH`."""

    CSS_PATH = str(Path(inspect.getfile(KaeruApp)).with_name("kaeru.tcss"))  # not beside this file

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._screen_changed)
        self._screen_changed(self.screen)

    def _screen_changed(self, screen: Screen[object]) -> None:
        def set_glyph() -> None:
            for header in screen.query(Header):
                header.icon = HEADER_GLYPH

        set_glyph()
        screen.call_after_refresh(set_glyph)


def run_tab() -> int:
    """The tab's arcade, in this process (a fresh one, or one forked from the warm parent with
    its limit already set); its exit code."""
    WebArcade().run()
    return 0


def main(argv: list[str]) -> None:
    memory = int(argv[0]) if argv and argv[0].isdigit() else 0
    apply_memory_limit(memory or None)
    run_tab()


if __name__ == "__main__":
    main(sys.argv[1:])
