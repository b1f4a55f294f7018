"""Display names: what a player is called on a server's leaderboards and lists.

A name is 1 to MAX_LENGTH characters of letters, digits, spaces and `-_.'`, with no control or
invisible characters, not only spaces; two names differing only in case are the same name
(`fold`). `refusal` gives the one line that says why a name cannot be taken, or None. Guests
(and key players who have not chosen yet) are given a generated name (`generated_name`).
"""

from __future__ import annotations

import secrets
import unicodedata

MAX_LENGTH = 20
ALLOWED_MARKS = set(" -_.'")
ANIMALS = ("frog", "newt", "toad", "heron", "carp", "otter", "crane", "moth", "wren", "hare")


def fold(name: str) -> str:
    """The form two names are compared in: case and surrounding spaces do not count."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def clean(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


def refusal(name: str) -> str | None:
    """One line saying why `name` cannot be a display name, or None when it can (being taken
    is checked by the place, which knows the other names)."""
    text = clean(name)
    if not text:
        return "A name cannot be empty."
    if len(text) > MAX_LENGTH:
        return f"A name is at most {MAX_LENGTH} characters (this one has {len(text)})."
    for char in text:
        kind = unicodedata.category(char)
        if kind.startswith("C"):
            return "A name cannot hold control or invisible characters."
        if not (char.isalnum() or char in ALLOWED_MARKS):
            return f"A name holds letters, digits, spaces and - _ . ' only (not {char!r})."
    return None


def generated_name() -> str:
    """A name for a guest: an animal and four digits (`frog-0412`)."""
    return f"{secrets.choice(ANIMALS)}-{secrets.randbelow(10_000):04d}"
