"""Words for players, shared by the screens: plural forms, counts and times in short form,
and rules text re-flowed so it wraps to the width it is shown in.

The puzzles' rules strings are written wrapped at about 80 columns. `flow` joins the lines of
one paragraph and keeps the breaks a writer meant: a blank line, a line that ends a sentence or
introduces something (`.`, `!`, `?`, `:`), and lines that are indented or start a list item.
"""

from __future__ import annotations

import re

from kaeru.engine.rules.results import reason_words
from kaeru.engine.rules.words import plural

__all__ = ["duration", "flow", "plural", "sentence", "short_count"]

_ENDS_PARAGRAPH = (".", "!", "?", ":")
_STARTS_ITEM = re.compile(r"^(\s|[-*•]\s|\d+[.)]\s)")


def sentence(text: str) -> str:
    """A proof's one line as a sentence of its own: no verdict in front of it ("unsolvable:"),
    a capital first letter, a full stop at the end."""
    text = reason_words(text)
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def flow(text: str) -> str:
    """`text` with the line breaks inside its paragraphs turned into spaces."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if lines and line and lines[-1] and not lines[-1].endswith(_ENDS_PARAGRAPH) \
                and not _STARTS_ITEM.match(line):
            lines[-1] = f"{lines[-1]} {line}"
        else:
            lines.append(line)
    return "\n".join(lines)


def short_count(value: int) -> str:
    """A count in at most seven characters: 12,345 · 1.23 M · 45.6 M · 1.2 G."""
    if value < 1_000_000:
        return f"{value:,}"
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M")):
        if value >= size:
            scaled = value / size
            return f"{scaled:.3g} {suffix}" if scaled < 1000 else f"{scaled:,.0f} {suffix}"
    return f"{value:,}"  # pragma: no cover - unreachable


def duration(seconds: float) -> str:
    """0.15 s · 12 s · 3 min 05 s · 1 h 02 min."""
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
