"""Each rule's declared condition (newsclean.cleaners.rules.base.when) is necessary: wherever it is False
on a line, the rule proposes nothing there. Checked on the lines of real pages (the accuracy-gate
pages, the news layouts, the seeds; every dev page when ../shared is beside the checkout) and on
the look-alikes the per-rule tests use; and the first look taken for a batch at once
(newsclean.cleaners.rules.prime) gives exactly the proposals of the rules called one line at a time."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners.engine.rule_conditions import condition_matrix, lines_frame
from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.rules import CONDITIONS_MIN_TEXTS, RULES, Doc, Line, _Proposer, propose_plain
from newsclean.cleaners.shared_data import devset_dir
from tests.conftest import SEEDS_RAW

DATA = Path(__file__).parent / "data"
CONDITIONED = [r for r in RULES if getattr(r, "condition", None) is not None]


def _docs_of(texts) -> list[list[str]]:
    return [[ln for ln in normalise_lines(t) if ln] for t in texts]


def _local_docs() -> list[list[str]]:
    with gzip.open(DATA / "devset_subset" / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh]
    texts += [p.read_text(encoding="utf-8") for p in sorted((DATA / "news_layouts").glob("*.txt"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted(SEEDS_RAW.glob("*.txt"))]
    return _docs_of(texts)


def _dev_docs() -> list[list[str]]:
    pages = devset_dir() / "pages.jsonl.gz"
    if not pages.is_file():
        return []
    with gzip.open(pages, "rt", encoding="utf-8") as fh:
        return _docs_of(json.loads(line)["text"] for line in fh)


# Look-alike lines of every kind of debris and of body text, so each rule sees its own cases
LOOKALIKES = [
    "We use cookies to give you the best experience on our website. By continuing you accept.",
    "Wir verwenden Cookies, um dir die bestmögliche Erfahrung auf unserer Website zu bieten.",
    "A man walks through a flooded street on Monday. (Photo by Jane Roe/AP)",
    "(AP Photo/Evan Vucci) President Joe Biden speaks during an event at the White House on Monday.",
    "The minister spoke in March. Photo: Getty Images",
    "… last month.Credit...Jane Roe for The New York Times",
    "Home > News > Politics", "Home / World / Europe", "Watch LIVE", "Most recent", "Loading...",
    "Share this article", "Facebook Twitter Email", "Jane Roe speaks to media", "Company logo",
    "Image 3: A view of the harbour at dawn", "example.com", "www.example.org/news",
    "SGVsbG8gV29ybGQhIFRoaXMgaXMgYSBiYXNlNjQgYmxvYiBvZiBkYXRhIGZvciB0ZXN0aW5nIHB1cnBvc2Vz",
    "Sign up for our newsletter", "Accept all cookies", "Privacy Policy | Terms of Use",
    "By JOHN DOE and JANE ROE, Associated Press", "Posted on November 24, 2026 by Tom Reed",
    "Politics · Economy · Climate · Sport", "Tags: Election, Senate, Budget", "John Smith, Jane Doe, Bob Roe",
    "The city council voted on Tuesday to expand the downtown bus network after months of debate.",
    "COOKİES and CONſENT: we use them", "ﬁrst ﬂoor", "ΣΊΣΥΦΟΣ", "İstanbul'da bugün",
    "Von Hans Müller", "Jane Roe | Feb 24, 2018", "Jane Roe, Staff Writer", "Иван Петров", "Madrid - 14 nov 2023 - 12:30 CET",
    "МОСКВА, 12 марта 2025 — Президент заявил сегодня, что переговоры продолжатся на следующей неделе.",
]


def _violations(docs: list[list[str]], rules) -> list[tuple[str, str]]:
    """(rule, line) pairs where a rule's condition is False and the rule proposes something."""
    texts = sorted({t for d in docs for t in d})
    held = dict(zip(texts, condition_matrix(texts, [r.condition for r in rules])))
    found = []
    for lines in docs:
        doc = Doc([Line(i, i + 1, t) for i, t in enumerate(lines)])
        for line in doc.lines:
            row = held[line.text]
            for k, rule in enumerate(rules):
                if not row[k] and rule(line, doc) is not None:
                    found.append((rule.__name__, line.text))
    return found


@pytest.mark.skipif(not CONDITIONED, reason="no rule declares a condition")
def test_conditions_are_necessary_on_real_pages_and_look_alikes():
    docs = _local_docs() + [LOOKALIKES] + [[t] for t in LOOKALIKES]
    assert _violations(docs, CONDITIONED) == []


