"""Hard-wrapped text (lynx -dump, w3m, wire copy, e-mail) gets its paragraphs back
(newsclean.cleaners.unwrap, called by newsclean.cleaners.lines.normalise_lines)."""
import textwrap

from hypothesis import given, settings as hsettings, strategies as st

from newsclean.cleaners.lines import normalise_lines, split_lines
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.unwrap import unwrap, wrap_width

PARAGRAPHS = [
    "The city council voted on Tuesday to keep the main library open on Sundays through the winter, "
    "after a long debate about the cost of heating the old building and paying extra staff.",
    "Members said the extra hours would cost less than expected because volunteers from the friends "
    "of the library group have offered to staff the front desk on most weekends.",
    "A review of the budget is due in March, when the council will look again at the opening hours "
    "of all branch libraries and decide whether to extend the trial into the spring.",
]
MENU = "Home\nNews\nSport\nWeather"
HEADLINE = "Library keeps its Sunday hours"
FOOTER = "Share this\nContact us"


def _dump(width: int) -> str:
    """The page as a text browser dumps it: menu, headline, paragraphs wrapped at `width`."""
    body = "\n\n".join(textwrap.fill(p, width) for p in PARAGRAPHS)
    return f"{MENU}\n\n{HEADLINE}\n\n{body}\n\n{FOOTER}\n"


def test_a_wrapped_dump_is_cleaned_into_its_paragraphs():
    for width in (64, 72, 80, 100):
        doc = clean_text(_dump(width), Settings())
        assert doc.title == HEADLINE
        assert doc.text == "\n\n".join(PARAGRAPHS), width


def test_joined_lines_keep_the_raw_line_numbers():
    text = _dump(72)
    lines = normalise_lines(text)
    assert len(lines) == len(split_lines(text))
    first = text.split("\n").index(textwrap.fill(PARAGRAPHS[0], 72).split("\n")[0])
    assert lines[first] == PARAGRAPHS[0]  # the paragraph sits on its first raw line
    assert lines[first + 1] == ""  # and the lines it was wrapped onto are empty


def test_the_menu_and_the_last_line_of_a_paragraph_are_not_joined():
    lines = normalise_lines(_dump(72))
    assert [ln for ln in lines if ln] == ["Home", "News", "Sport", "Weather", HEADLINE, *PARAGRAPHS,
                                          "Share this", "Contact us"]


def test_text_that_is_not_wrapped_is_left_alone():
    one_block_per_line = "\n".join([*MENU.split("\n"), HEADLINE, *PARAGRAPHS, *FOOTER.split("\n")])
    short_lines = "\n".join(["Breaking news from the city hall today", "Weather forecast for the weekend ahead",
                             "Sport results from the league matches", "Letters to the editor this week"] * 3)
    for text in (one_block_per_line, short_lines, MENU):
        lines = [" ".join(ln.split()) for ln in split_lines(text)]
        assert wrap_width(lines) is None
        assert normalise_lines(text) == lines


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
PARAGRAPH = st.lists(WORD, min_size=25, max_size=80).map(" ".join)


@hsettings(max_examples=150, deadline=None)
@given(st.lists(PARAGRAPH, min_size=2, max_size=5), st.integers(40, 132))
def test_wrapping_is_undone(paragraphs, width):
    wrapped = "\n\n".join(textwrap.fill(p, width) for p in paragraphs)
    lines = [" ".join(ln.split()) for ln in split_lines(wrapped)]
    if wrap_width(lines) is None:  # too few wrapped lines to tell (short paragraphs, a wide width)
        assert unwrap(lines) == lines
        return
    out = unwrap(lines)
    assert [ln for ln in out if ln] == paragraphs
    assert unwrap(out) == out  # unwrapped text is not wrapped any more
