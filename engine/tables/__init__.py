"""Depth tables: one byte per position of a space with a perfect index, built once and kept.

- `dense` — the breadth-first search that fills a table (over a perfect index, unreached marked);
- `table` — a finished table: distances, the walk-down solve, random positions at a depth;
- `survey` — a table's figures: positions per depth, the farthest positions;
- `coded` — puzzles that number their positions (`CodedPuzzle`) enumerated with `dense`;
- `arrangements` — a perfect index of two kinds of pieces on a board (the knights' positions);
- `store` — tables kept in memory and in the cache folder: atomic writes, a lock across
  processes, old versions pruned, damaged files rebuilt;
- `files` — the file format (a checked header, then the raw array);
- `folder` — where the cache folder is, what it holds (`folder_bytes`), and the one-line notice
  when it cannot be used (`notices()`, `on_notice(listener)`: for the CLI and the app to show);
- `first_use` — a build in a player's words while it runs: what, how big on disk, about how long
  (`SearchStats.note`), and how far along (`SearchStats.progress`).

Clearing the cache folder safely (the settings screen) is `engine.catalogue.cache_folder`.

Spaces without a cheap perfect index (Number reversal) are searched layer by layer over sorted
arrays of packed positions instead: that is `engine.search.packed`, a solver, not a table.
"""
