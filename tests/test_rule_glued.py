"""Debris glued after a paragraph's last sentence (newsclean.cleaners.rules.glued, caption.glued_credit,
caption.lead_credit): only the glued run goes, with the kind its own line would get."""
import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from tests.ruletools import BODY, alone, article, removed_kinds, survives

PARA = "Residents can share their views at a public meeting on Thursday evening at the library."


@pytest.mark.parametrize("tail, kind", [
    ("Watch LIVE", "navigation"), ("Advertisement", "navigation"),
    ("Read more: Mayor resigns after scandal", "related_headline"), ("RELATED: Storm hits coast", "related_headline"),
    ("Tags: politics, budget, council", "tag_list"), ("Videos by Rare", "outlet_signature"),
    ("FoxNews.com", "outlet_signature"), ("Share this article", "call_to_action"),
    ("What do you think?", "call_to_action"), ("Sign up for our newsletter", "call_to_action"),
    ("Click here to subscribe", "call_to_action"),
    ("Photo: Getty Images", "caption"), ("Image credit: Reuters", "caption"), ("Photo by Jane Roe", "caption"),
    ("Photos/AFP", "caption"),
])
def test_glued_tail_is_cut_with_its_kind(tail, kind):
    assert removed_kinds(article(middle=[PARA + " " + tail])) == {tail: kind}


@pytest.mark.parametrize("para, stays", [
    # the run after the last full stop is a sentence's start, not site chrome
    (PARA + " Read the council's full report on the city website before the meeting", None),
    (PARA + " More than 200 residents attended the last one", None),
    ("The meeting starts at six. Tell us what the council should do about the buses and the new routes in the north of the city", True),
    # one short fragment, not a sentence, before the chrome words
    ("Vote now. Watch LIVE", None),
    ("Vote now. Share this article", True),
    # a bare agency name after a sentence may start a truncated sentence: not a credit; and the
    # line, a truncated paragraph between two body paragraphs, stays with the body around it
    ("Buses lined up outside the depot on Monday morning as drivers returned to work. Reuters reported the figures", True),
    # a credit word inside the last sentence is not a tail
    ("Drivers returned to work on Monday. Photo editors at the paper chose the image of the depot.", True),
])
def test_glued_lookalikes_are_not_cut(para, stays):
    doc = clean_text(article(middle=[para]), Settings())
    assert not [s for s in doc.removed if s.by.startswith("glued_")]
    if stays is not None:
        assert survives(para) == stays
    kept = doc.text.split("\n\n")
    assert all(p in kept for p in BODY)  # the article around the look-alike is whole


def test_leading_credit_bracket_is_a_span():
    credit = "(Image source: YouTube screenshot)"
    assert removed_kinds(article(middle=[credit + " " + PARA])) == {credit: "caption"}


def test_line_above_the_headline_is_furniture_but_a_standfirst_below_it_stays():
    furniture = "Council votes, storm warnings and school news from across the region"
    standfirst = "The vote ends a year of debate over routes and fares in the north of the city"
    text = "\n\n".join([furniture, "Council backs bigger bus network", standfirst] + BODY)
    doc = clean_text(text, Settings())
    assert doc.title == "Council backs bigger bus network"
    assert standfirst in doc.text.split("\n\n") and furniture not in doc.text


def _reference_tail(text: str, max_words: int = 8):
    """glued_tail by the plain definition: the last sentence end followed by more text, anywhere."""
    import re

    from newsclean.cleaners import shape
    ends = list(re.finditer(r"[.!?…][\"'’”)\]]*\s+(?=\S)", text))
    if not ends or len(text[ends[-1].end():].split()) > max_words:
        return None
    at = ends[-1].end()
    return at if shape.is_sentence_like(text[:at].rstrip(), min_words=4) else None


from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

_TOKENS = st.sampled_from(["The", "vote", "was", "held", "on", "Monday.", "it", "said!", "(AP)", "Share", "this",
                           "“quoted.”", "end?", "x", "..", "a.b", "\t", "  ", " \t ", "\u3000"])


@hsettings(max_examples=1000, deadline=None)
@given(st.lists(_TOKENS, max_size=40).map(" ".join))
def test_glued_tail_searches_only_the_end_but_finds_what_a_full_scan_finds(text):
    from newsclean.cleaners.rules.base import Line, glued_tail
    assert glued_tail(Line(0, 1, text)) == _reference_tail(text)


@pytest.mark.parametrize("tail", ["Read more", "more >>", "mehr", "Weiterlesen", "... mehr", "Continue reading →"])
def test_a_link_to_the_rest_of_a_story_is_not_cut_off_a_teaser(tail):
    # "… Read more" ends a teaser of another story; cut off, the teaser would read as a sentence of
    # the body, so the line is left whole for the line model
    from newsclean.cleaners.rules.glued import glued_debris
    assert alone(glued_debris, "Mayor resigns after a vote of no confidence on Tuesday. " + tail) is None


def test_a_share_button_after_a_link_word_is_still_cut():
    from newsclean.cleaners.rules.glued import glued_debris
    assert alone(glued_debris, "Mayor resigns after a vote of no confidence on Tuesday. Share this article") is not None


@pytest.mark.parametrize("line", [
    "Published on 19 December 2022 by the editorial team of the city desk",  # a dated byline reads like prose
    "Council Backs Bigger Bus Network After Months Of Debate Over Costs",  # a title-cased repeat of the headline
])
def test_a_dated_or_title_cased_line_under_the_headline_is_no_standfirst(line):
    from newsclean.cleaners.decide import _is_standfirst

    assert not _is_standfirst(line)
    assert _is_standfirst("The vote ends a year of debate over routes and fares in the north of the city")


def test_the_tail_rules_start_test_changes_no_answer(monkeypatch):
    """glued_debris asks its start-pattern tail rules only where RE2 finds one of their patterns may
    start the tail: on every line of the dev subset, the news layouts and the seeds (and each line
    with a tail rule's cue glued on), the same proposals as asking every tail rule."""
    from newsclean.cleaners.rules import glued
    from newsclean.cleaners.rules.base import Doc, Line
    from tests.test_rule_conditions import LOOKALIKES, _local_docs

    tails = ["Share this article", "Read more: Mayor resigns", "Tags: a, b", "© 2024 Acme Media", "FoxNews.com",
             "What do you think?", "Watch LIVE", "RELATED: Storm hits coast", "Videos by Rare"]
    texts = sorted({t for lines in _local_docs() for t in lines if t} | set(LOOKALIKES))
    texts += [PARA + " " + tail for tail in tails] + [t + " " + tail for t in texts[:300] for tail in tails[:3]]
    doc = Doc([Line(0, 1, "x")])
    gated = [glued.glued_debris(Line(0, 1, t), doc) for t in texts]
    monkeypatch.setattr(glued, "_may_start_a_tail_rule", lambda tail: True)
    assert gated == [glued.glued_debris(Line(0, 1, t), doc) for t in texts]
    assert sum(p is not None for p in gated) >= len(tails)  # the cues glued on are cut
