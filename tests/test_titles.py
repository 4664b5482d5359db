"""The headline's own words (newsclean.cleaners.titles): a trailing outlet or short label after a spaced
separator is dropped; subtitles, breadcrumbs and hyphenated words stay."""
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.titles import headline_text
from tests.ruletools import BODY


@pytest.mark.parametrize("title, url, lines, expected", [
    # a short label: a section, a part number, a date
    ("Council backs bigger bus network | Opinion", None, None, "Council backs bigger bus network"),
    ("Council backs bigger bus network - Part 2", None, None, "Council backs bigger bus network"),
    ("Council backs bigger bus network / Dec 2025", None, None, "Council backs bigger bus network"),
    # the outlet: its name spells the URL's domain, even when it is longer than a short label
    ("Council backs bigger bus network – The Riverside Gazette of Record", "https://www.riverside-gazette.co.uk/news/1",
     None, "Council backs bigger bus network"),
    ("Council backs bigger bus network – Riverside Gazette for the Valley", "https://riversidegazette.com/a/1", None,
     "Council backs bigger bus network"),
    # ... but not a sentence that starts with the outlet's name (a press release's own headline)
    ("Council backs bigger bus network - RGZ: Fares to rise for commuters next spring", "https://www.rgz.de/presse/1",
     None, "Council backs bigger bus network - RGZ: Fares to rise for commuters next spring"),
    # the outlet: the same label ends another headline of the page (a site template's suffix)
    ("Council backs bigger bus network | News of the Valley and the Hills", None,
     ["Weather warning issued for Friday | News of the Valley and the Hills"], "Council backs bigger bus network"),
    # ... but not when that line only quotes this headline (a "next post" link)
    ("Council backs bigger bus network | What it means for the suburbs", None,
     ["Previous post: Market reopens Next post: Council backs bigger bus network | What it means for the suburbs"],
     "Council backs bigger bus network | What it means for the suburbs"),
    # ... in other languages too: a part number, a section; a clause of function words stays
    ("Stadtrat beschließt neues Busnetz - Teil 3", None, None, "Stadtrat beschließt neues Busnetz"),
    ("Stadtrat beschließt neues Busnetz – Zeugenaufruf", None, None, "Stadtrat beschließt neues Busnetz"),
    ("Council kept bus fares low – Until Now", None, None, "Council kept bus fares low – Until Now"),
    # subtitles are the headline's: a colon, function words, a sentence
    ("Zero waste - a guide for beginners", None, None, "Zero waste - a guide for beginners"),
    ("Budget 2026: Opinion", None, None, "Budget 2026: Opinion"),
    ("Council backs bigger bus network - Fares rise.", None, None, "Council backs bigger bus network - Fares rise."),
    # a breadcrumb or a list is not "headline | label"; nor is a hyphenated word a separator
    ("Home / News / Bus Network", None, None, "Home / News / Bus Network"),
    ("Debt-Free Living", None, None, "Debt-Free Living"),
    # what the label follows must be headline-sized itself
    ("Opinion | Transport", None, None, "Opinion | Transport"),
])
def test_headline_text(title, url, lines, expected):
    assert headline_text(title, url, lines) == expected


def test_pipeline_title_drops_the_outlet():
    text = "\n\n".join(["Council backs bigger bus network | Riverside Gazette", *BODY])
    doc = clean_text(text, Settings(), meta={"url": "https://www.riversidegazette.com/news/bus"})
    assert doc.title == "Council backs bigger bus network"
    assert "Riverside Gazette" not in doc.text
    # the label is a removed span like any other, with its kind, and cleaning the output again
    # finds the same headline and cuts nothing more
    label = [s for s in doc.removed if s.by == "title_label"]
    assert [(s.line, s.kind, s.text) for s in label] == [(1, "outlet_signature", " | Riverside Gazette")]
    again = clean_text(doc.title + "\n\n" + doc.text, Settings(), meta={"url": "https://www.riversidegazette.com/news/bus"})
    assert (again.title, again.text) == (doc.title, doc.text)
    assert not any(s.by == "title_label" for s in again.removed)


def test_pipeline_title_short_label_is_navigation():
    doc = clean_text("\n\n".join(["Council backs bigger bus network - Part 2", *BODY]), Settings())
    assert doc.title == "Council backs bigger bus network"
    assert [(s.kind, s.text) for s in doc.removed if s.by == "title_label"] == [("navigation", " - Part 2")]


SEPARATORS = [" | ", " - ", " – ", " / ", " · ", ": ", " "]
PARTS = ["Council backs bigger bus network", "Part 2", "Opinion", "Riverside Gazette", "a guide for beginners",
         "Dec 2025", "News", "What it means"]


@example([(" - ", "Part 2"), (" | ", "Riverside Gazette"), (" | ", "Riverside Gazette")],
         "https://www.riversidegazette.com/news/bus")
@given(st.lists(st.tuples(st.sampled_from(SEPARATORS), st.sampled_from(PARTS)), min_size=1, max_size=5),
       st.sampled_from([None, "https://www.riversidegazette.com/news/bus"]))
def test_headline_text_cuts_nothing_more_the_second_time(pieces, url):
    # the output's title is cleaned again as a line of the output: it must come back unchanged
    title = PARTS[0] + "".join(sep + part for sep, part in pieces)
    once = headline_text(title, url)
    assert headline_text(once, url) == once
    assert title.startswith(once)


@pytest.mark.parametrize("bullet", ["* ", "+ ", "o ", "\u2022 ", "- ", "\u2013 "])
def test_a_bulleted_list_item_is_never_the_headline(bullet):
    """Text renderers (inscriptis, lynx, html2text) mark list items with a bullet; a headline-shaped
    menu entry must not win over the headline below it."""
    menu = [bullet + item for item in ("Home", "News", "Council backs a bigger bus network for the north", "Sport")]
    text = "\n".join(menu + ["Buses for three new districts", "By Jane Doe, 24 February 2018"] + BODY)
    assert clean_text(text, Settings()).title == "Buses for three new districts"


@pytest.mark.parametrize("line", ["# Buses for three new districts", "1. FC Köln signs a new striker",
                                  "\"Buses for three new districts\"", "On the buses: three new districts"])
def test_look_alikes_of_a_bullet_still_open_a_headline(line):
    from newsclean.cleaners.shape import LIST_BULLET

    assert not LIST_BULLET.match(line)
