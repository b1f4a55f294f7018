"""The footer of every screen: Textual's `Footer`, rebuilt only when the keys it shows change.

Textual's footer rebuilds all its keys (a recompose: every key widget mounted and styled again)
each time a screen asks for its bindings to be refreshed, and once per request, however many
arrive before the next frame. A play screen asks after every move, search report and playback
step, so most rebuilds drew the same keys again: opening a game rebuilt the footer some 28
times. This one waits for the next frame once, however many requests came, and rebuilds only
when what it would show (each key, its label, whether it is enabled) differs from what it shows.
Over SSH that is fewer frames to send; in the tests, about a fifth of a game's start-up time.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A `Footer` that rebuilds once per frame at most, and only when its keys change."""

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self._rebuild_pending = False
        self._shown: Hashable = None

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild_if_changed)

    async def _rebuild_if_changed(self) -> None:
        self._rebuild_pending = False
        if not self.is_attached:
            return
        shown = self.keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await self.recompose()

    def keys_shown(self) -> Hashable:
        """What `Footer.compose` draws from: each shown binding with its label and state, and
        the command palette's key."""
        app = self.app
        keys = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
                None if binding.group is None else (binding.group.description,
                                                    binding.group.compact),
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == app.COMMAND_PALETTE_BINDING
        )
        return keys, self.show_command_palette, app.ENABLE_COMMAND_PALETTE
