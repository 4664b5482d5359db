"""A long paragraph printed twice in one text (a template's mobile and desktop copies, a sticky
box) keeps its first copy; the second goes as boilerplate, rule repeated_paragraph."""
import numpy as np

from newsclean.cleaners.decide import decide
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.shape import REPEAT_MIN_WORDS, repeat_key
from tests.ruletools import BODY, article

PARA = BODY[1]


def test_second_copy_of_a_long_paragraph_goes():
    doc = clean_text(article(after=[PARA]), Settings())
    assert doc.text.split("\n\n") == BODY  # the first copy, in its place
    rows = [(s.kind, s.by, s.text) for s in doc.removed]
    assert rows == [("boilerplate", "repeated_paragraph", PARA)]
    assert doc.removed[0].line == 9  # the second copy's raw line (title, 3 body lines, blank lines)


def test_decision_marks_the_copy_whatever_the_model_says():
    lines = ["Council backs bigger bus network", *BODY, PARA, "Share this"]
    proba = np.array([0.9, 0.02, 0.02, 0.02, 0.02, 0.99])
    d = decide(lines, Settings(), debris_proba=proba)
    assert [t for _, t in d.kept] == BODY
    assert [(s.line, s.kind) for s in d.spans if s.by == "repeated_paragraph"] == [(5, "boilerplate")]


def test_short_repeats_and_near_copies_stay():
    # a short line recurs by nature (a subheading echoed, "Read more"); a paragraph that differs
    # in one word is another paragraph
    near = PARA.replace("reliable", "regular")
    sub = "What the plan means for riders"
    text = article(middle=[sub, near, sub])
    kept = clean_text(text, Settings()).text.split("\n\n")
    assert near in kept and kept.count(sub) == 2


def test_repeat_key_is_folded_and_only_for_long_paragraphs():
    assert repeat_key(PARA) == repeat_key(PARA.upper().replace(",", " ,"))
    assert repeat_key(" ".join(["word"] * (REPEAT_MIN_WORDS - 1))) is None
    assert repeat_key(" ".join(["word"] * REPEAT_MIN_WORDS)) is not None


def test_cleaning_the_output_again_changes_nothing():
    doc = clean_text(article(before=[PARA], after=[PARA, PARA]), Settings())
    again = clean_text(f"{doc.title}\n\n{doc.text}", Settings())
    assert again.text == doc.text and again.removed == ()


from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402


@hsettings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=60)))
def test_fold_is_memoised_without_changing_what_it_returns(text):
    import unicodedata

    from newsclean.cleaners import shape

    plain = " ".join(unicodedata.normalize("NFKC", text or "").lower().translate(shape._FOLD_TABLE).split())
    assert shape.fold(text) == plain
    assert shape.fold(text) == plain  # the second time from the memo
    assert len(shape._FOLD_CACHE) <= shape._WORDS_CACHE_MAX


def test_clear_caches_forgets_every_texts_memoised_shape():
    """Benchmarks of new pages empty shape's per-text memos (words, prose facts, folded forms) as
    they do the rules' and the libraries' caches."""
    from newsclean.cleaners import shape

    text = "The council voted on Tuesday to expand the bus network."
    shape.words(text), shape.fold(text), shape.is_prose_worded(text)
    assert text in shape._WORDS_CACHE and text in shape._FOLD_CACHE and text in shape._PROSE_FACTS
    shape.clear_caches()
    assert not shape._WORDS_CACHE and not shape._FOLD_CACHE and not shape._PROSE_FACTS
