"""Peg games the coach tests share: an English game whose last jump loses by a pagoda
argument, every jump before it still on a winning line."""

PAGODA_LOSS = [
    "d2-d4",
    "b3-d3",
    "c1-c3",
    "e1-c1",
    "b5-b3",
    "c4-c2",
    "c1-c3",
    "c6-c4",
    "e6-c6",
    "c7-c5",
    "e7-c7",
    "c4-c6",
    "c7-c5",
    "e4-c4",
    "g4-e4",
]
