"""OptionList and the command palette with page keys that are safe on a list 0 rows tall.

Textual 8.2's `OptionList._move_page` looks up the highlighted option's line in a map that is
only built once the list has been laid out with some height; on a terminal so small that the
list gets no rows (home at 20×6, the palette at 10×4) PageUp/PageDown raise `KeyError` and
close the app. Here paging does nothing until the list has lines to page through.
"""

from __future__ import annotations

from typing import Literal

from textual.command import CommandList, CommandPalette
from textual.widgets import OptionList


def can_page(option_list: OptionList) -> bool:
    """True when `_move_page` can run: the list is laid out and its highlight has a line."""
    try:
        lines, index_to_line = option_list._lines, option_list._index_to_line
    except AttributeError:  # another Textual: let it page
        return True
    if not lines or index_to_line is None:
        return False
    if option_list.scrollable_content_region.height <= 0:
        return False
    return (option_list.highlighted or 0) in index_to_line


class SafeOptionList(OptionList):
    """An OptionList whose PageUp/PageDown do nothing while it has no rows to show."""

    def _move_page(self, direction: Literal[-1, 1]) -> None:
        if can_page(self):
            super()._move_page(direction)


class SafeCommandPalette(CommandPalette):
    """The command palette, with its page keys guarded the same way."""

    def _action_command_list(self, action: str) -> None:
        if action in ("page_up", "page_down"):
            found = self.query(CommandList)
            if not found or not can_page(found.first()):
                return
        super()._action_command_list(action)
