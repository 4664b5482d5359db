"""The per-page debris threshold (newsclean.cleaners.page_threshold): it keeps the set of lines with the
highest expected F1, so on a page the model is unsure about it keeps more, within its bounds."""
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from newsclean.cleaners.decide import decide
from newsclean.cleaners.page_threshold import expected_f1_threshold
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError


def _expected_f1(body: np.ndarray, words: np.ndarray, keep: np.ndarray) -> float:
    overlap = float((body * words)[keep].sum())
    return 2 * overlap / max(float(words[keep].sum()) + float((body * words).sum()), 1e-9)


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.integers(1, 40)), min_size=1, max_size=8))
def test_the_threshold_keeps_the_best_set_of_lines(rows):
    proba = np.array([p for p, _ in rows])
    words = np.array([w for _, w in rows], dtype=np.float64)
    body = 1.0 - proba
    best = max(_expected_f1(body, words, np.isin(np.arange(len(rows)), s))
               for k in range(1, len(rows) + 1) for s in combinations(range(len(rows)), k))
    t = expected_f1_threshold(proba, words, 0.0, 1.0)
    assert _expected_f1(body, words, proba < t) == pytest.approx(best, abs=1e-9)


def test_a_confident_page_keeps_the_ordinary_threshold():
    proba = np.array([0.99, 0.97, 0.02, 0.01, 0.03, 0.98])
    assert expected_f1_threshold(proba, np.full(6, 20.0), 0.5, 0.7) == 0.5


def test_an_unsure_page_keeps_a_doubtful_paragraph():
    # two sure paragraphs and one the model leans against: keeping it is worth more F1 than it costs
    # (keep a line when its P(body) exceeds half the best expected F1: here 0.45 > 0.86 / 2)
    proba = np.array([0.99, 0.1, 0.1, 0.55, 0.99])
    t = expected_f1_threshold(proba, np.array([3.0, 40, 40, 40, 3]), 0.5, 0.7)
    assert 0.55 < t <= 0.7


def test_the_threshold_stays_within_its_bounds():
    all_debris = np.full(5, 0.9)
    assert expected_f1_threshold(all_debris, np.full(5, 10.0), 0.5, 0.7) == 0.7
    # a ceiling at the floor turns the adaptation off
    assert expected_f1_threshold(np.array([0.1, 0.6]), np.array([40.0, 40.0]), 0.5, 0.5) == 0.5


BODY = [
    "The council voted on Tuesday to keep the library open on Sundays through the winter.",
    "Members said the extra hours cost less than expected because volunteers staff the desk.",
    "A review of the budget is due in March, when the hours will be looked at again.",
]


def _kept(settings: Settings, proba: list[float]) -> list[str]:
    lines = ["Menu", *BODY[:2], "Photo: Reuters", BODY[2], "Share this"]
    decision = decide(lines, settings, debris_proba=np.array(proba))
    return [text for _, text in decision.kept]


def test_decide_keeps_an_unsure_paragraph_only_with_the_page_threshold():
    # the model leans against the paragraph after the caption: kept only on the page's threshold
    proba = [0.99, 0.05, 0.05, 0.99, 0.55, 0.99]
    assert _kept(Settings(), proba) == BODY
    assert _kept(Settings(model_threshold_max=0.5), proba) == BODY[:2]


def test_a_page_of_debris_is_still_quarantined():
    with pytest.raises(DocumentError, match="no article body"):
        decide(["Menu", *BODY, "Share this"], Settings(), debris_proba=np.full(5, 0.8))


def test_doubtful_teasers_above_the_headline_do_not_pull_the_body_up(monkeypatch):
    # Two teaser sentences in the menu above the headline that the model doubts (P 0.55): the page's
    # threshold keeps doubtful lines, but the article still starts at its headline, as the lines the
    # model keeps at its ordinary threshold all lie below it.
    from tests.ruletools import fixed_scores

    teasers = ["Students from the coast spent the summer counting crabs along the tidal marshes nearby.",
               "A new survey of the bay maps where the sea grass has come back since the last big storm."]
    headline = "Library Keeps Its Sunday Hours"
    lines = ["Menu", *teasers, headline, *BODY[:2]]
    proba = np.array([0.99, 0.55, 0.55, 0.9, 0.05, 0.05])
    fixed_scores(monkeypatch, proba.copy(), 3)
    for settings in (Settings(), Settings(model_threshold_max=0.5)):
        decision = decide(lines, settings)
        assert decision.title is not None and decision.title.text == headline
        assert [text for _, text in decision.kept] == BODY[:2]
