"""Publication date and outlet, from every source, with provenance (record > html > url > text)."""
from __future__ import annotations

import datetime as dt

import pytest

from newsclean.cleaners.metadata import outlets as outlets_mod
from newsclean.cleaners.metadata.dates import date_from_datelines
from newsclean.cleaners.batch import article_row
from newsclean.cleaners.metadata.resolve import PROVENANCE, Evidence, parse_any_date, record_evidence, resolve
from newsclean.cleaners.metadata.urls import date_from_url, domain_from_url
from newsclean.cleaners.pipeline import clean_document, clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import Found, RawDocument
from tests.articles import BODY, PARAGRAPHS

TODAY = dt.date(2026, 1, 1)


def _text(text: str, **meta):
    return clean_document(RawDocument(source="x.txt", data=text.encode(), meta=meta), Settings())


# --- datelines in the text -------------------------------------------------------------------

def test_dateline_with_outlet():
    doc = clean_text("date 2018-02-24 (FoxNews.com) - " + BODY, Settings())
    assert (doc.published.value, doc.published.source) == (dt.date(2018, 2, 24), "dateline")
    assert (doc.outlet.value, doc.outlet.source, doc.outlet_domain) == ("Fox News", "text", "foxnews.com")
    assert doc.text.startswith("The city council voted")


def test_published_stamp_with_time_and_zone():
    doc = clean_text("Published 10:32 AM EST Feb 24, 2018\n\n" + BODY, Settings())
    assert doc.published.value == dt.date(2018, 2, 24)
    assert "Published" not in doc.text


def test_published_preferred_over_updated_whatever_the_order():
    doc = clean_text("Updated: March 1, 2018\n\nPublished 10:32 AM EST Feb 24, 2018\n\n" + BODY, Settings())
    assert doc.published.value == dt.date(2018, 2, 24)
    assert date_from_datelines(["Updated: March 1, 2018"]) == dt.date(2018, 3, 1)  # an update alone still dates it


def test_an_event_date_in_the_story_is_never_the_publication_date():
    story = BODY + "\n\nThe last expansion of the network took place on March 3, 2016, after a two-year study."
    doc = clean_text(story, Settings())
    assert doc.published is None
    assert "March 3, 2016" in doc.text


def test_an_outlet_only_cited_in_the_story_is_never_the_outlet():
    story = "CNN reported on Monday that the council had approved the plan, and Reuters confirmed it later that day.\n\n" + BODY
    doc = clean_text(story, Settings())
    assert doc.outlet is None and doc.outlet_domain is None
    # with a URL, the URL's outlet wins; the cited ones still never do
    doc = _text(story, url="https://www.theguardian.com/uk-news/2018/feb/24/buses")
    assert (doc.outlet.value, doc.outlet.source, doc.outlet_domain) == ("The Guardian", "url", "theguardian.com")


def test_a_signature_names_the_outlet():
    doc = clean_text(BODY + "\n\nVideos by Rare", Settings())
    assert (doc.outlet.value, doc.outlet.source) == ("Rare", "text")


# --- URL provider ----------------------------------------------------------------------------

@pytest.mark.parametrize("url,expected", [
    ("https://www.foxnews.com/us/2018/02/24/story.html", dt.date(2018, 2, 24)),
    ("https://example.com/news/2018-2-4/story", dt.date(2018, 2, 4)),
    ("https://example.com/20180224/story", dt.date(2018, 2, 24)),
    ("https://www.theguardian.com/uk-news/2018/feb/24/story", None),  # month name: not a y/m/d path
    ("https://example.com/2018/02/30/story", None),  # no such day
    ("https://example.com/2099/01/01/story", None),  # the future
    ("https://example.com/1985/01/01/story", None),  # before 1990
    ("https://example.com/2018/02/", None),  # a month is not a day
    ("https://example.com/story?id=123456789", None),
    (None, None),
])
def test_date_from_url(url, expected):
    assert date_from_url(url, TODAY) == expected


@pytest.mark.parametrize("url,expected", [
    ("https://www.bbc.co.uk/news/uk-1", "bbc.co.uk"),
    ("http://edition.cnn.com/2018/02/24/x", "cnn.com"),
    ("news.com.au/x", "news.com.au"),
    ("https://192.168.0.1/x", None),
    ("not a url", None),
])
def test_domain_from_url(url, expected):
    assert domain_from_url(url) == expected


