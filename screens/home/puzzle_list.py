"""The lines of the home list: the "Random game" and "Daily" entries, one line per family
(opened to show its presets with their difficulty and the player's mark), and the
"Curiosities" group of presets the engine proves cannot be won. Pure functions of the
catalogue, the facts known so far, the player's marks, which groups are open and the filter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from textual.content import Content
from textual.widgets.option_list import Option

from kaeru.engine.catalogue import entries as listing
from kaeru.engine.catalogue.entries import Entry, Preset, catalogue, match_rank, matches
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.store import IN_PROGRESS, SOLVED

RANDOM_ID = "entry:random"
DAILY_ID = "entry:daily"
NOTHING_ID = "entry:nothing"  # the line a filter that matches nothing shows
FAMILY_PREFIX = "family:"
CURIOSITIES = "curiosities"
CURIOSITIES_ID = FAMILY_PREFIX + CURIOSITIES
CURIOSITIES_NAME = "Curiosities"
CURIOSITIES_WORDS = "curiosities cannot be won impossible unwinnable"
MARKS = {SOLVED: "✓", IN_PROGRESS: "•"}  # the player's mark on a preset
MARK_WORDS = {SOLVED: "solved", IN_PROGRESS: "in progress"}
OPEN, CLOSED = "▾", "▸"

EntryLine = tuple[str, str, str]  # (option id, name, what it does)
ENTRIES: tuple[EntryLine, ...] = (
    (RANDOM_ID, "Random game", "any puzzle"),
    (DAILY_ID, "Daily puzzles", "today's"),
)


@dataclass(frozen=True)
class ListView:
    """What the list shows: the open groups (family keys, `CURIOSITIES`) and the filter."""

    opened: frozenset[str] = frozenset()
    filter: str = ""


def family_id(key: str) -> str:
    return FAMILY_PREFIX + key


def unwinnable(facts: Mapping[str, Facts]) -> set[str]:
    return {pid for pid, known in facts.items() if known.unwinnable}


def groups(facts: Mapping[str, Facts]) -> list[Entry]:
    """The families with their winnable presets, then the curiosities as a group of its own."""
    apart = unwinnable(facts)
    found: list[Entry] = []
    curious: list[Preset] = []
    for entry in catalogue():
        kept = tuple(p for p in entry.presets if p.puzzle_id not in apart)
        curious += [p for p in entry.presets if p.puzzle_id in apart]
        if kept:
            found.append(Entry(entry.key, entry.name, entry.blurb, kept))
    if curious:
        blurb = "Puzzles the engine proves cannot be won, each with the reason why."
        found.append(Entry(CURIOSITIES, CURIOSITIES_NAME, blurb, tuple(curious)))
    return found


def group_of(puzzle_id: str, facts: Mapping[str, Facts]) -> Entry | None:
    """The group (family or curiosities) that lists `puzzle_id`."""
    for group in groups(facts):
        if any(p.puzzle_id == puzzle_id for p in group.presets):
            return group
    return None


def options(
    view: ListView, facts: Mapping[str, Facts], marks: Mapping[str, str], width: int
) -> list[Option | None]:
    """The list's options for `view`, lines `width` cells wide (None: a separator line)."""
    text = view.filter.strip()
    lines: list[Option | None] = [
        Option(columns(f"  {name}", what, "", width, italic=True), id=option_id)
        for option_id, name, what in ENTRIES
        if not text or matches(text, name, what)
    ]
    for group in groups(facts):
        words = CURIOSITIES_WORDS if group.key == CURIOSITIES else ""
        whole = bool(text) and matches(text, group.name, group.blurb, words)
        shown = [
            p
            for p in group.presets
            if not text or whole or matches(text, group.name, p.label, p.title, p.puzzle_id)
        ]
        if not shown:
            continue
        starts_block = group.key == CURIOSITIES or (
            lines and lines[-1] is not None and lines[-1].id in (RANDOM_ID, DAILY_ID)
        )
        if lines and starts_block:
            lines.append(None)
        opened = group.key in view.opened or bool(text)
        lines.append(Option(_family_line(group, opened, marks, width), id=family_id(group.key)))
        if opened:
            lines += [Option(preset_line(p, facts, marks, width), id=p.puzzle_id) for p in shown]
    if text and not lines:
        words = f"  Nothing matches “{text}” (Esc clears)"
        lines.append(Option(columns(words, "", "", width, italic=True), id=NOTHING_ID))
    return lines


def _family_line(group: Entry, opened: bool, marks: Mapping[str, str], width: int) -> Content:
    solved = sum(marks.get(p.puzzle_id) == SOLVED for p in group.presets)
    count = f"{solved}/{len(group.presets)} ✓" if solved else f"{len(group.presets)}"
    return columns(f"{OPEN if opened else CLOSED} {group.name}", count, "", width, bold=True)


def preset_line(
    item: Preset, facts: Mapping[str, Facts], marks: Mapping[str, str], width: int
) -> Content:
    known = facts.get(item.puzzle_id)
    if known is None:
        difficulty = "…"
    elif known.unwinnable:
        difficulty = "why? →"
    elif known.length is not None and known.unit == "move":
        difficulty = known.difficulty
    else:  # one figure down the list: moves; jumps and position counts are in About
        difficulty = "–"
    mark = MARKS.get(marks.get(item.puzzle_id, ""), "")
    return columns(f"    {item.label}", difficulty, mark, width)


def columns(
    name: str, figure: str, mark: str, width: int, *, bold: bool = False, italic: bool = False
) -> Content:
    """One list line of `width` cells: the name on the left, a figure on the right, then the
    mark. The figure gives way first, then the name's end, so a line never wraps."""
    room = max(1, width - 2)  # a space and the mark
    if len(name) + 1 + len(figure) > room:
        figure = ""
    if len(name) > room:
        name = name[: room - 1] + "…"
    gap = " " * max(1, room - len(name) - len(figure))
    return Content.assemble(
        (name, "bold" if bold else ""),
        gap,
        (figure, "dim italic" if italic else "dim"),
        " ",
        (mark or " ", "bold"),
    )


def preset_ids(lines: Iterable[Option | None]) -> list[str]:
    """The ids of the presets in `lines`, in list order."""
    return [
        line.id
        for line in lines
        if line is not None and line.id and not line.id.startswith(("entry:", FAMILY_PREFIX))
    ]


def best_match(text: str, lines: Iterable[Option | None]) -> str | None:
    """The preset Enter plays from the filter `text`: the one its own names match best
    (`catalogue.match_rank`: "15 puzzle" is the 15-puzzle, not the first sliding puzzle whose
    family's blurb names it), the first listed of equals; else the first listed."""
    listed = preset_ids(lines)
    ranked = []
    for index, puzzle_id in enumerate(listed):
        try:
            item = listing.preset(puzzle_id)
        except KeyError:
            continue
        rank = match_rank(text, item, listing.entry(item.family).name)
        if rank is not None:
            ranked.append((rank, index, puzzle_id))
    if ranked:
        return min(ranked)[2]
    return next(iter(listed), None)
