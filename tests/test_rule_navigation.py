import pytest

from tests.ruletools import kind_of, survives


@pytest.mark.parametrize("line", ["Watch LIVE", "Watch now", "Skip to content", "Please verify", "Most recent",
                                  "All Articles", "Home > World > Europe", "News | Sport | Weather | Travel", "Sign in", "Load more"])
@pytest.mark.parametrize("where", ["before", "middle", "after"])
def test_navigation_removed_anywhere(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", ["Police squeal on each other", "The truth will come out in time", "What happens next",
                                  "A long road to recovery"])
def test_subheadings_between_paragraphs_survive(line):
    assert survives(line)


def test_short_fragments_after_the_body_are_navigation():
    assert kind_of("Editors' choice", "after") == "navigation"