def test_tldextract_is_offline():
    assert outlets_mod._EXTRACT.suffix_list_urls == ()


# --- record values ---------------------------------------------------------------------------

@pytest.mark.parametrize("value,expected", [
    ("2018-02-24", dt.date(2018, 2, 24)),
    ("2018-02-24T23:30:00-05:00", dt.date(2018, 2, 24)),
    ("Feb 24, 2018", dt.date(2018, 2, 24)),
    (dt.datetime(2018, 2, 24, 12), dt.date(2018, 2, 24)),
    (1519430400, dt.date(2018, 2, 24)),
    (1519430400000, dt.date(2018, 2, 24)),
    ("2999-01-01", None),
    ("1989-12-31", None),
    ("yesterday-ish", None),
    ("", None),
    (float("nan"), None),
])
def test_parse_any_date(value, expected):
    assert parse_any_date(value, TODAY) == expected


def test_record_field_names():
    ev = record_evidence({"date": "2018-02-24", "site": "bbc.co.uk", "link": "https://www.bbc.co.uk/news/x", "headline": "H", "authors": ["A", "B"]})
    assert ev == Evidence(title="H", published=dt.date(2018, 2, 24), outlet="bbc.co.uk", url="https://www.bbc.co.uk/news/x", author="A; B")


# --- precedence ------------------------------------------------------------------------------

def test_precedence_record_html_url_text():
    url = "https://www.foxnews.com/us/2016/05/05/story"
    text_outlet = ("Rare", "rare.us")
    full = resolve(Evidence(published=dt.date(2018, 2, 24), outlet="Reuters", url=url),
                   Evidence(published=dt.date(2017, 1, 1), outlet="CNN", title="T html"),
                   text_title="T text", text_published=dt.date(2015, 1, 1), text_outlet=text_outlet, today=TODAY)
    assert (full.published.source, full.outlet.source, full.title) == ("record", "record", Found("T html", "html"))
    html = resolve(Evidence(url=url), Evidence(published=dt.date(2017, 1, 1), outlet="CNN"),
                   text_published=dt.date(2015, 1, 1), text_outlet=text_outlet, today=TODAY)
    assert (html.published.value, html.published.source) == (dt.date(2017, 1, 1), "html")
    assert (html.outlet.value, html.outlet.source, html.outlet_domain) == ("CNN", "html", "cnn.com")
    by_url = resolve(Evidence(url=url), None, text_published=dt.date(2015, 1, 1), text_outlet=text_outlet, today=TODAY)
    assert (by_url.published.value, by_url.published.source) == (dt.date(2016, 5, 5), "url")
    assert (by_url.outlet.value, by_url.outlet.source, by_url.outlet_domain) == ("Fox News", "url", "foxnews.com")
    text = resolve(Evidence(), None, text_published=dt.date(2015, 1, 1), text_outlet=text_outlet, today=TODAY)
    assert (text.published.source, text.outlet.value, text.outlet.source) == ("dateline", "Rare", "text")


def test_title_and_author_carry_their_source():
    both = resolve(Evidence(title="T record", author="A record"), Evidence(title="T html", author="A html"),
                   text_title="T text", text_author="A text")
    assert (both.title, both.author) == (Found("T record", "record"), Found("A record", "record"))
    html = resolve(Evidence(), Evidence(title="T html", author="A html"), text_title="T text", text_author="A text")
    assert (html.title, html.author) == (Found("T html", "html"), Found("A html", "html"))
    text = resolve(Evidence(), None, text_title="T text", text_author="A text")
    assert (text.title, text.author) == (Found("T text", "text"), Found("A text", "text"))
    assert resolve(Evidence(), None).title is None and resolve(Evidence(), None).author is None
    assert PROVENANCE["title"] == PROVENANCE["author"] == ("record", "html", "text")


BYLINE_TEXT = "\n\n".join(["Council backs bigger bus network", "By Jane Smith", *PARAGRAPHS])


