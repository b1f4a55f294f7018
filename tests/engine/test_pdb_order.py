"""The 15-puzzle databases' lookup order (`pdb_order`): the gather from the build's block order
puts every level where the search looks it up, a move of a late tile stays near the entry
before it, and a table kept by the earlier version (block order) is converted on first use,
not rebuilt."""

from __future__ import annotations

from math import perm
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.databases import pdb78, pdb_build, pdb_index, pdb_order
from kaeru.engine.tables import files, store


def block_order_of(k: int) -> np.ndarray:
    """For each tile-order entry of k tiles, its entry in the build's block order."""
    cells = pdb_order.tile_order_cells(k, np.arange(perm(16, k)))
    return np.array([pdb_index.placement_index(c) for c in cells.tolist()], dtype=np.int64)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_gather_puts_each_level_at_its_tile_order_entry(k: int) -> None:
    rng = np.random.default_rng(k)
    source = rng.integers(0, 60, perm(16, k)).astype(np.uint8)
    out = pdb_order.to_tile_order(source, k, Meter("test"))
    assert np.array_equal(out, source[block_order_of(k)])


@pytest.mark.parametrize("k", [1, 3])
def test_the_gather_reads_the_builds_nibbles_back_as_levels(k: int) -> None:
    rng = np.random.default_rng(10 + k)
    entries = perm(16, k)
    nibbles = rng.integers(0, 256, (entries + 1) // 2).astype(np.uint8)
    group = tuple(range(1, k + 1))
    distance = pdb_build._home_distance(group)
    decode = pdb_build._decode_table()
    out = pdb_order.to_tile_order(nibbles, k, Meter("test"), nibbles=True, distance=distance,
                                  decode=decode)
    block = block_order_of(k)
    codes = (nibbles[block >> 1] >> ((block & 1) << 2)) & 15
    cells = pdb_order.tile_order_cells(k, np.arange(entries))
    md = sum(distance[i, cells[:, i]] for i in range(k))
    assert np.array_equal(out, decode[codes, md])


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(16)), st.integers(0, 3))
def test_a_move_of_the_last_tile_stays_within_a_cache_line(order: list[int], way: int) -> None:
    """The point of the order: a search's next lookup lands near the one before when one of the
    late tiles moved (the last: fewer than 9 entries away; in block order, 40,320 or more)."""
    cells = list(order[:8])  # tiles 1-8 on these cells
    here = cells[-1]
    there = int(grid(4, 4).neighbour_array[here, way])
    if there < 0 or there in cells:
        return
    moved = [*cells[:-1], there]
    step = abs(pdb_order.tile_order_index(moved) - pdb_order.tile_order_index(cells))
    assert 0 < step < 9
    assert abs(pdb_index.placement_index(moved) - pdb_index.placement_index(cells)) >= 40_320


def test_tables_of_the_earlier_version_are_converted_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's tables in block order (version 3) are turned into tile order in seconds,
    shown as a build is, and the earlier files go once the new ones are saved; nothing is built."""
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    small = ((1, 2, 3), (4,))
    monkeypatch.setitem(pdb78.TIERS, pdb78.MIDDLE, small)
    monkeypatch.setattr(pdb78, "_loaded", {})
    store.forget()
    rng = np.random.default_rng(3)
    expected = {}
    for group in small:
        k = len(group)
        earlier = rng.integers(0, 40, perm(16, k)).astype(np.uint8)
        files.write_table(tmp_path / store.file_name(pdb78.table_key(group), pdb78.EARLIER),
                          earlier)
        expected[group] = earlier[block_order_of(k)]
    assert pdb78.ready(pdb78.MIDDLE)  # no build needed: a conversion
    monkeypatch.setattr(pdb78, "build_group", lambda *a: pytest.fail("built, not converted"))
    notes: list[str] = []
    patterns = pdb78.pattern_set(pdb78.MIDDLE, Control(lambda s: notes.append(s.note), None,
                                                        None))
    for group, table in zip(small, patterns.tables, strict=True):
        assert np.array_equal(table, expected[group])
        assert (tmp_path / store.file_name(pdb78.table_key(group), pdb78.VERSION)).is_file()
        assert not (tmp_path / store.file_name(pdb78.table_key(group), pdb78.EARLIER)).exists()
    assert any(note.startswith("Converting") for note in notes)
    store.forget()
