"""Turning a two-blank depth array into the `Enumeration` the CLI and the explorer show: the
figures of `engine.tables.survey` plus the pair-at-the-end count per depth."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kaeru.engine.rules.results import Enumeration, SearchStats
from kaeru.engine.tables import survey as tables_survey
from kaeru.engine.tables.survey import count_depths
from kaeru.engine.two_blank.geometry import State
from kaeru.engine.two_blank.index import TwoBlankIndex

PAIR_AT_END = "pair_at_end"


def survey(
    index: TwoBlankIndex,
    depth: np.ndarray,
    root_text: str,
    stats: SearchStats,
    format_state: Callable[[State], str],
    rename: dict[int, int] | None = None,
) -> Enumeration:
    """The figures of a finished depth array. `rename` maps the tiles of the positions the
    array is about back to the names the player used (see `TwoBlankIndex.relabel`)."""
    length = len(count_depths(depth))
    pair_at_end = count_depths(depth[index.geometry.goal_pair * index.block :], length)

    def decode(code: int) -> State:
        state = index.decode(code)
        return tuple(rename.get(t, t) for t in state) if rename else state

    return tables_survey.survey(
        depth,
        decode,
        format_state,
        root_text,
        stats,
        series={PAIR_AT_END: tuple(int(n) for n in pair_at_end)},
    )
