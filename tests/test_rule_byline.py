"""Bylines: removed with kind `byline`, and read back as the author (an agency named there is the
outlet, a date written beside the name the publication date)."""
import datetime as dt

import pytest

from newsclean.cleaners.pipeline import clean_document, clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument
from tests.ruletools import BODY, alone, article, kind_of, survives


@pytest.mark.parametrize("line, author", [
    ("By Jane Roe", "Jane Roe"),
    ("By JOHN DOE and JANE ROE, Associated Press", "John Doe; Jane Roe"),
    ("Written by John Doe", "John Doe"),
    ("Von Hans Müller", "Hans Müller"),
    ("Por Juan Pérez y María López", "Juan Pérez; María López"),
    ("By Ursula von der Leyen", "Ursula von der Leyen"),
    ("John Doe, Staff Writer", "John Doe"),
    ("Jane Roe | February 24, 2018", "Jane Roe"),
    # a role sentence or an e-mail address after the name
    ("By Chris Welch, a reviewer specializing in personal audio and home theater.", "Chris Welch"),
    ("By Jane Roe, a senior reporter covering climate.", "Jane Roe"),
    ("By Maria Lopez mlopez@dailyherald.com", "Maria Lopez"),
])
def test_byline_under_the_headline_is_removed_and_names_the_author(line, author):
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "byline")]
    assert doc.author == author


@pytest.mark.parametrize("line, outlet, date", [
    ("By JOHN DOE, Associated Press", "The Associated Press", None),
    ("By Associated Press", "The Associated Press", None),
    ("By Jane Roe | Feb 24, 2018", None, dt.date(2018, 2, 24)),
])
def test_byline_gives_the_outlet_or_the_date_written_beside_the_name(line, outlet, date):
    doc = clean_text(article(before=[line]), Settings())
    assert (doc.outlet.value if doc.outlet else None) == outlet
    assert (doc.published.value if doc.published else None) == date
    if line == "By Associated Press":
        assert doc.author is None  # an agency is not an author


@pytest.mark.parametrize("line", [
    "By The Numbers",  # a subheading
    "By Tuesday, the council had voted to extend the network to the northern suburbs.",
    "Kate Middleton Meghan Markle Prince Harry",  # a tag list, no "By"
    "Council members said, and the mayor agreed",
])
def test_byline_look_alikes_are_not_bylines(line):
    assert kind_of(line, "middle") != "byline"


def test_a_menu_label_of_common_words_is_not_a_byline():
    # "By Use Case" is a filter in a menu: the page writes its words in lower case ("use case")
    text = "\n\n".join(["By Use Case", *BODY, "Each use case needs its own bus route, the planners said in their case study."])
    assert {s.text: s.kind for s in clean_text(text, Settings()).removed}.get("By Use Case") != "byline"


def test_record_author_wins_over_the_byline():
    raw = RawDocument(source="a.txt", data=article(before=["By Jane Roe"]).encode(), format="text",
                      meta={"author": "J. Roe"})
    assert clean_document(raw, Settings()).author == "J. Roe"


def test_labelled_credits_are_a_byline():
    line = "Autor: Jan Nowak; Ilustrator: Adam Roe"
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "byline")]
    assert doc.author == "Jan Nowak"


def test_wire_credits_are_no_byline():
    # like "The Associated Press contributed to this report", the references keep them with the story
    from newsclean.cleaners.rules.byline import byline
    assert alone(byline, "Reporting by Jane Roe in London; Editing by John Doe") is None


def test_a_staff_role_on_its_own_line_is_a_byline():
    assert kind_of("Staff Writer", "before") == "byline"


@pytest.mark.parametrize("line", ["Reporting from San Francisco", "Reporting from Kyiv, Ukraine", "Reported from London"])
def test_where_the_reporter_filed_from_is_part_of_the_byline(line):
    doc = clean_text(article(before=["By Jane Roe", line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [("By Jane Roe", "byline"), (line, "byline")]
    assert doc.author == "Jane Roe"


@pytest.mark.parametrize("line", ["Reporting from the front line is dangerous, editors say.",
                                  "Reporting from courts and councils has thinned out since 2008, a study found."])
def test_sentences_about_reporting_from_somewhere_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["Editor", "Letters to the Editor", "Writer; director; producer"])
def test_role_and_credit_look_alikes_are_not_bylines(line):
    assert kind_of(line, "middle") != "byline"


@pytest.mark.parametrize("line, author", [
    ("by Jane Roe", "Jane Roe"),  # Substack and many blogs write "by" in lower case
    ("by Jane Roe, The Weekly Dispatch", "Jane Roe"),
    ("von Hans Müller", "Hans Müller"),
    ("par Didier Roy, 21 juin 2018", "Didier Roy"),
])
def test_a_lower_case_by_starts_a_byline_too(line, author):
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "byline")]
    assert doc.author == author


