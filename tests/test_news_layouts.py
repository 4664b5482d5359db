"""News pages as a scraper saves them from ten kinds of site (two wire services, two British and two
US national outlets, a local paper on a blog theme, a German, a French and a Spanish outlet), each with its
site's furniture: menus, share bars, bylines, stamps, captions and credits, related-story boxes,
promos, author bios, paywall labels, footers. Written for these tests (no real article), in the
layouts those sites use; tests/data/news_layouts/. Each must come out as exactly its article's
paragraphs (a standfirst under the headline may stay or go: references differ on it), with its
headline, publication date, author and outlet."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings

PAGES = Path(__file__).parent / "data" / "news_layouts"

CASES = {
    "ap": dict(
        title="Senate passes stopgap bill to avoid shutdown as deadline nears", date=dt.date(2026, 11, 25),
        author="Mary Clare Jalonick; Kevin Freking", outlet="The Associated Press", standfirst=None,
        body=["The Senate passed a short-term spending bill late Wednesday",
              "The 68-31 vote came after days of negotiations",
              '"Nobody wants a shutdown before the holidays,"',
              "Democrats, who had demanded more money for wildfire recovery",
              "The House is expected to take up the measure Thursday.",
              "The stopgap is the third this year"]),
    "guardian": dict(
        title="Rail passengers face another winter of strikes as talks collapse", date=dt.date(2026, 11, 25),
        author="Gwyn Topham", outlet=None,  # named only in the menu ("The Guardian - Back to home"), no evidence kind
        standfirst="Unions say no new offer has been made in six weeks",
        body=["Rail passengers face a winter of disruption after talks",
              "Aslef said no new offer had been put on the table",
              '"Our members have been patient, but patience runs out,"',
              "The Rail Delivery Group, which represents train companies,",
              "The transport secretary said the government would not",
              "Strikes last winter cost the industry"]),
    "fox": dict(
        title="Texas man charged after deadly wrong-way crash on interstate", date=dt.date(2026, 11, 25),
        author="Jane Smith", outlet="Fox News",
        standfirst="Police say the driver had a blood alcohol level",
        body=["A Texas man has been charged with intoxication manslaughter",
              "Daniel Ortiz, 29, was driving south",
              "The driver and passenger of the pickup",
              "Troopers said a blood test showed",
              "He was booked into the Hays County Jail",
              "Wrong-way crashes are rare but among the deadliest"]),
    "local": dict(
        title="Springfield council approves new library branch after decade-long push", date=dt.date(2026, 11, 24),
        author="Tom Reed", outlet="Springfield Gazette", standfirst=None,
        body=["The Springfield City Council voted 6-1 on Monday night",
              "The $12 million project will be paid for",
              '"This is a great day for the east side,"',
              "Construction is expected to begin next spring",
              "The lone no vote came from council member Gary Holt"]),
    "cnn": dict(
        title="Storms threaten Thanksgiving travel for millions across the Northeast", date=dt.date(2026, 11, 25),
        author="Mary Gilbert", outlet="CNN", standfirst=None,
        body=["A powerful storm system will sweep across the Northeast",
              "Heavy rain is expected from Washington to Boston",
              "Airports in New York, Philadelphia and Boston could face delays",
              "The Transportation Security Administration expects",
              "Drivers should also prepare for slick roads",
              "CNN's Pete Muntean contributed to this report."]),
    "spiegel": dict(
        title="Bundestag beschließt Rentenpaket nach langem Streit", date=dt.date(2026, 11, 25),
        author="Anna Schmidt", outlet="SPIEGEL ONLINE GmbH",
        standfirst="Die Koalition hat sich durchgesetzt",
        body=["Der Bundestag hat am Mittwoch das umstrittene Rentenpaket beschlossen.",
              "Mit dem Paket soll das Rentenniveau",
              "»Das ist ein gutes Signal",
              "Die Union warf der Koalition vor"]),
    "bbc": dict(
        title="Flooding forces hundreds from homes in Yorkshire", date=None, author=None, outlet="BBC", standfirst=None,
        body=["Hundreds of people have been forced to leave their homes",
              "The Environment Agency issued four severe flood warnings",
              "Emergency services said they had rescued 37 people",
              "A rest centre has been opened at a leisure centre"]),
    "lemonde": dict(
        title="Le gouvernement présente son plan contre la pénurie de médecins", date=dt.date(2026, 11, 25),
        author="Claire Martin", outlet=None,
        standfirst="Le premier ministre a annoncé mardi la création",
        body=["Le gouvernement a présenté, mardi 25 novembre",
              "La mesure phare prévoit la création",
              "« Nous ne pouvons plus accepter",
              "Les syndicats de médecins ont accueilli le plan"]),
    "reuters": dict(
        title="Oil prices climb as OPEC+ signals deeper output cuts", date=dt.date(2026, 11, 25),
        author="Noah Browning; Florence Tan", outlet="Reuters", standfirst=None,
        body=["Oil prices rose more than 2% on Wednesday",
              "Brent crude futures were up $1.68",
              '"The market is pricing in a higher chance of a bigger cut,"',
              "The group, which pumps about 40% of the world's oil"]),
    "elpais": dict(
        title="El Congreso aprueba la reducción de la jornada laboral a 37,5 horas", date=dt.date(2026, 11, 25),
        author="María Fernández", outlet="EDICIONES EL PAÍS S.L",
        standfirst="La norma sale adelante con el apoyo",
        body=["El Congreso de los Diputados ha aprobado este miércoles",
              "La votación se saldó con 178 votos a favor",
              '"Hoy es un día histórico para los trabajadores de este país"',
              "Las organizaciones empresariales han advertido"]),
}


@pytest.fixture(scope="module")
def cleaned() -> dict:
    return {name: clean_text((PAGES / f"{name}.txt").read_text(encoding="utf-8"), Settings(), source=f"{name}.txt")
            for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_article_and_only_the_article_is_kept(name, cleaned):
    case, doc = CASES[name], cleaned[name]
    kept = doc.text.split("\n\n")
    if case["standfirst"] is not None and kept and kept[0].startswith(case["standfirst"]):
        kept = kept[1:]
    assert len(kept) == len(case["body"]), kept
    for paragraph, start in zip(kept, case["body"]):
        assert paragraph.startswith(start), (paragraph, start)


@pytest.mark.parametrize("name", sorted(CASES))
def test_headline_date_author_and_outlet(name, cleaned):
    case, doc = CASES[name], cleaned[name]
    assert doc.title == case["title"]
    assert (doc.published.value if doc.published else None) == case["date"]
    assert doc.author == case["author"]
    assert (doc.outlet.value if doc.outlet else None) == case["outlet"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_line_is_kept_or_recorded_as_removed(name, cleaned):
    # nothing of the page is lost without a row saying why
    doc = cleaned[name]
    lines = normalise_lines((PAGES / f"{name}.txt").read_text(encoding="utf-8"))
    recorded = {s.line for s in doc.removed}
    shown = set(doc.text.split("\n\n")) | {doc.title}
    missing = [t for n, t in enumerate(lines, 1) if t and n not in recorded and t not in shown]
    assert not missing


@pytest.mark.parametrize("name", sorted(CASES))
def test_cleaning_the_clean_page_again_changes_nothing(name, cleaned):
    doc = cleaned[name]
    again = clean_text(f"{doc.title}\n\n{doc.text}", Settings(), source=f"{name}.txt")
    assert (again.title, again.text) == (doc.title, doc.text)
