"""The packaged line model: loads without running code, scores lines, finds the headline."""
import json
from pathlib import Path

import numpy as np
import pytest

from newsclean.cleaners.corpus import CorpusStats, DocContext
from newsclean.cleaners.model import FILES, LineModel
from newsclean.cleaners.model import features as fx

FULL_PAGE = """Skip to content
Menu
Home
World
Business
Sign in
City council approves new bridge over the river
By Jane Doe
March 3, 2024
The city council voted 7-2 on Tuesday to approve a new pedestrian bridge over the river, ending a debate that has lasted almost a decade.
Supporters said the bridge would link the two halves of the old town and bring shoppers back to the riverside market, which has struggled since the ferry closed.
Opponents argued that the cost, estimated at 40 million euros, should instead go to repairing roads in the outer districts, where potholes have become a daily complaint.
Construction timeline
Work is expected to start next spring and to take about two years, the council's planning office said in a statement after the vote.
The bridge will be closed to cyclists during the first months of operation while the council studies how pedestrians use it.
Share on Facebook
Share on X
Related stories
Royal couple to visit Canada next spring
Ten recipes for a quick weeknight dinner
Newsletter
Subscribe to our daily briefing
Privacy policy
Terms of use
© 2024 Example Media. All rights reserved."""


@pytest.fixture(scope="module")
def model():
    return LineModel.default()


def test_files_are_text_formats_not_pickles():
    names = sorted(p.name for p in FILES.iterdir())
    assert {"model.json", "stage1.lgb.txt", "stage2.lgb.txt", "title.lgb.txt"} <= set(names)
    for p in FILES.iterdir():
        assert not p.name.endswith((".pkl", ".pickle", ".joblib"))
    assert (FILES / "stage1.lgb.txt").read_text(encoding="utf-8").startswith("tree")
    meta = json.loads((FILES / "model.json").read_text(encoding="utf-8"))
    assert meta["features"] == fx.FEATURE_NAMES and meta["version"]


def test_default_is_cached(model):
    assert LineModel.default() is model


def test_full_page_debris_and_body(model):
    lines = FULL_PAGE.split("\n")
    p = model.debris_proba(lines, None)
    assert p.shape == (len(lines),) and ((p >= 0) & (p <= 1)).all()
    keep = [s for s, q in zip(lines, p) if q < model.debris_threshold]
    body = [s for s in lines if len(s.split()) >= 15]
    for s in body:
        assert s in keep
    for s in ("Skip to content", "Sign in", "Share on Facebook", "Privacy policy", "Terms of use"):
        assert s not in keep, s
    # the subheading between body paragraphs stays
    assert "Construction timeline" in keep


def test_title_found_in_full_page(model):
    lines = FULL_PAGE.split("\n")
    p, t = model.analyse(lines, DocContext.empty(len(lines), "https://example.com/news/council-approves-bridge"))
    assert t is not None and lines[t] == "City council approves new bridge over the river"


def test_mostly_clean_text_keeps_its_body(model):
    lines = [ln for ln in FULL_PAGE.split("\n")[6:] if ln][:-11]
    p = model.debris_proba(lines)
    body = [s for s in lines if len(s.split()) >= 15]
    # the model alone may be unsure on a very short clean text, but never confident against prose
    for s in body:
        assert p[lines.index(s)] < 0.7, s
    assert p[lines.index("Construction timeline")] < 0.7
    # and the pipeline (rules + model + contiguity of the body) keeps the paragraphs
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    kept = clean_text("\n\n".join(lines), Settings()).text.split("\n\n")
    for s in body[:3]:
        assert s in kept, s


def test_short_clean_text_keeps_subheading_and_last_paragraph(model):
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    lines = [ln for ln in FULL_PAGE.split("\n")[6:] if ln][:-11]
    kept = clean_text("\n\n".join(lines), Settings()).text.split("\n\n")
    assert "Construction timeline" in kept and lines[-1] in kept


def test_corpus_context_and_empty_input(model):
    docs = [FULL_PAGE.split("\n"), FULL_PAGE.replace("bridge", "tunnel").split("\n")]
    stats = CorpusStats.build((d, "example.com") for d in docs)
    p = model.debris_proba(docs[0], stats.doc_context(docs[0], "example.com"))
    assert len(p) == len(docs[0])
    assert model.debris_proba([]).shape == (0,)
    p, t = model.analyse([])
    assert p.shape == (0,) and t is None


def test_deterministic(model):
    lines = FULL_PAGE.split("\n")
    assert np.array_equal(model.debris_proba(lines), model.debris_proba(lines))


def test_the_whole_headline_ranker_scores_only_the_screens_best_lines(model, monkeypatch):
    """On a page of more than TITLE_SCREEN_KEEP candidates the whole ranker scores the
    TITLE_SCREEN_KEEP lines its first member scores highest, and finds the headline it finds
    scoring every candidate."""
    from newsclean.cleaners.model import TITLE_SCREEN_KEEP

    lines = FULL_PAGE.split("\n")
    at = lines.index("Related stories") + 1
    teasers = [f"{town} council to vote on {thing} next week" for town in ("Northfield", "Eastbrook", "Westhaven", "Southport")
               for thing in ("parking fees", "a new library", "school buses", "street lights", "the harbour", "bike lanes",
                             "tree planting", "the market hall")]
    lines[at:at] = teasers
    assert model._title_first is not None  # the packaged ranker is a bag
    scored: list[int] = []
    whole = model._predict["title"]
    monkeypatch.setitem(model._predict, "title", lambda X: scored.append(len(X)) or whole(X))
    t = model.title_index(lines)
    assert lines[t] == "City council approves new bridge over the river"
    assert scored == [TITLE_SCREEN_KEEP]
    monkeypatch.setattr(model, "_title_first", None)
    assert model.title_index(lines) == t and scored[-1] > TITLE_SCREEN_KEEP
