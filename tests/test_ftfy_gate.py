"""The cheap ftfy gate in newsclean.cleaners.lines gives exactly what ftfy.fix_text gives, line by line."""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import ftfy
import ftfy.badness
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners import lines as L
from newsclean.cleaners.shared_data import devset_dir

DEVSET = devset_dir() / "pages.jsonl.gz"


def mojibake(text: str) -> str:
    return text.encode("utf-8").decode("cp1252", errors="replace")


EDGE_CASES = [
    "plain ascii line",
    "He said \u201chello\u201d and she\u2019s \u2018fine\u2019 \u2014 ok\u2026",
    "modifier apostrophe don\u02bct and low-9 \u201aquote\u201b \u201edouble\u201f",
    "caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00fcber Stra\u00dfe",
    "cafe\u0301 decomposed (NFD) e\u0301",
    "mojibake: It\u00e2\u20ac\u2122s caf\u00c3\u00a9 \u00e2\u20ac\u0153quoted\u00e2\u20ac\u009d",
    mojibake("It\u2019s a \u201ctest\u201d \u2014 caf\u00e9 \u00a9 2018"),
    mojibake("na\u00efve \u20ac5 \u00bd price"),
    "entities &amp; &eacute; &#8217; &lt;b&gt; in a line",
    "non-ascii with entity caf\u00e9 &amp; bar",
    "ampersands that are not entities: Q&A, AT&T; R & D, caf\u00e9 & bar, &#;",
    "entity without a semicolon &amp and &#39 and caf\u00e9 &eacute",
    "ligatures \ufb01ne \ufb02ow \u0132sselmeer",
    "fullwidth \uff21\uff22\uff23 \uff11\uff12 ideographic\u3000space",
    "C1 controls \x85 \x91quoted\x92 \x96 dash",
    "separators \u2028 and \u2029 inside",
    "control \x07 chars \x1b[31mred\x1b[0m and bom \ufeff and \ufffc",
    "lone surrogate \ud83d here and pair \ud83d\ude00",
    "arabic \u0645\u0631\u062d\u0628\u0627 \u00d8\u00b9\u00d9\u0084 and Greek \u0391\u03b8\u03ae\u03bd\u03b1",
    "cyrillic \u041c\u043e\u0441\u043a\u0432\u0430 \u0432\u0402\u045a mojibake",
    "no\u00a0break\u00a0spaces and thin\u2009space \u202fnarrow",
    "emoji \U0001f600 and CJK \u4e2d\u6587 text",
    "\u00c3 at start",
    "x \u00c2 \u201c after A-circumflex",
    "degrees 20\u00b0C and \u00d7\u00b2 maths",
    "\u00c2\u00a3100 and \u00e2\u20ac\u201c dash mojibake",
    "Turkish \u0130stanbul \u015fehir \u011f",
    "Vietnamese Vi\u1ec7t Nam ti\u1ebfng",
]


