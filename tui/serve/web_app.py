"""The arcade as `kaeru serve web` runs it in each browser tab: KaeruApp with a header glyph that
common fonts have (Textual's default, U+2B58, is missing from most monospace fonts and shows as
an empty box in the browser)."""

from __future__ import annotations

import inspect
from pathlib import Path

from textual.screen import Screen
from textual.widgets import Header

from kaeru.tui.app import KaeruApp

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


def main() -> None:
    WebArcade().run()


if __name__ == "__main__":
    main()
