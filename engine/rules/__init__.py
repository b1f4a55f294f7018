"""The rules' floor: what every puzzle family implements and the plain values passed around.

- `protocol`: `Puzzle` (a family's rules as pure functions), `Capabilities` (what it can do,
  as data read by one dispatcher), `GoalKind`, the errors a rule raises.
- `results`: `Solution`, `SearchStats`, `Enumeration` and the search errors.
- `control`: `Control` (progress, cancel, budget) and the `Meter` a running search keeps.
- `layout`: `Layout`, what a board draws, as pure data.
- `family`: `Family`, a family's variants and how to build a puzzle from an id.
- `text_input`, `words`, `prng`: strict reading of typed text, counts with their nouns, the
  project's own random generator.

The bottom floor: imports nothing else from the engine.
"""