@pytest.mark.skipif(not CONDITIONED, reason="no rule declares a condition")
def test_conditions_are_necessary_on_every_dev_page():
    docs = _dev_docs()
    if not docs:
        pytest.skip("the dev pages are not beside the checkout (set NEWSCLEAN_SHARED)")
    assert _violations(docs, CONDITIONED) == []


def test_the_first_look_for_a_batch_gives_the_proposals_of_each_rule_called_alone():
    docs = _local_docs()[:40] + [LOOKALIKES]
    proposer = _Proposer(RULES)
    texts = [t for d in docs for t in d]
    assert len(set(texts)) >= CONDITIONS_MIN_TEXTS  # the columnar pass really runs
    proposer.prime(texts)
    for text in set(texts):  # every entry's word count, those made without a Line included
        assert proposer.by_text[text][3] == len(Line(0, 1, text).words), text
    for lines in docs:
        doc = Doc([Line(i, i + 1, t) for i, t in enumerate(lines)])
        for line in doc.lines:
            assert proposer(line, doc) == propose_plain(line, doc), line.text


def test_the_lines_frame_folds_as_line_lower_does():
    texts = ["COOKİES", "CONſENT", "Straße", "ΟΔΟΣ", "Ünïcödé", ""]
    frame = lines_frame(texts)
    assert frame["lower"].to_list() == [Line(0, 1, t).lower for t in texts]
    assert frame["n_chars"].to_list() == [len(t) for t in texts]


def test_first_look_counts_the_words_of_ascii_texts_as_shape_does():
    """The columnar first look counts an ASCII text's words exactly as len(shape.words(text)) does
    (apostrophes inside words, underscores and punctuation between them, digits), and leaves the
    texts of other scripts to Python (None)."""
    from newsclean.cleaners import shape
    from newsclean.cleaners.engine.rule_conditions import first_look

    texts = ["Don't stop-the_press: it's 5 o'clock'", "'quoted' words '' and 'a'b'c", "snake_case __x__ 3.14",
             "", "   ", "Tab\tseparated\twords", "end with apostrophe' and 'start", "A1b2 C3_d4 e5'f6",
             "Café au lait", "naïve façade", "Москва сегодня", "東京の天気"]
    bits, counts, _ = first_look(texts, [])
    assert len(bits) == len(counts) == len(texts)
    for text, count in zip(texts, counts):
        if text.isascii():
            assert count == len(shape.words(text)), text
        else:
            assert count is None, text


def test_first_look_counts_the_function_words_of_ascii_texts_as_the_prose_test_weighs_them():
    """The columnar count of an ASCII sentence's function words gives shape's prose facts exactly:
    the words as shape.words finds them (an apostrophe joins, an underscore splits), lower-cased,
    and looked up in FUNCTION_WORDS. A look-alike inside a longer word ("theater", "isn't",
    "the_x") is counted as that word. Other scripts, and texts without a sentence mark at the end,
    are left to Python (None)."""
    from newsclean.cleaners import shape
    from newsclean.cleaners.engine.rule_conditions import first_look

    texts = ["The cat sat on THE mat.", "theater isn't the_x of 'the' and.", "Don't OR don't, l'homme et la?",
             "Der Hund und die Katze!", ".", "1 2 3.", "naïve and the.", "A.", "!!!", "(The end.)\"",
             "No sentence mark at the end", "Ends in a colon:"]
    _, counts, functions = first_look(texts, [])
    for k, (text, count) in enumerate(zip(texts, counts)):
        function = functions.get(k)
        if not text.isascii() or not shape.ends_sentence(text):  # the prose test reads no other's words
            assert function is None, text
            continue
        ws = shape.words(text)
        assert (count, function) == (len(ws), sum(w.lower() in shape.FUNCTION_WORDS for w in ws)), text


def test_the_first_look_leaves_the_prose_test_its_answers(monkeypatch):
    """A batch's first look seeds the prose test's facts of its ASCII sentences, the same facts the
    test finds alone: the decision asks no such line's words again."""
    from newsclean.cleaners import rules, shape

    texts = [f"Line {k} of the test, with a few words and the cat." for k in range(CONDITIONS_MIN_TEXTS)]
    texts += ["Menu Home Sports", "Don't miss it: the best of l'homme's week!", "Café et la vie.", "(Short one.)"]
    shape.clear_caches()
    alone = {t: (shape._prose_facts(t), shape.is_sentence_like(t)) for t in texts}
    shape.clear_caches()
    rules.clear_caches()
    rules.prime(texts)
    monkeypatch.setattr(shape, "_prose_facts", lambda *a: pytest.fail("the words asked again"))
    for text in texts:
        if text.isascii() and shape.ends_sentence(text):
            assert (shape._PROSE_FACTS[text], shape.is_sentence_like(text)) == alone[text], text
        else:
            assert text not in shape._PROSE_FACTS, text


