import datetime as dt

import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY, alone, article, kind_of

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
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.dateline import leading_dateline
    line = Line(0, 1, headline)
    assert leading_dateline(line, Doc([line])) is None


# Wire datelines in the styles of other agencies and languages: the span removed is the dateline.
@pytest.mark.parametrize("line, dateline", [
    ("LONDON, Jan 5 (Reuters) - British house prices rose in December for the third month.", "LONDON, Jan 5 (Reuters) -"),
    ("BEIJING, March 3 (Xinhua) -- China will cut its steel output again this year.", "BEIJING, March 3 (Xinhua) --"),
    ("MADRID, 12 Mar. (EUROPA PRESS) - El Gobierno ha aprobado este martes la reforma.", "MADRID, 12 Mar. (EUROPA PRESS) -"),
    ("Varsovia, 5 mar (EFE).- El Gobierno polaco anunció hoy un nuevo plan de ayudas.", "Varsovia, 5 mar (EFE).-"),
    ("ROMA - Il governo ha approvato la manovra nella notte di martedì.", "ROMA -"),
    ("WASHINGTON -- The Senate voted on Tuesday to pass the spending bill.", "WASHINGTON --"),
    ("(CNN) — A gunman opened fire at a high school on Wednesday afternoon.", "(CNN) —"),
    ("Frankfurt/Main (dpa/lhe) - Der Flughafen meldet für den Sommer neue Rekorde.", "Frankfurt/Main (dpa/lhe) -"),
    ("MÜNCHEN (dpa) - Die Staatsregierung will die Grundsteuer im Herbst reformieren.", "MÜNCHEN (dpa) -"),
    # press-release wires
    ("BOSTON, April 21, 2026 /PRNewswire/ -- Acme Robotics today announced a $40 million funding round.",
     "BOSTON, April 21, 2026 /PRNewswire/ --"),
    ("TORONTO, Jan. 5, 2026 /CNW/ - Acme Robotics today announced a $40 million funding round.",
     "TORONTO, Jan. 5, 2026 /CNW/ -"),
    ("SAN FRANCISCO--(BUSINESS WIRE)--Acme Robotics today announced a $40 million funding round.",
     "SAN FRANCISCO--(BUSINESS WIRE)--"),
    ("NEW YORK, March 3, 2026 (GLOBE NEWSWIRE) -- Acme Robotics today announced a $40 million funding round.",
     "NEW YORK, March 3, 2026 (GLOBE NEWSWIRE) --"),
])
def test_wire_datelines_of_other_agencies_and_languages(line, dateline):
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.dateline import leading_dateline
    ln = Line(0, 1, line)
    p = leading_dateline(ln, Doc([ln]))
    assert p is not None and p.kind == "dateline" and line[p.start:p.end] == dateline


@pytest.mark.parametrize("line", [
    "US - China trade talks resume next week in Geneva, officials said.",  # a short acronym, a hyphen
    "NASA — the agency said on Monday it would delay the launch again.",  # no sentence starts after it
    "VERIVOX - Die Tarifexperten.",  # a logo's slogan
    "BIKE - Das Mountainbike Magazin",
    "DOC. NO: WCA-2025",  # a label
    "BLOGROLL – reading you",
    "ANZEIGE - Heute mal ausgehen oder bestellen? Wie wäre es mit:",  # an advert, no sentence
    "Hamburg. Die Polizei hat am Montag einen Mann festgenommen.",  # not in capitals: could be prose
    "API. It is a way for an app to connect with its back-end server and with other tools.",
    "(Flat Rate Guarantee) - Includes a service call and guaranteed troubleshooting.",  # a label, not an agency
    "The listed capacity is 10 cups (40 oz) — but let's be real: ten tiny cups.",
    "DJ – average cost of a wedding band is high, and it varies a lot by region.",
    "GET /users/ - Returns the list of users that the token may read, newest first.",  # an API route
])
def test_dateline_look_alikes_survive(line):
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.dateline import leading_dateline
    ln = Line(0, 1, line)
    assert leading_dateline(ln, Doc([ln])) is None


def test_a_press_release_dateline_gives_the_publication_date():
    text = "Acme Robotics raises $40 million\n\nBOSTON, April 21, 2026 /PRNewswire/ -- Acme Robotics today announced " \
           "a $40 million funding round led by Northgate Ventures.\n\n" + "\n\n".join(BODY)
    doc = clean_text(text, Settings())
    assert [(s.kind, s.text) for s in doc.removed] == [("dateline", "BOSTON, April 21, 2026 /PRNewswire/ --")]
    assert doc.published.value == dt.date(2026, 4, 21)
    assert doc.text.startswith("Acme Robotics today announced")


