"""Vectorised line features for the debris model.

All features are general: shape (length, words, stop words, punctuation, capitalisation, digits),
patterns (URL, e-mail, date, time, byline, copyright), position, neighbours, fit to the document's
main body, corpus repetition, and a lexicon learned from the training labels (newsclean.cleaners.model.lexicon:
words that lean to debris or to body across many sites). Nothing is keyed to any page's wording.

Speed: a document is handled as one string. Character classes come from a lookup table over the
code points (numpy), summed per line with np.add.reduceat; tokens come from one regex pass over the
whole text; pattern counts from one finditer per pattern mapped to lines with searchsorted. The only
per-line Python is a few C-level string methods.
"""
from __future__ import annotations

import re
from collections import Counter
from itertools import chain, count, repeat
import unicodedata
from functools import lru_cache

import numpy as np

from newsclean.cleaners.corpus import DocContext
from newsclean.cleaners.metadata.urls import SLUG_SPLIT, slug_words
from newsclean.cleaners.rules.byline import byline_parts
from newsclean.cleaners.shape import LIST_BULLET, MULTILINGUAL_FUNCTION_WORDS, PARAGRAPH_WORDS, STOP_WORDS, is_paragraph

# ---------------------------------------------------------------- character classes
LETTER, UPPER, DIGIT, SPACE, PUNCT, SYMBOL, SENT_END, OTHER_LETTER, SEP, COMMA, COLON = (
    1 << i for i in range(11))
_PLANES = (LETTER, SPACE, UPPER, DIGIT, PUNCT, SYMBOL, OTHER_LETTER, SEP, COMMA, SENT_END)
_SENT_END_CHARS = ".!?\u2026\u3002\uff01\uff1f"
_SEP_CHARS = "|\u2022\u00b7\u00bb\u203a\u00ab\u2039/>\u25ba\u25b6\u2192\u00a6"


@lru_cache(maxsize=1)
def _lut() -> np.ndarray:
    t = np.zeros(0x10000, dtype=np.uint16)
    for cp in range(0x10000):
        cat = unicodedata.category(chr(cp))
        v = 0
        if cat[0] == "L":
            v |= LETTER
            if cat in ("Lu", "Lt"):
                v |= UPPER
            if cat == "Lo":
                v |= OTHER_LETTER
        elif cat == "Nd":
            v |= DIGIT
        elif cat[0] == "Z" or chr(cp).isspace():
            v |= SPACE
        elif cat[0] == "P":
            v |= PUNCT
        elif cat[0] == "S":
            v |= SYMBOL
        t[cp] = v
    for ch in _SENT_END_CHARS:
        t[ord(ch)] |= SENT_END
    for ch in _SEP_CHARS:
        t[ord(ch)] |= SEP
    for ch in ",\u060c\u3001":
        t[ord(ch)] |= COMMA
    for ch in ":\uff1a":
        t[ord(ch)] |= COLON
    return t


def stopwords() -> frozenset[str]:
    """The multilingual function words (cleaners/stopwords.txt, read once by newsclean.cleaners.shape)."""
    return MULTILINGUAL_FUNCTION_WORDS


@lru_cache(maxsize=1)
def _word_flags() -> dict[str, int]:
    """1 = stop word (of any language), 2 = month name, 4 = English function word
    (newsclean.cleaners.shape.STOP_WORDS); looked up once per distinct word of a document."""
    flags = dict.fromkeys(stopwords(), 1)
    for m in MONTHS:
        flags[m] = flags.get(m, 0) | 2
    for w in STOP_WORDS:
        flags[w] = flags.get(w, 0) | 4
    return flags


# ---------------------------------------------------------------- patterns
_MONTHS = (r"jan|feb|febr|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|"
           r"june|july|august|september|october|november|december|januar|februar|märz|mai|juni|juli|"
           r"oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|"
           r"novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|"
           r"octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|"
           r"ottobre|dicembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|"
           r"dezembro|mei|augustus")
MONTHS = frozenset(_MONTHS.split("|"))
# Run on the lower-cased "\n"-joined text. Each name is a few patterns that begin with a literal,
# which the regex engine scans for quickly (a leading class or look-behind is ~50x slower).
_TLD = r"(?:com|org|net|gov|edu|io|co|de|fr|es|it|uk)\b"
PATTERNS = {
    "url": [re.compile(r"\." + _TLD), re.compile("://"), re.compile(r"www\.")],
    "email": [re.compile(r"@[\w-]+\.\w")],
    "date": [re.compile(r"/\d{1,2}/\d"), re.compile(r"-\d{1,2}-\d"), re.compile(r"\.\d{1,2}\.\d"),
             re.compile(r"20\d\d\b"), re.compile(r"19\d\d\b")],
    "time": [re.compile(r":\d\d\b")],
    "byline": [re.compile(r"(?m)^(?:by|von|por|par|di|door|av|af|de) \w")],
    "copyright": [re.compile("\u00a9"), re.compile(r"\(c\) "), re.compile("copyright"),
                  re.compile("all rights reserved")],
    "number_only": [re.compile(r"(?m)^[^\w\n]*\d[\d\W_]*$")],
    "bullet": [re.compile(r"(?m)^[-*\u2022\u25aa\u25cf\u2013\u2014>\u00bb] ")],
}
_TOKEN_STRIP = re.compile(r"[^\w\s]+")


def line_tokens(line: str) -> list[str]:
    """One line's tokens as the features see them: lower case, punctuation runs as spaces."""
    return _TOKEN_STRIP.sub(" ", line.lower()).split()

# ---------------------------------------------------------------- feature names
BASE = [
    "n_chars", "n_words", "mean_word_len", "letter_ratio", "upper_ratio", "digit_ratio",
    "punct_ratio", "symbol_ratio", "other_letter_ratio", "sep_ratio", "comma_per_word",
    "n_sent_end", "ends_sent", "ends_colon", "ends_letter", "ends_digit", "starts_upper",
    "starts_digit", "starts_punct", "title_case_ratio", "n_stop", "stop_ratio",
    "url", "email", "date", "time", "byline", "copyright", "number_only", "bullet",
    "dup_in_doc", "fit_share", "fit_log", "freq_share",
    "df_log", "df_frac", "df_site_log", "df_site_frac",
    "lex_mean", "lex_max", "lex_min", "lex_known",
]
POSITION = [
    "rel_pos", "pos_from_start_log", "pos_from_end_log", "mass_before", "n_lines_log",
    "doc_words_log", "n_docs_log", "n_site_docs_log", "textual", "dist_prev_text_log",
    "dist_next_text_log", "inside_text_span", "text_mass_before", "text_mass_after",
    "text_win2", "text_win5", "text_win10", "dist_main_block",
    "seg3_share", "seg3_is_max", "seg3_rank", "seg3_after_max", "seg3_mass_larger_before",
    "seg6_share", "seg6_is_max", "seg6_after_max", "seg3_n_text", "gap_before_log", "gap_after_log",
    # the share of the page's tokens that are English function words: how far the page reads as
    # English, so that stage 2 can weigh the lines' word-list features by the page's language
    # (stage 1 is trained with it constant and never reads it: newsclean.cleaners.model.train)
    "doc_english_share",
]
NEIGHBOUR_BASE = ["n_words", "ends_sent", "stop_ratio", "fit_share", "df_log", "title_case_ratio",
                  "punct_ratio", "digit_ratio", "url", "date", "dup_in_doc", "sep_ratio", "lex_mean"]
