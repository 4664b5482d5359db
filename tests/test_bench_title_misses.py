"""bench/title_misses.py: where a page's true headline stands in its text, and the class of a miss."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("title_misses", Path(__file__).resolve().parent.parent / "bench" / "title_misses.py")
title_misses = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(title_misses)


@pytest.mark.parametrize("title, lines, place", [
    ("storm hits coast", ["menu", "storm hits coast", "body"], "a line"),
    ("storm hits coast", ["storm hits coast the daily news"], "inside a line"),
    ("mobile app", ["the mobile application guide"], "absent"),  # whole words only
    ("storm hits coast", ["menu", "body"], "absent"),
])
def test_headline_place(title, lines, place):
    assert title_misses.headline_place(title, lines) == place


@pytest.mark.parametrize("truth, given, place, kind", [
    ("storm hits coast", "", "a line", "none"),
    ("storm hits coast", "watch live", "a line", "wrong line"),
    ("storm hits coast", "storm hits coast the daily news", "inside a line", "cut"),
    ("storm hits coast in 2025", "storm hits coast", "a line", "cut"),
    ("what is a mobile application", "what is a mobile app", "a line", "wrong line"),
    ("storm hits coast", "watch live", "inside a line", "inside a line"),
    ("storm hits coast", "coast storm", "absent", "absent"),
])
def test_miss_class(truth, given, place, kind):
    assert title_misses.miss_class(truth, given, place) == kind


def test_breakdown_counts_hits_ceiling_and_misses(tmp_path):
    pages = [
        {"id": "a", "title": "Storm Hits Coast", "text": "Watch LIVE\nStorm hits coast\nBody text."},
        {"id": "b", "title": "Storm Hits Coast", "text": "Storm hits coast | The Daily\nBody text."},
        {"id": "c", "title": "A Paraphrase", "text": "Another headline\nBody text."},
        {"id": "d", "title": "Rain Again", "text": "Menu\nRain again\nBody."},
    ]
    preds = {"a": {"title": "Storm hits coast"}, "b": {"title": "Storm hits coast | The Daily"},
             "c": {"title": "Another headline"}, "d": {"title": "Menu"}}
    result = title_misses.breakdown(pages, preds)
    assert result["pages"] == 4 and result["exact"] == 0.25 and result["ceiling"] == 0.75
    assert result["misses"] == {"wrong line": 1, "cut": 1, "absent": 1}
    devset = tmp_path / "pages.jsonl.gz"
    import gzip

    with gzip.open(devset, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(json.dumps(p) for p in pages))
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(json.dumps({"id": k, **v}) for k, v in preds.items()), encoding="utf-8")
    out = tmp_path / "misses.json"
    assert title_misses.main([str(pred), "--devset", str(devset), "--out", str(out)])["misses"] == result["misses"]
    assert json.loads(out.read_text(encoding="utf-8"))["examples"]["cut"][0]["id"] == "b"
