"""Search algorithms over the puzzle protocol — BFS, bidirectional BFS, A*, IDA*, enumeration
(generic and numpy-vectorised) — and the dispatcher (`dispatch`) that picks one from a puzzle's
declared capabilities. Callers use `kaeru.engine.search.dispatch`."""
