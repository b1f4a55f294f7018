"""The win message counts the way each puzzle is counted: moves, or jumps and chained moves."""

from __future__ import annotations

from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, play_screen, settle


async def test_peg_win_counts_jumps_and_chains():
    app = KaeruApp("pegs-english-t", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        solution = screen.session.solve()
        for move in solution.moves:
            screen.make_move(move)
        await settle(pilot)
        chains = screen.session.puzzle.chains(solution.moves)
        status = str(screen.query_one("#status").content)
        assert screen.session.solved
        assert f"Solved: {solution.length} jumps, {len(chains)} moves." in status
