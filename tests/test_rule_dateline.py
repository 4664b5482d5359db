import datetime as dt

import pytest

from cleaners.pipeline import clean_text
from cleaners.settings import Settings
from tests.ruletools import BODY

LEDE = "Coral Springs cops who responded to the school say several deputies waited outside, according to reports."


@pytest.mark.parametrize("prefix, outlet, date", [
    ("date 2018-02-24 (FoxNews.com) -", "Fox News", dt.date(2018, 2, 24)),
    ("WASHINGTON (AP) —", "The Associated Press", None),
    ("Feb 24, 2018 (Reuters) -", "Reuters", dt.date(2018, 2, 24)),
    ("LONDON (Reuters) -", "Reuters", None),
    ("NEW YORK —", None, None),
])
def test_glued_dateline_is_a_span_and_gives_metadata(prefix, outlet, date):
    doc = clean_text("\n\n".join([f"{prefix} {LEDE}", *BODY]), Settings())
    assert [(s.text, s.kind, s.start) for s in doc.removed] == [(prefix, "dateline", 0)]
    assert doc.text.startswith(LEDE)
    assert (doc.outlet.value if doc.outlet else None) == outlet
    assert (doc.published.value if doc.published else None) == date
    if date:
        assert doc.published.source == "dateline"


@pytest.mark.parametrize("stamp, date", [
    ("Posted Feb 24, 2018 by Jane Doe", dt.date(2018, 2, 24)),
    ("Published 10:32 AM EST Feb 24, 2018", dt.date(2018, 2, 24)),
    ("February 24, 2018", dt.date(2018, 2, 24)),
])
def test_stamp_lines_are_datelines(stamp, date):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", stamp, *BODY]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(stamp, "dateline")]
    assert doc.published.value == date


def test_published_preferred_over_updated():
    doc = clean_text("\n\n".join(["Updated: March 2, 2018", "Published: Feb 24, 2018", *BODY]), Settings())
    assert doc.published.value == dt.date(2018, 2, 24)


def test_event_date_in_story_is_not_publication_date():
    doc = clean_text("\n\n".join([*BODY, "The shooting happened on February 14, 2018, at the school in Parkland."]), Settings())
    assert doc.published is None


def test_future_and_ancient_dates_rejected():
    for stamp in ("Posted Feb 24, 2099", "Posted Feb 24, 1980"):
        doc = clean_text("\n\n".join([stamp, *BODY]), Settings())
        assert doc.published is None


def test_capitalised_sentence_subject_is_not_a_dateline():
    line = "Coral Springs — a quiet suburb until last week — is now at the centre of a national debate about schools."
    doc = clean_text("\n\n".join([line, *BODY]), Settings())
    assert doc.removed == () and doc.text.startswith(line)


@pytest.mark.parametrize("headline", ["Best Drip Coffee Makers (2026): Real Reviews, No Fluff",
                                      "Top 10 Phones (2025) - Tested and Ranked"])
def test_a_year_in_brackets_is_not_a_dateline_outlet(headline):
    from cleaners.rules.base import Doc, Line
    from cleaners.rules.dateline import leading_dateline
    line = Line(0, 1, headline)
    assert leading_dateline(line, Doc([line])) is None
