import pytest

from tests.ruletools import kind_of, survives


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