def _sample_lines(n_pages: int = 60, per_page: int = 25) -> list[str]:
    if not DEVSET.exists():
        return []
    rng = random.Random(11)
    out = []
    with gzip.open(DEVSET, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    for p in rng.sample(pages, min(n_pages, len(pages))):
        non_ascii = [ln for ln in L.split_lines(p["text"]) if ln and not ln.isascii()]
        for ln in rng.sample(non_ascii, min(per_page, len(non_ascii))):
            out += [ln, mojibake(ln)]
    return out


@pytest.mark.parametrize("keep_curly", [False, True])
def test_gate_equals_fix_text_on_edge_cases(keep_curly):
    for line in EDGE_CASES + [mojibake(x) for x in EDGE_CASES if "\ud83d" not in x]:
        assert L._repair(line, keep_curly) == ftfy.fix_text(line, uncurl_quotes=not keep_curly), repr(line)


@pytest.mark.parametrize("keep_curly", [False, True])
def test_gate_equals_fix_text_on_dev_page_lines(keep_curly):
    sample = _sample_lines()
    if not sample:
        pytest.skip("dev pages not available")
    diffs = [ln for ln in sample if L._repair(ln, keep_curly) != ftfy.fix_text(ln, uncurl_quotes=not keep_curly)]
    assert not diffs, diffs[:3]


# Characters the gate treats specially, mixed with plain letters and spaces.
_ALPHABET = st.sampled_from(
    list("aeA Z.,'\"&;#") + ["amp", "39", "x2019", "eacute", "lt", "\u2019", "\u2018", "\u201c", "\u201d", "\u02bc", "\u2014", "\u2026", "\u00a0", "\u00e9",
                            "\u00c3", "\u00c2", "\u00e2", "\u20ac", "\u2122", "\u00a9", "\u0301", "\ufb01", "\uff21",
                            "\x85", "\x92", "\u2028", "\ufeff", "\u00d8", "\u00b0", "\u0432", "\u0402", "\u00bd"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=24).map("".join), st.booleans())
def test_gate_equals_fix_text_on_generated_lines(line, keep_curly):
    assert L._repair(line, keep_curly) == ftfy.fix_text(line, uncurl_quotes=not keep_curly)


def test_space_folding_matches_the_plain_pattern():
    for line in ["a  b", " a\tb ", "a\u00a0\u00a0b", "a \u2009 b", "a b c", "\u3000x", "x\ufeff"]:
        assert L._SPACES_TO_FOLD.sub(" ", line) == L._SPACES.sub(" ", line)


# The gated mojibake test (newsclean.cleaners.lines.has_mojibake) answers as ftfy.badness.is_bad does: the
# normalisation asks it of lines, the articles schema's text_is_clean check of whole texts.
@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET | st.characters(min_codepoint=0x80, max_codepoint=0x2fff), max_size=40).map("".join))
def test_gated_mojibake_test_equals_is_bad_on_generated_texts(text):
    assert L.has_mojibake(text) == ftfy.badness.is_bad(text)


def test_gated_mojibake_test_equals_is_bad_on_edge_cases_and_dev_lines():
    texts = EDGE_CASES + [mojibake(x) for x in EDGE_CASES if "\ud83d" not in x] + _sample_lines()
    texts.append("\n\n".join(texts))  # a whole text as the schema sees it
    assert [L.has_mojibake(t) for t in texts] == [ftfy.badness.is_bad(t) for t in texts]


# The batch's scans (newsclean.cleaners.lines.line_forms_many): the lines normalise_lines gives from them
# are the lines it gives one by one, for every kind of text a batch holds side by side.
def _batch_texts() -> list[str]:
    texts = ["plain ascii\n\nonly", "ascii with an entity &amp; here\nand caf\u00e9", "lone \ud83d surrogate \u2019s line\nnext",
             "\n".join(EDGE_CASES), "\n".join(mojibake(x) for x in EDGE_CASES if "\ud83d" not in x),
             "quotes \u201conly\u201d\r\nand\u00a0no-break\u2009spaces \u3000 here\rcaf\u0065\u0301 decomposed",
             "\u00c2\u00a0at a line start\n\u00c2 again\nx\u00a0\u0301 combining after a space"]
    sample = _sample_lines(n_pages=20, per_page=40)
    texts += ["\n".join(sample[k:k + 30]) for k in range(0, len(sample), 30)]
    return texts


@pytest.mark.parametrize("keep_curly", [False, True])
def test_batch_scans_give_the_same_lines(keep_curly):
    texts = _batch_texts()
    forms = L.line_forms_many(texts, keep_curly)
    assert sum(f is not None for f in forms) >= 5  # the scans serve most texts (not ASCII, surrogate or entity ones)
    assert forms[0] is None and forms[1] is None and forms[2] is None
    for text, f in zip(texts, forms):
        assert L.normalise_lines(text, keep_curly, f) == L.normalise_lines(text, keep_curly), repr(text[:80])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_ALPHABET | st.sampled_from(["\n", "\r\n", " ", "\t", "\u3000"]), max_size=30).map("".join),
                min_size=1, max_size=4), st.booleans())
def test_batch_scans_give_the_same_lines_on_generated_texts(texts, keep_curly):
    for text, f in zip(texts, L.line_forms_many(texts, keep_curly)):
        assert L.normalise_lines(text, keep_curly, f) == L.normalise_lines(text, keep_curly)