def test_yearless_wire_date_gives_the_outlet_but_no_publication_date():
    doc = clean_text("\n\n".join([f"LONDON, Jan 5 (Reuters) - {LEDE}", *BODY]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [("LONDON, Jan 5 (Reuters) -", "dateline")]
    assert doc.outlet.value == "Reuters" and doc.published is None


def test_posted_by_a_name_on_a_date_is_a_stamp():
    stamp = "Posted by John Doe on February 24, 2018"
    doc = clean_text("\n\n".join(["Council backs bigger bus network", stamp, *BODY]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(stamp, "dateline")]
    assert doc.published.value == dt.date(2018, 2, 24)


@pytest.mark.parametrize("stamp", ["Published 5:04 p.m. ET Feb. 24, 2018 | Updated 8:12 p.m. ET Feb. 24, 2018",
                                   "Feb. 24, 2018 / 5:04 PM / Updated 2 hours ago"])
def test_two_part_stamps_are_datelines(stamp):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", stamp, *BODY]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(stamp, "dateline")]
    assert doc.published.value == dt.date(2018, 2, 24)


@pytest.mark.parametrize("stamp, date", [
    ("Saturday, February 24, 2018", dt.date(2018, 2, 24)),
    ("Updated 3:45 PM ET, Sat February 24, 2018", dt.date(2018, 2, 24)),
    ("24.02.2018, 17:04 Uhr", dt.date(2018, 2, 24)),
    ("05.03.2018", dt.date(2018, 3, 5)),  # day first
    ("24 février 2018 à 17h04", dt.date(2018, 2, 24)),
    ("24. Februar 2018", dt.date(2018, 2, 24)),
    ("24 de febrero de 2018", dt.date(2018, 2, 24)),
    ("3 marca 2019", dt.date(2019, 3, 3)),
])
def test_stamps_with_weekdays_day_first_numbers_and_other_languages_months(stamp, date):
    doc = clean_text("\n\n".join(["Council backs bigger bus network", stamp, *BODY]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(stamp, "dateline")]
    assert doc.published.value == date


def test_a_time_zone_in_a_stamp_names_no_outlet():
    # "ET" is also The Economic Times' initials in the outlet registry
    doc = clean_text("\n\n".join(["Council backs bigger bus network", "Published 5:04 p.m. ET Feb. 24, 2018", *BODY]), Settings())
    assert doc.outlet is None


@pytest.mark.parametrize("line", ["Last modified on Wed 13 Mar 2019 10.12 GMT", "First published on Tue 12 Mar 2019 06.00 GMT"])
def test_stamps_with_a_dotted_time(line):
    assert kind_of(line, "before") == "dateline"


@pytest.mark.parametrize("line, date", [("Erstellt am Dienstag 6. Mai 2014", dt.date(2014, 5, 6)),
                                        ("Veröffentlicht am 12.03.2021", dt.date(2021, 3, 12)),
                                        ("Publié le 5 mars 2020", dt.date(2020, 3, 5)),
                                        ("Pubblicato il: 30 Settembre 2020", dt.date(2020, 9, 30)),
                                        ("Stand: 28.04.2020 18:00 Uhr", dt.date(2020, 4, 28))])
def test_stamps_in_other_languages_give_the_date(line, date):
    doc = clean_text(article(before=[line]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(line, "dateline")]
    assert doc.published is not None and doc.published.value == date


def test_an_updated_stamp_in_another_language_yields_to_the_published_one():
    doc = clean_text(article(before=["Aktualisiert am 7. Mai 2014", "Veröffentlicht am 6. Mai 2014"]), Settings())
    assert doc.published.value == dt.date(2014, 5, 6)


@pytest.mark.parametrize("stamp, date", [
    # a place and date above the article
    ("Madrid - 14 nov 2023 - 12:30 CET", dt.date(2023, 11, 14)),
    ("London, 5 March 2024 | 09:12 GMT", dt.date(2024, 3, 5)),
    ("New York, NY - March 5, 2024", dt.date(2024, 3, 5)),
    ("Berlin – 3. Mai 2024, 14:05 Uhr", dt.date(2024, 5, 3)),
    # a date with its reading time
    ("December 18, 2025 ・ 3 min read", dt.date(2025, 12, 18)),
    ("05 Nov 2025. 8 minutes read", dt.date(2025, 11, 5)),
    ("March 12, 2026 16 mins read", dt.date(2026, 3, 12)),
    # a stamp with its update after a comma or in brackets (the first date is the publication's)
    ("Publié le 5 mars 2024 à 10h12, modifié le 5 mars 2024 à 18h30", dt.date(2024, 3, 5)),
    ("12 novembre 2024 (modifica il 12 novembre 2024 | 19:45)", dt.date(2024, 11, 12)),
    ("March 5, 2024, updated March 6, 2024", dt.date(2024, 3, 5)),
])
def test_stamp_forms_above_the_article_are_datelines_and_give_the_date(stamp, date):
    doc = clean_text(article(before=[stamp]), Settings())
    assert [(s.text, s.kind) for s in doc.removed] == [(stamp, "dateline")]
    assert doc.published is not None and doc.published.value == date


@pytest.mark.parametrize("line", [
    "Jane | May 3, 2018",  # a commenter and the comment's date
    "Düsseldorf, 22. November 2022 -",  # a press release's dateline whose text follows on the next line
    "Prices rose - March 5, 2024 was a record",
])
def test_place_stamp_look_alikes(line):
    from newsclean.cleaners.rules.dateline import place_date_stamp
    from tests.ruletools import alone

    assert alone(place_date_stamp, line) is None


def test_a_name_and_date_below_the_article_heads_a_comment_not_a_stamp():
    # the date under the article is a reader's comment's: never the publication date
    doc = clean_text(article(after=["Comments", "JensDey, 26. Januar 2022 13:14",
                                    "Great piece, thanks for explaining the route changes so clearly!"]), Settings())
    assert doc.published is None
    assert "dateline" not in {s.kind for s in doc.removed}


@pytest.mark.parametrize("stamp, date", [
    ("September 9, 2021", dt.date(2021, 9, 9)),  # "Sept" inside "September" is not an abbreviation
    ("9 September 2021", dt.date(2021, 9, 9)),
    ("Sept. 9, 2021", dt.date(2021, 9, 9)),
    ("September 1st, 2023 By Emily Norwood", dt.date(2023, 9, 1)),
])
def test_september_dates_keep_their_day_and_month(stamp, date):
    from newsclean.cleaners.metadata.dates import parse_date

    assert parse_date(stamp) == date




def test_a_sentence_after_a_published_date_is_no_stamp():
    assert kind_of("Published Feb 24, 2018, the report found that buses ran late on most routes.", "middle") != "dateline"


@pytest.mark.parametrize("line", ["2/1/2023 -1.0%", "11/1/2013 -3.8%", "March 2024 -0.8 %", "2024-05-01 -3,200"])
def test_a_date_and_a_negative_number_is_a_row_of_data_not_a_stamp(line):
    # a table of monthly changes as plain text: the dash before the number is its minus sign
    from newsclean.cleaners.rules.dateline import date_stamp
    assert alone(date_stamp, line) is None


@pytest.mark.parametrize("line", ["5 March 2024 -12:30", "Feb 24, 2018 - 2 min read", "Feb 24, 2018 -Jane Doe"])
def test_a_date_and_a_dash_before_a_time_or_a_name_is_still_a_stamp(line):
    from newsclean.cleaners.rules.dateline import date_stamp
    assert alone(date_stamp, line) is not None


# An update after the published date, or an update's label alone before its date, in the cue languages
@pytest.mark.parametrize("stamp", [
    "Pubblicato il 3 marzo 2021 Ultima modifica 4 marzo 2021 10:15",
    "Veröffentlicht am 3. März 2021 Zuletzt aktualisiert 4. März 2021",
    "Published March 3, 2021 Last updated March 4, 2021",
    "Letzte Änderung 14.02.2019", "Letzte Änderung am 3. Mai 2020", "Zuletzt geändert am 12.03.2021",
    "Dernière mise à jour le 5 mars 2024", "Última actualización 12 de marzo de 2024", "Ultimo aggiornamento 3 marzo 2021",
])
def test_stamps_with_an_update_label(stamp):
    from newsclean.cleaners.rules.dateline import date_stamp

    assert alone(date_stamp, stamp) is not None


@pytest.mark.parametrize("line", [
    "Letzte Änderungen am Entwurf wurden am 14.02.2019 vom Ausschuss beschlossen.",
    "Die letzte Änderung des Gesetzes trat am 1. Januar 2020 in Kraft.",
    "Última actualización del censo: la población creció un 3 % desde 2010.",
])
def test_sentences_about_a_change_are_no_stamps(line):
    from newsclean.cleaners.rules.dateline import date_stamp

    assert alone(date_stamp, line) is None


def test_a_last_change_label_dates_the_update_not_the_publication():
    doc = clean_text(article(before=["Letzte Änderung 14.02.2019", "Veröffentlicht am 01.02.2019"]), Settings())
    assert doc.published.value == dt.date(2019, 2, 1)
