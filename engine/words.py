"""Words the engine and the front end both put in front of players: counts with their nouns."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """ "1 move", "2 moves", "1,234 positions" (nouns that take an -s)."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"
