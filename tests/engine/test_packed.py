"""The numpy layered search (engine.search.packed) on its own: the sorted-array helpers, and
shortest paths on random explicit graphs — two-sided, one-sided and with the mirror trick,
including graphs that are not bipartite, where the mirror search must prefer the odd meeting."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.rules.control import Meter
from kaeru.engine.search.packed import contains, new_codes, packed_path

# ---- the sorted-array helpers --------------------------------------------------------------------
codes = st.lists(st.integers(0, 2**61), max_size=60)


@settings(deadline=None)
@given(codes, codes, codes)
def test_new_codes_is_a_sorted_set_difference(candidates, first, second):
    known = [np.array(sorted(set(k)), dtype=np.int64) for k in (first, second)]
    got = new_codes(np.array(candidates, dtype=np.int64), known)
    assert got.tolist() == sorted(set(candidates) - set(first) - set(second))


@settings(deadline=None)
@given(codes, codes)
def test_contains_is_membership(haystack, needles):
    stack = np.array(sorted(set(haystack)), dtype=np.int64)
    got = contains(stack, np.array(needles, dtype=np.int64))
    assert got.tolist() == [n in set(haystack) for n in needles]


# ---- the layered search on explicit graphs ------------------------------------------------
class Graph:
    """Vertices 0..size-1 are their own codes; a PackedPuzzle's neighbours over explicit edges.
    Made of two copies (v and v + half) with edges symmetric under swapping the copies, so the
    swap is an involution of the graph: the mirror trick applies from v to v + half."""

    def __init__(self, half: int, inside: list[tuple[int, int]], across: list[tuple[int, int]]):
        self.half = half
        self.adjacent: list[set[int]] = [set() for _ in range(2 * half)]
        for a, b in inside:
            self.join(a, b)
            self.join(a + half, b + half)
        for a, b in across:
            self.join(a, b + half)
            self.join(b, a + half)

    def join(self, a: int, b: int) -> None:
        if a != b:
            self.adjacent[a].add(b)
            self.adjacent[b].add(a)

    def neighbours(self, codes: np.ndarray) -> np.ndarray:
        found = [v for c in codes.tolist() for v in sorted(self.adjacent[c])]
        return np.array(found, dtype=np.int64)

    def mirror(self, codes: np.ndarray) -> np.ndarray:
        return np.where(codes < self.half, codes + self.half, codes - self.half)


def bfs_distance(graph: Graph, source: int, target: int) -> int | None:
    depth = {source: 0}
    queue = [source]
    for u in queue:
        for v in graph.adjacent[u]:
            if v not in depth:
                depth[v] = depth[u] + 1
                queue.append(v)
    return depth.get(target)


def assert_path(graph: Graph, path: list[int] | None, source: int, target: int) -> None:
    expected = bfs_distance(graph, source, target)
    if expected is None:
        assert path is None
        return
    assert path is not None and path[0] == source and path[-1] == target
    assert len(path) - 1 == expected
    for a, b in pairwise(path):
        assert b in graph.adjacent[a]


pairs = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=14)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), pairs, pairs, st.data())
def test_layered_searches_find_shortest_paths_on_any_graph(half, inside, across, data):
    inside = [(a % half, b % half) for a, b in inside]
    across = [(a % half, b % half) for a, b in across]
    graph = Graph(half, inside, across)
    source = data.draw(st.integers(0, half - 1))
    mirrored = packed_path(graph.neighbours, source, source + half, Meter("t"),
                           mirror=graph.mirror)
    assert_path(graph, mirrored, source, source + half)
    target = data.draw(st.integers(0, 2 * half - 1))
    for two_sided in (True, False):
        path = packed_path(graph.neighbours, source, target, Meter("t"), two_sided=two_sided)
        assert_path(graph, path, source, target)


def test_the_mirror_search_prefers_the_odd_meeting():
    """A ring of 7 (not bipartite) from 0 to 3, mirror i -> 3 - i: layer 2 holds both a meeting
    at 2 + 1 moves (via 2) and one at 2 + 2 (via 5); the shorter must win."""
    ring = Graph(1, [], [])
    ring.adjacent = [{(i - 1) % 7, (i + 1) % 7} for i in range(7)]
    path = packed_path(ring.neighbours, 0, 3, Meter("t"),
                       mirror=lambda codes: (3 - codes) % 7)
    assert path == [0, 1, 2, 3]
