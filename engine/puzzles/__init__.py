"""One module per puzzle family; each defines its Puzzle classes and a `FAMILY` entry."""
