"""Kaeru Arcade's engine: puzzle rules, searches and the game session. Never imports Textual."""

from kaeru.engine.control import Control
from kaeru.engine.core import (
    BadInput,
    BudgetExceeded,
    Cancelled,
    Capabilities,
    GoalKind,
    Puzzle,
    SearchStats,
    Solution,
    Unsolvable,
)
from kaeru.engine.family import Family
from kaeru.engine.registry import families, get_puzzle
from kaeru.engine.results import Enumeration

__all__ = [
    "BadInput",
    "BudgetExceeded",
    "Cancelled",
    "Capabilities",
    "Control",
    "Enumeration",
    "Family",
    "GoalKind",
    "Puzzle",
    "SearchStats",
    "Solution",
    "Unsolvable",
    "families",
    "get_puzzle",
]
