"""Debris glued after a paragraph's last sentence (cleaners.rules.glued, caption.glued_credit,
caption.lead_credit): only the glued run goes, with the kind its own line would get."""
import pytest

from cleaners.pipeline import clean_text
from cleaners.settings import Settings
from tests.ruletools import BODY, article, removed_kinds, survives

PARA = "Residents can share their views at a public meeting on Thursday evening at the library."


@pytest.mark.parametrize("tail, kind", [
    ("Watch LIVE", "navigation"), ("Advertisement", "navigation"),
    ("Read more: Mayor resigns after scandal", "related_headline"), ("RELATED: Storm hits coast", "related_headline"),
    ("Tags: politics, budget, council", "tag_list"), ("Videos by Rare", "outlet_signature"),
    ("FoxNews.com", "outlet_signature"), ("Share this article", "call_to_action"),
    ("Photo: Getty Images", "caption"),
])
def test_glued_tail_is_cut_with_its_kind(tail, kind):
    assert removed_kinds(article(middle=[PARA + " " + tail])) == {tail: kind}


@pytest.mark.parametrize("para", [
    # the run after the last full stop is a sentence's start, not site chrome
    PARA + " Read the council's full report on the city website before the meeting",
    PARA + " More than 200 residents attended the last one",
    # one short fragment, not a sentence, before the chrome words
    "Vote now. Watch LIVE",
])
def test_glued_lookalikes_are_not_cut(para):
    doc = clean_text(article(middle=[para]), Settings())
    assert not [s for s in doc.removed if s.by.startswith("glued_")]


def test_leading_credit_bracket_is_a_span():
    credit = "(Image source: YouTube screenshot)"
    assert removed_kinds(article(middle=[credit + " " + PARA])) == {credit: "caption"}


def test_line_above_the_headline_is_furniture_but_a_standfirst_below_it_stays():
    furniture = "Council votes, storm warnings and school news from across the region"
    standfirst = "The vote ends a year of debate over routes and fares in the north of the city"
    text = "\n\n".join([furniture, "Council backs bigger bus network", standfirst] + BODY)
    doc = clean_text(text, Settings())
    assert doc.title == "Council backs bigger bus network"
    assert standfirst in doc.text.split("\n\n") and furniture not in doc.text