NEIGHBOUR_SHIFTS = (-2, -1, 1, 2)
NEIGHBOUR = [f"{name}@{s:+d}" for s in NEIGHBOUR_SHIFTS for name in NEIGHBOUR_BASE]
FEATURE_NAMES = BASE + POSITION + NEIGHBOUR
_IDX = {n: i for i, n in enumerate(FEATURE_NAMES)}
_NB_SRC = [_IDX[name] for name in NEIGHBOUR_BASE]
_NB_DST = [_IDX[f"{NEIGHBOUR_BASE[0]}@{s:+d}"] for s in NEIGHBOUR_SHIFTS]


def _shift(a: np.ndarray, s: int, fill: float) -> np.ndarray:
    """out[i] = a[i + s] (neighbour at offset s), `fill` beyond the document."""
    out = np.full_like(a, fill)
    n = len(a)
    if abs(s) >= n:
        return out
    if s > 0:
        out[: n - s] = a[s:]
    elif s < 0:
        out[-s:] = a[: n + s]
    else:
        out[:] = a
    return out


def _window_sum(a: np.ndarray, w: int) -> np.ndarray:
    return _window_sums(a, (w,))[0]


def _window_sums(a: np.ndarray, ws: tuple[int, ...]) -> list[np.ndarray]:
    """Per line, the sum of `a` over the line and the w lines on each side (clipped at the
    document's ends), for each w in ws, from one cumulative sum along the last axis: `a` is one
    document's values, or one row of them per model (stage2_features_many)."""
    c = np.concatenate([np.zeros(a.shape[:-1] + (1,)), np.cumsum(a, axis=-1)], axis=-1)
    n = a.shape[-1]
    idx = np.arange(n)
    return [c[..., np.minimum(idx + w + 1, n)] - c[..., np.maximum(idx - w, 0)] for w in ws]


def _line_start_form(pattern: re.Pattern) -> tuple[re.Pattern, int]:
    """A "(?m)^X" pattern as "(?m)\\nX", searched in "\\n" + text: the same matches (X never spans a
    line start it could begin at without also spanning that "\\n"), found by a fast scan for the
    literal "\\n" instead of a try at every position. Returns (pattern, shift): a match's position in
    the searched text minus `shift` is its position in the text."""
    if pattern.pattern.startswith("(?m)^"):
        return re.compile("(?m)\n" + pattern.pattern[len("(?m)^"):], pattern.flags & ~re.UNICODE), 0
    return pattern, -1


# Per feature name, (pattern, shift) pairs (see _line_start_form): every pattern is searched in
# "\n" + lower-cased text.
_SEARCH = {name: [_line_start_form(p) for p in pats] for name, pats in PATTERNS.items()}
_SEARCH_NAMES = list(_SEARCH)


def _counts_per_line(pattern: re.Pattern, text: str, starts_nl: np.ndarray, n: int) -> np.ndarray:
    pos = [m.start() for m in pattern.finditer(text)]
    if not pos:
        return np.zeros(n)
    line = np.searchsorted(starts_nl, np.asarray(pos), side="right") - 1
    return np.bincount(line, minlength=n).astype(np.float64)


def _pattern_counts(lower: str, starts_nl: np.ndarray, n: int, skip_email: bool) -> np.ndarray:
    """Per PATTERNS name (rows, in order) and line (columns): how many matches its patterns have in
    the line; the same counts as summing _counts_per_line over a name's patterns, in one pass."""
    text = "\n" + lower
    pos: list[int] = []
    code: list[int] = []
    for k, name in enumerate(_SEARCH_NAMES):
        if skip_email and name == "email":
            continue
        for pat, shift in _SEARCH[name]:
            found = [m.start() + shift for m in pat.finditer(text)]
            if found:
                pos += found
                code += [k * n] * len(found)
    K = len(_SEARCH_NAMES)
    if not pos:
        return np.zeros((K, n))
    line = np.searchsorted(starts_nl, np.asarray(pos), side="right") - 1
    return np.bincount(line + np.asarray(code), minlength=K * n).reshape(K, n).astype(np.float64)


# Token lists by line text, of the last document scored: the decision step scores a document again
# after each pass that removes something (newsclean.cleaners.fixpoint), on mostly the same lines. (Only the
# last document's: a larger cache of lists makes every full garbage collection longer.)
_TOKENS_BY_LINE: dict[str, list[str]] = {}


def _line_token_lists(lines: list[str], lower: str) -> list[list[str]]:
    """Each line's tokens (lower case, punctuation runs as spaces, split on white space); `lower` is
    "\\n".join(lines).lower(). One regex pass over the text of the lines the last document scored did not hold. A line
    holding a "\\n" itself makes the text split into more pieces than lines, as it always did."""
    global _TOKENS_BY_LINE
    toks = list(map(_TOKENS_BY_LINE.get, lines))
    if None not in toks:
        return toks
    if lower.count("\n") != len(lines) - 1:
        return [s.split() for s in _TOKEN_STRIP.sub(" ", lower).split("\n")]
    missing = [i for i, t in enumerate(toks) if t is None]
    if len(missing) == len(lines):
        toks = [s.split() for s in _TOKEN_STRIP.sub(" ", lower).split("\n")]
    else:
        # str.lower of "\\n"-joined lines is the lines' lower() joined ("\\n" ends a final-sigma context)
        part = _TOKEN_STRIP.sub(" ", "\n".join([lines[i] for i in missing]).lower()).split("\n")
        for i, s in zip(missing, part):
            toks[i] = s.split()
    _TOKENS_BY_LINE = dict(zip(lines, toks))
    return toks


