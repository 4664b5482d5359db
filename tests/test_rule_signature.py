import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import alone, article, kind_of, survives


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


# A partner's credit, a sentence long (written for the test): who wrote it, and the outlet that produced
# or first published it
@pytest.mark.parametrize("line", [
    "This story about school buses was written by Jane Doe and produced by The Example Report, a nonprofit, "
    "independent news organization focused on education.",
    "This article was published with the title \"Small Wonders\" in Example Science Magazine Vol. 12 No. 3.",
    "This investigation was produced in partnership with Example Health News, a national newsroom.",
])
def test_partner_credits_are_signatures(line):
    from newsclean.cleaners.rules.signature import signed_by_outlet

    assert alone(signed_by_outlet, line) is not None
    assert kind_of(line, "after") == "outlet_signature"


# The article's own sentences about itself or another story: a date, a byline, a story it cites
@pytest.mark.parametrize("line", [
    "This article was first published in August 2014 and most recently updated in April 2019.",
    "This article was written by Jane Doe.",
    "This story was published in print before the council met, and the figures have changed since then.",
    "The story was produced by a small team working over two years, the editor said.",
])
def test_sentences_about_the_story_are_not_partner_credits(line):
    from newsclean.cleaners.rules.signature import signed_by_outlet

    assert alone(signed_by_outlet, line) is None


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


@pytest.mark.parametrize("line", [
    "This article is the copyrighted property of Example News.",
    "This material may not be published, broadcast, rewritten or redistributed.",
    "No part of this site may be reproduced without our written permission.",
    "Written permission must be obtained before reprint in online or print media.",
    "Reproduction in whole or in part without permission is prohibited.",
    "Unauthorized distribution, transmission or republication strictly prohibited.",
    "Nachdruck nur mit Genehmigung des Verlags.",
    "Alle Inhalte sind urheberrechtlich geschützt.",
    "Toute reproduction interdite.",
    "Prohibida su reproducción total o parcial, sin autorización escrita de su titular.",
    "È vietata la riproduzione anche parziale.",
    "Proibida a reprodução sem autorização.",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_reprint_notices_are_signatures(line, where):
    assert kind_of(line, where) == "outlet_signature"


@pytest.mark.parametrize("line", [
    "Reproduction of the virus is prohibited in ordinary laboratories, the new rules say.",
    "Written permission from the council is required before the festival can go ahead this summer.",
    "This article is about the copyright dispute between the two publishers and what it means for readers.",
    "The material may not be published until the trial ends, the judge ruled on Tuesday afternoon.",
    "Nachdrucke alter Landkarten sind bei Sammlern besonders beliebt, sagte der Händler.",
])
def test_prose_about_copying_survives(line):
    from newsclean.cleaners.rules.signature import copyright_line

    assert alone(copyright_line, line) is None
    assert survives(line)


def test_a_long_notice_that_opens_with_the_sign_is_a_signature():
    notice = ("© 2026 Example Media LLC. All rights reserved. Example Media is a Sample Health company. Our website "
              "services, content and products are for informational purposes only. Example Media does not provide "
              "medical advice, diagnosis or treatment. No part of this website may be reproduced without permission.")
    assert 30 < len(notice.split()) <= 80
    assert kind_of(notice, "after") == "outlet_signature"
    prose = ("Copyright lawyers said the ruling, which the court published on Tuesday after months of hearings, "
             "would change how publishers license archive photographs to news sites, broadcasters and the "
             "many small blogs that reuse them without asking first.")
    assert len(prose.split()) > 30 and survives(prose)
    clause = ("(c) The Secretary shall publish guidance on the new reporting rules within ninety days of the date "
              "of enactment, after consulting the states, the industry and the public, and shall report to "
              "Congress on how the guidance is applied.")
    assert len(clause.split()) > 30 and survives(clause)


# Headlines about copyright keep their place; a notice that opens with the word is still one
@pytest.mark.parametrize("line", ["Copyright Office Weighs In on AI Training and Fair Use",
                                  "Copyright Rules for the Streaming Age", "Copyright Complexity in a Fragmented World"])
def test_headlines_about_copyright_are_no_notices(line):
    from newsclean.cleaners.rules.signature import copyright_line

    assert alone(copyright_line, line) is None


@pytest.mark.parametrize("line", ["Copyright The Associated Press", "Copyright Example Media Group",
                                  "Copyright 2018 The Associated Press. All rights reserved.", "Copyright & Permissions",
                                  "Copyright of the Example Times. All rights reserved."])
def test_notices_opening_with_the_word_are_signatures(line):
    from newsclean.cleaners.rules.signature import copyright_line

    assert alone(copyright_line, line) is not None
