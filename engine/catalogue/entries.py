"""The arcade's catalogue as a newcomer meets it: one entry per family, its sizes and variants
as presets with short names (the "Type" menu of Simon Tatham's collection), and what the engine
knows about each preset (`engine.catalogue.facts`: its difficulty, or why it cannot be won).

Everything here comes from the registry (`engine.puzzles.registry.families`) and the puzzles' own
titles: a new family or variant appears by itself. A preset's short name is its title without
the family's name, a few wordy forms shortened (`LABEL_REWRITES`) so every name fits a list
line of `MAX_LABEL` characters. No front end is imported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from kaeru.engine.puzzles.registry import AnyPuzzle, Family, families, get_puzzle

MAX_LABEL = 26  # characters: a preset's short name fits a list line at 60 columns

# Shorter wordings for the list, per family key: (pattern, replacement) applied in turn to a
# title after the family's own name is taken out. The full title is shown beside the list.
LABEL_REWRITES: dict[str, tuple[tuple[str, str], ...]] = {
    "pegs": ((r"\s*:\s*", " "), (r",\s*finish .*$", "")),
    "river": (
        (r"\((\d+) couples?, boat of (\d+)\)", r"\1, boat \2"),
        (
            r"Missionaries and cannibals \((\d+) \+ (\d+), boat of (\d+)\)",
            r"Missionaries \1+\2, boat \3",
        ),
    ),
    "two-blank": ((r":\s*two blanks,\s*(.+)$", r" (\1)"),),
}
# A family's name in the list where its title is long ("Two-blank sliding puzzles").
SHORT_NAMES = {"two-blank": "Two-blank puzzles"}


@dataclass(frozen=True)
class Preset:
    """One size or variant of a family: its puzzle id, its short name in the list and the
    puzzle's full title."""

    puzzle_id: str
    family: str
    label: str
    title: str


@dataclass(frozen=True)
class Entry:
    """One family as the home screen lists it: its name, one line about it, its presets."""

    key: str
    name: str
    blurb: str
    presets: tuple[Preset, ...]

    @property
    def rules(self) -> str:
        """The family's rules (its first preset's: the presets share them)."""
        return get_puzzle(self.presets[0].puzzle_id).rules if self.presets else ""


@cache
def catalogue() -> tuple[Entry, ...]:
    """Every family the registry lists, in list order, each with all its offered presets."""
    return tuple(entry_for(family) for family in families())


def entry_for(family: Family) -> Entry:
    presets = tuple(
        Preset(pid, family.key, preset_label(get_puzzle(pid), family), get_puzzle(pid).title)
        for pid in family.ids
    )
    return Entry(family.key, SHORT_NAMES.get(family.key, family.title), family.blurb, presets)


def preset_label(puzzle: AnyPuzzle, family: Family) -> str:
    """The preset's name within its family: "Flip It (6 cells)" -> "6 cells", "English peg
    solitaire: Cross, finish in d4" -> "English Cross"."""
    text = re.sub(re.escape(family.title), "", puzzle.title, count=1, flags=re.IGNORECASE)
    for pattern, replacement in LABEL_REWRITES.get(family.key, ()):
        text = re.sub(pattern, replacement, text)
    text = " ".join(text.split()).strip(" ,:")
    whole = re.fullmatch(r"\((.*)\)", text)
    if whole:
        text = whole.group(1)
    return text or puzzle.title


@cache
def preset(puzzle_id: str) -> Preset:
    """The preset of a listed puzzle id; KeyError for an id no family lists."""
    for entry in catalogue():
        for item in entry.presets:
            if item.puzzle_id == puzzle_id:
                return item
    raise KeyError(puzzle_id)


def entry(key: str) -> Entry:
    """The family entry with `key`; KeyError when there is none."""
    for item in catalogue():
        if item.key == key:
            return item
    raise KeyError(key)


def matches(text: str, *names: str) -> bool:
    """Whether every word of the filter `text` is found in one of `names` (case and the
    signs × x / ∙ aside): "frog 3" matches "Frog jump" + "3 a side"."""
    haystack = _folded(" ".join(names))
    return all(word in haystack for word in _folded(text).split())


def match_rank(text: str, item: Preset, family_name: str = "") -> int | None:
    """How well the filter `text` names `item` by its own names (label, title, id, family):
    0 one of them exactly, 1 each word a whole word of them, 2 each word the start of one,
    3 each word inside them; None when only the family's blurb (or nothing) matches. Signs
    and dashes are spaces: "15 puzzle" and "15-puzzle" both name the 15-puzzle."""
    wanted = _words(text)
    if not wanted:
        return None
    names = (item.label, item.title, item.puzzle_id)
    if any(_words(name) == wanted for name in names):
        return 0
    words = _words(" ".join((*names, family_name)))
    if all(word in words for word in wanted):
        return 1
    if all(any(have.startswith(word) for have in words) for word in wanted):
        return 2
    if all(any(word in have for have in words) for word in wanted):
        return 3
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", _folded(text))


def _folded(text: str) -> str:
    return text.casefold().replace("×", "x")
