"""The mojibake test without ftfy's slow search: newsclean.cleaners.lines translates ftfy.badness.BADNESS_RE into
a pattern with explicit code point classes, which RE2 runs for one text (has_mojibake) and polars for a
column (has_mojibake_many, the articles schema's text_is_clean). Both answer exactly as
ftfy.badness.is_bad does; a pattern the translation cannot write stops the run."""
from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path
from re import _constants as C, _parser as P

import ftfy
import ftfy.bad_codecs  # noqa: F401  (registers the sloppy-windows-* codecs ftfy's repairs know)
import pandas as pd
import polars as pl
import pytest
import re2
from ftfy.badness import BADNESS_RE, is_bad
from ftfy.chardata import CHARMAP_ENCODINGS
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners import lines as L
from newsclean.cleaners.upstream import UpstreamMismatch
from newsclean.schemas.tables import MOJIBAKE, NO_BREAK_SPACE, Articles, text_problem, text_problems
from tests.conftest import GOLDEN, SEEDS_RAW

DATA = Path(__file__).parent / "data"


def assert_answers_as_is_bad(texts: list[str]) -> int:
    """has_mojibake_many over `texts` and has_mojibake of each give is_bad's answers; how many are True."""
    expected = [is_bad(t) for t in texts]
    many, one = L.has_mojibake_many(texts), [L.has_mojibake(t) for t in texts]
    wrong = [(t, e) for t, e, m, o in zip(texts, expected, many, one) if not e == m == o]
    assert not wrong, wrong[:5]
    return sum(expected)


def with_lines(texts: list[str]) -> list[str]:
    return texts + [line for t in texts for line in L.split_lines(t)]


def seed_texts() -> list[str]:
    raw = [p.read_text(encoding="utf-8") for p in sorted(SEEDS_RAW.glob("*.txt"))]
    cleaned = [json.loads(r)["text"] for r in GOLDEN.read_text(encoding="utf-8").splitlines()]
    return raw + cleaned


