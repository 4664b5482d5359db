import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY, alone, kind_of, removed_kinds, article, survives


@pytest.mark.parametrize("line", [
    "Photo: Getty Images", "Image credit: Reuters", "Getty Images", "nikolas cruz", "a bus waits at a stop",
    "Nikolas Cruz appears in court on Feb. 19, 2018, in Ft. Lauderdale, FL.",
    "Mayor Jane Smith speaks to reporters at City Hall on Tuesday, March 6, 2018.",
    "Photo by John Doe/Getty Images",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_captions_removed(line, where):
    assert kind_of(line, where) == "caption"


@pytest.mark.parametrize("credit", ["(AP Photo/Evan Vucci)", "(Image source: YouTube screenshot)", "(Photo by Jane Roe/Reuters)",
                                    "(Courtesy of the city of Springfield)"])
def test_photo_credit_at_end_of_a_line_is_a_span(credit):
    para = "Buses lined up outside the depot on Monday morning as drivers returned to work after the strike. " + credit
    kinds = removed_kinds(article(middle=[para]))
    assert kinds == {credit: "caption"}


@pytest.mark.parametrize("caption", [
    "A man walks through a flooded street in Sacramento on Monday. (Photo by Jane Roe/AP)",
    "Residents wade through the water outside the depot (Image: Springfield Fire Department)",
    "Mayor Jane Smith speaks to reporters after the vote. (AP Photo/Evan Vucci)",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_a_present_tense_description_with_a_credit_is_a_caption(caption, where):
    # the credit says a picture sits here; a present-tense description before it is its caption
    assert removed_kinds(article(**{where: [caption]})) == {caption: "caption"}


@pytest.mark.parametrize("para", [
    # the past tense: a lede a scraper glued the picture's credit to
    "Residents waded through the water on Monday as the river rose above its banks for the third time this winter.",
    # the present tense, but a paragraph's length
    "Residents wade through the water every winter, and the council says the new flood wall will not be finished before "
    "2028 because the state has yet to release the money it promised after the last flood, which damaged hundreds of homes.",
])
def test_a_paragraph_with_a_credit_keeps_its_text(para):
    credit = "(Photo by Jane Roe/AP)"
    assert removed_kinds(article(middle=[para + " " + credit])) == {credit: "caption"}


def test_caption_between_headline_and_lede():
    text = "Sheriff says deputy stayed outside\n\nBroward County Sheriff Scott Israel speaks to media\n\n" + article(title=None)
    assert removed_kinds(text).get("Broward County Sheriff Scott Israel speaks to media") == "caption"


@pytest.mark.parametrize("line", [
    "The photo shows the officer standing outside the building for several minutes, the report said.",
    "Photographers waited outside the courthouse for hours before the hearing began on Monday.",
])
def test_sentences_about_photos_survive(line):
    assert survives(line)



@pytest.mark.parametrize("line", ["Foto: Hans Müller/dpa", "Bild: Keystone", "Kuva: Lehtikuva", "Fotos: Stadt Köln",
                                  "Imagen: Archivo", "(Foto: DBT/Jane Doe (bearbeitet durch example.de))"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_photo_credits_in_other_languages(line, where):
    assert kind_of(line, where) == "caption"


@pytest.mark.parametrize("line", ["EPA-rated range: 245–318 miles", "AFP-backed fact checks: 1,200 this year"])
def test_a_compound_starting_with_an_agency_name_is_no_credit(line):
    # a spec line in a car review, not "EPA" crediting a photo
    assert survives(line)


# Labels some sites' text renderings put before an image's caption or credit, and an agency's name
# alone on the line under an image.
@pytest.mark.parametrize("line", [
    "Image copyright Getty Images", "Image caption Commuters wait for the first bus of the new downtown route on Monday morning",
    "Getty", "AP",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_labelled_captions_and_bare_agencies_are_captions(line, where):
    assert kind_of(line, where) == "caption"


@pytest.mark.parametrize("line", [
    "Image is everything in politics, and the council knows its buses need a better one.",
    "Getty Museum reopens its galleries to visitors this weekend, with timed tickets.",
])
def test_caption_label_look_alikes_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["Quelle: dpa", "Crédit photo : AFP", "Fuente: EFE", "Źródło: PAP"])
def test_source_credits_in_other_languages_are_captions(line):
    assert kind_of(line, "middle") == "caption"


@pytest.mark.parametrize("line", ["FILE - In this Jan. 5, 2018 file photo, the Capitol is seen in Washington.",
                                  "FILE PHOTO: A locomotive of Deutsche Bahn is seen at the main train station in Frankfurt, Germany, March 5, 2020."])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_wire_file_photo_captions(line, where):
    assert kind_of(line, where) == "caption"


def test_a_file_sentence_in_lower_case_survives():
    assert survives("File - the council's archive - holds every plan since 1950, the clerk said in a statement.")


@pytest.mark.parametrize("line", ["Supplied", "Provided", "Screenshot via YouTube", "Screengrab by Jane Roe"])
def test_bare_supplied_credits_and_screenshots_are_captions(line):
    assert kind_of(line, "middle") == "caption"


@pytest.mark.parametrize("line", ["Augusta National/Getty Images", "Noah Berger / AP", "© Odd Andersen/AFP"])
def test_a_name_before_an_agency_is_a_credit(line):
    assert kind_of(line, "middle") == "caption"


def test_a_credit_glued_after_a_separator_is_cut():
    # past tense: a paragraph that carries a credit keeps its text (in the present tense the whole
    # line is the picture's caption: test_a_present_tense_caption_with_a_separated_credit_goes_whole)
    line = "The mayor greeted residents at the depot on Tuesday morning. | © Jane Doe/dpa"
    assert removed_kinds(article(middle=[line])) == {"| © Jane Doe/dpa": "caption"}


def test_a_present_tense_caption_with_a_separated_credit_goes_whole():
    line = "The mayor greets residents at the depot on Tuesday morning. | © Jane Doe/dpa"
    assert removed_kinds(article(middle=[line])) == {line: "caption"}


def test_a_sentence_with_a_slash_survives():
    assert survives("The plan was drawn up by the council/transit authority working group over two years.")


@pytest.mark.parametrize("line", ["1 tablespoon ground cinnamon", "4½ cups or 1125 ml of water", "½ cup sugar", "200 lb"])
def test_a_lower_case_line_that_starts_with_a_number_is_no_alt_text(line):
    # a recipe's ingredient or a spec sheet's value, not an image's description
    from newsclean.cleaners.rules.caption import alt_text
    assert alone(alt_text, line) is None


@pytest.mark.parametrize("line", ["- may be counterfeit", "* encryption", "• multi-factor authentication",
                                  "– digital marketing for b2b services", "+ secure coding practices"])
def test_a_lower_case_list_item_is_no_alt_text(line):
    # an item of a list (Markdown's, the HTML path's output, a page's bullets), which the decision
    # keeps inside the body; before, every short lower-case item went as alt text
    from newsclean.cleaners.rules.caption import alt_text
    assert alone(alt_text, line) is None


@pytest.mark.parametrize("line", ["content = read_document(document)", "int t(int *a) {", "all_findings = []",
                                  "#[no_mangle]", "(depending on height of fixture)", "ω = 2 x π x rpm / 60"])
def test_a_line_of_code_or_a_remark_in_parentheses_is_no_alt_text(line):
    # alt text describes a picture in words; brackets and operators are code's, or a price list's remark
    from newsclean.cleaners.rules.caption import alt_text
    assert alone(alt_text, line) is None


def test_a_list_written_without_bullets_is_no_alt_text_but_a_lone_line_is():
    # alt text stands alone by its picture; lower-case short lines in a run are a list's items
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.caption import alt_text
    items = ["slopes", "obstacles to be avoided", "variable mowing times", "lawn type"]
    doc = Doc([Line(i, i + 1, text) for i, text in enumerate(["The mower adapts to:", *items, "It costs $900."])])
    assert [alt_text(line, doc) for line in doc.lines[1:-1]] == [None] * len(items)
    doc = Doc([Line(i, i + 1, text) for i, text in enumerate(["The mower adapts to slopes.", "aerial view of the lawn",
                                                             "It costs $900."])])
    assert alt_text(doc.lines[1], doc) is not None
    # a gallery's labels run together too, but read as file names
    gallery = ["big-cartel-profile", "ecwid orders", "comparison-5", "product overview squarespace 1"]
    doc = Doc([Line(i, i + 1, text) for i, text in enumerate(gallery)])
    assert all(alt_text(line, doc) is not None for line in doc.lines)


@pytest.mark.parametrize("line", ["aerial view of the flooded town", "acme movers logo", "screenshot of the app"])
def test_a_lower_case_line_without_a_marker_is_still_alt_text(line):
    from newsclean.cleaners.rules.caption import alt_text
    assert alone(alt_text, line) is not None


@pytest.mark.parametrize("line", ["Acme Movers logo", "Product Logo for SimpliSafe", "Image 3: A simple AI agent",
                                  "Jane Roe's avatar", "Sam O'Neil's headshot", "User's avatar", "Example Media's profile picture"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_an_image_named_as_one_is_a_caption(line, where):
    assert kind_of(line, where) == "caption"


@pytest.mark.parametrize("line", ["The new logo", "Figure 3: Results of the survey",
                                  "Apple unveiled its new logo on Tuesday, and fans were not impressed.",
                                  "Hubble's sharpest image of the galaxy yet shows its spiral arms.", "the company's image"])
def test_image_label_look_alikes_survive(line):
    assert survives(line)


@pytest.mark.parametrize("label", ["Image caption,", "Caption", "Photo caption:"])
def test_the_line_under_a_bare_caption_label_is_the_caption(label):
    caption = "Party members applauded after the result was announced in Tokyo"
    kinds = removed_kinds(article(middle=[label, caption]))
    assert kinds.get(caption) == "caption"


def test_a_heading_that_mentions_captions_is_no_label():
    line = "The judges praised the winning photograph for its light and timing at the harbour."
    kinds = removed_kinds(article(middle=["Caption contest winners", line]))
    assert line not in kinds


def test_a_photographer_and_agency_glued_after_a_caption_s_question_go():
    from newsclean.cleaners.rules.caption import glued_credit

    line = "Do you have a healthy relationship with your phone? Morsa Images/DigitalVision via Getty Images"
    p = alone(glued_credit, line)
    assert p is not None and line[p.start:] == "Morsa Images/DigitalVision via Getty Images"


def test_a_present_tense_caption_with_an_unbracketed_credit_goes_whole():
    line = "Residents wade through a flooded street in Houston on Monday. Jane Roe/AFP"
    assert kind_of(line) == "caption"
    assert line in removed_kinds(article(middle=[line]))


@pytest.mark.parametrize("line", ["The council met on Monday. Reuters reported the figures later that week.",
                                  "Prices rose in March, data from Reuters/Refinitiv show."])
def test_agency_names_in_sentences_are_no_credit(line):
    assert survives(line)


def test_a_lead_credit_before_a_present_tense_description_takes_the_whole_caption():
    line = "(Photo by John Lee/City Herald) Students walk to a bus outside Central High School."
    assert removed_kinds(article(middle=[line])) == {line: "caption"}


def test_a_lead_credit_before_a_past_tense_paragraph_goes_alone():
    line = "(AP Photo/Jane Roe) The council voted on Tuesday to extend the network to three more districts."
    assert removed_kinds(article(middle=[line])) == {"(AP Photo/Jane Roe)": "caption"}


@pytest.mark.parametrize("alt", [
    "Homeowners shaking hands with an insurance agent after getting their policy",
    "Person holding a smart phone with an EV charging app",
])
def test_an_alt_text_with_a_participle_under_the_headline_is_a_caption(alt):
    # no finite verb, no full stop: an image's description, not the article's standfirst
    assert kind_of(alt, "before") == "caption"


@pytest.mark.parametrize("sentence", [
    "Protesters holding signs gathered outside the courthouse on Monday, March 3, 2025, before the hearing began.",
    "Residents wearing masks lined up outside the clinic in Springfield, Ill., as the vaccine arrived.",
])
def test_a_sentence_opened_by_a_participle_clause_stays(sentence):
    assert survives(sentence, "middle") and survives(sentence, "before")


@pytest.mark.parametrize("credit", ["Jane Roe/AP", "Photo: Getty Images", "Getty Images", "Jane Roe/AFP via Getty Images"])
@pytest.mark.parametrize("caption", [
    "Commuters wait on a platform at the central station on Tuesday morning.",
    "A firefighter walks past the burned-out shop after the blaze was put out.",
])
def test_a_present_tense_description_above_a_credit_line_is_a_caption(caption, credit):
    kinds = removed_kinds(article(middle=[caption, credit]))
    assert kinds.get(caption) == "caption"
    assert kinds.get(credit) == "caption"


@pytest.mark.parametrize("para", [
    "The mayor said the new routes would start in March, once the buses have been delivered.",
    "Officials said the station had reopened by Tuesday evening after repairs to the signals.",
])
def test_a_past_tense_paragraph_above_a_credit_line_stays(para):
    doc = clean_text(article(middle=[para, "Getty Images"]), Settings())
    assert para in doc.text.split("\n\n")


def test_a_headline_above_the_lead_pictures_credit_is_no_caption():
    # a headline is in the present tense too, but ends in no full stop
    from newsclean.cleaners.rules.base import Doc, Line
    from newsclean.cleaners.rules.caption import caption_above_credit

    lines = [Line(0, 1, "Making city buses work: seven lessons from the new routes"), Line(1, 2, "Photo: Getty Images")]
    assert caption_above_credit(lines[0], Doc(lines)) is None
    captioned = [Line(0, 1, "Commuters wait on a platform at the central station."), lines[1]]
    assert caption_above_credit(captioned[0], Doc(captioned)) is not None


def test_a_clip_describing_itself_with_a_credit_is_a_caption():
    line = "Dashcam video shows the moment a car collided with a bus near the depot. (Credit: Springfield Police)"
    assert kind_of(line, "middle") == "caption"


@pytest.mark.parametrize("line", [
    "Item 1 of 3 Workers inspect a bridge over the river in Springfield, March 12, 2026. REUTERS/Jane Roe/File Photo",
    "[2/3]Commuters wait for a bus in the rain in Springfield, March 12, 2026. REUTERS/Jane Roe",
])
def test_a_wire_caption_with_the_agency_first_and_a_gallery_counter_is_a_caption(line):
    assert kind_of(line, "middle") == "caption"


def test_a_paragraph_ending_in_an_agency_first_credit_keeps_its_text():
    para = "The council voted on Tuesday to close the bridge for repairs that will last until March. REUTERS/Jane Roe"
    kept = clean_text(article(middle=[para]), Settings()).text
    assert "The council voted on Tuesday to close the bridge" in kept and "REUTERS/Jane Roe" not in kept


def test_a_caption_glued_to_its_credit_marker_is_a_caption():
    line = "Commuters on a platform last month. Trips have fallen since January.Credit...Jane Roe for The Courier"
    assert kind_of(line, "middle") == "caption"


def test_a_sentence_about_credit_survives():
    assert survives("The bank said credit... had tightened sharply in the second quarter, according to the survey.")


@pytest.mark.parametrize("line, credit", [
    ("Der neue Bus hält am Rathaus. (Foto: Stadtwerke)", "(Foto: Stadtwerke)"),
    ("Die Baustelle am Bahnhof (Bildquelle: Stadt Beispiel)", "(Bildquelle: Stadt Beispiel)"),
    ("Ein Bus im Regen (Symbolbild)", "(Symbolbild)"),
    ("El nuevo autobús en la terminal. (Foto: Archivo)", "(Foto: Archivo)"),
    ("Autobus na przystanku (zdjęcie ilustracyjne)", "(zdjęcie ilustracyjne)"),
])
def test_photo_credits_in_brackets_in_other_languages(line, credit):
    from newsclean.cleaners.rules.caption import end_credit

    p = alone(end_credit, line)
    assert p is not None and line[p.start:p.end] == credit


@pytest.mark.parametrize("line", [
    "Die Zahl der Fahrgäste stieg um zehn Prozent (Quelle: Statistisches Landesamt).",
    "Der Bus fährt künftig alle zehn Minuten (bisher alle zwanzig).",
])
def test_a_cited_source_in_brackets_is_no_photo_credit(line):
    from newsclean.cleaners.rules.caption import end_credit

    assert alone(end_credit, line) is None


@pytest.mark.parametrize("line", ["Fot. Jan Kowalski / Agencja Beispiel", "Bildquelle: Stadtwerke",
                                  "Titelbild: Jane Doe/picture-alliance", "Beitragsbild: Stadt Köln", "Titelfoto - Max Muster"])
def test_credit_lines_in_other_languages(line):
    from newsclean.cleaners.rules.caption import credit_line

    assert alone(credit_line, line) is not None


def test_a_sentence_about_a_cover_picture_survives():
    from newsclean.cleaners.rules.caption import credit_line

    line = "Titelbild und Layout des neuen Magazins hat eine Grafikerin aus Köln gestaltet, sagte der Verlag."
    assert alone(credit_line, line) is None
    assert survives(line)


def test_a_polish_sentence_starting_with_fot_survives():
    from newsclean.cleaners.rules.caption import credit_line

    assert alone(credit_line, "Fotografia uliczna przyciąga w tym roku więcej widzów niż malarstwo.") is None


# An image's alt text that describes it as one (written for the test, in the dev pages' forms)
@pytest.mark.parametrize("line", [
    "A photo of a fruit bowl with sliced mango and kiwi.",
    "Infographic showing the five steps of the filing process",
    "Screenshot of the settings page after the update",
    "Aerial photograph of the harbour at low tide",
    "Headshot of Dr. Jane Roe in a white coat",
    "Bar chart comparing rents in the five largest cities. Darker bars are 2025 figures.",
    "An illustration of the solar system's outer planets",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_an_image_described_as_one_is_a_caption(line, where):
    from newsclean.cleaners.rules.caption import image_description

    assert alone(image_description, line) is not None
    assert kind_of(line, where) == "caption"


# A story's sentences about a picture (a finite verb), a book's title, a reader's words, a list's heading
@pytest.mark.parametrize("line", [
    "A photo of the suspect was released by police on Tuesday evening.",
    "An image of the comet captured by the telescope shows a long blue tail.",
    "Photos of the flooded streets went viral within hours.",
    "The Picture of Dorian Gray",
    "Here are images of the garden before and after the work:",
    "Take photos of any damage before you call the insurer.",
    "Screenshots of the messages have circulated online? No, the company says.",
])
def test_sentences_about_pictures_are_not_image_descriptions(line):
    from newsclean.cleaners.rules.caption import image_description

    assert alone(image_description, line) is None
