"""The win message counts the way each puzzle is counted: moves, or chained moves and jumps."""

from __future__ import annotations

from kaeru.engine.search import dispatch
from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, play_screen, settle


async def test_peg_win_counts_jumps_and_chains():
    app = KaeruApp("pegs-english-t", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        session = screen.session
        solution = dispatch.solve(session.puzzle, session.state, session.start)
        for move in solution.moves:
            session.push(move)
        await settle(pilot)
        chains = session.puzzle.chains(solution.moves)
        status = str(screen.query_one("#status").content)
        assert session.solved
        assert f"Solved in {len(chains)} moves ({solution.length} jumps)." in status
