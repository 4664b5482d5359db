"""The date rankers' training choices (newsclean.cleaners.metadata.train_date_ranker): where the
model without htmldate's pick may answer alone is chosen so that, out of fold, no right date is
lost and no wrong one added against the full model."""
from __future__ import annotations

import datetime as dt

import numpy as np

from newsclean.cleaners.metadata import date_ranker as dr
from newsclean.cleaners.metadata import train_date_ranker as t

A, B = dt.date(2024, 3, 5), dt.date(2024, 6, 20)


def _page(truth: dt.date | None, own_days: list[dt.date]) -> t.PageDays:
    return t.PageDays("p", True, 0, truth, truth is not None, None, own_days, [], own_days, [])


def test_the_own_model_answers_only_where_it_sets_one_day_apart():
    assert dr.own_decides([A, B], np.array([0.9, 0.1]), 0.7) == A
    assert dr.own_decides([A, B], np.array([0.9, 0.35]), 0.7) is None  # another day is not ruled out
    assert dr.own_decides([A, B], np.array([0.6, 0.1]), 0.7) is None  # the best is not sure enough
    assert dr.own_decides([], np.zeros(0), 0.7) is None


def test_the_gate_stops_above_the_first_score_that_would_cost_a_date():
    # four dated pages; the full model is right on all. The own model is right and sure on two,
    # right at 0.8 on one, and wrong at 0.75 on the last: from 0.75 down it would cost a date
    pages = [_page(A, [A, B]), _page(A, [A, B]), _page(A, [A, B]), _page(A, [A, B])]
    own = [np.array([0.97, 0.01]), np.array([0.95, 0.02]), np.array([0.8, 0.05]), np.array([0.1, 0.75])]  # 0.8: exactly a step
    full = [A, A, A, A]
    at = t.choose_own_gate(pages, own, full)
    assert at == 0.8
    assert t.gated(pages, own, full, at) == full
    assert t.gated(pages, own, full, 0.7)[3] == B  # lower, the wrong day would be given


def test_the_gate_never_opens_when_even_the_surest_answer_is_wrong():
    pages = [_page(A, [A, B])]
    assert t.choose_own_gate(pages, [np.array([0.0, 1.0])], [A]) == t.NEVER


def test_the_gate_is_never_below_its_floor():
    # every own answer right: the gate still stops at OWN_GATE_LOWEST
    pages = [_page(A, [A, B])] * 3
    own = [np.array([0.99, 0.0]), np.array([0.72, 0.1]), np.array([0.55, 0.2])]
    assert t.choose_own_gate(pages, own, [A, A, A]) == t.OWN_GATE_LOWEST
