"""What the home screen's About panel says about the highlighted line: a preset (its difficulty,
the player's mark, whether it can be explored, its rules as flowing text, start and goal), a
family, the curiosities, or the "Random game" and "Daily" entries. Textual markup, built from
the engine's catalogue and facts."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from textual.markup import escape

from kaeru.engine.catalogue.entries import Entry, preset
from kaeru.engine.catalogue.explorable import explore_refusal
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.store import SOLVED
from kaeru.screens.home.puzzle_list import CURIOSITIES, DAILY_ID, MARK_WORDS, NOTHING_ID, RANDOM_ID
from kaeru.tui.words import flow, sentence

ENTRY_TEXT = {
    NOTHING_ID: (
        "[b]Nothing matches[/b]\n"
        "No puzzle's name has every word typed. Fewer words, or part of a word, find more "
        "(\"frog 3\", \"15 puzzle\"); Escape clears the filter."
    ),
    RANDOM_ID: (
        "[b]Random game[/b]\n"
        "A new game of a puzzle chosen at random, from a random start (Enter).\n\n"
        "On a puzzle, [b]n[/b] draws a random start of that puzzle; on a family, of one of "
        "its puzzles."
    ),
    DAILY_ID: (
        "[b]Daily puzzles[/b]\n"
        "Today's puzzles: one start per family, the same for every player on that date "
        "(Enter, or [b]d[/b] anywhere on this list)."
    ),
}
HOW_TO = "\n\n[dim]↑ ↓ choose · Enter or → open · ← close · / filter by name · ? help[/dim]"


@cache
def explore_note(puzzle_id: str) -> str | None:
    """Why the explorer is not offered for `puzzle_id` (None: it is)."""
    return explore_refusal(get_puzzle(puzzle_id))


def about_entry(option_id: str) -> str:
    return ENTRY_TEXT.get(option_id, "")


def about_family(group: Entry, marks: Mapping[str, str]) -> str:
    """A family (or the curiosities): what it is, how many presets, its rules."""
    solved = sum(marks.get(p.puzzle_id) == SOLVED for p in group.presets)
    count = len(group.presets)
    lines = [f"[b]{escape(group.name)}[/b]", escape(group.blurb)]
    what = "puzzle" if group.key == CURIOSITIES else "size or variant"
    if count != 1:
        what = "puzzles" if group.key == CURIOSITIES else "sizes and variants"
    lines.append(f"{count} {what}" + (f", {solved} solved." if solved else "."))
    if group.key != CURIOSITIES:
        lines.append(f"\n{escape(flow(group.rules))}")
    return "\n".join(lines) + HOW_TO


def about_preset(puzzle_id: str, facts: Facts | None, marks: Mapping[str, str]) -> str:
    """A preset: title, difficulty or why it cannot be won, mark, explorer, rules, start, goal."""
    puzzle = get_puzzle(puzzle_id)
    lines = [f"[b]{escape(preset(puzzle_id).title)}[/b]  [dim]{escape(puzzle_id)}[/dim]"]
    if facts is None:
        lines.append("[dim]Finding its shortest solution…[/dim]")
    elif facts.unwinnable:
        lines.append(f"[b]Cannot be won.[/b] {escape(sentence(facts.unwinnable))}")
    else:
        lines.append(escape(facts.described()))
    mark = MARK_WORDS.get(marks.get(puzzle_id, ""))
    if mark:
        lines.append(f"You: {mark}.")
    refusal = explore_note(puzzle_id)
    if refusal is None:
        lines.append("[b]e[/b] explores all its positions.")
    else:
        lines.append(f"[dim]No explorer: {escape(refusal)}.[/dim]")
    start = puzzle.initial()
    lines += [
        "",
        escape(flow(puzzle.rules)),
        "",
        f"[b]Start[/b] {escape(puzzle.format(start))}",
        f"[b]Goal[/b]  {escape(puzzle.goal_text(start))}",
    ]
    return "\n".join(lines)
