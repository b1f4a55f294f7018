"""Generic search algorithms over the puzzle protocol: BFS, bidirectional BFS, A*, IDA*,
enumeration (generic and numpy-vectorised)."""

from kaeru.engine.search.astar import astar, ida_star
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.search.enumerate import enumerate_space

__all__ = ["astar", "bfs", "bidirectional_bfs", "enumerate_space", "ida_star"]
