"""The baseline the line-puzzle benchmark compares against: Flip It solved and enumerated the way
the seed pages do it — positions as strings, a dict of positions seen, a FIFO queue.

- `seed_bidirectional`: seed 000's Perl search, translated line for line: `%head` (position ->
  the one it came from) grows from the start; every new position's colour swap goes into `%tail`
  (the search from the goal for free); a queue entry remembers the previous empty cell so a stone
  is never moved straight back; the search stops at the first position found in the other hash.
  The Perl looks keys up with `grep /$temp/, keys %tail`, a scan of every key; here that is a
  dict lookup, which is what the hash is for (the literal scan would be far slower still).
- `seed_bfs`: seed 001's Julia BFS (a queue, a dict `chk`, stop when the goal is generated).
- `seed_enumerate`: the same BFS run until the queue is empty, counting positions by depth.

Nothing here is slowed on purpose; nothing here is used by the engine.
"""

from __future__ import annotations

from collections import deque

SWAP = str.maketrans("BW", "WB")


def jump(board: str, empty: int, stone: int) -> str:
    """The stone at `stone` jumps into `empty`; the stones in between flip (the Perl's substr)."""
    if empty < stone:
        middle = board[empty + 1 : stone].translate(SWAP)
        return board[:empty] + board[stone] + middle + "_" + board[stone + 1 :]
    middle = board[stone + 1 : empty].translate(SWAP)
    return board[:stone] + "_" + middle + board[stone] + board[empty + 1 :]


def targets(n: int, empty: int) -> list[int]:
    """Cells whose stone may jump into `empty`: all but the empty cell and its neighbours."""
    return [p for p in range(n) if p < empty - 1 or p > empty + 1]


def seed_bidirectional(start: str) -> tuple[list[str], int]:
    """(positions from start to goal, positions stored in both hashes)."""
    n = len(start)
    goal = start.translate(SWAP)
    head: dict[str, str | None] = {start: None}
    tail: dict[str, str | None] = {goal: None}
    board_queue = deque([(start, n)])
    while board_queue:
        board, previous = board_queue.popleft()
        r_board = board.translate(SWAP)
        c_pos = board.index("_")
        for n_pos in targets(n, c_pos):
            if n_pos == previous:
                continue
            temp = jump(board, c_pos, n_pos)
            if temp in tail:
                return gather(head, board) + gather_tail(tail, temp), len(head) + len(tail)
            if temp in head:
                continue
            head[temp] = board
            board_queue.append((temp, c_pos))
            swapped = temp.translate(SWAP)
            if swapped in head:
                path = gather(head, swapped) + gather_tail(tail, r_board)
                return path, len(head) + len(tail)
            tail[swapped] = r_board
    raise ValueError(f"no solution from {start}")


def gather(head: dict[str, str | None], board: str) -> list[str]:
    path: list[str] = []
    at: str | None = board
    while at is not None:
        path.append(at)
        at = head[at]
    path.reverse()
    return path


def gather_tail(tail: dict[str, str | None], board: str) -> list[str]:
    path: list[str] = []
    at: str | None = board
    while at is not None:
        path.append(at)
        at = tail[at]
    return path


def seed_bfs(start: str) -> tuple[list[str], int]:
    """(positions from start to goal, positions stored), plain breadth-first."""
    n = len(start)
    goal = start.translate(SWAP)
    if start == goal:
        return [start], 1
    chk: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        c_pos = board.index("_")
        for n_pos in targets(n, c_pos):
            temp = jump(board, c_pos, n_pos)
            if temp == goal:
                chk[temp] = board
                return gather(chk, temp), len(chk)
            if temp not in chk:
                chk[temp] = board
                queue.append(temp)
    raise ValueError(f"no solution from {start}")


def seed_enumerate(start: str) -> list[int]:
    """Positions reachable from `start`, counted by distance."""
    n = len(start)
    depth = {start: 0}
    queue = deque([start])
    histogram = [1]
    while queue:
        board = queue.popleft()
        d = depth[board] + 1
        c_pos = board.index("_")
        for n_pos in targets(n, c_pos):
            temp = jump(board, c_pos, n_pos)
            if temp not in depth:
                depth[temp] = d
                queue.append(temp)
                if d == len(histogram):
                    histogram.append(0)
                histogram[d] += 1
    return histogram