def test_documents_record_where_title_and_author_came_from():
    """A record's fields, the HTML's metadata and the text's own headline and byline, each named in
    the article row's title_source and author_source."""
    record = RawDocument("a.jsonl#1", b"1", text=BYLINE_TEXT, meta={"title": "Record headline", "author": "Rec Ord"})
    doc = clean_document(record, Settings())
    assert (doc.title, doc.title_source, doc.author, doc.author_source) == ("Record headline", "record", "Rec Ord", "record")
    plain = clean_document(RawDocument("b.txt", BYLINE_TEXT.encode()), Settings())
    assert (plain.title_source, plain.author, plain.author_source) == ("text", "Jane Smith", "text")
    assert plain.title == BYLINE_TEXT.splitlines()[0]
    row = article_row(plain, Settings(), dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))
    assert (row["title_source"], row["author_source"]) == ("text", "text")
    page = ("<html><head><title>Page headline</title><meta name='author' content='Hal Html'></head><body><article>"
            "<h1>Page headline</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</article></body></html>")
    html = clean_document(RawDocument("c.html", page.encode(), format="html"), Settings())
    assert (html.title, html.title_source, html.author, html.author_source) == ("Page headline", "html", "Hal Html", "html")


def test_implausible_dates_fall_through_to_the_next_source():
    r = resolve(Evidence(published=dt.date(2999, 1, 1)), Evidence(published=dt.date(1985, 6, 1)),
                text_published=dt.date(2018, 2, 24), today=TODAY)
    assert (r.published.value, r.published.source) == (dt.date(2018, 2, 24), "dateline")
    doc = _text(BODY, published="2999-01-01")
    assert doc.published is None


def test_outlet_names_are_canonicalised_through_the_registry():
    r = resolve(Evidence(outlet="NYTimes.com"), None)
    assert (r.outlet.value, r.outlet_domain) == ("The New York Times", "nytimes.com")
    r = resolve(Evidence(outlet="The Guardian US", url="https://www.theguardian.com/us-news/x"), None)
    assert (r.outlet.value, r.outlet_domain) == ("The Guardian", "theguardian.com")
    r = resolve(Evidence(outlet="Some Local Blog", url="https://blog.some-local.org/post"), None)
    assert (r.outlet.value, r.outlet_domain) == ("Some Local Blog", "some-local.org")
    r = resolve(Evidence(url="https://www.unknown-paper.co.uk/x"), None)
    assert (r.outlet.value, r.outlet.source, r.outlet_domain) == ("unknown-paper.co.uk", "url", "unknown-paper.co.uk")
    r = resolve(Evidence(url="https://abcnews.go.com/US/story"), None)  # a registry entry on a host name
    assert (r.outlet.value, r.outlet_domain) == ("ABC News", "go.com")


def test_html_sitename_that_is_only_the_host_counts_as_the_url():
    r = resolve(Evidence(url="https://www.reuters.com/x"), Evidence(outlet="reuters.com"))
    assert (r.outlet.value, r.outlet.source) == ("Reuters", "url")


def test_plain_text_documents_keep_their_text_metadata():
    doc = _text("WASHINGTON (AP) — " + "\n\n".join(PARAGRAPHS))
    assert (doc.outlet.value, doc.outlet.source, doc.outlet_domain) == ("The Associated Press", "text", "apnews.com")
    assert doc.url is None and doc.author is None


# --- dates below the article: its footer stamp, or a list of comments' and other posts' stamps
_COMMENTS = ["Comments", "Ann Lee", "March 6, 2023 at 8:55 am", "Thanks, this helped me plan my commute.",
             "Raj Patel", "September 17, 2020 at 6:59 pm", "Great news for the northern suburbs!"]


def test_readers_comment_dates_do_not_date_the_article():
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *PARAGRAPHS, *_COMMENTS]), Settings())
    assert doc.published is None


def test_the_footer_stamp_above_the_comments_dates_the_article():
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *PARAGRAPHS, "June 9, 2020 · 6 Comments", *_COMMENTS]),
                     Settings())
    assert doc.published is not None and doc.published.value == dt.date(2020, 6, 9)


def test_one_stamp_repeated_below_the_article_is_its_date():
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *PARAGRAPHS, "13 July 2016", "Share", "13 July 2016"]),
                     Settings())
    assert doc.published is not None and doc.published.value == dt.date(2016, 7, 13)


@pytest.mark.parametrize("written, date", [("24.02.2018", dt.date(2018, 2, 24)), ("05.03.2018", dt.date(2018, 3, 5)),
                                           ("12.16.2025", dt.date(2025, 12, 16))])  # month first only where it must be
