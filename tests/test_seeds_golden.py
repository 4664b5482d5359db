"""Golden test: the sample corpus gives exactly the expected clean output (tests/golden)."""
from __future__ import annotations

import pytest

from newsclean.cleaners.batch import clean_sources
from tests.conftest import SEEDS_RAW
from tests.seedcheck import differences


@pytest.fixture(scope="module")
def result():
    from newsclean.cleaners.settings import Settings
    return clean_sources(SEEDS_RAW, sorted(p.name for p in SEEDS_RAW.glob("*.txt")), Settings())


def test_every_seed_is_cleaned(result, expected_seeds):
    assert result.quarantine == []
    assert sorted(a["source"] for a in result.articles) == sorted(expected_seeds)


@pytest.mark.parametrize("name", [
    "000_81868ff514c1253d.txt", "001_625650df4638bcb7.txt", "002_b6644f9eb1b60515.txt",
    "003_7f96e8038d937e19.txt", "004_eb85d8f29ab84acc.txt",
])
def test_seed_matches_golden(result, expected_seeds, name):
    article = next(a for a in result.articles if a["source"] == name)
    removed = [r for r in result.removed if r["doc_id"] == article["doc_id"]]
    assert differences(article, removed, expected_seeds[name]) == []


def test_removed_offsets_point_at_removed_text(result):
    from newsclean.cleaners.pipeline import normalised_lines_for
    for art in result.articles:
        lines = normalised_lines_for(SEEDS_RAW, art["source"])
        for r in (r for r in result.removed if r["doc_id"] == art["doc_id"]):
            assert lines[r["line"] - 1][r["start"]:r["end"]] == r["text"]
