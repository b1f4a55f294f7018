"""The heavy parts of the sliding puzzles: board geometry, the parity rule, seed 003's shuffle,
numpy permutation indexes, full depth tables, pattern databases, the optimal frontier search
and the row-by-row reduction for big boards. `engine.puzzles.sliding` ties them together."""
