"""The play screen: one game in progress.

- `screen`: `PlayScreen` (keys -> session calls; session changes -> widget updates).
- `keys`: its bindings with ids; `layout`: where each part goes at each terminal size;
  `text`: the game typed as text and read back.
"""
