"""Tables built ahead (`kaeru tables`): which tables an id names, how each is built, and which
are in the cache folder. The front end asks here and never reads a puzzle or a table file itself.

Ids: `sliding-4x4` (the 15-puzzle's pattern databases, both tiers), `sliding-4x4:TIER` (one
tier), or a sliding board small enough for a depth table (`sliding-3x3`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kaeru.engine.rules.control import Control
from kaeru.engine.rules.results import BadInput

FIFTEEN = "sliding-4x4"
Build = Callable[[Control], object]


def tiers_of(table_id: str) -> list[str]:
    """The 15-puzzle's tiers an id names (none: not the 15-puzzle's); BadInput for an unknown
    tier."""
    from kaeru.engine.sliding.databases import pdb78

    name, _, tier = table_id.partition(":")
    if name != FIFTEEN:
        return []
    if not tier:
        return [pdb78.MIDDLE, pdb78.FULL]
    if tier not in pdb78.TIERS:
        raise BadInput(f"{FIFTEEN} has the tiers {', '.join(pdb78.TIERS)}, not {tier!r}")
    return [tier]


def builders(table_id: str) -> list[tuple[str, Build]]:
    """(what, build(control)) for each table the id names; BadInput for an unknown id."""
    from kaeru.engine.sliding.databases import pdb78

    def tier_builder(tier: str) -> Build:
        return lambda control: pdb78.pattern_set(tier, control)

    tiers = tiers_of(table_id)
    if tiers:
        return [(pdb78.tier_name(t), tier_builder(t)) for t in tiers]
    from kaeru.engine.puzzles.registry import get_puzzle
    from kaeru.engine.sliding.optimal import full_table

    puzzle = get_puzzle(table_id)
    grid = getattr(puzzle, "grid", None)
    if grid is None or grid.cells > full_table.MAX_CELLS:
        raise BadInput(f"{table_id} has no table to build ahead (try {FIFTEEN})")
    return [(f"the depth table of {table_id}", lambda c: full_table.full_table(grid, c))]


def listing() -> list[dict[str, Any]]:
    """The 15-puzzle's tiers: id, name, whether built (or an earlier version to convert), and
    their bytes in the cache folder."""
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.tables.folder import cache_dir

    folder = cache_dir()
    rows: list[dict[str, Any]] = []
    for tier, groups in pdb78.TIERS.items():
        size, earlier = 0, False
        for group in groups:
            for version in (pdb78.VERSION, pdb78.EARLIER):  # an earlier one converts on use
                path = None if folder is None else folder / pdb78.store.file_name(
                    pdb78.table_key(group), version)
                if path is not None and path.is_file():
                    size += path.stat().st_size
                    earlier = earlier or version != pdb78.VERSION
                    break
        built = pdb78.ready(tier)
        rows.append({"id": f"{FIFTEEN}:{tier}", "table": pdb78.tier_name(tier),
                     "built": built, "to_convert": built and earlier, "bytes": size})
    return rows
