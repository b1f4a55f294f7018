"""The coach: the optimal distance to the goal at every position where it can be known, and what
it says about a game — graded hints, each move graded, the analysis after a win, a drill.

- `distance` — the distance oracle: at once from a depth table where the family has one (and it
  is built), else from an optimal solve; `Distance` says how far, or why the game is lost;
- `tables` — the depth tables the coach reads (the families' own, or a small breadth-first map
  it builds itself), keyed by puzzle and goal, and which are ready without building;
- `grading` — a verdict for each move: optimal (distance − 1), wasted (up or level), lost;
- `session_coach` — coach mode inside a `Session`: distances as jobs, graded hints, the move
  list, undo to the last position that could still be won;
- `analysis` — a finished game's distance curve against the optimal diagonal, its mistakes;
- `drill` — "find the best move" positions at a chosen distance.

Nothing here imports Textual or the front end.
"""

from kaeru.engine.coach.distance import Distance, best_move, distance, known_distance
from kaeru.engine.coach.grading import GradedMove, Grading, grade, verdict

__all__ = [
    "Distance",
    "GradedMove",
    "Grading",
    "best_move",
    "distance",
    "grade",
    "known_distance",
    "verdict",
]