def repo_texts() -> list[str]:
    """The seeds, the news layouts and the dev subset's page texts and bodies (all in the repository)."""
    layouts = [p.read_text(encoding="utf-8") for p in sorted((DATA / "news_layouts").glob("*.txt"))]
    with gzip.open(DATA / "devset_subset" / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    return seed_texts() + layouts + [p[k] for p in pages for k in ("text", "truth")]


# ---- (a) the seeds and the texts the repository holds, whole and line by line

def test_seed_texts_and_their_lines():
    texts = with_lines(seed_texts())
    assert len(texts) > 100
    assert_answers_as_is_bad(texts)


def test_repository_texts_and_their_lines():
    assert_answers_as_is_bad(with_lines(repo_texts()))


# ---- (b) what ftfy's own codecs make of text (mojibake) and what its fixers make of that

PHRASES = ["It’s a “test” — café © 2018 … €5 ½ price • °C", "مرحبا بالعالم", "Καλημέρα κόσμε", "Привет, мир",
           "नमस्ते दुनिया", "你好，世界", "Zażółć gęślą jaźń", "Čeština ěščřžýáíé", "Türkçe İstanbul ğüşöç", "Tiếng Việt",
           "À la façon de l’œuvre, «\u00a0guillemets\u00a0»", "Straße über Ärger – „Zitat“"]


def _ftfy_made_lines() -> list[str]:
    rng = random.Random(7)
    sources = [line for t in repo_texts() for line in L.split_lines(t) if line and not line.isascii()]
    sources = PHRASES + rng.sample(sources, min(80, len(sources)))
    made = []
    for line in sources:
        for encoding in CHARMAP_ENCODINGS:
            bad = line.encode("utf-8").decode(encoding, errors="replace")
            twice = bad.encode("utf-8").decode(encoding, errors="replace")
            made += [bad, twice, ftfy.fix_text(bad), ftfy.fix_encoding(twice), ftfy.fix_text(twice)]
    return made


def test_texts_ftfy_codecs_make_and_fixers_repair():
    made = _ftfy_made_lines()
    flagged = assert_answers_as_is_bad(with_lines(made + ["\n".join(made)]))
    assert flagged > len(made) // 5  # mojibake is there to be found, and so are its repairs


# ---- (c) generated strings from the characters BADNESS_RE names, near-misses and other scripts

def _named_chars() -> list[str]:
    """Every character BADNESS_RE names: its literals and the members of its classes' ranges."""
    named = set()

    def walk(nodes):
        for op, av in nodes:
            if op is C.LITERAL:
                named.add(av)
            elif op is C.IN:
                for item, value in av:
                    if item is C.LITERAL:
                        named.add(value)
                    elif item is C.RANGE:
                        named.update(range(value[0], value[1] + 1))
            elif op is C.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op is C.MAX_REPEAT:
                walk(av[2])

    walk(P.parse(BADNESS_RE.pattern, BADNESS_RE.flags))
    return sorted(map(chr, named))


# Where Python's \s, \w and "." differ from RE2's and Rust's (\x1c is a space to Python, U+0301 a word
# character to Rust), the multi-character sequences BADNESS_RE spells out, and other scripts.
_NEAR_MISSES = ["\x1c", "\x1f", "\x85", "\u2028", "\u3000", "\u200b", "\u180e", "\n", "\r", "\t", " ", "_",
                "\u0301", "\u0903", "\u200d", "\u203f", "①", "²", "Ⅰ"]
_SEQUENCES = ["â€", "Ã©", "Ã‚Â", "Ø§Ù„", "вЂ", "ГўВЂВ", "‚Ä", "β€", "ā€", "√", "≈"]
_OTHER = ["ا", "א", "न", "中", "😀", "ﬁ", "Ａ", "ệ"]
_DRAWN = _named_chars() + _NEAR_MISSES + _SEQUENCES + _OTHER + list("aeiozAEZ.,?!1 ")
_TEXTS = st.lists(st.sampled_from(_DRAWN), max_size=16).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TEXTS, min_size=1, max_size=6))
def test_generated_texts(texts):
    assert_answers_as_is_bad(texts + ["\n".join(texts)])


def test_generated_texts_hold_matches_and_near_misses():
    """The generated texts are not all one answer: the same alphabet gives both, often."""
    rng = random.Random(3)
    texts = ["".join(rng.choices(_DRAWN, k=rng.randrange(2, 8))) for _ in range(3000)]
    flagged = assert_answers_as_is_bad(texts)
    assert 0.1 * len(texts) < flagged < 0.9 * len(texts)


# ---- (d) known mojibake, and text that looks like it but is not

MOJIBAKE_TEXTS = ["â€™", "Ã©", "Ã‚Â", "Ø§Ù„", "Ø§Ù„Ø¹Ø±Ø¨ÙŠØ©", "Ã¼ber", "Ã¢â‚¬â„¢", "вЂ™", "Â£100", "Ã ",
                  "a Â ", "β€™", "ā€", "à²", "√±", "‚Äô", "Ã˜",
                  # Python's \s, \w and ".", not RE2's or Rust's: \x1c is a space, ① a word character,
                  # "." stops at a line feed only
                  "\x1cÇ£", "é”①", "ГўВЂВ\rx", "Œ\n"]
LOOK_ALIKES = ["café", "naïve", "Ørsted", "São Paulo", "Â", "€5", "½ cup", "Москва", "Ελλάδα", "20°C", "×2",
               "√2 ≈ 1.41", "Œuvre", "Straße", "İstanbul", "â„¢", "ГўВЂВa", "1Ç£",
               # near-misses that only Python's \s, \w and "." rule out
               "\u200bÇ£", "é“\u0301", "é“\u203f", "é“\u200d", "ГўВЂВ\nx", "1\u200bÃ "]


