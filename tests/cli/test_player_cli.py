"""`kaeru records`, `kaeru random` and `kaeru daily`: their JSON contracts and exit codes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from kaeru.engine.catalogue.daily import daily_games
from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.store import FinishedGame, Store
from kaeru.tui.cli import main


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's usage errors
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_records_json_lists_finished_games_newest_first(capsys, data_dir: Path):
    code, out, _ = run(capsys, "records", "--json")
    assert code == 0 and json.loads(out) == []
    with Store.open() as store:
        for n, when in enumerate(("2026-11-21T09:00:00+00:00", "2026-11-22T09:00:00+00:00")):
            store.finish_game(
                None,
                FinishedGame(
                    f"oshidori:g{n}",
                    "oshidori",
                    ("a",) * (4 + n),
                    4 + n,
                    4,
                    30.5 + n,
                    n,
                    bool(n),
                    when,
                ),
            )
    code, out, _ = run(capsys, "records", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["game_id"] for r in rows] == ["oshidori:g1", "oshidori:g0"]
    assert rows[0] == {
        "game_id": "oshidori:g1",
        "moves": 5,
        "optimal": 4,
        "seconds": 31.5,
        "hints": 1,
        "helped": True,
        "finished": "2026-11-22T09:00:00+00:00",
    }
    code, out, _ = run(capsys, "records", "--limit", "1")
    assert code == 0 and out.count("\n") == 1 and "helped" in out
    assert run(capsys, "records", "--limit", "-1")[0] == 2


def test_records_of_a_puzzle_that_does_not_exist_is_bad_input(capsys, data_dir: Path):
    code, out, err = run(capsys, "records", "--puzzle", "nope")
    assert code == 2 and not out and err.count("\n") == 1 and "nope" in err
    assert run(capsys, "records", "--puzzle", "oshidori")[0] == 0


def test_records_with_saves_off_still_answers_with_a_notice(capsys, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "file"))
    code, out, err = run(capsys, "records", "--json")
    assert code == 0 and json.loads(out) == []
    assert err.startswith("kaeru: Saves are off") and err.count("\n") == 1


def test_random_json_contract_and_seed(capsys):
    code, out, _ = run(capsys, "random", "sliding-3x3", "--seed", "5", "--json")
    game = json.loads(out)
    assert code == 0 and set(game) == {"id", "game_id", "start", "optimal"}
    assert game["id"] == "sliding-3x3" and game["game_id"].startswith("sliding-3x3:")
    assert isinstance(game["optimal"], int)
    assert json.loads(run(capsys, "random", "sliding-3x3", "--seed", "5", "--json")[1]) == game
    code, out, _ = run(capsys, "random", "sliding-3x3", "--seed", "5", "--depth", "30", "--json")
    assert code == 0 and json.loads(out)["optimal"] == 30
    code, out, _ = run(capsys, "random", "sliding-4x4", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["optimal"] is None


@pytest.mark.parametrize(
    "argv",
    [
        ("random", "pegs-english"),
        ("random", "no-such-puzzle"),
        ("random", "sliding-3x3", "--depth", "99"),
        ("random", "sliding-3x3", "--seed", "x"),
        ("daily", "--date", "yesterday"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("kaeru: ") and err.count("\n") == 1


def test_random_that_cannot_find_a_depth_gives_up_with_3(capsys, monkeypatch):
    monkeypatch.setattr("kaeru.engine.catalogue.random_games.MAX_DRAWS", 10)
    code, _, err = run(capsys, "random", "flip-it-5", "--depth", "40")
    assert code == 3 and "no start 40 moves" in err


def test_daily_json_is_the_day_s_list(capsys, data_dir: Path):
    code, out, _ = run(capsys, "daily", "--date", "2026-11-23", "--json")
    assert code == 0
    assert json.loads(out) == [g.as_json() for g in daily_games("2026-11-23")]
    code, out, _ = run(capsys, "daily", "--date", "2026-11-23")
    assert code == 0 and "sliding-4x4" in out and out.startswith("Kaeru daily puzzles, 2026-11-23")


def test_daily_gives_the_15_puzzle_s_optimum_the_place_or_a_win_knows(capsys, data_dir: Path):
    """Issue 22: `kaeru daily` printed `optimal ?` (JSON null) for the 15-puzzle's daily even once
    the shared place had worked it out for the day."""
    from kaeru.engine.place.place import Place

    day = "2026-11-23"
    [fifteen] = [g for g in daily_games(day) if g.id == "sliding-4x4"]
    assert fifteen.optimal is None  # not quick: the place works it out once per day
    code, out, _ = run(capsys, "daily", "--date", day, "--json")
    assert code == 0 and {g["id"]: g["optimal"] for g in json.loads(out)}["sliding-4x4"] is None
    with Store.open() as store:  # a win of that start recorded its optimum
        store.finish_game(None, FinishedGame(fifteen.game_id, "sliding-4x4", ("1 up",) * 52, 52,
                                             48, 90.0, 0, False, f"{day}T10:00:00+00:00",
                                             daily=day))
    code, out, _ = run(capsys, "daily", "--date", day, "--json")
    assert {g["id"]: g["optimal"] for g in json.loads(out)}["sliding-4x4"] == 48
    place = Place.open()  # the server's stored optimum comes first
    place.set_optimum(day, "sliding-4x4", fifteen.game_id, 46)
    place.close()
    code, out, _ = run(capsys, "daily", "--date", day, "--json")
    assert {g["id"]: g["optimal"] for g in json.loads(out)}["sliding-4x4"] == 46
    code, out, _ = run(capsys, "daily", "--date", day)
    [line] = [line for line in out.splitlines() if "sliding-4x4 " in line]
    assert code == 0 and "optimal  46" in line and "?" not in line


def test_solve_and_hint_json_write_moves_one_way(capsys, data_dir: Path):
    """Regression: `hint --json` wrote `4->2`, `solve --json` `5 → 2`; extra figures such as
    `stats.positions` were strings."""
    code, out, _ = run(capsys, "solve", "flip-it-5", "--json")
    solved = json.loads(out)
    assert code == 0 and all("→" not in move for move in solved["moves"])
    assert isinstance(solved["stats"]["positions"], int)
    code, out, _ = run(capsys, "hint", "flip-it-5", "--json")
    assert json.loads(out)["move"] == solved["moves"][0]
    code, out, _ = run(capsys, "grade", "flip-it-5", *solved["moves"], "--json")
    assert code == 0


def test_cli_words_say_a_verdict_once_and_count_jumps_as_jumps(capsys, data_dir: Path):
    code, out, _ = run(capsys, "solve", "pegs-triangle")
    assert code == 0 and out.splitlines()[1].startswith("13 jumps, optimal")
    code, out, _ = run(capsys, "solve", "sliding-3x3:1 2 3/4 5 6/8 7 _")
    assert code == 1 and "no solution — sorting this layout" in out and "unsolvable:" not in out
    code, _, err = run(capsys, "grade", "sliding-3x3", "9->1")
    assert code == 2 and err.count("9->1") == 1 and "is not legal:" not in err


SHELL_SAFE = re.compile(r"[A-Za-z0-9_,./:@+=-]+")


@pytest.mark.parametrize("family", families(), ids=lambda f: f.key)
def test_game_ids_paste_unquoted_and_read_back(capsys, data_dir: Path, family):
    """Regression: two-blank ids held spaces and river ids spaces and a `|` (a shell pipe)."""
    puzzle = get_puzzle(family.ids[0])
    rng, played = random.Random(5), puzzle.initial()
    for _ in range(3):  # a start other than the standard one
        played = puzzle.apply(played, rng.choice(list(puzzle.moves(played))))
    for start in (puzzle.initial(), played):
        game_id = puzzle.game_id(start)
        assert SHELL_SAFE.fullmatch(game_id), game_id
        assert parse_game_id(game_id)[1] == start
    code, out, _ = run(capsys, "solve", puzzle.game_id(puzzle.initial()), "--json")
    assert code in (0, 1) and json.loads(out)["id"] == puzzle.id
