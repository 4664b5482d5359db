"""The page-kind decision on the text path (newsclean.cleaners.text_page_features, page_kind.text_kind_reason).

The features are read from a text's line shapes, the line model's P(debris) and the decision: a
listing of teasers differs from an article in them. With quarantine_non_articles on, a full-page
text of another kind (real pages of tests/data/page_kinds, WCXB, CC-BY-4.0, rendered to their
visible text) is quarantined with a reason naming its kind; off (the default), the text path does
not judge it and asks the line model for nothing more.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from newsclean.cleaners.engine.scoring import ScoreRequest, run_steps, with_page_rows
from newsclean.cleaners.extract_html import extract_html
from newsclean.cleaners.page_kind import KIND_SETTING, TEXT_MODEL, _kind_model
from newsclean.cleaners.pipeline import clean_text, clean_text_steps, clean_texts, text_page_features_steps
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.text_page_features import TEXT_FEATURE_NAMES, feature
from newsclean.cleaners.types import DocumentError
from tests.articles import PARAGRAPHS

DATA = Path(__file__).parent / "data"
ON = Settings(quarantine_non_articles=True)
OFF = Settings()
TOPICS = ["Council", "School", "Harbour", "Museum", "Budget", "Festival", "Hospital", "Library", "Railway",
          "Market", "Stadium", "Bridge"]
LISTING = "\n\n".join(
    ["Example Gazette", "Home", "News", "Sport", "Latest news"]
    + [line for i, topic in enumerate(TOPICS)
       for line in (f"{topic} Plans New Opening For The Town Centre", f"{i + 1} March 2025",
                    f"The {topic.lower()} plan would bring new shops and jobs to the area, officials said.", "Read more")]
    + ["Load more stories", "Contact us", "Privacy policy"])
ARTICLE = "\n\n".join(["Example Gazette", "Home", "News", "Sport", "Council votes to expand the city bus network",
                       "12 March 2025", *PARAGRAPHS, "Contact us", "Privacy policy"])
SAYS = ("a listing of", "a forum thread", "a product page", "a service or company page", "a documentation page",
        "a shop's category page")
# full-page texts of real pages (of the model's training pages) that it judges with a P well over its threshold
JUDGED = ["other-dev-4207.html.gz", "other-test-5268.html.gz", "other-test-5385.html.gz"]


def _features(text: str) -> tuple[float, ...]:
    return run_steps(text_page_features_steps(text, OFF))


def _outcome(text: str, settings: Settings):
    """The cleaned document, or the reason it was quarantined."""
    try:
        return clean_text(text, settings)
    except DocumentError as err:
        return str(err)


def _visible_text(file: str) -> str:
    with gzip.open(DATA / "page_kinds" / file, "rb") as fh:
        data = fh.read()
    url = next(p["url"] for p in json.loads((DATA / "page_kinds" / "pages.json").read_text(encoding="utf-8"))
               if p["file"] == file)
    ext = extract_html(data, url=url)
    return ext.visible or ext.text


def test_the_features_tell_a_teaser_listing_from_an_article():
    listing, article = _features(LISTING), _features(ARTICLE)
    assert len(listing) == len(article) == len(TEXT_FEATURE_NAMES)
    assert feature(listing, "n_headlines") >= len(TOPICS) > feature(article, "n_headlines")
    assert feature(listing, "stamps") >= len(TOPICS) > feature(article, "stamps")
    assert feature(listing, "template_share") > 0.5 > feature(article, "template_share")
    assert feature(listing, "prose_share") == 0 < feature(article, "prose_share")
    assert feature(listing, "kept_prose_share") < feature(article, "kept_prose_share")
    assert feature(article, "kept_chars_share") > feature(listing, "kept_chars_share")
    assert feature(article, "has_title") == 1.0
    assert feature(listing, "p_mean") > feature(article, "p_mean")


def test_the_features_are_the_same_alone_and_in_a_batch():
    from newsclean.cleaners.engine.scoring import run_batch

    batch = run_batch([text_page_features_steps(t, OFF) for t in (LISTING, ARTICLE)])
    assert batch == [_features(LISTING), _features(ARTICLE)]


def test_the_page_rows_are_asked_for_once_and_the_decision_is_unchanged():
    """with_page_rows asks the first pass's scoring for the page's rows and sends the decision
    the usual answer: the cleaned document is the same with the decision on or off."""
    asked = []

    def count(steps):
        request = next(steps)
        try:
            while True:
                if isinstance(request, ScoreRequest):
                    asked.append(request.page)
                request = steps.send(request.answer_alone())
        except StopIteration as done:
            return done.value

    rows: list = []
    count(with_page_rows(clean_text_steps(ARTICLE, OFF), rows))
    assert asked[0] is True and not any(asked[1:]) and len(rows) == 1
    assert isinstance(rows[0], np.ndarray) and len(rows[0]) == len([ln for ln in ARTICLE.split("\n") if ln.strip()])
    assert clean_text(ARTICLE, ON) == clean_text(ARTICLE, OFF)


@pytest.mark.parametrize("file", JUDGED)
def test_a_full_page_text_of_another_kind_is_quarantined_with_its_kind(file):
    text = _visible_text(file)
    with pytest.raises(DocumentError) as err:
        clean_text(text, ON)
    reason = err.value.reason
    assert err.value.stage == "decide"
    assert reason.startswith(SAYS), reason
    assert ", not an article (page-kind model, P " in reason and f"set {KIND_SETTING} = false" in reason
    # the batch path says the same
    assert str(clean_texts([text], ON)[0]) == str(err.value)


@pytest.mark.parametrize("file", JUDGED)
def test_with_the_setting_off_the_text_is_not_judged(file):
    try:
        clean_text(_visible_text(file), OFF)
    except DocumentError as err:  # no article body at all: then it says so, not its kind
        assert "not an article (page-kind model" not in err.reason


def test_an_article_text_is_not_quarantined():
    assert clean_text(ARTICLE, ON).text == clean_text(ARTICLE, OFF).text


def test_the_text_model_is_packaged_with_its_features_and_threshold():
    meta, _ = _kind_model(TEXT_MODEL)
    assert tuple(meta["features"]) == TEXT_FEATURE_NAMES
    assert meta["classes"][0] == "article" and 0.0 < meta["threshold"] < 1.0
    assert meta["cv"]["precision"] >= meta["target_precision"]


def test_a_batch_scores_its_texts_kinds_together_as_each_alone(monkeypatch):
    import newsclean.cleaners.page_kind as pk

    texts = [_visible_text(f) for f in JUDGED] + [ARTICLE]
    alone = [_outcome(t, ON) for t in texts]
    calls = []
    real = pk.page_kinds
    monkeypatch.setattr(pk, "page_kinds", lambda rows, name="page_kind": calls.append(len(rows)) or real(rows, name))
    together = [str(r) if isinstance(r, DocumentError) else r for r in clean_texts(texts, ON)]
    assert together == alone
    assert max(calls) > 1  # texts decided in the same round are scored in one call


ARTICLE_PAGES = sorted({json.loads(line)["file"] for line in
                        (DATA / "html_pages" / "expected.jsonl").read_text(encoding="utf-8").splitlines()})


@pytest.mark.parametrize("file", ARTICLE_PAGES)
def test_real_article_pages_full_text_comes_out_as_without_the_decision(file):
    with gzip.open(DATA / "html_pages" / file, "rb") as fh:
        ext = extract_html(fh.read())
    text = ext.visible or ext.text
    assert _outcome(text, ON) == _outcome(text, OFF)


def test_a_notice_page_keeps_its_own_reason_with_the_decision_on():
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.types import RawDocument
    from tests.test_page_kind import BOT_CHECK_TEXT

    raw = RawDocument(source="x.txt", data=BOT_CHECK_TEXT.encode("utf-8"), format="text")
    with pytest.raises(DocumentError) as err:
        clean_document(raw, ON)
    assert err.value.reason.startswith("the page is a bot check or an access block")
