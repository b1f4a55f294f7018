"""Boards past 16 cells: near-optimal answers, each with a proved bound.

- `bounded`: the anytime weighted A* and the IDA* that raises the lower bound (5×5);
  `wastar_kernel`, `bounded_kernels`: their compiled kernels.
- `peel`: boards past 5×5 line by line down to 5×5; `shortcut`: a solution shortened window by
  window; `reduction`: the fast row-by-row answer of any size, the fallback.
"""
