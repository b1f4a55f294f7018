"""Pattern databases: lower bounds kept on disk and mapped read-only.

- `pattern_db`: additive databases built by numpy breadth-first searches over groups of tiles.
- `pdb78`, `pdb_index`, `pdb_build`, `pdb_order`: the 15-puzzle's two tiers (7-7-1 on first
  use, 7-8 built ahead with `kaeru tables build`), their indexing, their compiled build and the
  tile order they are stored and looked up in.
- `pdb_big`: additive databases for 5×5 and larger; `line_tables`: tables that count the blank,
  for bringing a line of a big board home.
- `line_conflicts`: Manhattan + linear conflicts + last moves, as tables a compiled search
  keeps up to date move by move (the big boards' proved lower bound).
"""
