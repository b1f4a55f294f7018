"""The game: the midend, one game in progress (Simon Tatham's `midend.c`).

- `session`: `Session`, everything a front end does to a game (moves, undo/redo/restart, hint,
  solve, playback, take-over, outcome, clock, persistence) and its listeners; `view`:
  `GameView`, its private state and the read-only properties a front end reads.
- `modes`: the modes as a state machine and the one-line refusals.
- `jobs`: the game's searches by tag, stale answers dropped; `answers`: what an answer does.
- `saves`: the game as the store keeps it; `record`: the values handed out (outcome, search
  view, the store's protocol); `clock`: time played; `playback`: stepping through a solution.

The top floor of the engine with the coach: a front end imports `engine.game.session`.
"""
