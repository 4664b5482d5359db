"""Cheap shape facts about a line of text, shared by the rules and the decision step."""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence

# A compact English function-word list: headlines and sentences have them, tag lists and menus don't.
STOP_WORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too very can will
    just should now is are was were be been being have has had having do does did doing i me my we our you
    your he him his she her it its they them their what which who whom this that these those am would could
    as until while than s t don""".split()
)


def _load_function_words(name: str) -> frozenset[str]:
    path = Path(__file__).with_name(name)
    return frozenset(w for w in path.read_text(encoding="utf-8").split("\n") if w and not w.startswith("#"))


# Function words of 13 languages (jusText's stop lists, cleaners/stopwords.txt): the line model's
# stop-word features count these.
MULTILINGUAL_FUNCTION_WORDS = _load_function_words("stopwords.txt")
# The same plus the English list above and the short function words of 27 more Latin-script
# languages (Polish, Czech, Hungarian, Finnish, Turkish...; cleaners/prose_function_words.txt): the
# language-neutral test of prose. A German or Polish sentence has as many function words as an
# English one, none of them English; without its language's list it reads as a menu, and an article
# with no "sentence" has no body.
FUNCTION_WORDS = STOP_WORDS | MULTILINGUAL_FUNCTION_WORDS | _load_function_words("prose_function_words.txt")
PROSE_FUNCTION_SHARE = 0.1  # prose has more than this share of function words

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


@lru_cache(maxsize=1)
def combining_marks() -> str:
    """The combining marks of the Basic Multilingual Plane (Unicode categories Mn, Mc, Me) as the
    body of a regex character class (built on first need: a walk over the plane, ~5 ms)."""
    ranges: list[tuple[int, int]] = []
    for cp in range(0x10000):
        if unicodedata.category(chr(cp))[0] == "M":
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


@lru_cache(maxsize=1)
def _mark_patterns() -> tuple[re.Pattern, re.Pattern]:
    """(any combining mark, WORD with combining marks inside words)."""
    marks = combining_marks()
    return (re.compile(f"[{marks}]"),
            re.compile(rf"[^\W_](?:[^\W_]|[{marks}])*(?:['’][^\W_](?:[^\W_]|[{marks}])*)*"))


# Python's \w leaves combining marks out, so a Devanagari, Bengali or Tamil word would split at each
# vowel sign and virama ("नमस्ते" into "नमस", "त"). Lines are NFC (newsclean.cleaners.lines), so a Latin letter's
# accent is part of it already and most lines hold no mark: the plain pattern serves them.
def word_pattern(text: str) -> re.Pattern:
    """The pattern that finds the words of `text` (WORD, or the same with combining marks inside words
    when the text holds any)."""
    if text.isascii():
        return WORD
    mark, with_marks = _mark_patterns()
    return with_marks if mark.search(text) else WORD


_WORDS_CACHE: dict[str, tuple[str, ...]] = {}
_WORDS_CACHE_MAX = 50_000


def words(text: str) -> tuple[str, ...]:
    """The words of a line. Memoised: the rules, the decision step and its later passes ask for the
    words of the same lines many times. A tuple (shared, immutable): the garbage collector stops
    tracking a tuple of strings, so a full cache costs its collections nothing."""
    ws = _WORDS_CACHE.get(text)
    if ws is None:
        if len(_WORDS_CACHE) >= _WORDS_CACHE_MAX:
            _WORDS_CACHE.clear()
        ws = _WORDS_CACHE[text] = tuple(word_pattern(text).findall(text))
    return ws


def n_words(text: str) -> int:
    return len(text.split())


def has_word_char(text: str) -> bool:
    """A letter or digit anywhere: the text says something ("*", "* * *", "|" do not)."""
    return any(c.isalnum() for c in text)


_CLOSERS = "'\"’”)]」』"
# Sentence-final marks: the characters of the Basic Multilingual Plane with Unicode's
# Sentence_Terminal property (". ! ?", the CJK full stops, Arabic and Urdu, the Devanagari danda,
# Armenian, Ethiopic, Myanmar, Khmer, Mongolian...; tests/test_multilingual.py checks the list
# against the property) and the ellipsis.
_TERMINALS = frozenset(
    "!.?\u0589\u061d\u061e\u061f\u06d4\u0700\u0701\u0702\u07f9\u0837\u0839\u083d\u083e"
    "\u0964\u0965\u104a\u104b\u1362\u1367\u1368\u166e\u1735\u1736\u17d4\u17d5\u1803\u1809"
    "\u1944\u1945\u1aa8\u1aa9\u1aaa\u1aab\u1b4e\u1b4f\u1b5a\u1b5b\u1b5e\u1b5f\u1b7d\u1b7e"
    "\u1b7f\u1c3b\u1c3c\u1c7e\u1c7f\u2024\u203c\u203d\u2047\u2048\u2049\u2cf9\u2cfa\u2cfb"
    "\u2e2e\u2e3c\u2e53\u2e54\u2e60\u2e61\u3002\ua4ff\ua60e\ua60f\ua6f3\ua6f7\ua876\ua877"
    "\ua8ce\ua8cf\ua92f\ua9c8\ua9c9\uaa5d\uaa5e\uaa5f\uaaf0\uaaf1\uabeb\ufe12\ufe15\ufe16"
    "\ufe52\ufe56\ufe57\uff01\uff0e\uff1f\uff61"
    "\u2026"
)
TERMINAL = re.compile("[" + re.escape("".join(sorted(_TERMINALS))) + "][" + re.escape(_CLOSERS) + "]*$")


# Thai and Lao mark no sentence end (a space separates sentences): a long enough line ending in one
# of their letters can be prose.
_UNMARKED_SCRIPTS = ("\u0e00", "\u0eff")


def _ends_in_unmarked_script(text: str) -> bool:
    t = text.rstrip(_CLOSERS)
    return bool(t) and _UNMARKED_SCRIPTS[0] <= t[-1] <= _UNMARKED_SCRIPTS[1]


def ends_sentence(text: str) -> bool:
    # Same as bool(TERMINAL.search(text)) without scanning the line: strip the closing quotes and
    # brackets and look at the last character ("$" also matches before one final newline).
    if text.endswith("\n"):
        return bool(TERMINAL.search(text))
    t = text.rstrip(_CLOSERS)
    return bool(t) and t[-1] in _TERMINALS


def stop_share(ws: Sequence[str], vocabulary: frozenset[str] = STOP_WORDS) -> float:
    """Share of English function words (or of `vocabulary`'s words) among `ws`."""
    return sum(map(vocabulary.__contains__, map(str.lower, ws))) / len(ws) if ws else 0.0


def is_capitalised(word: str) -> bool:
    return word[:1].isupper()


def content_words(text: str) -> list[str]:
    """Lower-cased words of 3+ letters that are not function words: the article's topic vocabulary."""
    return content_of(word_pattern(text).findall(text))


def content_of(ws: Iterable[str]) -> list[str]:
    """content_words of a text whose words (`words`) are known."""
    return [w for w in (x.lower() for x in ws) if len(w) > 2 and w not in STOP_WORDS and not w.isdigit()]


def topic_similarity(texts_a: Iterable[str], texts_b: Iterable[str]) -> float:
    """Cosine of the content-word counts of two runs of text (0..1): how much they are about the
    same thing. 0 when either has no content word."""
    a = Counter(w for t in texts_a for w in content_words(t))
    b = Counter(w for t in texts_b for w in content_words(t))
    dot = sum(n * b[w] for w, n in a.items() if w in b)
    norm = math.sqrt(sum(n * n for n in a.values()) * sum(n * n for n in b.values()))
    return dot / norm if norm else 0.0


def is_sentence_like(text: str, min_words: int = 6, *, text_words: Sequence[str] | None = None) -> bool:
    """Prose: enough words, some function words (of any of FUNCTION_WORDS' languages), and a
    terminal punctuation mark (in Thai and Lao, which have none, a final letter of their script).
    `text_words`: words(text), when the caller has them already."""
    if not ends_sentence(text) and not _ends_in_unmarked_script(text):  # cheapest tests first
        return False
    return is_prose_worded(text, min_words, text_words=text_words)


def is_prose_worded(text: str, min_words: int = 6, *, text_words: Sequence[str] | None = None) -> bool:
    """Worded like prose (is_sentence_like without the terminal mark): enough words and some
    function words. A standfirst often ends with no full stop."""
    facts = _PROSE_FACTS.get(text)  # the decision step asks again for every line in every pass
    if facts is None:
        if len(_PROSE_FACTS) >= _WORDS_CACHE_MAX:
            _PROSE_FACTS.clear()
        facts = _PROSE_FACTS[text] = _prose_facts(text, text_words)
    unspaced, size, share = facts
    if unspaced:  # Chinese, Japanese, Thai: a "word" is a run of characters
        return size >= UNSPACED_CHARS_PER_WORD * min_words
    # Cyrillic, Greek, Arabic, Hebrew, Indic...: FUNCTION_WORDS has no list for them (share None):
    # length and the terminal mark decide
    return size >= min_words and (share is None or share > PROSE_FUNCTION_SHARE)


_PROSE_FACTS: dict[str, tuple[bool, int, float | None]] = {}


def remember_ascii_prose(texts: Sequence[str], n_words: Sequence[int | None], n_function: Mapping[int, int]) -> None:
    """Take the prose facts of ASCII texts from words counted elsewhere (a batch's columnar first
    look, newsclean.cleaners.engine.rule_conditions.first_look): by a text's position in `texts`, how
    many of its words are FUNCTION_WORDS (`n_function`, for the texts counted) and its words
    (`n_words`: len(words(text)), counted for every text `n_function` holds).
    The same facts _prose_facts finds: an ASCII text is Latin script, and its share is that count
    over its words."""
    facts = {texts[k]: (False, n_words[k], f / n_words[k] if n_words[k] else 0.0) for k, f in n_function.items()}
    if len(_PROSE_FACTS) + len(facts) > _WORDS_CACHE_MAX:
        _PROSE_FACTS.clear()
    _PROSE_FACTS.update(facts)


def _prose_facts(text: str, ws: Sequence[str] | None = None) -> tuple[bool, int, float | None]:
    """What is_sentence_like weighs, by text: (unspaced script, its size: words or, unspaced,
    characters of words, share of FUNCTION_WORDS or None where the script has no list).
    `ws`: words(text), when the caller has them."""
    if ws is None:
        ws = words(text)
    script = "latin" if text.isascii() else _script(text)
    if script == "latin":
        return False, len(ws), stop_share(ws, FUNCTION_WORDS)
    if script == "unspaced":
        return True, sum(map(len, ws)), None
    return False, len(ws), None


UNSPACED_CHARS_PER_WORD = 3  # characters of an unspaced script that count as one word of prose
_UNSPACED = ((0x0E00, 0x0E7F), (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))  # not Hangul: Korean spaces its words


LATIN, UNSPACED, OTHER = 0, 1, 2


def letter_script(ch: str) -> int:
    """LATIN, UNSPACED or OTHER for one letter."""
    cp = ord(ch)
    if cp < 0x250 or 0x1E00 <= cp < 0x1F00:
        return LATIN
    return UNSPACED if any(lo <= cp <= hi for lo, hi in _UNSPACED) else OTHER


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_LETTER = re.compile(r"[A-Za-z]")  # the ASCII characters str.isalpha accepts


def _script(text: str) -> str:
    """"latin", "unspaced" (Chinese, Japanese, Thai: most letters in those blocks) or "other" (any other script
    making up most letters)."""
    rest = "".join(_NON_ASCII.findall(text))  # the letters below are counted in one pass over these
    if not any(map(str.isalpha, rest)):
        return "latin"  # no letter outside ASCII: only Latin ones (the same result, no loop)
    counts = [len(_ASCII_LETTER.findall(text)), 0, 0]  # an ASCII letter counts as Latin
    for ch in rest:
        if ch.isalpha():
            counts[letter_script(ch)] += 1
    latin, unspaced, other = counts
    if latin >= unspaced + other:
        return "latin"
    return "unspaced" if unspaced >= other else "other"


# A list item's bullet as text renderers write it (inscriptis, lynx, html2text: "* ", "+ ", and "o " on
# nested items; "•", "▪", "◦", "‣", "·", "-", "–"): a headline never opens with one.
LIST_BULLET = re.compile(r"[*+o\u2022\u25aa\u25e6\u2023\u00b7\u2013-] ")


PARAGRAPH_WORDS = 25  # longer than any headline of the dev pages (23 words at most)
_SENTENCE_THEN_MORE = re.compile(r"[.!?…][\"'’”)\]]*\s+\S")


def is_paragraph(text: str) -> bool:
    """More than PARAGRAPH_WORDS words and a sentence that ends before the line does: a paragraph of
    prose, never a headline, even when it does not end in a full stop (a lede that closes on a
    quoted fragment)."""
    return len(text.split()) > PARAGRAPH_WORDS and _SENTENCE_THEN_MORE.search(text) is not None


def is_headline_shaped(text: str, n_words: int | None = None) -> bool:
    """A headline: 4-30 words, starts with a capital or digit, no sentence-final full stop, not a
    paragraph of several sentences. `n_words`: len(words(text)), when the caller has it."""
    if not (text[:1].isupper() or text[:1].isdigit() or text[:1] in "'\"") or text.rstrip("'\"”’").endswith("."):
        return False  # cheap tests first; the result is the same
    return 4 <= (len(words(text)) if n_words is None else n_words) <= 30 and not is_paragraph(text)


def is_title_cased_short(text: str) -> bool:
    """A short heading: 2-3 words, each capitalised (or a digit), no sentence mark at the end."""
    ws = words(text)
    return 2 <= len(ws) <= 3 and not ends_sentence(text) and all(is_capitalised(w) or w[:1].isdigit() for w in ws)


def is_short_heading(text: str) -> bool:
    """2-3 words, the first capitalised, no sentence mark at the end: a heading in sentence case."""
    ws = words(text)
    return 2 <= len(ws) <= 3 and is_capitalised(ws[0]) and not ends_sentence(text)


def _word_forms(word: str) -> set[str]:
    """A lower-case word with a plural or third-person "-s"/"-es" folded ("buses" -> "bus", "expands"
    -> "expand"): enough to match a headline's words with the article's."""
    forms = {word}
    if word.endswith("s"):
        forms.add(word[:-1])
        if word.endswith("es"):
            forms.add(word[:-2])
    return forms


def names_only(text: str, body: Iterable[str], min_words: int = 2) -> bool:
    """Whether `text` has at least `min_words` content words and the body uses every one of them
    (plurals and "-s" forms folded): a line about the article, not a label of the page."""
    ws = content_words(text)
    if len(ws) < min_words:
        return False
    vocabulary = {f for t in body for w in content_words(t) for f in _word_forms(w)}
    return all(_word_forms(w) & vocabulary for w in ws)


# Han, kana and Hangul: scripts with no letter case whose characters (Han, kana) or syllables
# (Hangul) carry meaning, so two in a row say what a text is about as a word does elsewhere.
_CJK_CLASS = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
_CJK = re.compile(_CJK_CLASS)
_CJK_RUN = re.compile(_CJK_CLASS + "{2,}")
CJK_HEADING_CHARS = (4, 40)  # a headline's length in those characters


def _cjk_bigrams(text: str) -> set[str]:
    return {run[i:i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1)}


def is_cjk_heading_of(text: str, body: Iterable[str], min_share: float = 0.5) -> bool:
    """A short line in Chinese, Japanese or Korean that reads as the headline of `body`: 4-40 of
    those characters, most of the line, no sentence mark at the end, and at least `min_share` of
    its character pairs in the body ("市议会投票扩大公交网络" over "市议会周二投票决定将公交网络扩展…";
    a menu's "最新新闻" shares one pair of three). Where words are not separated by spaces, the
    word tests of is_short_heading and names_only see one word."""
    n_cjk = len(_CJK.findall(text))
    letters = sum(c.isalpha() for c in text)
    lo, hi = CJK_HEADING_CHARS
    if not lo <= n_cjk <= hi or n_cjk < 0.8 * max(letters, 1) or ends_sentence(text):
        return False
    pairs = _cjk_bigrams(text)
    if len(pairs) < 3:
        return False
    body_pairs = set().union(*(_cjk_bigrams(t) for t in body))
    return len(pairs & body_pairs) >= min_share * len(pairs)


TITLE_CASE_SHARE = 0.8  # of the longer words capitalised: a heading's style, not a sentence's


def is_title_cased(text: str) -> bool:
    """Most longer words (4+ letters) capitalised, at least 3 of them: "What Are The Best Phone
    Plans?" is a heading even though it ends like a sentence; "Have you ever wondered why?" is not."""
    long_words = [w for w in words(text) if len(w) > 3]
    return len(long_words) >= 3 and sum(map(is_capitalised, long_words)) >= TITLE_CASE_SHARE * len(long_words)


class _FoldTable(dict):
    """str.translate table, filled on first sight of each character: punctuation and symbols -> space."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        value = self[code] = " " if unicodedata.category(ch)[0] in "PS" else ch
        return value


_FOLD_TABLE = _FoldTable()


_FOLD_CACHE: dict[str, str] = {}


def fold(text: str | None) -> str:
    """Lower case, NFKC, punctuation and symbols as spaces, spaces folded: the form in which
    headlines and titles are compared. Memoised like words(): the decision step folds every kept
    line again in each pass (its repeat key)."""
    if not text:
        return ""
    folded = _FOLD_CACHE.get(text)
    if folded is None:
        if len(_FOLD_CACHE) >= _WORDS_CACHE_MAX:
            _FOLD_CACHE.clear()
        folded = _FOLD_CACHE[text] = " ".join(unicodedata.normalize("NFKC", text).lower().translate(_FOLD_TABLE).split())
    return folded


def clear_caches() -> None:
    """Forget every text's memoised words, prose facts and folded form (benchmarks that must see
    each page as new, as a corpus does)."""
    for cache in (_WORDS_CACHE, _PROSE_FACTS, _FOLD_CACHE):
        cache.clear()


REPEAT_MIN_WORDS = 12  # a body paragraph this long seen again in the same body is a duplicate


def repeat_key(text: str) -> str | None:
    """The key under which a paragraph printed twice on a page (a template's mobile and desktop
    copies, a sticky box, a pull quote repeating its sentence) is found again: the folded text of
    a paragraph of REPEAT_MIN_WORDS words or more; None for shorter lines, which recur by nature
    ("Read more", a subheading echoed in a table of contents)."""
    key = fold(text)
    return key if key.count(" ") + 1 >= REPEAT_MIN_WORDS else None