DECIDED = [r for r in RULES if getattr(r, "proposes", None) is not None]
EXACT_GATES = [r for r in RULES if getattr(r, "exact_gate", False)]


def _undecided(docs: list[list[str]]) -> list[tuple[str, str]]:
    """(rule, line) pairs of ASCII lines where a condition that claims to decide its rule (a text-only
    rule's proposal, an in-context rule's text gate) says otherwise than the rule or the gate."""
    rules = DECIDED + EXACT_GATES
    texts = sorted({t for d in docs for t in d if t.isascii()})
    held = dict(zip(texts, condition_matrix(texts, [r.condition for r in rules])))
    found = []
    for text in texts:
        line = Line(0, 1, text)
        doc = Doc([line])
        for k, rule in enumerate(rules):
            said = rule.proposes if rule in DECIDED else True
            truth = rule(line, doc) if rule in DECIDED else bool(rule.text_gate(line)) or None
            if (said if held[text][k] else None) != truth:
                found.append((rule.__name__, text))
    return found


# ASCII look-alikes at the edges of the decided rules' tests: word counts at their bounds, sentence
# ends behind closers, quotes and apostrophes at word starts, list bullets, paragraphs
EDGES = [
    "One Two Three Four", "One Two Three Four Five", "One two three four five six", "Jane Roe (AP)",
    "Council votes on Tuesday.)", "Council votes on Tuesday?'", "Breaking: Council Votes Today", "'Quoted Start Here Now'",
    "'lower Quoted Start Here", "John O'Brien Mary D'Arcy Tom", "A 'b C D E F", "- Klein Tools Tester Gauge Meter Probe",
    "o Klein Tools Tester Gauge Meter Probe", "The Mayor Of The City Said", "Alpha Beta Gamma Delta Epsilon Zeta Eta",
    "5 Ways To Save Money Now", "\"Quoted headline with five words\"", "Headline with a full stop at the end.",
    "The first sentence ends here. And then " + " ".join(["word"] * 24), " ".join(["Word"] * 31),
    " ".join(["Word"] * 30), "Tab\tseparated\tHeadline\tWords\tHere", "Under_score Words Are Here Too",
    "x", "", "Hello World", "A B", "...", "Is this the end?", "Next Page >>", "Photo: Jane Roe",
    "View comments (12)", "Share (3)", "Read more...", "Read more.", "Sign in or register", "Home News Sport",
    "Log in", "Subscribe to the newsletter today", "Most read", "Sign up (2)", "Comments 12",
]


def test_a_condition_that_decides_its_rule_is_exact_on_ascii_lines():
    assert DECIDED and EXACT_GATES
    docs = _local_docs() + [LOOKALIKES, EDGES]
    assert _undecided(docs) == []


def test_a_condition_that_decides_its_rule_is_exact_on_every_dev_line():
    docs = _dev_docs()
    if not docs:
        pytest.skip("the dev pages are not beside the checkout (set NEWSCLEAN_SHARED)")
    assert _undecided(docs) == []


# ASCII lines made of the pieces the decided rules' tests turn on: capitalised, lower-case and function
# words, digits, quotes and apostrophes inside and around words, sentence marks and closers, list
# bullets, colons and the white space str.split knows
_PIECES = ["Council", "Bus", "NETWORK", "O'Brien", "it's", "'Quoted", "quote'", "the", "of", "and", "votes", "a",
           "5", "2025", "x_y", "_", "-", "*", "o", "(AP)", "[1]", ".", "!", "?", "...", ":", ";", ",", "'", "\"", ")",
           "|", ">", "Mr.", "U.S."]
_GAPS = [" ", " ", " ", "", "\t", "\x1c", "  "]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(_GAPS)), min_size=1, max_size=34),
                min_size=1, max_size=40))
def test_a_condition_that_decides_its_rule_is_exact_on_generated_ascii_lines(lines):
    texts = ["".join(p + g for p, g in pieces).strip() for pieces in lines]
    assert _undecided([[t for t in texts if t]]) == []
