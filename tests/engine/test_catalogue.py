"""The catalogue the home screen shows: families and presets from the registry, short names that
fit, and the facts (difficulty, curiosities) asked of the engine and kept in the cache."""

from __future__ import annotations

import json

import pytest

from kaeru.engine.catalogue.cache import FILE_NAME, FactsCache
from kaeru.engine.catalogue.entries import MAX_LABEL, catalogue, entry, matches, preset
from kaeru.engine.catalogue.facts import (
    QUICK,
    THOROUGH,
    TINY,
    Facts,
    instant_facts,
    positions_of,
    short_number,
    survey,
)
from kaeru.engine.catalogue.survey import Survey
from kaeru.engine.puzzles.registry import all_ids, families, get_puzzle
from kaeru.engine.rules.protocol import Cancelled, Unsolvable
from kaeru.engine.search.dispatch import solve, solve_fewest_moves


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))


# ---- entries and presets ----------------------------------------------------------------------
def test_one_entry_per_family_holding_every_listed_id_once():
    assert [e.key for e in catalogue()] == [f.key for f in families()]
    listed = [p.puzzle_id for e in catalogue() for p in e.presets]
    assert listed == all_ids()


def test_preset_names_are_short_distinct_and_drop_the_family_name():
    for item in catalogue():
        labels = [p.label for p in item.presets]
        assert len(set(labels)) == len(labels), item.key
        for p in item.presets:
            assert 0 < len(p.label) <= MAX_LABEL, p.label
            assert p.title == get_puzzle(p.puzzle_id).title
    assert preset("flip-it-6").label == "6 cells"
    assert preset("frogs-3").label == "3 a side"
    assert preset("pegs-english-cross").label == "English Cross"
    assert preset("jealous-husbands-4-boat2").label == "Jealous husbands 4, boat 2"
    assert preset("two-blank-3x3").label == "7-puzzle (3×3)"
    assert entry("two-blank").name == "Two-blank puzzles"


def test_filter_words_match_anywhere_in_the_names():
    assert matches("frog 3", "Frog jump", "3 a side")
    assert matches("4X4", "15-puzzle (4×4)")
    assert not matches("frog 4", "Frog jump", "3 a side")
    assert matches("", "anything")


# ---- facts from the engine ----------------------------------------------------------------------
def test_difficulty_is_the_solvers_optimal_length():
    frogs = get_puzzle("frogs-3")
    facts = instant_facts(frogs)
    assert facts is not None and facts.settled
    assert facts.length == solve(frogs, frogs.initial(), frogs.initial()).length == 15
    assert facts.difficulty == "15 moves"


def test_pegs_count_moves_as_chains_where_the_fewest_are_quick_to_find():
    cross = get_puzzle("pegs-english-cross")
    start = cross.initial()
    facts = survey(cross, QUICK)
    fewest = solve_fewest_moves(cross, start, start)
    assert (facts.length, facts.unit) == (len(cross.chains(fewest.moves)), "move")


def test_curiosities_carry_the_engines_own_proof():
    french = get_puzzle("pegs-french")
    facts = instant_facts(french)
    assert facts is not None
    assert facts.unwinnable == french.unsolvable_reason(french.initial(), french.initial())
    river = get_puzzle("jealous-husbands-4-boat2")
    with pytest.raises(Unsolvable) as proof:
        solve(river, river.initial(), river.initial())
    assert survey(river, QUICK).unwinnable == proof.value.reason
    assert survey(river, QUICK).difficulty == "cannot be won"


def test_without_a_quick_optimal_solver_the_size_is_shown():
    big = get_puzzle("sliding-5x5")  # the reduction solver is not optimal
    facts = survey(big, THOROUGH)
    assert facts.length is None and facts.settled
    assert facts.positions == positions_of(big)[0] and "positions" in facts.difficulty
    assert instant_facts(get_puzzle("frogs-10")) is None  # more than TINY positions
    assert positions_of(get_puzzle("frogs-10"))[0] > TINY
    assert positions_of(get_puzzle("pegs-english")) == (2**33, False)


def test_a_cancelled_survey_step_raises():
    with pytest.raises(Cancelled):
        survey(get_puzzle("frogs-9"), THOROUGH, cancelled=lambda: True)


def test_short_numbers():
    assert short_number(3_150) == "3,150"
    assert short_number(229_376) == "229k"
    assert short_number(3_628_800) == "3.6M"
    assert short_number(76_204_800) == "76M"
    assert short_number(10_461_394_944_000) == "1.0×10¹³"
    assert Facts("x", positions=3_628_800).difficulty == "≤3.6M positions"
    assert Facts("x", length=1).difficulty == "1 move"


# ---- the cache and the survey -------------------------------------------------------------------
def test_facts_survive_a_restart_and_a_changed_puzzle_is_not_trusted(tmp_path):
    path = tmp_path / FILE_NAME
    frogs = get_puzzle("frogs-2")
    facts = Facts("frogs-2", length=8, settled=True)
    cache = FactsCache(path)
    cache.put(frogs, facts)
    cache.save()
    assert FactsCache(path).get(frogs) == facts
    data = json.loads(path.read_text())
    data["facts"]["frogs-2"]["fingerprint"] = "1|another puzzle|B_W"
    path.write_text(json.dumps(data))
    assert FactsCache(path).get(frogs) is None
    path.write_text("{ not json")
    assert FactsCache(path).get(frogs) is None


def test_an_unusable_cache_folder_keeps_facts_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = FactsCache(blocker / FILE_NAME)
    frogs = get_puzzle("frogs-2")
    cache.put(frogs, Facts("frogs-2", length=8, settled=True))
    cache.save()  # no error
    assert cache.get(frogs) is not None


def test_the_survey_finds_the_curiosities_by_asking_the_engine():
    found: list[Facts] = []
    survey_all = Survey(all_ids(), FactsCache.open())
    survey_all.run_instant(found.append)
    unwinnable = {f.puzzle_id for f in found if f.unwinnable}
    assert {"pegs-french", "jealous-husbands-4-boat2"} <= unwinnable
    assert "frogs-3" in {f.puzzle_id for f in found}
    again = Survey(all_ids(), FactsCache.open())  # the next launch: known at once
    assert {pid for pid, f in again.known().items() if f.unwinnable} == unwinnable


def test_the_survey_goes_on_where_it_stopped():
    ids = ["frogs-5", "flip-it-9"]
    first = Survey(ids, FactsCache.open())
    with pytest.raises(Cancelled):
        first.run(lambda facts: None, cancelled=lambda: True)
    reported: list[str] = []
    first.run(lambda facts: reported.append(facts.puzzle_id))
    assert sorted(reported) == sorted(ids) and not first.pending()
    assert Survey(ids, FactsCache.open()).pending() == []
