"""A second article appended below the body (infinite scroll, a related block carrying whole
stories) comes with its own header: a headline, then its date or byline. When the prose under it is
about something else, the article ends above that headline. Look-alikes that must survive: a live
blog's entries and a recipe card's repeated headline (same topic), a listing of dated events (its
dates recur), and a section heading with no date or byline under it."""
import numpy as np
import pytest

from newsclean.cleaners import shape
from newsclean.cleaners.decide import decide
from newsclean.cleaners.settings import Settings

HEADLINE = "City Council Approves New Budget For Public Schools"
ARTICLE = [
    "The city council approved a new budget for public schools on Tuesday after a long debate.",
    "The budget raises teacher salaries by four percent and funds two new school buildings.",
    "Council members who voted against it said the schools plan relies on optimistic tax forecasts.",
    "The mayor said the budget would reach the schools before the start of the autumn term.",
]
OTHER_STORY = [
    "Astronomers have spotted a comet that will pass close to the planet Mars next spring.",
    "The comet was first seen by a telescope in Chile, and its orbit brings it near the sun.",
    "Scientists hope the comet's tail will reveal how ice survives in the outer solar system.",
]
SAME_STORY = [
    "Teachers gathered outside the council building as the budget vote for the schools began.",
    "The council said the school budget debate would continue next week with parents invited.",
    "Parents asked the council whether the new school buildings would open before the term.",
]


def _kept(lines: list[str]) -> list[str]:
    decision = decide(lines, Settings(use_model=False))
    return [text for _, text in decision.kept]


def _page(header: list[str], below: list[str]) -> list[str]:
    return ["Home", "News", HEADLINE, "By Jane Smith", *ARTICLE, *header, *below]


@pytest.mark.parametrize("header", [
    ["Related Stories", "Comet To Pass Close To Mars Next Spring", "March 3, 2026"],
    ["Comet To Pass Close To Mars Next Spring", "Science", "By John Doe"],
    ["Up next", "Comet To Pass Close To Mars Next Spring", "Science", "March 3, 2026"],
])
def test_an_appended_article_about_something_else_is_cut(header):
    assert _kept(_page(header, OTHER_STORY)) == ARTICLE


def test_a_live_blog_entry_on_the_same_story_stays():
    entry = ["Teachers Rally Outside Council Building", "March 3, 2026"]
    assert _kept(_page(entry, SAME_STORY)) == [*ARTICLE, entry[0], *SAME_STORY]


def test_the_pages_own_headline_repeated_over_a_byline_is_no_second_article():
    header = [HEADLINE.lower().capitalize(), "By Jane Smith"]
    assert _kept(_page(header, OTHER_STORY)) == [*ARTICLE, header[0], *OTHER_STORY]


def test_only_the_bodys_first_date_is_looked_at_so_a_listing_of_dated_events_stays():
    listing = [
        "The Spring Science Fair", "Hall A, Springfield",
        "Pupils of all schools show their experiments to parents and teachers.", "March 3, 2026",
        "Comet Watching Night For Families", "March 10, 2026", *OTHER_STORY,
    ]
    lines = ["Home", HEADLINE, *ARTICLE, *listing]
    assert _kept(lines)[-3:] == OTHER_STORY


def test_a_heading_without_a_date_or_byline_under_it_is_a_section():
    lines = _page(["Comet To Pass Close To Mars Next Spring"], OTHER_STORY)
    assert _kept(lines)[-3:] == OTHER_STORY


def test_the_body_above_an_appended_article_is_not_extended_into_it():
    # a sentence the model is unsure about right under the body would continue it; it lies below
    # the second article's header here, so it does not
    lines = _page(["Comet To Pass Close To Mars Next Spring", "March 3, 2026"], OTHER_STORY)
    proba = np.array([0.99, 0.99, 0.9, 0.99] + [0.02] * len(ARTICLE) + [0.6, 0.99] + [0.02] * len(OTHER_STORY))
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept == ARTICLE


@pytest.mark.parametrize("a, b, low", [
    (ARTICLE, OTHER_STORY, True),
    (ARTICLE, SAME_STORY, False),
    ([], OTHER_STORY, True),
])
def test_topic_similarity(a, b, low):
    assert (shape.topic_similarity(a, b) < 0.2) is low


TEASERS = [
    "Weather in the region: mild but windy days ahead for the whole weekend…",
    "Police search for a missing hiker near the northern lake overnight…",
    "Local football club wins the cup final after a dramatic penalty shoot-out…",
]
REAL_HEADER = ["Comet To Pass Close To Mars Next Spring", "March 3, 2026"]


def test_the_real_article_under_teasers_and_a_breadcrumb_of_its_headline_stays():
    # the body seems to start at the teasers; the header under them is the article's own, as the
    # breadcrumb above shows
    lines = ["Home › Science › Comet to pass close to Mars next spring", *TEASERS, *REAL_HEADER, *OTHER_STORY]
    assert _kept(lines)[-3:] == OTHER_STORY


def test_prose_the_model_finds_more_article_like_than_the_teasers_above_stays():
    lines = ["Home", *TEASERS, *REAL_HEADER, *OTHER_STORY]
    proba = np.array([0.99] + [0.45] * len(TEASERS) + [0.6, 0.99] + [0.05] * len(OTHER_STORY))
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept[-3:] == OTHER_STORY
    # the same page where the model doubts the prose below as much as the teasers: a second article
    proba[-len(OTHER_STORY):] = 0.4
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept[-3:] == TEASERS
