"""Optimal solving of boards of at most 16 cells (the 15-puzzle and smaller).

- `ida`, `ida_kernels`: the compiled IDA*, the choice of heuristic by tier.
- `heuristics` (Manhattan distance with linear conflicts), `walking_distance` (walking and
  inversion distance): the heuristics that need no tables.
- `frontier`: breadth-first IDA* over packed codes; `full_table`: depth tables of boards of
  at most ten cells; `known_lines`: lines found lately, so the next question is cheap.
"""