def test_dotted_dates_are_day_first_unless_they_cannot_be(written, date):
    from newsclean.cleaners.metadata.dates import parse_date

    assert parse_date(written) == date


@pytest.mark.parametrize("line, date", [
    ("Tom Talbot October 14, 2025", dt.date(2025, 10, 14)),  # no rule names it: it sits under the headline
    ("Dec 11, 2025 Share", dt.date(2025, 12, 11)),
    ("Aaron Ricadela | Senior Writer | July 2, 2025", dt.date(2025, 7, 2)),
])
def test_a_dated_line_removed_just_under_the_headline_dates_the_article(line, date):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", line, *PARAGRAPHS]), Settings())
    assert doc.published is not None and doc.published.value == date


def test_teasers_with_their_dates_under_the_headline_date_nothing():
    teasers = ["Library hours extended - March 3, 2024", "New bike lanes open downtown - February 27, 2024"]
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *teasers, *PARAGRAPHS]), Settings())
    assert doc.published is None


def test_an_update_alone_under_the_headline_that_no_rule_names_dates_nothing():
    # "Jane Roe • Updated on Jul 4, 2024": a revision's date, and no rule vouches for the line
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "Jane Roe • Updated on Jul 4, 2024 • 28 min read",
                                  *PARAGRAPHS]), Settings())
    assert doc.published is None


# A site's masthead prints the day the page was fetched ("Friday, December 19, 2025") above its
# menus, far above the article's headline: that is no publication date.
_MASTHEAD = ["Example Gazette", "Friday, December 19, 2025", "Subscribe", "Home", "News", "Sport", "Business",
             "Culture", "Opinion", "Weather", "Local", "World", "Podcasts", "Newsletters", "Events", "Search"]


def test_a_masthead_date_far_above_the_headline_dates_nothing():
    doc = clean_text("\n".join([*_MASTHEAD, "Council backs bigger bus network", *PARAGRAPHS]), Settings())
    assert doc.title == "Council backs bigger bus network"
    assert doc.published is None


def test_under_a_masthead_date_the_article_s_own_date_wins():
    doc = clean_text("\n".join([*_MASTHEAD, "Council backs bigger bus network", "Published December 12, 2025",
                                *PARAGRAPHS]), Settings())
    assert doc.published is not None and doc.published.value == dt.date(2025, 12, 12)


def test_a_dateline_just_above_the_headline_still_dates_the_article():
    doc = clean_text("\n".join([*_MASTHEAD[2:], "Posted on December 12, 2025", "Council backs bigger bus network",
                                *PARAGRAPHS]), Settings())
    assert doc.published is not None and doc.published.value == dt.date(2025, 12, 12)


@pytest.mark.parametrize("kicker", ["Travel September 8, 2021", "Dec 17, 2025Julian K. Arni", "EditorialNovember 22, 2018"])
def test_a_kicker_s_date_right_above_the_headline_dates_the_article(kicker):
    doc = clean_text("\n".join([*_MASTHEAD[2:], kicker, "Council backs bigger bus network", *PARAGRAPHS]), Settings())
    assert doc.published is not None and doc.published.value == parse_any_date(kicker.replace("Julian K. Arni", "")
                                                                                .replace("Travel ", "").replace("Editorial", ""))


@pytest.mark.parametrize("stamp, date", [
    ("May 21, 2025April 24, 2025 by Jane Roe", dt.date(2025, 4, 24)),  # updated, then published, glued
    ("October 10, 2020July 13, 2024 by Jane Roe", dt.date(2020, 10, 10)),  # published, then updated
    ("Published March 5, 2024 · Updated March 7, 2024", dt.date(2024, 3, 5)),
    ("Posted on December 12, 2025", dt.date(2025, 12, 12)),
])
def test_a_stamp_with_two_dates_gives_the_earlier_one(stamp, date):
    # a theme prints the publication and the update side by side; an article is published first
    doc = clean_text("\n\n".join(["Council backs bigger bus network", stamp, *PARAGRAPHS]), Settings())
    assert doc.published is not None and doc.published.value == date


def test_the_name_on_the_headline_s_dated_meta_line_is_the_author():
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "Mike Kappel May 18, 2016", *PARAGRAPHS]), Settings())
    assert doc.author == "Mike Kappel"
    assert doc.published is not None and doc.published.value == dt.date(2016, 5, 18)


