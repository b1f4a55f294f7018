"""The heavy parts of the two-blank sliding puzzles (7, 10 and 14), one job per module:

- `geometry` — the board and the sliding rule on tuples;
- `perms` — ranking tile orders of one parity;
- `index` — the perfect index of the reachable space and its vectorised moves;
- `table` — the one-byte depth table (built, kept and walked down by `engine.tables`);
- `problems` — the seed's problem set (the pair at the bottom right, by depth);
- `survey` — a depth table turned into an `Enumeration`;
- `text` — reading and writing positions.

The Puzzle itself lives in `engine.puzzles.two_blank`.
"""
