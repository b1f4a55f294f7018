"""Set a Static's text only when it changed: every redraw of the play screen re-sets its texts,
and an unchanged update would still repaint and re-lay out the screen (costly over SSH, where
each repaint is bytes on the wire; see bench/serve_latency.py)."""

from __future__ import annotations

from textual.widgets import Static


def update_text(widget: Static, text: str, *, layout: bool = True) -> bool:
    """Show `text` in `widget` unless it shows it already; True when it changed."""
    if isinstance(widget.content, str) and widget.content == text:
        return False
    widget.update(text, layout=layout)
    return True
