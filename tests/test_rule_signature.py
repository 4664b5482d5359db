import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import article, kind_of, survives


@pytest.mark.parametrize("line", ["More on FoxNews.com.", "Videos by Rare", "Copyright 2018 The Associated Press. All rights reserved.",
                                  "© 2018 Example Media Group", "This article originally appeared on TheHill.com",
                                  "nytimes.com"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_signatures_removed(line, where):
    assert kind_of(line, where) == "outlet_signature"


@pytest.mark.parametrize("line, outlet, domain", [
    ("More on FoxNews.com.", "Fox News", "foxnews.com"),
    ("Videos by Rare", "Rare", "rare.us"),
    ("More on Example-News.com.", "Example-News.com", "example-news.com"),
])
def test_signature_names_the_outlet(line, outlet, domain):
    doc = clean_text(article(after=[line]), Settings())
    assert (doc.outlet.value, doc.outlet_domain, doc.outlet.source) == (outlet, domain, "text")


def test_outlet_only_cited_in_the_story_is_not_the_outlet():
    cited = "CNN reported that the council had already approved the funding in a closed session last week."
    doc = clean_text(article(middle=[cited, "The Sun-Sentinel and Reuters also reported the vote, citing officials."]), Settings())
    assert doc.outlet is None and doc.outlet_domain is None
    assert cited in doc.text


def test_paragraph_citing_cnn_survives():
    assert survives("CNN reported that the council had already approved the funding in a closed session last week.")


@pytest.mark.parametrize("line", ["This article was originally published by The Conversation.",
                                  "This story was first published on Example.com"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_republication_notes_are_signatures(line, where):
    assert kind_of(line, where) == "outlet_signature"


def test_german_wire_credit_is_a_signature():
    assert kind_of("Mit Material von dpa und AFP", "after") == "outlet_signature"


@pytest.mark.parametrize("line", ["Alle Rechte vorbehalten.", "Tous droits réservés", "Todos los derechos reservados",
                                  "Tutti i diritti riservati", "Wszelkie prawa zastrzeżone"])
def test_all_rights_reserved_in_other_languages(line):
    assert kind_of(line, "after") == "outlet_signature"


def test_a_polish_copyright_notice_is_a_signature():
    from newsclean.cleaners.rules.signature import copyright_line
    from tests.ruletools import alone

    assert alone(copyright_line, "Materiał chroniony prawem autorskim. Przedruk tylko za zgodą wydawcy.") is not None
    assert alone(copyright_line, "Prawo autorskie chroni materiał zebrany przez dziennikarzy, orzekł sąd.") is None
