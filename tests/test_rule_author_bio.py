"""Author bios (newsclean.cleaners.rules.byline.author_bio): a paragraph that opens with the writer's name and
says what they are, under the writer's name line or an about-the-author label. Written in wordings
the dev pages do not hold; look-alikes are the article's own people and lists of people or products."""
import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY


def _removed(text: str) -> dict[str, tuple[str, str]]:
    doc = clean_text(text, Settings())
    return {s.text: (s.kind, s.by) for s in doc.removed}


def _page(*tail: str) -> str:
    return "\n\n".join(["Council backs bigger bus network", *BODY, *tail])


BIO = ("Priya Natarajan is a senior transport reporter at the Valley Courier. She has covered city hall "
       "since 2015 and lives in Riverside with her two cats.")


@pytest.mark.parametrize("above", [
    ["Priya Natarajan"],                                  # the name alone
    ["By Priya Natarajan"],                               # the byline form
    ["Priya Natarajan Senior Transport Reporter"],        # name and title on one line
    ["About the author", "portrait of the reporter"],      # a label, an alt text between
    ["Priya Natarajan (Valley Courier)"],
])
def test_a_bio_under_its_writers_name_or_a_label_is_a_byline(above):
    removed = _removed(_page(*above, BIO, "Share this story"))
    assert removed.get(BIO) == ("byline", "author_bio")


def test_a_first_person_bio_under_a_label():
    bio = "I'm Tomás Reyes, a travel writer with twelve years of experience guiding hikers through the Andes and Patagonia."
    removed = _removed(_page("Meet the author", bio))
    assert removed.get(bio) == ("byline", "author_bio")


def test_a_bio_above_the_article_under_the_byline():
    bio = "Priya Natarajan is a transport reporter who has covered city hall for the Courier since 2015."
    text = "\n\n".join(["Council backs bigger bus network", "By Priya Natarajan", bio, *BODY])
    assert _removed(text).get(bio) == ("byline", "author_bio")


@pytest.mark.parametrize("tail", [
    # a bio-like sentence with no name line or label above it: the article's own source
    ["Priya Natarajan is a transport researcher at the university. She said the plan would cut commute times by a third."],
    # a headline that mentions the person is not her name line (an interview's introduction)
    ["Q&A: Priya Natarajan on buses",
     "Priya Natarajan is a transport researcher at the university. She spoke to us about what the new routes will change."],
])
def test_the_articles_own_people_survive(tail):
    doc = clean_text(_page(*tail), Settings())
    assert tail[-1] in doc.text.split("\n\n")


def test_a_list_of_people_under_their_names_survives():
    people = [("Ana Ruiz", "Ana Ruiz is a nurse at St Mary's hospital. She has worked night shifts for twelve years."),
              ("Ben Okafor", "Ben Okafor is a bus driver on route 9. He says the new timetable will finally give him breaks."),
              ("Chen Wei", "Chen Wei is a teacher at Riverside Elementary. She rides the bus to work every day with her son.")]
    lines = [x for pair in people for x in pair]
    doc = clean_text(_page(*lines), Settings())
    kept = doc.text.split("\n\n")
    assert all(bio in kept for _, bio in people)


def test_a_product_under_its_name_is_not_a_person():
    lines = ["Dropbox Business", "Dropbox Business is a trusted cloud storage service with flexible sharing for small teams and families."]
    doc = clean_text(_page(*lines), Settings())
    assert not any(s.by == "author_bio" for s in doc.removed)



@pytest.mark.parametrize("byline, bio", [
    # no name line above the bio, but the byline (or a blog stamp's "by …") names the same writer
    ("By Tom Reed", "Tom Reed is the Courier's city hall reporter. He can be reached at treed@example.com or 555-0134."),
    ("Posted on November 24, 2026 by Tom Reed", "Tom Reed is the Courier's city hall reporter. He can be reached at treed@example.com."),
    ("By TOM REED", "Reed is a city hall reporter who has covered the council for the Courier since 2015."),  # the surname
    ("By Tom Reed", "Tom Reed covers city hall and transport for the Courier."),  # a beat
    ("By Tom Reed", "Reed writes about housing and the council for the Courier."),
])
def test_a_bio_of_the_bylines_writer_anywhere_below_the_story(byline, bio):
    text = "\n\n".join(["Council backs bigger bus network", byline, *BODY, bio])
    assert _removed(text).get(bio) == ("byline", "author_bio")


@pytest.mark.parametrize("line", [
    # someone other than the byline's writer: a source of the story
    "Rosa Diaz is a council member who has pushed for the new routes since 2019. She said the vote was overdue.",
    "Rosa Diaz covers the cost of her daughter's bus pass herself, she said, because the school will not.",
])
def test_someone_else_than_the_bylines_writer_stays(line):
    text = "\n\n".join(["Council backs bigger bus network", "By Tom Reed", *BODY, line])
    assert line in clean_text(text, Settings()).text.split("\n\n")