def test_a_blog_stamp_that_ends_with_its_author_names_the_author():
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "Posted on November 24, 2026 by Tom Reed",
                                  *PARAGRAPHS]), Settings())
    assert doc.author == "Tom Reed"
    assert doc.published is not None and doc.published.value == dt.date(2026, 11, 24)


@pytest.mark.parametrize("stamp, author", [
    ("Last updated March 3, 2025 by Jane Roe. — Accessibility", "Jane Roe"),  # a footer link glued after
    ("Published on 3 March 2025 by J. R. Smith", "J. R. Smith"),  # an initial's full stop is no end
])
def test_the_author_at_a_stamps_end_stops_at_its_sentence(stamp, author):
    from newsclean.cleaners.rules.byline import stamp_author_names

    assert stamp_author_names(stamp) == (author,)


def test_a_byline_glued_to_its_outlet_names_the_writer():
    # "By Jane Smith Fox News": the outlet follows the name with no separator; the writer's e-mail
    # address below the story ("jane.smith@…") does not make her name common nouns
    text = "\n\n".join(["Council backs bigger bus network", "By Jane Smith Fox News", *PARAGRAPHS,
                         "Story tips can be sent to jane.smith@example.com."])
    doc = clean_text(text, Settings())
    assert doc.author == "Jane Smith"


def test_an_authors_bio_names_no_outlet():
    # the places a writer worked before are not the page's outlet
    bio = ("Tom Reed is a city hall reporter. He previously worked at The Associated Press and "
           "the Chicago Tribune.")
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "By Tom Reed", *PARAGRAPHS, bio]), Settings())
    assert any(s.by == "author_bio" for s in doc.removed)
    assert doc.outlet is None


def test_capitalised_words_the_body_also_writes_in_lower_case_are_no_author():
    body = [*PARAGRAPHS, "Shoppers on the day itself crowded the market square, and the bus lines ran every five minutes."]
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "Market Day July 16, 2025 · 4 Comments", *body]), Settings())
    assert doc.author is None


@pytest.mark.parametrize("notice, outlet", [
    ("Copyright © 2024 The Daily Herald. All rights reserved.", "The Daily Herald"),  # not in the registry
    ("© 2018 Example Media | Privacy Policy", "Example Media"),
    ("Copyright © 2024 Yahoo. All rights reserved.", "Yahoo"),
])
def test_the_copyright_holder_is_the_outlet(notice, outlet):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", *PARAGRAPHS, notice]), Settings())
    assert doc.outlet is not None and doc.outlet.value == outlet


@pytest.mark.parametrize("notice", ["© 2024 all rights reserved", "Copyright © 2024", "© Jane Doe/dpa"])
def test_a_copyright_notice_without_a_holder_names_no_outlet(notice):
    from newsclean.cleaners.metadata.outlets import copyright_holder

    assert copyright_holder(notice) is None


@pytest.mark.parametrize("notice", ["© RIPRODUZIONE RISERVATA", "© Tous droits réservés", "© 2024 Alle Rechte vorbehalten"])
def test_all_rights_reserved_in_other_languages_is_no_holder(notice):
    from newsclean.cleaners.metadata.outlets import copyright_holder

    assert copyright_holder(notice) is None


RUSSIAN_BODY = [
    "Городской совет во вторник вечером после долгих обсуждений утвердил бюджет города на следующий год. Большинство депутатов проголосовали за проект администрации.",
    "Заседание, на котором обсуждались поправки, прошло 5 марта 2025 года в здании мэрии; тогда депутаты не смогли договориться о расходах на транспорт.",
    "Жители смогут ознакомиться с бюджетом в здании мэрии начиная со следующей недели, а также на официальном сайте города.",
]


@pytest.mark.parametrize("stamp, expected", [
    ("12 марта 2025, 14:20", dt.date(2025, 3, 12)),  # Russian, month in the genitive
    ("3 травня 2024", dt.date(2024, 5, 3)),  # Ukrainian
])
def test_a_cyrillic_stamp_dates_the_article_and_a_date_in_its_text_does_not(stamp, expected):
    text = "\n\n".join(["Главная", "Новости", "Горсовет утвердил бюджет на следующий год", stamp, *RUSSIAN_BODY,
                       "Читайте также"])
    doc = clean_text(text, Settings())
    assert doc.published is not None and doc.published.value == expected
    assert doc.text == "\n\n".join(RUSSIAN_BODY)  # the sentence with "5 марта 2025 года" stays


