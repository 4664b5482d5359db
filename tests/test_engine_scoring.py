"""The lock-step driver (newsclean.cleaners.engine.scoring): a batch of documents cleaned together, each
decision pass of all of them scored in one LineModel.analyse_many call, gives every document what
cleaning it alone gives, and one document's failure or slowness stays its own."""
from __future__ import annotations

import gzip
import json
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.engine.scoring import ScoreRequest, run_batch, run_steps
from newsclean.cleaners.model import LineModel
from newsclean.cleaners.pipeline import clean_text, clean_texts
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from tests.conftest import SEEDS_RAW
from tests.test_properties import texts as generated_texts

SUBSET = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"
LAYOUTS = Path(__file__).parent / "data" / "news_layouts"


@pytest.fixture(scope="module")
def texts() -> list[str]:
    with gzip.open(SUBSET, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line)["text"] for line in fh][:24]
    seeds = [p.read_text(encoding="utf-8") for p in sorted(SEEDS_RAW.glob("*.txt"))]
    layouts = [p.read_text(encoding="utf-8") for p in sorted(LAYOUTS.glob("*.txt"))]
    # documents that end in an error belong in a batch too: empty, and menu lines only
    return pages + seeds + layouts + ["", "Home\nNews\nSport\nWeather"]


def _same(a, b) -> bool:
    if isinstance(a, BaseException) or isinstance(b, BaseException):
        return type(a) is type(b) and str(a) == str(b)
    return a == b


def _each_alone(texts: list[str], settings: Settings) -> list:
    """clean_text on each text: its CleanDocument or its DocumentError."""
    out = []
    for t in texts:
        try:
            out.append(clean_text(t, settings))
        except DocumentError as err:
            out.append(err)
    return out


def test_a_batch_cleans_each_text_as_cleaning_it_alone(texts):
    settings = Settings()
    alone = _each_alone(texts, settings)
    together = clean_texts(texts, settings)
    assert len(together) == len(texts)
    assert [i for i, (a, b) in enumerate(zip(alone, together)) if not _same(a, b)] == []
    assert any(isinstance(r, DocumentError) for r in together)  # the error cases really failed


def test_the_model_scores_a_batch_as_it_scores_each_document(texts):
    model = LineModel.default()
    docs = [[ln for ln in t.splitlines() if ln.strip()] for t in texts[:12]] + [["Only one line here."]]
    together = model.analyse_many(docs, [None] * len(docs))
    for lines, (p, t) in zip(docs, together):
        p1, t1 = model.analyse(lines)
        assert np.array_equal(p, p1) and t == t1


def test_each_round_of_requests_is_one_call(monkeypatch, texts):
    calls = []
    real = LineModel.analyse_many

    def counted(self, docs, contexts=None):
        calls.append(len(docs))
        return real(self, docs, contexts)

    monkeypatch.setattr(LineModel, "analyse_many", counted)
    monkeypatch.setattr(LineModel, "analyse", lambda *a, **k: pytest.fail("scored one document alone"))
    clean_texts(texts[:10], Settings())
    assert calls[0] == 10  # every document's first pass in one call
    assert len(calls) <= 16 and calls == sorted(calls, reverse=True)  # later rounds: those still changing


def test_a_batch_scans_its_lines_in_one_call(line_scans, texts):
    calls = line_scans
    clean_texts(texts[:10], Settings())
    assert [n for n, _ in calls] == [10]
    assert any(f is not None for f in calls[0][1])  # the dev pages' texts are served by the scans


def test_a_batch_of_html_pages_scans_their_bodies_lines_in_one_call(line_scans):
    """The HTML path's chosen bodies are normalised as the text path's texts are: one scan of
    every body's lines in the batch, each page then the same as cleaned alone."""
    from newsclean.cleaners.pipeline import clean_document, clean_document_steps
    from newsclean.cleaners.types import RawDocument

    pages = sorted((Path(__file__).parent / "data" / "html_pages").glob("*.html.gz"))[:6]
    docs = [RawDocument(source=p.name, data=gzip.decompress(p.read_bytes()), format="html") for p in pages]
    alone = []
    for doc in docs:
        try:
            alone.append(clean_document(doc, Settings()))
        except DocumentError as err:
            alone.append(err)
    calls = line_scans
    calls.clear()  # only the batch's scans count (a page cleaned alone scans its lines one by one)
    together = run_batch([clean_document_steps(doc, Settings()) for doc in docs])
    assert calls and calls[0][0] >= 3  # the pages' bodies in one scan (a visible-text check may add its own)
    assert all(_same(a, b) for a, b in zip(alone, together))


def test_a_failing_document_leaves_the_others_alone():
    def fine():
        scores = yield ScoreRequest(LineModel.default(), ["A line.", "Another line of text here."], None)
        return len(scores[0])

    def broken():
        yield ScoreRequest(LineModel.default(), ["A line."], None)
        raise DocumentError("decide", "broken on purpose")

    out = run_batch([fine(), broken(), fine()])
    assert out[0] == 2 and out[2] == 2
    assert isinstance(out[1], DocumentError) and out[1].reason == "broken on purpose"


def test_a_batch_call_that_fails_falls_back_to_each_document(monkeypatch):
    monkeypatch.setattr(LineModel, "analyse_many", lambda *a, **k: (_ for _ in ()).throw(ValueError("boom")))

    def doc(lines):
        scores = yield ScoreRequest(LineModel.default(), lines, None)
        return scores[0].tolist()

    out = run_batch([doc(["One line of text."]), doc(["Two", "lines of text."])])
    assert [len(o) for o in out] == [1, 2]
    assert out[0] == run_steps(doc(["One line of text."]))


def test_around_wraps_every_step_of_its_document():
    entered: list[int] = []

    @contextmanager
    def around(i):
        entered.append(i)
        yield

    def doc(passes):
        for _ in range(passes):
            yield ScoreRequest(LineModel.default(), ["Some line of text."], None)
        return passes

    assert run_batch([doc(1), doc(3)], around) == [1, 3]
    assert entered.count(0) == 2 and entered.count(1) == 4  # start + each answer


def test_clean_sources_gives_the_same_rows_in_lock_step_and_one_by_one(tmp_path):
    for p in sorted(SEEDS_RAW.glob("*.txt")) + sorted(LAYOUTS.glob("*.txt")):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "copy.txt").write_bytes((LAYOUTS / "ap.txt").read_bytes())  # a duplicate, quarantined
    sources = sorted(p.name for p in tmp_path.iterdir())
    one = clean_sources(tmp_path, sources, Settings(lockstep_docs=1))
    many = clean_sources(tmp_path, sources, Settings(lockstep_docs=4))
    for name in ("articles", "removed", "quarantine"):
        a, b = getattr(one, name), getattr(many, name)
        if name == "articles":
            a = [{k: v for k, v in r.items() if k != "cleaned_at"} for r in a]
            b = [{k: v for k, v in r.items() if k != "cleaned_at"} for r in b]
        assert a == b, name
    assert one.kept_lines == many.kept_lines and one.docs_read == many.docs_read
    assert {q["stage"] for q in many.quarantine} == {"decide", "validate"}


@hyp_settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(generated_texts, min_size=2, max_size=6))
def test_any_batch_gives_what_each_text_gives_alone(batch):
    """Generated texts (articles with debris, Markdown, wrapped text, arbitrary strings) cleaned
    together and one by one."""
    settings = Settings()
    alone = _each_alone(batch, settings)
    assert all(_same(a, b) for a, b in zip(alone, clean_texts(batch, settings)))