def put_shape_features(put, lens: np.ndarray, per_line, word_start_upper: np.ndarray, word_start_letter: np.ndarray,
                       last: np.ndarray, last2: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shape columns of BASE, written with put(name, values), from each line's length, its
    character-class counts (per_line(bit)), its word starts in upper case and on a letter, and the
    classes of its last, second-last and first characters. Returns (words, n_sent_end), which later
    features read. doc_features and the engine's batch_features both call it: one formula each."""
    lens_c = np.maximum(lens, 1)
    letters = per_line(LETTER)
    words = np.where(lens > 0, per_line(SPACE) + 1, 0)
    ends_sent = ((last & SENT_END) > 0) | (((last & PUNCT) > 0) & ((last2 & SENT_END) > 0) & (lens > 1))
    n_sent_end = per_line(SENT_END)
    put("n_chars", np.log1p(lens))
    put("n_words", words)
    put("mean_word_len", letters / np.maximum(words, 1))
    put("letter_ratio", letters / lens_c)
    put("upper_ratio", per_line(UPPER) / np.maximum(letters, 1))
    put("digit_ratio", per_line(DIGIT) / lens_c)
    put("punct_ratio", per_line(PUNCT) / lens_c)
    put("symbol_ratio", per_line(SYMBOL) / lens_c)
    put("other_letter_ratio", per_line(OTHER_LETTER) / lens_c)
    put("sep_ratio", per_line(SEP) / np.maximum(words, 1))
    put("comma_per_word", per_line(COMMA) / np.maximum(words, 1))
    put("n_sent_end", n_sent_end)
    put("ends_sent", ends_sent)
    put("ends_colon", (last & COLON) > 0)
    put("ends_letter", (last & LETTER) > 0)
    put("ends_digit", (last & DIGIT) > 0)
    put("starts_upper", (first & UPPER) > 0)
    put("starts_digit", (first & DIGIT) > 0)
    put("starts_punct", (first & (PUNCT | SYMBOL)) > 0)
    put("title_case_ratio", word_start_upper / np.maximum(word_start_letter, 1))
    return words, n_sent_end


def doc_features(lines: list[str], ctx: DocContext | None = None, keep: dict | None = None,
                 lexicon: dict[str, float] | None = None) -> np.ndarray:
    """Feature matrix (n_lines, len(FEATURE_NAMES)) float32 for one document's lines. With `keep`
    (a dict), the lines' tokens are left in keep["tokens"] for title_features. `lexicon`: the
    model's learned word log-odds of debris (newsclean.cleaners.model.lexicon); without one the lex_*
    features are 0."""
    n = len(lines)
    F = np.zeros((n, len(FEATURE_NAMES)), dtype=np.float32)
    if n == 0:
        return F
    if ctx is None:
        ctx = DocContext.empty(n)
    lut = _lut()
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=n)
    flat = "".join(lines)
    cps = np.frombuffer(flat.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    cls = lut[np.minimum(cps, 0xFFFF)]
    cls[cps > 0xFFFF] = OTHER_LETTER  # astral planes: emoji and rare scripts
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    nonempty = lens > 0
    safe_starts = np.minimum(starts, max(len(cls) - 1, 0))

    # every character class counted per line in one reduceat over a (chars, classes) bit matrix
    prev_space = np.concatenate([[True], (cls[:-1] & SPACE) > 0])
    prev_space[starts[nonempty]] = True
    planes = np.empty((len(_PLANES) + 2, len(cls)), dtype=np.uint8)  # one row per class: rows reduce faster
    for j, bit in enumerate(_PLANES):
        np.not_equal(cls & bit, 0, out=planes[j])
    np.bitwise_and(planes[_PLANES.index(UPPER)], prev_space, out=planes[-2])
    np.bitwise_and(planes[_PLANES.index(LETTER)], prev_space, out=planes[-1])
    if len(cls):
        counts = np.add.reduceat(planes, safe_starts, axis=1, dtype=np.int32).T.astype(np.float64)
        counts[~nonempty] = 0
    else:
        counts = np.zeros((n, planes.shape[1]))

    def per_line(bit: int) -> np.ndarray:
        return counts[:, _PLANES.index(bit)]

    last = cls[np.maximum(starts + lens - 1, 0)] if len(cls) else np.zeros(n, dtype=np.uint16)
    last2 = cls[np.maximum(starts + lens - 2, 0)] if len(cls) else np.zeros(n, dtype=np.uint16)
    first = cls[safe_starts] if len(cls) else np.zeros(n, dtype=np.uint16)

    col = F.T  # views into columns by name
    def put(name, values):
        col[_IDX[name]] = values

    words, n_sent_end = put_shape_features(put, lens, per_line, counts[:, -2], counts[:, -1], last, last2, first)

    # ------------------------------------------------------------ patterns (on "\n"-joined text)
    text = "\n".join(lines)
    lower = text.lower()
    starts_nl = starts + np.arange(n)
    pattern_counts = _pattern_counts(lower, starts_nl, n, skip_email="@" not in text)
    for k, name in enumerate(_SEARCH_NAMES):
        put(name, pattern_counts[k])

    # ------------------------------------------------------------ tokens
    toks_per_line = _line_token_lists(lines, lower)
    tcount = np.fromiter(map(len, toks_per_line), dtype=np.int64, count=n)
    # each token's vocabulary id, ids numbered in order of first appearance, in one C-level pass:
    # setdefault gives a new word the vocabulary's size at the time (len, drawn just before the call)
    vocab: dict[str, int] = {}
    ids = np.fromiter(map(vocab.setdefault, chain.from_iterable(toks_per_line), map(len, repeat(vocab))),
                      dtype=np.int64, count=int(tcount.sum()))
    V = len(vocab)
    # flags of the few vocabulary words that have one (stop words, months); the rest 0
    word_flags = _word_flags()
    flags = np.zeros(V, dtype=np.int8)
    flagged = list(filter(word_flags.__contains__, vocab))
    if flagged:
        flags[list(map(vocab.__getitem__, flagged))] = list(map(word_flags.__getitem__, flagged))
    is_sw_v = (flags & 1) > 0
    if keep is not None:
        keep["tokens"] = (ids, tcount)
    tok_line = np.repeat(np.arange(n), tcount)
    is_sw = is_sw_v[ids] if V else np.zeros(0, dtype=bool)
    n_stop = np.bincount(tok_line, weights=is_sw, minlength=n) if V else np.zeros(n)
    if V:  # a month name next to a number is a date too
        is_month_v = (flags & 2) > 0
        n_month = np.bincount(tok_line, weights=is_month_v[ids], minlength=n)
        has_digit = col[_IDX["digit_ratio"]] > 0
        col[_IDX["date"]] += n_month * has_digit
    put("n_stop", n_stop)
    put("stop_ratio", n_stop / np.maximum(tcount, 1))
    n_english = float(((flags & 4) > 0)[ids].sum()) if V else 0.0
    put("doc_english_share", np.full(n, n_english / max(int(tcount.sum()), 1)))

    # learned word log-odds of debris: mean, max and min over the line's known words
    if lexicon and V:
        lex_v = np.fromiter(map(lexicon.get, vocab, repeat(np.nan)), dtype=np.float64, count=V)
        tv = lex_v[ids]
        known = ~np.isnan(tv)
        n_known = np.bincount(tok_line, weights=known, minlength=n)
        tz = np.where(known, tv, 0.0)
        put("lex_mean", np.bincount(tok_line, weights=tz, minlength=n) / np.maximum(n_known, 1))
        has_tok = tcount > 0
        st = np.concatenate([[0], np.cumsum(tcount)[:-1]])[has_tok]
        hi = np.where(known, tv, -np.inf)
        lo = np.where(known, tv, np.inf)
        mx = np.zeros(n)
        mn = np.zeros(n)
        mx[has_tok] = np.maximum.reduceat(hi, st)
        mn[has_tok] = np.minimum.reduceat(lo, st)
        put("lex_max", np.where(n_known > 0, mx, 0.0))
        put("lex_min", np.where(n_known > 0, mn, 0.0))
        put("lex_known", n_known / np.maximum(tcount, 1))

    # duplicates of the whole line inside the document
    seen = Counter(lines)
    put("dup_in_doc", np.fromiter(map(seen.__getitem__, lines), dtype=np.float64, count=n))

    # "textual" lines: long, sentence-like
    textual = (((words >= 10) | (lens >= 80)) & (n_sent_end >= 1)).astype(np.float64)
    put("textual", textual)

    # topic fit: share of the line's content words found in the OTHER textual lines
    if V:
        content = ~is_sw & ((np.fromiter(map(len, vocab), dtype=np.int64, count=V) > 2)[ids])
        body_tok = textual[tok_line] > 0
        B = np.bincount(ids[body_tok & content], minlength=V).astype(np.float64)
        # subtract the line's own occurrences when the line itself is textual
        # (a line's tokens of one word share body_tok & content, so counting within the mask is the same)
        mask = body_tok & content
        own = np.zeros(len(ids), dtype=np.int64)
        if mask.any():
            key = (tok_line * V + ids)[mask]
            srt = np.sort(key)
            own[mask] = np.searchsorted(srt, key, side="right") - np.searchsorted(srt, key, side="left")
        elsewhere = B[ids] - own
        cw = content.astype(np.float64)
        n_content = np.bincount(tok_line, weights=cw, minlength=n)
        hit = np.bincount(tok_line, weights=cw * (elsewhere > 0), minlength=n)
        logw = np.bincount(tok_line, weights=cw * np.log1p(np.maximum(elsewhere, 0)), minlength=n)
        has = n_content > 0
        put("fit_share", np.where(has, hit / np.maximum(n_content, 1), -1))
        put("fit_log", np.where(has, logw / np.maximum(n_content, 1), -1))
        # the words' frequency anywhere in the page (menus reuse a small vocabulary too)
        A = np.bincount(ids, minlength=V).astype(np.float64)
        put("freq_share", np.bincount(tok_line, weights=(A[ids] > 1), minlength=n) / np.maximum(tcount, 1))
    else:
        put("fit_share", -np.ones(n))
        put("fit_log", -np.ones(n))

    # ------------------------------------------------------------ corpus repetition
    df = ctx.df.astype(np.float64)
    dfs = ctx.df_site.astype(np.float64)
    put("df_log", np.log1p(df - 1))
    put("df_frac", (df - 1) / max(ctx.n_docs - 1, 1))
    put("df_site_log", np.log1p(dfs - 1))
    put("df_site_frac", (dfs - 1) / max(ctx.n_site_docs - 1, 1))
    put("n_docs_log", np.full(n, np.log1p(ctx.n_docs)))
    put("n_site_docs_log", np.full(n, np.log1p(ctx.n_site_docs)))

    # ------------------------------------------------------------ position and main body region
    idx = np.arange(n, dtype=np.float64)
    put("rel_pos", idx / max(n - 1, 1))
    put("pos_from_start_log", np.log1p(idx))
    put("pos_from_end_log", np.log1p(n - 1 - idx))
    cum = np.cumsum(lens) - lens
    put("mass_before", cum / max(lens.sum(), 1))
    put("n_lines_log", np.full(n, np.log1p(n)))
    put("doc_words_log", np.full(n, np.log1p(words.sum())))
    big = 10_000.0
    tpos = np.flatnonzero(textual)
    if len(tpos):
        k = np.searchsorted(tpos, idx, side="left")  # first textual index >= i
        nxt = np.where(k < len(tpos), tpos[np.minimum(k, len(tpos) - 1)] - idx, big)
        kp = np.searchsorted(tpos, idx, side="right") - 1  # last textual index <= i
        prv = np.where(kp >= 0, idx - tpos[np.maximum(kp, 0)], big)
        # distance to a textual line other than itself
        nxt_strict = np.where(textual > 0, np.where(k + 1 < len(tpos), tpos[np.minimum(k + 1, len(tpos) - 1)] - idx, big), nxt)
        prv_strict = np.where(textual > 0, np.where(kp - 1 >= 0, idx - tpos[np.maximum(kp - 1, 0)], big), prv)
        put("dist_prev_text_log", np.log1p(prv_strict))
        put("dist_next_text_log", np.log1p(nxt_strict))
        put("inside_text_span", (idx >= tpos[0]) & (idx <= tpos[-1]))
        tmass = textual * lens
        tot = max(tmass.sum(), 1)
        tcum = np.cumsum(tmass)
        put("text_mass_before", (tcum - tmass) / tot)
        put("text_mass_after", (tot - tcum) / tot)
        sum2, sum5, sum10 = _window_sums(tmass, (2, 5, 10))
        w2, w5, w10 = (s / tot for s in (sum2, sum5, sum10))
        put("text_win2", w2)
        put("text_win5", w5)
        put("text_win10", w10)
        main = int(np.argmax(sum5))
        put("dist_main_block", np.log1p(np.abs(idx - main)) * np.sign(idx - main))
        # blocks of text: textual lines separated by fewer than `gap` other lines form a segment;
        # the article is usually the heaviest segment, comments and teasers lighter ones after it
        for gap, names in ((3, ("seg3_share", "seg3_is_max", "seg3_rank", "seg3_after_max")),
                           (6, ("seg6_share", "seg6_is_max", None, "seg6_after_max"))):
            brk = np.concatenate([[True], np.diff(tpos) > gap])
            seg_of_t = np.cumsum(brk) - 1
            nseg = int(seg_of_t[-1]) + 1
            smass = np.bincount(seg_of_t, weights=tmass[tpos], minlength=nseg)
            # each line belongs to the segment of the nearest textual line at or before it
            # (lines before the first textual line: the first segment)
            line_seg = seg_of_t[np.clip(np.searchsorted(tpos, idx, side="right") - 1, 0, len(tpos) - 1)]
            top = int(np.argmax(smass))
            put(names[0], smass[line_seg] / tot)
            put(names[1], line_seg == top)
            if names[2]:
                order = np.argsort(-smass, kind="stable")
                rank = np.empty(nseg)
                rank[order] = np.arange(nseg)
                put(names[2], rank[line_seg])
                if nseg <= 400:  # mass of heavier segments earlier in the page
                    heavier = (smass[None, :] > smass[:, None]) & np.tri(nseg, k=-1, dtype=bool)
                    larger_before = heavier @ smass
                else:
                    larger_before = np.zeros(nseg)
                put("seg3_mass_larger_before", larger_before[line_seg] / tot)
                put("seg3_n_text", np.log1p(np.bincount(seg_of_t, minlength=nseg)[line_seg]))
            put(names[3], np.sign(line_seg - top) * np.log1p(np.abs(line_seg - top)))
        put("gap_before_log", np.log1p(prv))
        put("gap_after_log", np.log1p(nxt))
    else:
        for name in ("dist_prev_text_log", "dist_next_text_log"):
            put(name, np.full(n, np.log1p(big)))

    # ------------------------------------------------------------ neighbours
    base = F[:, _NB_SRC]
    for k, s in enumerate(NEIGHBOUR_SHIFTS):
        block = F[:, _NB_DST[k]:_NB_DST[k] + len(NEIGHBOUR_BASE)]
        block[:] = -1.0
        if abs(s) < n:
            if s > 0:
                block[: n - s] = base[s:]
            else:
                block[-s:] = base[: n + s]
    return F


# ---------------------------------------------------------------- stage 2: smoothing along the doc
SMOOTH = ["p", "p@-1", "p@+1", "p@-2", "p@+2", "p@-3", "p@+3", "p_win2", "p_win5", "p_win10",
          "body_max_before3", "body_max_after3", "sandwich3", "body_mass_before", "body_mass_after",
          "dist_conf_before_log", "dist_conf_after_log", "p_minus_doc_median", "doc_body_share",
          "debris_lines_to_main", "conf_debris_lines_to_main", "debris_chars_to_main", "side_of_main",
          "body_lines_to_main"]
STAGE2_NAMES = FEATURE_NAMES + SMOOTH
_KEEP2 = slice(0, len(FEATURE_NAMES))


def stage2_features(X1: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Stage-1 features plus the stage-1 P(debris) of the line, its neighbours and its region
    (stage2_features_many for one p)."""
    return stage2_features_many(X1, [p])[0]


def stage2_features_many(X1: np.ndarray, ps: list[np.ndarray]) -> list[np.ndarray]:
    """[stage2_features(X1, p) for p in ps], the smoothing columns of every p computed together:
    a seed bag's chains each read their own stage 1 (and the headline their mean), and one numpy
    call over a (len(ps), n) array costs about what it costs over one row.

    Written column by column into the output (no per-column arrays stacked, no hstack): the same
    float64 values cast to float32 as stage2_features_plain, which tests compare with. Row-wise
    reductions (cumsum, sum, median, argmax along the last axis) give each row what they give it
    alone."""
    n = X1.shape[0]
    if n == 0 or X1.dtype != np.float32 or not ps or any(len(p) != n or p.dtype != ps[0].dtype for p in ps):
        return [stage2_features_plain(X1, p) for p in ps]
    P = np.stack(ps)  # (k, n), the ps' own dtype
    k = len(ps)
    keep = X1[:, _KEEP2]
    k0 = keep.shape[1]
    out = np.empty((k, n, k0 + len(SMOOTH)), dtype=np.float32)
    out[:, :, :k0] = keep
    col = np.moveaxis(out[:, :, k0:], 2, 0)  # col[j]: a (k, n) view of smoothing column j
    B = 1.0 - P  # body probability
    col[0] = P
    for j, s in enumerate((-1, 1, -2, 2, -3, 3), 1):  # p@s: the neighbour's p, 1 beyond the document
        dst = col[j]
        dst[:] = 1.0
        if s > 0 and s < n:
            dst[:, : n - s] = P[:, s:]
        elif s < 0 and -s < n:
            dst[:, -s:] = P[:, : n + s]
    idx_i = np.arange(n)
    for j, (w, p_sum) in enumerate(zip((2, 5, 10), _window_sums(P, (2, 5, 10))), 7):
        # the window's line count: the cumulative sum of ones is exact, so hi - lo is the same float
        n_sum = (np.minimum(idx_i + w + 1, n) - np.maximum(idx_i - w, 0)).astype(np.float64)
        col[j] = p_sum / n_sum
    bprev = np.full((k, n), -np.inf)
    bnext = np.full((k, n), -np.inf)
    for s in (1, 2, 3):  # the largest body probability of the 3 lines before / after (0 beyond)
        m = min(s, n)
        if s < n:
            np.maximum(bprev[:, s:], B[:, : n - s], out=bprev[:, s:])
            np.maximum(bnext[:, : n - s], B[:, s:], out=bnext[:, : n - s])
        np.maximum(bprev[:, :m], 0.0, out=bprev[:, :m])
        np.maximum(bnext[:, n - m:], 0.0, out=bnext[:, n - m:])
    col[10] = bprev
    col[11] = bnext
    col[12] = np.minimum(bprev, bnext)
    lens = np.expm1(X1[:, _IDX["n_chars"]].astype(np.float64))
    BM = B * lens
    tot = np.maximum(BM.sum(axis=1), 1.0)[:, None]
    c = np.cumsum(BM, axis=1)
    col[13] = (c - BM) / tot
    col[14] = (tot - c) / tot
    idx = np.arange(n, dtype=np.float64)
    col[15], col[16] = _confident_gaps_many(P, idx)
    col[17] = P - np.median(P, axis=1)[:, None]
    col[18] = (P < 0.5).mean(axis=1)[:, None]
    # how much debris lies between the line and the article's main block (the heaviest window of
    # body mass): once past a share bar or a comment header, the rest is rarely the article
    main = np.argmax(_window_sums(BM, (5,))[0], axis=1)[:, None]
    rows = np.arange(k)[:, None]
    for j, mask in ((19, P >= 0.5), (20, P >= 0.8)):
        c = np.cumsum(mask, axis=1)
        col[j] = np.log1p(np.abs(c - c[rows, main]))
    c = np.cumsum((P >= 0.5) * lens, axis=1)
    col[21] = np.log1p(np.abs(c - c[rows, main]))
    col[22] = np.sign(idx - main)
    c = np.cumsum(P < 0.5, axis=1)
    col[23] = np.log1p(np.abs(c - c[rows, main]))
    return list(out)


def _distances_to(marked: np.ndarray, idx: np.ndarray, far: float) -> tuple[np.ndarray, np.ndarray]:
    """Lines from each line up to the nearest marked line above it and down to the nearest below
    it (`marked`: sorted line indices; `far` where there is none)."""
    if not len(marked):
        return np.full(len(idx), far), np.full(len(idx), far)
    kp = np.searchsorted(marked, idx, side="left") - 1  # last marked line < i
    up = np.where(kp >= 0, idx - marked[np.maximum(kp, 0)], far)
    k = np.searchsorted(marked, idx, side="right")  # first marked line > i
    down = np.where(k < len(marked), marked[np.minimum(k, len(marked) - 1)] - idx, far)
    return up, down


def _confident_gaps(p: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log1p of the distance from each line to the nearest confident body line (P(debris) < 0.2)
    above it and below it (10,000 where there is none)."""
    up, down = _distances_to(np.flatnonzero(p < 0.2), idx, 10_000.0)
    return np.log1p(up), np.log1p(down)


def _confident_gaps_many(P: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_confident_gaps for each row of P (k, n): the nearest confident body line above a line is
    the running maximum of the confident lines' indices, the nearest below the running minimum
    from the end (the same distances as _distances_to's searchsorted)."""
    far = 10_000.0
    conf = P < 0.2
    up_mark = np.maximum.accumulate(np.where(conf, idx, -1.0), axis=1)  # last confident index <= i
    before = np.full(P.shape, -1.0)
    before[:, 1:] = up_mark[:, :-1]  # last confident index < i
    down_mark = np.minimum.accumulate(np.where(conf, idx, np.inf)[:, ::-1], axis=1)[:, ::-1]
    after = np.full(P.shape, np.inf)
    after[:, :-1] = down_mark[:, 1:]  # first confident index > i
    up = np.where(before >= 0, idx - before, far)
    down = np.where(np.isfinite(after), after - idx, far)
    return np.log1p(up), np.log1p(down)


def stage2_features_plain(X1: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The reference form of stage2_features (tests/test_features_speed.py compares them)."""
    n = len(p)
    S = np.zeros((n, len(SMOOTH)), dtype=np.float32)
    if n == 0:
        return np.hstack([X1, S])
    b = 1.0 - p  # body probability
    cols = [p]
    for s in (-1, 1, -2, 2, -3, 3):
        cols.append(_shift(p, s, 1.0))
    for p_sum, n_sum in zip(_window_sums(p, (2, 5, 10)), _window_sums(np.ones(n), (2, 5, 10))):
        cols.append(p_sum / n_sum)
    bprev = np.max(np.stack([_shift(b, s, 0.0) for s in (-1, -2, -3)]), axis=0)
    bnext = np.max(np.stack([_shift(b, s, 0.0) for s in (1, 2, 3)]), axis=0)
    cols += [bprev, bnext, np.minimum(bprev, bnext)]
    lens = np.expm1(X1[:, _IDX["n_chars"]].astype(np.float64))
    bm = b * lens
    tot = max(bm.sum(), 1.0)
    c = np.cumsum(bm)
    cols += [(c - bm) / tot, (tot - c) / tot]
    idx = np.arange(n, dtype=np.float64)
    cols += [*_confident_gaps(p, idx), p - np.median(p), np.full(n, (p < 0.5).mean())]
    # how much debris lies between the line and the article's main block (the heaviest window of
    # body mass): once past a share bar or a comment header, the rest is rarely the article
    main = int(np.argmax(_window_sum(bm, 5)))
    for mask in (p >= 0.5, p >= 0.8):
        c = np.cumsum(mask)
        cols.append(np.log1p(np.abs(c - c[main])))
    c = np.cumsum((p >= 0.5) * lens)
    cols.append(np.log1p(np.abs(c - c[main])))
    cols.append(np.sign(idx - main))
    c = np.cumsum(p < 0.5)
    cols.append(np.log1p(np.abs(c - c[main])))
    S[:] = np.stack(cols, axis=1)
    return np.hstack([X1[:, _KEEP2], S])


# ---------------------------------------------------------------- title
TITLE_EXTRA = ["p2", "lines_to_first_body", "body_lines_before", "is_first_line", "cand_rank_above",
               "same_as_other_line", "p2@+1", "p2@-1", "slug_in_line", "line_in_slug", "has_url",
               "body_rank_above", "words_rel_median",
               # the headline recurs on a page: in breadcrumbs ("Home / <title>"), image alt text,
               # the "<title> | Outlet" line; a line that holds another candidate is that variant
               "embedded_in_others", "holds_candidate", "holds_candidate_share", "dup_rank",
               "is_last_copy_above_body", "slug_prefix_in_line", "line_prefix_in_slug",
               "lines_to_first_body_raw", "p1_min_below3", "n_cand_above_log",
               # the same measured against the page's best candidate (ranking within the page)
               "slug_vs_best", "embedded_vs_best", "p2_below_vs_best",
               # the headline sits just above its byline or date (and a kicker's date just above it)
               "meta_below", "meta_above"]
TITLE_NAMES = STAGE2_NAMES + TITLE_EXTRA
_TITLE_INDEX = {name: k for k, name in enumerate(TITLE_EXTRA)}


def _slug_overlap(lines: list[str], url: str | None) -> tuple[np.ndarray, ...]:
    """Per line: share of the URL path's words found in the line, of the line's words in the path,
    and the same two on 5-letter word prefixes (inflections: "trends" / "trend")."""
    n = len(lines)
    slug = slug_words(url)
    out = tuple(np.zeros(n) for _ in range(4))
    if not slug:
        return out
    spre = {w[:5] for w in slug}
    a, b, c, d = out
    for i, line in enumerate(lines):
        ws = {w for w in SLUG_SPLIT.split(line.lower()) if w}
        if ws:
            hit = len(ws & slug)
            a[i] = hit / len(slug)
            b[i] = hit / len(ws)
            wpre = {w[:5] for w in ws}
            hp = len(wpre & spre)
            c[i] = hp / len(spre)
            d[i] = hp / len(wpre)
    return out


_HASH_SEED = 0x5EED_1157
_HASHES: list[np.ndarray] = []


def _word_hashes(size: int) -> np.ndarray:
    """np.random.default_rng(_HASH_SEED).integers(1, 2**63, size=size, dtype=np.uint64), from one
    longer draw kept for the process: the generator draws element by element, so a shorter draw is a
    prefix of a longer one (tests/test_features_speed.py checks it)."""
    if not _HASHES or len(_HASHES[0]) < size:
        _HASHES[:] = [np.random.default_rng(_HASH_SEED).integers(1, 2**63, size=max(size, 8192), dtype=np.uint64)]
    return _HASHES[0][:size]


def _line_tokens(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The lines' word tokens (lower case, punctuation folded) as vocabulary ids, and the number of
    tokens per line: one regex pass over the document, as in doc_features."""
    low = _TOKEN_STRIP.sub(" ", "\n".join(lines).lower()).split("\n")
    toks = [t.split() for t in low]
    tcount = np.fromiter(map(len, toks), dtype=np.int64, count=len(lines))
    flat = list(chain.from_iterable(toks))
    vocab = dict(zip(dict.fromkeys(flat), count()))
    return np.fromiter(map(vocab.__getitem__, flat), dtype=np.int64, count=len(flat)), tcount




def _recurrence_many(tokens: list[tuple[np.ndarray, np.ndarray]], doc: np.ndarray,
                     cand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How the candidate lines recur inside longer lines of their page (breadcrumbs, "<title> |
    Outlet", image alt text, share text), by word sequence, for every document of a batch at once.

    Returns per line: how many windows of longer lines (of 3-60 words) of its document hold the
    (candidate) line's words, whether the line holds a shorter candidate line, and the largest
    share of its words such a candidate makes up. `tokens[k]`: document k's token ids (numbered
    within it) and tokens per line; `doc`: each line's document. The window's words are compared as a multiset: a window with the
    candidate's words in another order matches too. (A match anchored on the candidate's first word
    in order gave a lower title score on the cross-validated dev pages, 0.784 vs 0.788 over three
    ranker seeds.)

    A window that holds a candidate's words holds its rarest word (the one fewest of the
    document's window tokens are): only the windows of the candidate's length around that word's
    occurrences are looked at, not every window of every length. Windows are compared by hash:
    each word id gets a random 64-bit value and a window's hash is the wrapping sum over its words
    (prefix sums; equal multisets, equal sums, and different ones differ save by chance)."""
    n = len(doc)
    embedded = np.zeros(n)
    holds_share = np.zeros(n)
    tcount = np.concatenate([tc for _, tc in tokens]) if tokens else np.zeros(0, dtype=np.int64)
    ids = np.concatenate([i for i, _ in tokens]) if tokens else np.zeros(0, dtype=np.int64)
    ci = np.flatnonzero(cand & (tcount >= 2))
    if not len(ids) or not len(ci):
        return embedded, holds_share > 0, holds_share
    ends = np.cumsum(tcount)
    starts = ends - tcount
    rnd = _word_hashes(int(ids.max()) + 1)
    csum = np.concatenate([np.zeros(1, np.uint64), np.cumsum(rnd[ids], dtype=np.uint64)])
    # Candidates with the same words in the same document recur alike: each such group is looked
    # at once (a long page repeating its menu line would otherwise pair every copy with every
    # other, quadratic in the copies), and its count given to every member at the end.
    ci_all = ci
    d_c, k_all, h_all = doc[ci], tcount[ci], csum[ends[ci]] - csum[starts[ci]]
    order = np.lexsort((h_all, k_all, d_c))  # stable: a group's first member is its first line
    o_d, o_k, o_h = d_c[order], k_all[order], h_all[order]
    opens = np.r_[True, (o_d[1:] != o_d[:-1]) | (o_k[1:] != o_k[:-1]) | (o_h[1:] != o_h[:-1])]
    group = np.empty(len(ci), dtype=np.intp)
    group[order] = np.cumsum(opens) - 1
    firsts_of_groups = ci[order[opens]]
    ci = np.sort(firsts_of_groups)
    member_of = np.searchsorted(ci, firsts_of_groups)[group]  # each candidate's representative's place in ci
    tok_line = np.repeat(np.arange(n), tcount)
    # a word is (document, id): ids are numbered within each document
    key = np.repeat(doc, tcount) * (int(ids.max()) + 1) + ids
    # windows only in lines of up to 60 words: a headline recurs in breadcrumbs, "<title> | Outlet"
    # and alt text, and paragraphs are where short word runs match by chance
    tl = tcount[tok_line]
    hosts = np.flatnonzero((tl >= 3) & (tl <= 60))
    if not len(hosts):
        return embedded, holds_share > 0, holds_share
    by_word = hosts[np.argsort(key[hosts], kind="stable")]
    word_keys = key[by_word]
    # each candidate's rarest word among the window tokens (its tokens come line by line)
    is_cand = np.zeros(n, dtype=bool)
    is_cand[ci] = True
    ctok = np.flatnonzero(is_cand[tok_line])
    lo = np.searchsorted(word_keys, key[ctok], side="left")
    seen = np.searchsorted(word_keys, key[ctok], side="right") - lo
    pick = np.lexsort((seen, tok_line[ctok]))
    firsts = np.flatnonzero(np.r_[True, tok_line[ctok][pick][1:] != tok_line[ctok][pick][:-1]])
    rare = pick[firsts]  # per candidate, in ci's order: its rarest token's place in ctok
    lo, m = lo[rare], seen[rare]
    k_c = tcount[ci]
    h_c = csum[ends[ci]] - csum[starts[ci]]
    # (candidate, occurrence of its rarest word) in a line longer than the candidate
    total = int(m.sum())
    if not total:
        return embedded, holds_share > 0, holds_share
    pc = np.repeat(np.arange(len(ci)), m)
    q = by_word[np.repeat(lo, m) + np.arange(total) - np.repeat(np.cumsum(m) - m, m)]
    longer = tcount[tok_line[q]] > k_c[pc]
    pc, q = pc[longer], q[longer]
    # every window of the candidate's length over that occurrence, inside its line
    kk = k_c[pc]
    total = int(kk.sum())
    if not total:
        return embedded, holds_share > 0, holds_share
    pc = np.repeat(pc, kk)
    line = np.repeat(tok_line[q], kk)
    s = np.repeat(q, kk) - (np.arange(total) - np.repeat(np.cumsum(kk) - kk, kk))
    k = k_c[pc]
    inside = (s >= starts[line]) & (s + k <= ends[line])
    pc, s, k, line = pc[inside], s[inside], k[inside], line[inside]
    same = (csum[s + k] - csum[s]) == h_c[pc]
    if not same.any():
        return embedded, holds_share > 0, holds_share
    # a window that holds the rarest word twice was met twice: each (candidate, window) once
    _, once = np.unique(pc[same] * (len(ids) + 1) + s[same], return_index=True)
    pc, k, line = pc[same][once], k[same][once], line[same][once]
    embedded[ci_all] = np.bincount(pc, minlength=len(ci))[member_of]
    np.maximum.at(holds_share, line, k / tcount[line])
    return embedded, holds_share > 0, holds_share


META_MAX_WORDS = 15  # a byline or date line is short
META_FAR = 10  # distances are capped: beyond a few lines a byline says nothing about this line


def title_features(X2: np.ndarray, p2: np.ndarray, lines: list[str] | None = None,
                   url: str | None = None, tokens: tuple[np.ndarray, np.ndarray] | None = None,
                   rows: np.ndarray | None = None) -> np.ndarray:
    """Stage-2 features plus where the line sits relative to the predicted body, how well it
    matches the URL's slug (when the document has a URL) and how it recurs on the page: one
    document's title_features_many.

    `rows` (sorted line indices, e.g. title_candidates' lines): the matrix of these lines only,
    the same values as those rows of the whole document's (the page-wide parts, such as the best
    candidate's values, still read every line)."""
    n = len(p2)
    return title_features_many(X2, p2, np.array([0, n], dtype=np.int64), lines, [url],
                               None if tokens is None else [tokens], np.arange(n) if rows is None else rows)


def _segment_reduce(ufunc, values: np.ndarray, offsets: np.ndarray, empty) -> np.ndarray:
    """ufunc.reduce of each document's values (offsets: its rows), `empty` for a document without rows."""
    out = np.full(len(offsets) - 1, empty, dtype=np.result_type(values.dtype, np.asarray(empty).dtype))
    has = offsets[1:] > offsets[:-1]
    if has.any():
        out[has] = ufunc.reduceat(values, offsets[:-1][has])
    return out


def _doc_shift(a: np.ndarray, s: int, fill: float, local: np.ndarray, n_of: np.ndarray) -> np.ndarray:
    """_shift within each document of a batch (`local`: each row's index in its document, `n_of`:
    its document's length): out[i] = a[i + s], `fill` beyond the document."""
    out = np.full_like(a, fill)
    inside = (local + s >= 0) & (local + s < n_of)
    src = np.flatnonzero(inside)
    out[src] = a[src + s]
    return out


def title_features_many(X2: np.ndarray, p2: np.ndarray, offsets: np.ndarray, lines: list[str] | None,
                        urls: list[str | None], tokens: list[tuple[np.ndarray, np.ndarray]] | None,
                        rows: np.ndarray) -> np.ndarray:
    """title_features of the rows `rows` (sorted indices into the batch) of a batch of documents,
    one stack of array passes for the whole batch: document k's lines are X2[offsets[k]:offsets[k+1]]
    (and lines[...] the same slice), its URL urls[k], its tokens tokens[k] (ids numbered within the
    document, tokens per line; made from the lines when not given). Every page-wide value (the first body line, ranks, medians, best
    candidates, recurrence) is taken within each document, so a row's values are those of its
    document alone. The rows are X2's rows `rows` with title_columns_many beside them."""
    from newsclean.cleaners.model.compiled import JoinedRows

    r = np.asarray(rows, dtype=np.intp)
    return np.asarray(JoinedRows(X2, r, title_columns_many(X2, p2, offsets, lines, urls, tokens, r)))


def title_columns_many(X2: np.ndarray, p2: np.ndarray, offsets: np.ndarray, lines: list[str] | None,
                       urls: list[str | None], tokens: list[tuple[np.ndarray, np.ndarray]] | None,
                       rows: np.ndarray) -> np.ndarray:
    """The title columns (TITLE_EXTRA) of title_features_many's rows, float32 (len(rows), columns):
    what the headline's boosters read beside the rows' line features (X2[rows])."""
    N = len(p2)
    offsets = np.asarray(offsets, dtype=np.int64)
    r = np.asarray(rows, dtype=np.intp)
    T = np.zeros((len(r), len(TITLE_EXTRA)), dtype=np.float32)
    if N == 0 or not len(r):
        return T
    from newsclean.cleaners.engine.features import row_layout  # (the engine imports this module)

    n_lines = np.diff(offsets)
    _, doc, local = row_layout(n_lines)
    start = offsets[:-1][doc]
    n_of = n_lines[doc]
    col = T.T
    ti = _TITLE_INDEX
    idx = local.astype(np.float64)
    idx_r = idx[r]
    body = p2 < 0.5
    first_of_doc = _segment_reduce(np.minimum, np.where(body, local, n_of), offsets, 0)
    first = first_of_doc[doc]
    nw = X2[:, _IDX["n_words"]]
    # headline-sized lines that do not end like a sentence ("?" and "!" are headline endings too)
    if lines is not None:
        period = np.fromiter(map(str.endswith, lines, repeat(".")), dtype=bool, count=N)
    else:
        period = X2[:, _IDX["ends_sent"]] > 0
    cand = (nw >= 2) & (nw <= 30) & ~period
    # rank of the line among candidate lines counted upwards from the first body line
    above = cand & (local < first)
    c_above = np.cumsum(above)
    before_doc = np.concatenate([[0], c_above])[offsets[:-1]]  # candidates above, in earlier documents
    n_above = (c_above[offsets[1:] - 1] - before_doc)[doc]
    rank = np.where(above, n_above - (c_above - before_doc[doc]), -1).astype(np.float64)
    col[ti["p2"]] = p2[r]
    col[ti["lines_to_first_body"]] = np.sign(first[r] - idx_r) * np.log1p(np.abs(first[r] - idx_r))
    col[ti["lines_to_first_body_raw"]] = np.clip(first[r] - idx_r, -50, 50)
    c_body = np.cumsum(body)
    col[ti["body_lines_before"]] = np.log1p((c_body - body - np.concatenate([[0], c_body])[start])[r])
    col[ti["is_first_line"]] = idx_r == 0
    col[ti["cand_rank_above"]] = rank[r]
    col[ti["same_as_other_line"]] = X2[r, _IDX["dup_in_doc"]] > 1
    col[ti["p2@+1"]] = _doc_shift(p2, 1, 1.0, local, n_of)[r]
    col[ti["p2@-1"]] = _doc_shift(p2, -1, 1.0, local, n_of)[r]
    # float32 as the column holds it: the best candidate's value is taken on that
    below = np.min(np.stack([_doc_shift(p2, s, 1.0, local, n_of) for s in (1, 2, 3)]), axis=0).astype(np.float32)
    col[ti["p1_min_below3"]] = below[r]
    col[ti["body_rank_above"]] = np.where(rank >= 0, rank, -1)[r]
    col[ti["words_rel_median"]] = nw[r] / np.maximum(_doc_medians(nw, offsets), np.float32(1.0))[doc[r]]
    c_cand = np.cumsum(cand)
    col[ti["n_cand_above_log"]] = np.log1p((c_cand - cand - np.concatenate([[0], c_cand])[start])[r])
    col[ti["meta_below"]], col[ti["meta_above"]] = _meta_distances_many(X2, nw, doc, r, idx_r)
    if lines is not None:
        if tokens is None:
            tokens = [_line_tokens(lines[a:b]) for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]
        emb, holds, share = _recurrence_many(tokens, doc, cand)
        emb_log = np.log1p(emb).astype(np.float32)
        col[ti["embedded_in_others"]] = emb_log[r]
        col[ti["holds_candidate"]] = holds[r]
        col[ti["holds_candidate_share"]] = share[r]
        col[ti["embedded_vs_best"]] = (emb_log - _segment_reduce(np.maximum, emb_log, offsets, np.float32(0))[doc])[r]
        # copies of the same line: which copy this is, and whether it is the last one above the body
        dups = np.flatnonzero(X2[:, _IDX["dup_in_doc"]] > 1)
        if len(dups):
            seen: dict[tuple[int, str], int] = {}
            last_above: dict[tuple[int, str], int] = {}
            copy_rank = np.zeros(N)
            ranks = []
            for i, d, above_body in zip(dups.tolist(), doc[dups].tolist(), (local[dups] < first[dups]).tolist()):
                key = (d, lines[i])
                k = seen.get(key, 0)
                seen[key] = k + 1
                ranks.append(k)
                if above_body:
                    last_above[key] = i
            copy_rank[dups] = ranks
            last_copy = np.zeros(N)
            last_copy[list(last_above.values())] = 1
            col[ti["dup_rank"]] = copy_rank[r]
            col[ti["is_last_copy_above_body"]] = last_copy[r]
        with_url = [k for k, u in enumerate(urls) if u and n_lines[k]]
        if with_url:
            slug = np.zeros((4, N), dtype=np.float32)
            has_url = np.zeros(N, dtype=bool)
            for k in with_url:
                a, b = offsets[k], offsets[k + 1]
                cand_i = a + np.flatnonzero(cand[a:b])
                slug[:, cand_i] = _slug_overlap([lines[i] for i in cand_i], urls[k])
                has_url[a:b] = True
            a, b, c, d = slug
            sl = a + b
            best = _segment_reduce(np.maximum, sl, offsets, np.float32(0))[doc]
            on = has_url[r]
            for name, values in (("slug_in_line", a), ("line_in_slug", b), ("slug_prefix_in_line", c),
                                 ("line_prefix_in_slug", d), ("slug_vs_best", sl - best)):
                col[ti[name]] = np.where(on, values[r], 0)
            col[ti["has_url"]] = on
    best_below = _segment_reduce(np.minimum, np.where(cand, below, np.float32(np.inf)), offsets, np.float32(np.inf))[doc]
    col[ti["p2_below_vs_best"]] = np.where(np.isfinite(best_below[r]), below[r] - best_below[r], 0)
    return T


def _doc_medians(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """np.median of each document's values (float32 values: the float32 median np.median gives)."""
    return np.array([np.median(values[a:b]) if b > a else 0 for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())],
                    dtype=values.dtype)


def _meta_distances_many(X2: np.ndarray, nw: np.ndarray, doc: np.ndarray, r: np.ndarray,
                         idx_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_meta_distances of the rows `r` of a batch: the nearest short byline or date line of the
    row's own document (a marked line of another document is as good as none)."""
    meta = np.flatnonzero(((X2[:, _IDX["date"]] > 0) | (X2[:, _IDX["byline"]] > 0)) & (nw <= META_MAX_WORDS))
    up, down = _distances_to(meta, r.astype(np.float64), META_FAR)
    if len(meta):
        kp = np.searchsorted(meta, r, side="left") - 1
        up = np.where((kp >= 0) & (doc[meta[np.maximum(kp, 0)]] == doc[r]), up, META_FAR)
        k = np.searchsorted(meta, r, side="right")
        down = np.where((k < len(meta)) & (doc[meta[np.minimum(k, len(meta) - 1)]] == doc[r]), down, META_FAR)
    return np.minimum(down, META_FAR), np.minimum(up, META_FAR)


def paragraphs(X: np.ndarray, lines: list[str], among: np.ndarray | None = None) -> np.ndarray:
    """Which lines are paragraphs of several sentences (newsclean.cleaners.shape.is_paragraph); only the lines
    whose n_words (white space + 1, never fewer than the line's words) passes PARAGRAPH_WORDS are read,
    and of those only the lines of `among` when given (False elsewhere)."""
    out = np.zeros(len(lines), dtype=bool)
    read = X[:, _IDX["n_words"]] > PARAGRAPH_WORDS
    if among is not None:
        read &= among
    for i in np.flatnonzero(read):
        out[i] = is_paragraph(lines[i])
    return out


def title_candidates(X: np.ndarray, lines: list[str] | None = None, offsets: np.ndarray | None = None) -> np.ndarray:
    """Lines that can be a headline at all (1-30 words, under 300 characters, not a sentence of
    more than 12 words ending in a full stop, not a list item: newsclean.cleaners.shape.LIST_BULLET, not a
    "By …" byline: newsclean.cleaners.rules.byline.byline_parts, not an item of a numbered list whose
    numbers lost their separator: numbered_items, not a line that ends in a colon, which introduces
    what follows it, nor one that starts with a full ISO date, an entry of a dated list: "2021-08-09
    Emphasizing …"): the title model only scores these. `offsets`: the documents' first rows when X
    holds several (one document by default)."""
    nw = X[:, _IDX["n_words"]]
    ok = (nw >= 1) & (nw <= 30) & (X[:, _IDX["n_chars"]] <= np.log1p(300)) & ~(X[:, _IDX["ends_colon"]] > 0)
    if lines is not None:
        digit_first = X[:, _IDX["starts_digit"]] > 0
        for i in np.flatnonzero(ok & digit_first):
            if _ISO_DATED.match(lines[i]):
                ok[i] = False
        period = np.fromiter(map(str.endswith, lines, repeat(".")), dtype=bool, count=len(lines))
        ok &= ~(period & (nw > 12))
        bullet = np.fromiter(map(bool, map(LIST_BULLET.match, lines)), dtype=bool, count=len(lines))
        ok &= ~bullet
        for i in np.flatnonzero(ok & (X[:, _IDX["byline"]] > 0)):
            if byline_parts(lines[i]) is not None:
                ok[i] = False  # "By Jane Roe, Outlet" names the author, never the headline
        ok &= ~numbered_items(lines, offsets, among=ok & digit_first)
    return ok


# a line that opens with a full ISO date: "2021-08-09 Emphasizing …", "2021-08-09T10:00 Release notes"
_ISO_DATED = re.compile(r"(?:19|20)\d\d-[01]\d-[0-3]\d(?!\d)")
# a number glued to a capitalised word: "1Why consider …", "11.1How long …", "2Department of …", "74Tauchbasen"
_GLUED_NUMBER = re.compile(r"(\d{1,2}(?:\.\d{1,2})*)(?=[^\W\d_][^\W\d_])")


def numbered_items(lines: list[str], offsets: np.ndarray | None = None, among: np.ndarray | None = None) -> np.ndarray:
    """The lines of a document that start with a number glued to a capitalised word, where the
    document holds two or more such lines with different numbers: a table of contents, a "most
    read" list or an author's affiliations whose numbering lost its separator, never the headline.
    One such line alone ("4Runner Trail Edition review") or a number repeated is left alone. Only
    the lines of `among` are read when given."""
    out = np.zeros(len(lines), dtype=bool)
    number: dict[int, str] = {}
    for i in (range(len(lines)) if among is None else np.flatnonzero(among).tolist()):
        line = lines[i]
        m = _GLUED_NUMBER.match(line) if line[:1].isdigit() else None
        if m is not None and line[m.end()].isupper() and line[m.end() + 1].islower():
            number[i] = m.group(1)
    if not number:
        return out
    found = np.fromiter(number, dtype=np.intp, count=len(number))  # in line order
    doc = np.zeros(len(found), dtype=np.intp) if offsets is None else np.searchsorted(offsets, found, side="right") - 1
    for d in np.unique(doc).tolist():
        mine = found[doc == d]
        if len({number[i] for i in mine.tolist()}) >= 2:
            out[mine] = True
    return out
