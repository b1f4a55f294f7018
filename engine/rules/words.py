"""Words the engine and the front end both put in front of players: counts with their nouns,
times as a clock."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """ "1 move", "2 moves", "1,234 positions" (nouns that take an -s)."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def clock(seconds: float) -> str:
    """3:12, or 1:02:03 past an hour (whole seconds, rounded down)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
