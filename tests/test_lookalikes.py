"""Article text that looks like debris but must survive."""
import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY, article, fixed_scores, survives


@pytest.mark.parametrize("quote", ['"We will rebuild."', '"This is not over," she said.', "\u201cWe were stunned,\u201d he said."])
def test_one_line_quote_survives(quote):
    doc = clean_text(article(middle=[quote]), Settings())
    assert quote.replace("\u201c", '"').replace("\u201d", '"') in doc.text.split("\n\n")


@pytest.mark.parametrize("last", ["He did not respond.", "The vote is Friday.", "No one was hurt."])
def test_short_last_paragraph_survives(last):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *BODY, last]), Settings())
    assert doc.text.split("\n\n")[-1] == last
    assert doc.removed == ()


def test_short_last_paragraph_survives_before_trailing_debris():
    doc = clean_text("\n\n".join([*BODY, "He did not respond.", "What do you think?", "Most recent"]), Settings())
    assert doc.text.split("\n\n")[-1] == "He did not respond."


@pytest.mark.parametrize("line", [
    "The sheriff posted a video on Twitter showing the deputies outside the building that afternoon.",
    "A photo taken by a student shows officers crouched behind their cars during the attack.",
    "CNN reported that the deputies had been told to wait for backup before entering the building.",
])
def test_sentences_mentioning_twitter_photos_or_outlets_survive(line):
    assert survives(line)


def test_subheading_survives_and_title_is_extracted():
    doc = clean_text(article(middle=["Police squeal on each other"]), Settings())
    assert doc.title == "Council backs bigger bus network"
    assert "Police squeal on each other" in doc.text.split("\n\n")


def test_model_headline_below_a_furniture_sentence_starts_the_article(monkeypatch):
    """The line model picks the headline; one 'sentence' above it (a cookie notice the model let
    through) is page furniture, not the start of the body: it goes, and the headline is the title."""
    from newsclean.cleaners.decide import decide
    from newsclean.cleaners.settings import Settings

    lines = ["This website uses cookies to improve your experience on our pages.", "Council backs bigger bus network",
             "The city council voted on Tuesday to expand the downtown bus network after months of debate.",
             "Council members said the new routes would serve neighbourhoods without reliable service.",
             "The plan still needs approval from the regional transit authority next month."]
    fixed_scores(monkeypatch, [0.3, 0.6, 0.1, 0.1, 0.1], 1)
    d = decide(lines, Settings())
    assert d.title is not None and d.title.text == lines[1]
    assert [ln.text for ln, _ in d.kept] == lines[2:]
    assert any(s.line == 1 and s.whole_line for s in d.spans)


_CLOSING_LIST = ["Council backs bigger bus network",
                 "The city council voted on Tuesday to expand the downtown bus network after months of debate.",
                 "Council members said the new routes would serve these neighbourhoods first:",
                 "Riverside and the old docks",
                 "Northfield Park",
                 "Hill Top estate",
                 "Most popular",
                 "Share this story"]


def _decide_with(monkeypatch, proba):
    from newsclean.cleaners.decide import decide
    from newsclean.cleaners.settings import Settings

    fixed_scores(monkeypatch, proba, 0)
    return [ln.text for ln, _ in decide(_CLOSING_LIST, Settings()).kept]


def test_a_list_closing_the_article_stays_when_the_model_is_sure_it_is_body(monkeypatch):
    """List items are not prose, so the prose span ends above them; the model's confidence carries
    the body over them, and stops at the first line it is not sure of."""
    kept = _decide_with(monkeypatch, [0.9, 0.05, 0.05, 0.1, 0.1, 0.15, 0.6, 0.95])
    assert kept == _CLOSING_LIST[1:6]
    # a line a rule removes ends the run even when the model scores it as body
    assert _decide_with(monkeypatch, [0.9, 0.05, 0.05, 0.1, 0.1, 0.15, 0.1, 0.1]) == _CLOSING_LIST[1:6]


def test_a_list_below_the_article_goes_when_the_model_is_not_sure(monkeypatch):
    # look-alike: a teaser list under the story, scored as body only weakly, is not carried
    kept = _decide_with(monkeypatch, [0.9, 0.05, 0.05, 0.45, 0.1, 0.1, 0.1, 0.95])
    assert kept == _CLOSING_LIST[1:3]
