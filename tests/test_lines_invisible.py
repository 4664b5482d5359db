"""Normalisation: a line made only of characters that take no space (zero-width joiners and
spaces, word joiners, a BOM, soft hyphens, bidi marks) is empty, as a reader sees it; those
characters inside words are kept (emoji sequences and Indic scripts need the joiners)."""
import pytest

from cleaners.lines import normalise_line, normalise_lines
from cleaners.pipeline import clean_text
from cleaners.settings import Settings
from tests.ruletools import BODY


@pytest.mark.parametrize("line", ["\u200d", "\u200b \u200d", "\ufeff", "\u00ad", "\u200e\u200f", "\u2060"])
def test_a_line_of_invisible_characters_is_empty(line):
    assert normalise_line(line) == ""


@pytest.mark.parametrize("line", ["👩\u200d💻 at work", "क्\u200dष", "co\u00adoperate"])
def test_invisible_characters_inside_words_stay(line):
    assert normalise_line(line) == line


def test_invisible_lines_between_paragraphs_leave_no_paragraph():
    doc = clean_text("\n\n\u200d\n\n".join(BODY), Settings())
    assert doc.text.split("\n\n") == BODY
    assert normalise_lines("\n".join(["\u200d", BODY[0]])) == ["", BODY[0]]
