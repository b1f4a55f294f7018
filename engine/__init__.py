"""Kaeru Arcade's engine: puzzle rules, searches and the game session. Never imports Textual."""

from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import (
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
from kaeru.engine.rules.results import Enumeration

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
