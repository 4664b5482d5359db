import pytest

from tests.ruletools import alone, kind_of, survives


@pytest.mark.parametrize("line", [
    "Kate Middleton Meghan Markle Prince Harry Prince William",
    "Tags: transit, city council, budget", "Topics: Politics | Transport | Local News",
    "Donald Trump, Gun Control, Florida, Parkland",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_tag_lists_removed(line, where):
    assert kind_of(line, where) == "tag_list"


def test_short_name_runs_after_the_story():
    assert kind_of("Broward County Sheriff", "after") == "tag_list"


@pytest.mark.parametrize("line", [
    "Police Reportedly Upset at Some Broward Deputies for Not Entering School",  # title case has function words
    "New York, London and Paris all reported similar increases in ridership this year.",
])
def test_title_case_and_place_lists_in_prose_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["- Klein Tools RT210 GFCI Outlet Tester", "* Salisbury Honeywell E011B Insulated Electrical Gloves"])
def test_a_list_item_naming_one_product_is_no_name_run(line):
    # one product's name under its bullet (Markdown, the HTML path's output), not names listed
    from newsclean.cleaners.rules.tag_list import name_run
    assert alone(name_run, line) is None
    assert alone(name_run, line[2:]) is not None  # without its bullet, the same words read as a run of names


@pytest.mark.parametrize("line", ["Tags", "Schlagwörter:", "Mots-clés", "Posted in News | Tagged economy, jobs"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_tag_box_headers_and_category_footers_are_tag_lists(line, where):
    assert kind_of(line, where) == "tag_list"


@pytest.mark.parametrize("line", ["Posted in News Release", "Tags are sold at the depot for two dollars each, the authority said."])
def test_tag_header_look_alikes_are_not_tag_lists(line):
    from newsclean.cleaners.rules.tag_list import tag_header
    assert alone(tag_header, line) is None


def test_a_wordpress_entry_footer_is_a_tag_list():
    assert kind_of("This entry was posted in News and tagged buses, council on May 3, 2020 by admin.", "after") == "tag_list"


@pytest.mark.parametrize("line", [
    "Schlagwörter: Nahverkehr, Stadtrat, Haushalt", "Themen: Verkehr | Kommunalpolitik", "Kategorie: Lokales",
    "Etiquetas: transporte, ayuntamiento", "Catégories : Transports, Politique locale", "Tagi: komunikacja, budżet",
    "Abgelegt unter: Verkehr, Stadt",
    "Dieser Eintrag wurde veröffentlicht in Verkehr und verschlagwortet mit Bus, Stadtrat von Anna Beispiel.",
    "Veröffentlicht am 3. März 2021 um 10:15 und abgelegt unter Verkehr, Stadtrat.",
    "Der Beitrag wurde am Montag, den 1. März 2021 veröffentlicht und wurde unter Verkehr, Lokales abgelegt.",
    "Esta entrada fue publicada en Transporte y etiquetada autobús.",
    "Questa voce è stata pubblicata in Trasporti e contrassegnata con autobus.",
    "Dit bericht is geplaatst in Verkeer.", "Ten wpis został opublikowany w kategorii Transport.",
])
def test_tag_labels_and_category_footers_in_other_languages(line):
    from newsclean.cleaners.rules.tag_list import tag_header, tag_prefix

    assert alone(tag_prefix, line) is not None or alone(tag_header, line) is not None


@pytest.mark.parametrize("line", [
    "Der Beitrag wurde am Montag in der Fachzeitschrift veröffentlicht und wurde unter Experten viel diskutiert.",
    "Veröffentlicht wurde die Studie im Mai, die Daten sind unter www.example.org abrufbar.",
    "Themen wie Verkehr und Wohnen bestimmten den Wahlkampf.",
    "Esta entrada al museo fue publicada en el boletín oficial como gratuita.",
])
def test_sentences_like_category_footers_survive(line):
    from newsclean.cleaners.rules.tag_list import tag_header, tag_prefix

    assert alone(tag_prefix, line) is None and alone(tag_header, line) is None