@pytest.mark.parametrize("line", [
    "von der Feuerwehr Köln",  # a phrase: the words after "von" are no person's name
    "by the Numbers",
])
def test_lower_case_phrases_are_not_bylines(line):
    assert kind_of(line, "middle") != "byline"


def test_a_sentence_wrapped_before_by_is_not_a_byline():
    # a paragraph broken inside a sentence, the break falling just before "by NAME and NAME"
    wrapped = ("The audit of the northern routes, which the council ordered last spring, was written\n"
               "by Jane Roe and John Doe\n"
               "and will be published with the budget next month.")
    text = "\n\n".join(["Council backs bigger bus network", *BODY[:2], wrapped, BODY[2]])
    assert "byline" not in {s.kind for s in clean_text(text, Settings()).removed}


def test_a_byline_is_never_a_title_candidate():
    from newsclean.cleaners.model.features import doc_features, title_candidates

    lines = ["Council backs bigger bus network", "by Jane Roe, The Weekly Dispatch", "By Jane Roe",
             "By the numbers: ten years of buses", *BODY]
    cand = title_candidates(doc_features(lines), lines)
    assert list(cand[:4]) == [True, False, False, True]


def test_a_by_label_with_a_colon_is_a_byline():
    line = "by: Jane Ortiz"
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "byline")]
    assert doc.author == "Jane Ortiz"


@pytest.mark.parametrize("line, author, date", [
    ("By Alyssa Maio on January 21, 2023", "Alyssa Maio", dt.date(2023, 1, 21)),
    ("By Jonathan Sayers Jan. 31, 2026 7:47 am EST", "Jonathan Sayers", dt.date(2026, 1, 31)),
    ("By Korin MillerPublished: Jan 29, 2025", "Korin Miller", dt.date(2025, 1, 29)),  # label glued to the name
    ("By Bhaval Patel Last Updated: December 6, 2024", "Bhaval Patel", dt.date(2024, 12, 6)),
    ("By Matthew Richardson ⋅ Review Editor ⋅ Updated November 18, 2025", "Matthew Richardson", dt.date(2025, 11, 18)),
])
def test_a_byline_with_its_date_gives_author_and_date(line, author, date):
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "byline")]
    assert doc.author == author
    assert doc.published is not None and doc.published.value == date


@pytest.mark.parametrize("line", ["Last Updated · January 28, 2026", "Reviewed Recently · March 2, 2025"])
def test_a_stamp_label_is_not_a_name(line):
    from newsclean.cleaners.rules.byline import byline_parts

    assert byline_parts(line) is None


def test_by_with_a_year_in_a_sentence_is_no_byline():
    from newsclean.cleaners.rules.byline import byline_parts

    assert byline_parts("By the end of 2024 the plan") is None


def test_a_by_glued_to_the_name_is_a_byline():
    from newsclean.cleaners.rules.byline import byline_parts

    assert byline_parts("ByAngela Kaye Carpenter Updated onFebruary 16, 2026")[0] == ("Angela Kaye Carpenter",)
    assert byline_parts("Byron Smith") is None  # a name that starts with "By"
    assert byline_parts("Written By Feb 11, 2019 · 3 min read") is None


def test_a_lower_case_byline_right_under_the_headline_without_blank_lines():
    # one block per line, no blank lines: the headline above ends no sentence, yet the byline
    # does not continue it (the line after starts with a capital)
    text = "\n".join(["Crews contain brush fire that forced evacuations in Riverside County", "by: Jane Ortiz",
                      "Posted: Nov 3, 2024 / 04:12 PM PST", *BODY])
    doc = clean_text(text, Settings())
    assert doc.author == "Jane Ortiz"


@pytest.mark.parametrize("line", ["By Christmas Eve, a record number of shoppers had come to the new market hall.",
                                  "By Friday, the council had agreed to extend the network to the northern suburbs."])
def test_sentences_that_start_with_by_and_a_capitalised_word_survive(line):
    assert survives(line)


