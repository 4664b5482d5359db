"""The full headline over a shortened copy of it (newsclean.cleaners.model.headline): a breadcrumb's last item
or a section heading that repeats the headline's first words must not become the title."""
import pytest

import newsclean.cleaners.model as line_model
from newsclean.cleaners.model.headline import NEAR, full_headline
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY

SHORT = "Council Backs Bigger Bus Network"
FULL = "Council Backs Bigger Bus Network For The North"


@pytest.mark.parametrize("lines", [
    # a breadcrumb's last item above the headline
    ["Home", "Transport", SHORT, FULL, "March 3, 2025", *BODY],
    # a heading that repeats the headline's first words right above the body (a share bar between:
    # with the share bar below it, the retrained ranker takes the full headline even
    # without the step, and the layout no longer tests it)
    ["Menu", FULL, "Share", SHORT, *BODY],
])
def test_the_full_headline_wins_over_its_shortened_copy(lines, monkeypatch):
    text = "\n\n".join(lines)
    doc = clean_text(text, Settings())
    assert doc.title == FULL
    # cleaning the output again finds the same headline and body
    again = clean_text(doc.title + "\n\n" + doc.text, Settings())
    assert (again.title, again.text) == (doc.title, doc.text)
    # without the step, the ranker keeps the short copy on these layouts
    monkeypatch.setattr(line_model, "full_headline", lambda lines, i, cand: i)
    assert clean_text(text, Settings()).title == SHORT


def _pick(lines: list[str], chosen: str) -> str:
    return lines[full_headline(lines, lines.index(chosen), [True] * len(lines))]


@pytest.mark.parametrize("longer", [
    FULL,
    FULL + "?",
    SHORT + " (2025)",
    SHORT.lower() + " for the north",  # case aside
])
def test_a_longer_form_nearby_is_the_headline(longer):
    assert _pick([longer, "By Jane Doe", SHORT, *BODY], SHORT) == longer
    assert _pick([SHORT, "By Jane Doe", longer, *BODY], SHORT) == longer


@pytest.mark.parametrize("longer, why", [
    (SHORT + " | Riverside Gazette", "a separator: the outlet"),
    (SHORT + " – what it means for you", "a separator: a subtitle"),
    (SHORT + ": the plan explained", "a colon"),
    (SHORT + " featured image", "the alt text of the headline's picture"),
    (SHORT + " thumbnail", "the alt text of the headline's picture"),
    (SHORT + " by Jane Doe", "a teaser card's byline"),
    (SHORT + " at its meeting on Tuesday.", "a sentence"),
    (SHORT + " after a long debate about the costs of the new routes to the north", "more than a few words"),
    ("Council Backs Bigger Bus Networks", "another word, not more words"),
])
def test_look_alikes_of_a_longer_form_are_not_the_headline(longer, why):
    assert _pick([longer, SHORT, *BODY], SHORT) == SHORT, why


@pytest.mark.parametrize("short", [
    "Bus Network",  # too few words: a body sentence may start with them
    "What is a bus network?",  # a question: what follows on a longer line is another clause
    "Update:",
])
def test_a_short_headline_that_cannot_be_cut_from_a_longer_one_stays(short):
    longer = short + " and why the council backs it"
    assert _pick([longer, short, *BODY], short) == short


def test_only_nearby_candidate_lines_count():
    far = [FULL] + [f"Filler line {k}" for k in range(NEAR)] + [SHORT, *BODY]
    assert _pick(far, SHORT) == SHORT
    lines = [FULL, SHORT, *BODY]
    assert lines[full_headline(lines, 1, [False, True] + [True] * len(BODY))] == SHORT