def test_known_mojibake_and_look_alikes():
    texts = MOJIBAKE_TEXTS + LOOK_ALIKES
    assert [is_bad(t) for t in texts] == [True] * len(MOJIBAKE_TEXTS) + [False] * len(LOOK_ALIKES)
    assert assert_answers_as_is_bad(texts) == len(MOJIBAKE_TEXTS)
    assert_answers_as_is_bad(["x" * 5000 + t + "y" * 5000 for t in texts])  # inside long texts


# ---- (e) texts neither engine can take: a lone surrogate goes to is_bad itself

def test_a_lone_surrogate_is_asked_of_is_bad(monkeypatch):
    asked = []
    monkeypatch.setattr(L, "is_bad", lambda text: asked.append(text) or is_bad(text))
    texts = ["cafÃ© \ud83d", "plain \ud83d text", "cafÃ©", "café", "ascii", "\udc00Ã©"]
    assert L.has_mojibake_many(texts) == [True, False, True, False, False, True]
    assert sorted(asked) == sorted([texts[0], texts[1], texts[5]])
    assert [L.has_mojibake(t) for t in texts] == [True, False, True, False, False, True]
    assert text_problems(texts) == [MOJIBAKE, None, MOJIBAKE, None, None, MOJIBAKE]


# ---- the translation itself

def test_the_classes_are_pythons_own():
    """\\w, \\s, "." and a negated class written out match, in polars and in RE2, exactly the code points
    Python's own engine matches (every one but the surrogates, which no UTF-8 text holds)."""
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    column = pl.Series(chars, dtype=pl.String)
    every = "".join(chars)
    for source in (r"\w", r"\s", r"\W", ".", "[^A-Za-z]"):
        python = re.compile(source).fullmatch
        expected = [python(ch) is not None for ch in chars]
        explicit = L._explicit_pattern(re.compile(source))
        assert column.str.contains(explicit).to_list() == expected, source
        # RE2 by runs of matching characters: a million calls would take long
        runs = [m.span() for m in re.finditer("1+", "".join("1" if hit else "0" for hit in expected))]
        assert [m.span() for m in re2.compile("(?:" + explicit + ")+").finditer(every)] == runs, source


def test_badness_re_is_translated_and_other_constructs_stop_the_run():
    assert L.mojibake_pattern() == L._explicit_pattern(BADNESS_RE)
    for pattern in (re.compile("a(?=b)"), re.compile("(?<=a)b"), re.compile(r"\bword"), re.compile("end$"),
                    re.compile(r"(a)\1"), re.compile("(?>ab)"), re.compile("a*+"), re.compile("a", re.IGNORECASE),
                    re.compile("^a", re.MULTILINE), re.compile("a.b", re.DOTALL), re.compile("[\ud800-\udfff]")):
        with pytest.raises(UpstreamMismatch, match=r"^ftfy .*BADNESS_RE has .*cannot write for RE2 and polars"):
            L._explicit_pattern(pattern)


def test_an_untranslatable_badness_re_stops_the_column_check(monkeypatch):
    monkeypatch.setattr(L, "BADNESS_RE", re.compile("é(?=€)"))
    L.mojibake_pattern.cache_clear()
    try:
        with pytest.raises(UpstreamMismatch):
            L.has_mojibake_many(["café€"])
    finally:
        L.mojibake_pattern.cache_clear()


# ---- the articles schema's column check

def test_the_column_check_gives_text_problems_answers():
    values = ["fine text", "no\u00a0break", "cafÃ©", "café", None, 3.5, "Ã©\u00a0both", "cafÃ© \ud83d"]
    assert text_problems(values) == [text_problem(v) for v in values]
    assert text_problems(values) == [None, NO_BREAK_SPACE, MOJIBAKE, None, "not a string", "not a string",
                                     NO_BREAK_SPACE, MOJIBAKE]
    assert text_problems([]) == []
    column = pd.Series(values, index=range(10, 10 + len(values)))
    assert Articles._clean_text(column).to_dict() == {10 + k: p is None for k, p in enumerate(text_problems(values))}