@pytest.mark.parametrize("role", ["Tokyo correspondent", "Business reporter", "Senior Technology Editor"])
def test_a_name_over_a_reporter_s_title_is_a_byline(role):
    doc = clean_text(article(before=["Kenji Tanaka", role]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [("Kenji Tanaka", "byline"), (role, "byline")]
    assert doc.author == "Kenji Tanaka"


def test_a_product_over_its_category_inside_the_article_is_no_byline():
    text = article(middle=["Adobe Premiere", "Video Editor",
                           "The editing suite most studios use costs about twenty dollars a month for a single seat."])
    assert "byline" not in {s.kind for s in clean_text(text, Settings()).removed}


def test_a_reporter_s_title_alone_is_no_byline():
    assert kind_of("Business reporter", "before") != "byline"


@pytest.mark.parametrize("dated", ["Dec 14, 2025", "Updated on October 21, 2025", "Thu, 13 June 2024 at 9:45 am GMT+1 · 3 min read"])
def test_a_name_over_the_article_s_date_is_a_byline(dated):
    doc = clean_text(article(before=["Gary Marcus", dated]), Settings())
    assert ("Gary Marcus", "byline") in [(s.text, s.kind) for s in doc.removed]
    assert doc.author == "Gary Marcus"


@pytest.mark.parametrize("label", ["Almanac Logo", "M&A Updates", "Digital OrganizationOfficeOrganizingPapers"])
def test_labels_over_a_date_are_no_byline(label):
    doc = clean_text(article(before=[label, "March 14, 2026"]), Settings())
    assert doc.author is None
    assert {s.text: s.kind for s in doc.removed}.get(label) != "byline"


@pytest.mark.parametrize("line, name", [("Gwyn Topham Transport correspondent", "Gwyn Topham"),
                                        ("Mary Ann Smith Senior economics editor", "Mary Ann Smith")])
def test_a_name_and_a_sentence_case_title_on_one_line_is_a_byline(line, name):
    from newsclean.cleaners.rules.byline import byline_parts

    assert byline_parts(line) is not None and byline_parts(line)[0] == (name,)
    assert kind_of(line, "before") == "byline"


def test_a_title_case_title_does_not_say_where_the_name_ends():
    from newsclean.cleaners.rules.byline import byline_parts

    assert byline_parts("Jane Roe Senior Reporter") is None


@pytest.mark.parametrize("line, author", [("By Will Judd", "Will Judd"), ("By Don Lemon and Jane Roe", "Don Lemon; Jane Roe"),
                                          ("By Will Judd | May 3, 2024", "Will Judd")])
def test_a_given_name_that_is_also_a_function_word_starts_a_byline(line, author):
    doc = clean_text(article(before=[line, "May 3, 2024"] if "|" not in line else [line]), Settings())
    assert (line, "byline") in [(s.text, s.kind) for s in doc.removed]
    assert doc.author == author


@pytest.mark.parametrize("headline", ["Will Congress Act", "Don Quixote Returns"])
def test_a_headline_that_opens_with_such_a_word_over_a_date_is_no_byline(headline):
    doc = clean_text(article(before=[headline, "March 14, 2026"], title=None), Settings())
    assert doc.author is None
    assert {s.text: s.kind for s in doc.removed}.get(headline) != "byline"


@pytest.mark.parametrize("names", ["Jane Roe and John Doe", "Jane Roe, John Doe", "Jane Roe, John Doe and Kenji Tanaka"])
def test_several_names_over_the_article_s_date_are_a_byline_of_each(names):
    from newsclean.cleaners.rules.byline import byline_names

    doc = clean_text(article(before=[names, "Dec 14, 2025"]), Settings())
    assert (names, "byline") in [(s.text, s.kind) for s in doc.removed]
    assert doc.author == "; ".join(byline_names(names)) and doc.author.count("; ") == names.count(",") + names.count(" and ")


@pytest.mark.parametrize("line", [
    "von Anna Beispiel am 14. Mai 2014, 15:40 Uhr", "Von Jan Muster am 24.11.2022", "par Marie Exemple le 3 mars 2021",
])
def test_a_byline_with_its_date_after_on_in_other_languages(line):
    from newsclean.cleaners.rules.byline import byline
    from tests.ruletools import alone

    assert alone(byline, line) is not None


def test_a_sentence_with_von_and_am_is_no_byline():
    from newsclean.cleaners.rules.byline import byline
    from tests.ruletools import alone

    assert alone(byline, "Von der Regierung am 14. Mai 2014 beschlossen, trat das Gesetz erst später in Kraft.") is None
