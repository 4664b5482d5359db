"""Accuracy gate: the text pipeline on a fixed subset of the dev pages (tests/data/devset_subset,
WCXB v1.0, CC-BY-4.0) must keep its bag-of-tokens F1 (the metric of shared/tools/score-devset)
above a pinned floor, the way trafilatura's evaluation gate guards its extractor.

The floors sit a little under the measured values (see the README there and the report); raise
them when the cleaner improves, never lower them to make a change pass.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from newsclean.cleaners.model.score import score

PAGES = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"
F1_FLOOR = 0.952  # measured 0.9527 (line-model-8; 0.9528 line-model-7, one chain distilled from a seed bag; 0.9585 with the bag itself, line-model-6)
LEAK_CEILING = 0.075  # measured 0.069 (line-model-8; 0.083 line-model-7, 0.083 line-model-6)
MODEL_F1_FLOOR = 0.93
# Kind (b) on the same pages: their true bodies with a few of their own debris lines inserted
# (newsclean.cleaners.model.evaluate.kind_b_cases). Measured (line-model-8): F1 0.982, 24.5% of inserted debris lines kept,
# 2.9% of body lines lost, headline 0.938 (of 64 texts with one); line-model-7: F1 0.988, 24.9% of inserted debris lines kept,
# 2.8% of body lines lost, headline 0.938 (of 64 texts with one); line-model-6: F1 0.981, 26.5% of inserted debris
# lines kept, 3.6% of body lines lost, headline 0.938 (of 64 texts with one); line-model-5: 0.984, 25.7%, 3.6%, 0.938.
KIND_B_F1_FLOOR = 0.97
KIND_B_DEBRIS_KEPT_CEILING = 0.35
KIND_B_BODY_LOST_CEILING = 0.06
KIND_B_TITLE_FLOOR = 0.9
TITLE_FLOOR = 0.76  # headline exact match of the pipeline on these pages (no URL given): 0.763 (line-model-8; 0.742 line-model-7 and -6)


def _pages() -> list[dict]:
    with gzip.open(PAGES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def pages():
    return _pages()


@pytest.mark.slow
def test_pipeline_f1_on_the_gate_pages(pages):
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    settings = Settings()
    preds = {}
    for p in pages:
        try:
            doc = clean_text(p["text"], settings, source=p["id"])
            preds[p["id"]] = {"text": doc.text, "title": doc.title}
        except DocumentError:
            preds[p["id"]] = {"text": "", "title": None}
    s = score(pages, preds)
    assert s["pages"] == len(pages) >= 90
    assert s["F1"] >= F1_FLOOR, s
    assert s["leak"] <= LEAK_CEILING, s
    assert s["title"] >= TITLE_FLOOR, s


def test_line_model_f1_on_the_gate_pages(pages):
    """The model alone (with the corpus pass over these pages), no rules: keeps its accuracy."""
    from newsclean.cleaners.corpus import CorpusStats
    from newsclean.cleaners.lines import normalise_lines
    from newsclean.cleaners.model import LineModel
    from newsclean.cleaners.model.train import site_key

    model = LineModel.default()
    docs = [[s for s in normalise_lines(p["text"]) if s] for p in pages]
    stats = CorpusStats.build((d, site_key(p.get("url"))) for d, p in zip(docs, pages))
    preds = {}
    for p, lines in zip(pages, docs):
        proba, t = model.analyse(lines, stats.doc_context(lines, site_key(p.get("url")), p.get("url")))
        keep = [s for i, (s, q) in enumerate(zip(lines, proba)) if q < model.debris_threshold and i != t]
        preds[p["id"]] = {"text": "\n\n".join(keep), "title": lines[t] if t is not None else None}
    s = score(pages, preds)
    assert s["F1"] >= MODEL_F1_FLOOR, s


@pytest.mark.slow
def test_kind_b_texts_of_the_gate_pages(pages):
    """Mostly clean text with residual debris (the sample corpus's kind): the body stays whole,
    most inserted debris goes, and the headline on top is found."""
    from newsclean.cleaners.model import LineModel
    from newsclean.cleaners.model.evaluate import clean_kind_b, kind_b_cases
    from newsclean.cleaners.model.score import kind_b_score
    from newsclean.cleaners.settings import Settings

    cases, kept_pages = kind_b_cases(pages)
    assert len(cases) == len(pages) >= 90
    s = kind_b_score(cases, clean_kind_b(cases, kept_pages, LineModel.default(), Settings()))
    assert s["n_debris"] >= 200 and s["n_titles"] >= 50, s
    assert s["F1"] >= KIND_B_F1_FLOOR, s
    assert s["debris_kept"] <= KIND_B_DEBRIS_KEPT_CEILING, s
    assert s["body_lost"] <= KIND_B_BODY_LOST_CEILING, s
    assert s["title"] >= KIND_B_TITLE_FLOOR, s
