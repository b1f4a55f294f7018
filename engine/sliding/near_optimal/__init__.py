"""Boards past 16 cells: near-optimal answers, each with a proved bound.

- `bounded`: the anytime weighted A* and the IDA* that raises the lower bound (5×5);
  `wastar_kernel`, `bounded_kernels`: their compiled kernels.
- `lower_bound`: the whole board's proved lower bound past 5×5 (IDA* on Manhattan + linear
  conflicts + last moves up to 7×7); `max_kernel`: its compiled kernel.
- `peel`: boards past 5×5 line by line down to 5×5; `shortcut`: a solution shortened window by
  window; `reduction`: the fast row-by-row answer of any size, the fallback.
"""
