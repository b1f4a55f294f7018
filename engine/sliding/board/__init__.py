"""A sliding board as data: its shape and moves, which layouts can be won, the shuffle,
its text and the speedsolvers' notation, and the codes a search keeps.

- `geometry`: the W×H board (cells, neighbours, the goal, the move type); `parity`: the
  solvability rule, said in one line; `shuffle`: seed 003's shuffle.
- `text`, `notation`: states as text, and the speedsolvers' move notation (U D L R, R3).
- `packed`: boards of at most 16 cells in one uint64; `perm_codes`, `perm_index`: perfect
  indexes of whole and partial layouts; `arrays`: sets of codes as sorted arrays.

The floor of the sliding rooms: it imports no other room.
"""
