import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import alone, article, kind_of, removed_kinds, survives


@pytest.mark.parametrize("line", [
    'RELATED: Florida school shooting survivor blasts the media for ignoring the "conservative side" of the gun debate',
    "Read more: How the city plans to pay for new buses", "READ MORE: Transit strike ends after two weeks",
    "See also: Five things to know about the budget", "Related Articles: Mayor unveils housing plan",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_link_prefixes_are_related_headlines(line, where):
    assert kind_of(line, where) == "related_headline"


@pytest.mark.parametrize("line", [
    "Prince Harry and Meghan Markle are set for their 1st official appearance with Prince William and Duchess Kate",
    "Rep. Thomas Massie slams Donald Trump's gun control proposals",
    "Ten celebrities who quit social media this year",
])
def test_teaser_headlines_below_the_story(line):
    assert kind_of(line, "after") == "related_headline"


def test_a_subheading_inside_the_story_is_not_a_teaser():
    assert survives("Council members divided over funding plan")


def test_a_sentence_mentioning_reading_survives():
    assert survives("Read more than 200 public comments, the council said, before the final vote was taken.")


# Other languages: the same cues, each language's own words ("read also", "see also", "related").
@pytest.mark.parametrize("line", [
    "Lesen Sie auch: Stadtrat streitet über neue Buslinien",
    "À lire aussi » Le conseil municipal adopte le budget des transports",
    "Lea también: El gobierno aprueba un plan para el transporte público",
    "VEA TAMBIÉN: Los sindicatos piden más autobuses eléctricos",
    "Leggi anche: Il consiglio comunale approva il bilancio",
    "Leia também: Prefeitura anuncia novas linhas de ônibus",
    "Lees ook: Gemeenteraad stemt in met nieuwe busroutes",
    "Czytaj też: Rada miasta przyjęła budżet na transport",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_link_prefixes_in_other_languages(line, where):
    assert kind_of(line, where) == "related_headline"


@pytest.mark.parametrize("header", ["Lesen Sie auch", "Sur le même sujet", "LIRE AUSSI SUR REGARDS.FR", "Te puede interesar",
                                    "Zobacz również", "Related Stories", "À lire aussi :"])
def test_a_related_box_header_and_the_headline_under_it(header):
    teaser = "Transit strike ends after two weeks of talks"
    kinds = removed_kinds(article(middle=[header, teaser]))
    assert kinds.get(header) == "related_headline"
    assert kinds.get(teaser) == "related_headline"


@pytest.mark.parametrize("line", [
    "Lee Pace stars in the new production, which opens at the city theatre next month.",
    "Lesen Sie dazu auch die Pressemitteilungen des Stadtrats, die am Dienstag veröffentlicht wurden.",
    "Mehr zum Thema Verkehr lesen Sie in unserem Dossier, das jede Woche erweitert wird.",
    "See also the council's report on bus routes, published on Monday, for the full figures.",
])
def test_sentences_that_start_like_a_cue_survive(line):
    assert survives(line)


def test_a_sentence_under_a_related_header_is_not_taken_for_a_link():
    # the header goes; the prose under it is not a headline and stays
    line = "The council said the new routes would start in March, once the buses have been delivered."
    text = article(middle=["Related Stories", line])
    assert removed_kinds(text).get("Related Stories") == "related_headline"
    assert line in clean_text(text, Settings()).text.split("\n\n")


def test_every_headline_of_the_box_under_its_header_goes():
    teasers = ["Mayor says the budget will be signed if it passes unchanged",
               "What to know about the new bus routes",
               "Drivers brace for another winter of detours"]
    kinds = removed_kinds(article(middle=["RELATED COVERAGE", *teasers]))
    assert all(kinds.get(t) == "related_headline" for t in teasers)


def test_the_box_ends_at_the_prose_and_a_subheading_below_it_stays():
    teaser = "What to know about the new bus routes"
    prose = "The council said the new routes would start in March, once the buses have been delivered."
    subheading = "Drivers brace for a winter of detours"
    text = article(middle=["Related Stories", teaser, prose, subheading, prose.replace("March", "April")])
    kept = clean_text(text, Settings()).text.split("\n\n")
    assert teaser not in kept and prose in kept and subheading in kept


def test_more_on_an_outlet_is_its_signature_not_a_header():
    assert kind_of("More on FoxNews.com.", "after") == "outlet_signature"


def test_spanish_read_more_prefix_is_a_related_headline():
    assert kind_of("Leer más: Los estudiantes preparan una marcha nacional", "middle") == "related_headline"


def test_also_on_an_outlet_heads_a_related_box():
    assert kind_of("Also on HuffPost", "middle") == "related_headline"


def test_also_on_a_weekday_inside_a_sentence_survives():
    assert survives("Also on Tuesday, the council approved two new bus routes for the northern suburbs.")


@pytest.mark.parametrize("header", ["From around the web", "Around the Web", "Promoted Stories", "Sponsored Links"])
def test_sponsored_link_boxes_are_related(header):
    assert kind_of(header, "after") == "related_headline"


@pytest.mark.parametrize("line", ["Lea: Consejo Permanente aborda la crisis del transporte", "PUEDES VER: ¿Qué es la nueva ruta?",
                                  "Auch auf gofeminin.de"])
def test_spanish_prefixes_and_german_also_on(line):
    assert kind_of(line, "after") == "related_headline"


@pytest.mark.parametrize("line", ["Viel gelesen in Handel", "WEITERE BEITRÄGE ZU", "Mehr zu Klima und Konsum", "Schon gelesen?",
                                  "Zum Weiterlesen:", "Weitere Themen", "Mehr Themen:", "Weitere aktuelle Themen aus der Arbeitswelt",
                                  "Weitere Beiträge aus der Kolumne:", "Empfohlene Beiträge", "Auch lesen",
                                  "Contenido relacionado", "Más sobre La Tercera AM"])
def test_german_box_headers(line):
    assert kind_of(line, "after") == "related_headline"


@pytest.mark.parametrize("line", ["Mehr von", "Mehr von Anja Roe", "Mehr vonAnja Roe"])  # the link's text glued to its label
def test_mehr_von_heads_a_box_of_an_author_s_stories(line):
    assert kind_of(line, "after") == "related_headline"


@pytest.mark.parametrize("line", ["Watch LIVE: KTLA 5 News coverage of the fire", "VIDEO: Crews battle the fire overnight",
                                  "Watch now: the council meeting in full", "Listen now: our transit podcast"])
def test_video_and_live_links_are_related_headlines(line):
    assert kind_of(line, "middle") == "related_headline"


@pytest.mark.parametrize("line", ["Video games are more popular than ever - a new survey of teenagers says so.",
                                  "Watch out for closures on the northern line this weekend, the authority warned."])
def test_sentences_that_start_with_video_or_watch_survive(line):
    assert survives(line)


def test_related_internet_links_heads_a_box():
    link = "Environment Agency flood warnings for the county"
    kinds = removed_kinds(article(middle=["Related internet links", link]))
    assert kinds.get("Related internet links") == "related_headline"
    assert kinds.get(link) == "related_headline"


def test_a_media_label_and_the_clips_title_under_it_go():
    title = "Wrong-way driver caught on camera near the depot"
    kinds = removed_kinds(article(middle=["Video", title]))
    assert "Video" in kinds and kinds.get(title) == "related_headline"


def test_a_spec_sheets_video_heading_keeps_its_rows():
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.related import under_related_header

    lines = [Line(i, i + 1, t) for i, t in enumerate(["Video", "4K at 60 fps", "Two-way Audio Active Deterrence"])]
    doc = Doc(lines)
    assert under_related_header(lines[1], doc) is None  # no headline
    assert under_related_header(lines[2], doc) is None  # not right under the label


# A pager's link to the previous or next story, as blog and news themes print it.
@pytest.mark.parametrize("line", [
    "Previous articleMeta shuts down major VR studios as it goes all in on smart glasses",
    "Next Article Garmin Venu 4 review: Powerful, pretty, and pricey",
    "Next Post: 15 Things To Buy At Vintage Flea Markets »",
    "Newer PostFourteen Scholarship Essay Examples That Won Thousands",
    "NextPreparing Your HVAC System for StormsNext",
    "PrevPreviousBest Way To Store Coffee Beans",
    "Previous articleNext article",
    "Newer Post Older Post Home",
    "Vorheriger BeitragNeuerscheinung: Klaus Seidl über die Revolution",
    "Article précédent : Le gouvernement annonce un nouveau budget",
    "Vorschau auf den nächsten ArtikelMein Motto Konsumsparen: Fazit und Pläne",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_pager_links_are_related_headlines(line, where):
    assert kind_of(line, where) == "related_headline"


@pytest.mark.parametrize("line", [
    "NextEra Energy said on Monday it would raise its dividend for the tenth year running.",
    "Previous studies have shown that longer bus routes lose riders in the first year.",
    "Next year the council will vote again on whether the routes should be extended.",
    "Older posts from the council's blog are archived every month on its website.",
    "Previous Post Office managers said the branch would close before the routes open.",
])
def test_sentences_that_start_like_a_pager_survive(line):
    assert survives(line)


@pytest.mark.parametrize("text", ["Next2Sun Technology GmbH", "NextEra Energy Partners", "Next Page Books", "Next"])
def test_names_and_a_lone_label_are_no_pager_link(text):
    from newsclean.cleaners.rules.related import pager_link

    assert alone(pager_link, text) is None


@pytest.mark.parametrize("line", [
    "Mehr dazu: Was die neue Grundsteuer für Mieter bedeutet", "Lesenswert: Wie Städte ihre Busnetze ausbauen",
    "MIRA: Así quedó el puente tras la crecida del río", "Dowiedz się więcej: Jak głosowali posłowie?",
    "En savoir plus : les nouvelles lignes de bus", "Saiba mais: o que muda no transporte público",
    "Scopri di più: le nuove linee dell'autobus", "Lees meer: wat de nieuwe dienstregeling betekent",
])
def test_read_more_prefixes_in_other_languages(line):
    from newsclean.cleaners.rules.related import link_prefix

    assert alone(link_prefix, line) is not None


@pytest.mark.parametrize("header", ["Das Thema könnte dich auch interessieren:", "Dies könnte Sie ebenfalls interessieren", "Lesenswert",
                                    ":: Relevantes aus dem example.org-Archiv:", "Aus unserem Archiv", "From the archives"])
def test_related_box_headers_in_german(header):
    from newsclean.cleaners.rules.related import related_header

    assert alone(related_header, header) is not None


@pytest.mark.parametrize("line", [
    "Mehr dazu sagte der Bürgermeister am Dienstag nicht.", "Mira a su alrededor y no reconoce su barrio.",
    "Lesenswert ist vor allem das letzte Kapitel, schreibt die Kritikerin.",
    "Das Thema könnte die Wahl entscheiden, sagen Meinungsforscher.",
    "Aus dem Archiv der Stadt stammt ein Foto von 1950, das den Platz zeigt.", "From the archives of the city council came the plans.",
])
def test_sentences_that_start_like_the_new_cues_survive(line):
    from newsclean.cleaners.rules.related import link_prefix, related_header

    assert alone(link_prefix, line) is None and alone(related_header, line) is None


@pytest.mark.parametrize("header", ["Schon gelesen?", "Empfohlene Beiträge", "Contenido relacionado"])
def test_the_headline_under_another_languages_box_header_goes(header):
    teaser = "Luftwaffe beginnt mit dem Training auf dem neuen Hubschrauber"
    kinds = removed_kinds(article(middle=[header, teaser]))
    assert kinds.get(header) == "related_headline"
    assert kinds.get(teaser) == "related_headline"


@pytest.mark.parametrize("line", ["Auch lesen: Diese drei Regeln gelten ab Montag im Nahverkehr",
                                  "Mire: El cantante da positivo a COVID-19 antes de su gira"])
def test_read_also_and_look_prefixes(line):
    assert kind_of(line, "after") == "related_headline"


@pytest.mark.parametrize("line", [
    "Weitere Themen waren die Rente und die Pflege, über die der Ausschuss bis zum Abend beriet.",
    "Más sobre el tema dijo la ministra en la rueda de prensa del martes, sin dar más detalles.",
    "Schon gelesen hatte die Richterin die Akten, bevor die Verhandlung am Montag begann.",
    "Mire, el alcalde dijo que la obra terminará en marzo y que no habrá más retrasos en el barrio.",
])
def test_sentences_that_start_like_the_new_cues_survive(line):
    assert survives(line)