@pytest.mark.parametrize("language, headline, stamp, body, expected", [
    ("hindi", "नगर परिषद ने अगले साल का बजट पारित किया", "अपडेटेड: 14 अगस्त 2025, 09:40 IST",
     ["नगर परिषद ने मंगलवार शाम लंबी बहस के बाद अगले साल का बजट पारित कर दिया। ज़्यादातर सदस्यों ने प्रशासन के मसौदे के पक्ष में वोट दिया।",
      "वित्त अधिकारी के अनुसार अतिरिक्त धन का बड़ा हिस्सा स्कूलों और सार्वजनिक परिवहन पर खर्च किया जाएगा।"],
     dt.date(2025, 8, 14)),
    ("arabic", "مجلس المدينة يقر ميزانية العام المقبل", "الثلاثاء 12 مارس 2025",
     ["أقر مجلس المدينة مساء الثلاثاء ميزانية العام المقبل بعد نقاش طويل استمر عدة ساعات، وصوتت أغلبية الأعضاء لصالح المشروع.",
      "وقال مدير الشؤون المالية إن الجزء الأكبر من الأموال الإضافية سيخصص لصيانة المدارس وتحديث وسائل النقل العام."],
     dt.date(2025, 3, 12)),
])
def test_a_hindi_or_arabic_stamp_dates_the_article(language, headline, stamp, body, expected):
    doc = clean_text("\n\n".join(["Home", headline, stamp, *body, "Contact"]), Settings())
    assert doc.published is not None and doc.published.value == expected, language
    assert stamp not in doc.text and all(p in doc.text.split("\n\n") for p in body)


@pytest.mark.parametrize("month", (
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря "
    "січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня "
    "जनवरी फ़रवरी फरवरी मार्च अप्रैल अप्रेल मई जून जुलाई अगस्त सितंबर सितम्बर अक्टूबर अक्तूबर नवंबर नवम्बर दिसंबर दिसम्बर "
    "يناير فبراير مارس أبريل ابريل إبريل مايو يونيو يونيه يوليو يوليه أغسطس اغسطس سبتمبر أكتوبر اكتوبر نوفمبر ديسمبر").split())
def test_every_month_name_the_date_pattern_knows_is_read(month):
    # a name the pattern finds but dateparser cannot read takes the stamp and leaves no date
    import unicodedata

    from newsclean.cleaners.metadata.dates import parse_date

    d = parse_date(unicodedata.normalize("NFC", f"Updated 3 {month} 2024"))
    assert d is not None and (d.year, d.day) == (2024, 3), month


# --- the author from the lines around the headline when no byline says "By"
_BIO = "Chirag Bhardwaj is a technology specialist with over ten years of experience in software and transport planning."


def _with_line_under_headline(line: str, bio: bool = True) -> str:
    return "\n".join(["Home", "News", "Sport", "Council backs bigger bus network", line, *PARAGRAPHS,
                      *(["About the author", _BIO] if bio else []), "Share", "Tags: buses"])


@pytest.mark.parametrize("line", ["Chirag Bhardwaj", "Chirag Bhardwaj's avatar", "Guide by Chirag Bhardwaj",
                                  "Writer: Chirag Bhardwaj"])
def test_a_name_avatar_or_labelled_byline_under_the_headline_is_the_author(line):
    assert clean_text(_with_line_under_headline(line), Settings()).author == "Chirag Bhardwaj"


@pytest.mark.parametrize("line, bio", [
    ("Post Tags", True),  # two capitalised words that name no one
    ("Getty Images", True),  # a photo credit
    ("Reviewed by Chirag Bhardwaj", True),  # a medical or fact reviewer, not the writer
    ("Voiced by Amazon Polly", True),  # the reading voice
    ("Photos by Chirag Bhardwaj", True),  # the photographer
    ("Chirag Bhardwaj", False),  # a name alone that the page never names again: nothing says it wrote the story
])
def test_lines_under_the_headline_that_name_no_writer(line, bio):
    assert clean_text(_with_line_under_headline(line, bio), Settings()).author is None
