"""Strict reading of what people type, and their text echoed back safely in messages.

Numbers are ASCII digits only (`str.isdigit()` also accepts `²` and `④`, which `int()`
refuses) and short; ids and positions have a bounded length; input quoted in a message is
escaped (control characters, escape sequences and line separators made visible) and shortened.
"""

from __future__ import annotations

from kaeru.engine.rules.protocol import BadInput

MAX_DIGITS = 9  # no size in the arcade needs more; int() of thousands of digits is refused
MAX_ID_LENGTH = 200  # puzzle ids (a game id's puzzle part)
MAX_STATE_LENGTH = 4096  # a position's text (the 8x8 sliding board is about 200 characters)
SHOWN = 40  # characters of echoed input kept in a message

_ASCII_DIGITS = frozenset("0123456789")


def is_ascii_number(text: str) -> bool:
    """True when `text` is one or more ASCII digits (and nothing else)."""
    return bool(text) and all(ch in _ASCII_DIGITS for ch in text)


def ascii_number(text: str) -> int | None:
    """The value of `text` when it is ASCII digits, else None; BadInput when it has more than
    MAX_DIGITS digits."""
    if not is_ascii_number(text):
        return None
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise BadInput(f"{shown(text)} is too large a number ({len(text):,} digits)")
    return int(text)


def bounded(text: str, limit: int, what: str) -> str:
    """`text` itself; BadInput when it is longer than `limit` characters."""
    if len(text) > limit:
        raise BadInput(f"{what} too long: {len(text):,} characters (at most {limit:,})")
    return text


def shown(text: str, limit: int = SHOWN) -> str:
    """`text` quoted for a one-line message: escaped like repr, shortened when long."""
    if len(text) > limit:
        return f"{visible(text[:limit])}… ({len(text):,} characters)"
    return visible(text)


def visible(text: str) -> str:
    """`text` quoted with every control, escape, line-separator and bidi character escaped."""
    return repr(text).replace("\u202e", "\\u202e").replace("\u202d", "\\u202d")


def one_line(message: str, limit: int = 500) -> str:
    """A message made safe to print on one terminal line: controls made visible, shortened."""
    out = []
    for ch in message:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code < 0xA0 or ch in "\u2028\u2029\u202a\u202b\u202c\u202d\u202e":
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    text = "".join(out)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_game_id(game_id: str) -> tuple[str, str | None]:
    """(puzzle id, start text or None for the standard start), unchecked: the one place a game
    id is taken apart."""
    puzzle_id, sep, state_text = game_id.partition(":")
    return puzzle_id, (state_text if sep else None)
