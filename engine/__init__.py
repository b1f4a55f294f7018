"""Kaeru Arcade's engine: puzzle rules, searches and the game session. Never imports Textual."""

from kaeru.engine.core import (
    BadInput,
    BudgetExceeded,
    Cancelled,
    Puzzle,
    SearchStats,
    Solution,
    Unsolvable,
)
from kaeru.engine.registry import Family, families, get_puzzle
from kaeru.engine.results import Enumeration

__all__ = [
    "BadInput",
    "BudgetExceeded",
    "Cancelled",
    "Enumeration",
    "Family",
    "Puzzle",
    "SearchStats",
    "Solution",
    "Unsolvable",
    "families",
    "get_puzzle",
]
