"""The line model's features for a batch of documents at once, over one table of lines.

newsclean.cleaners.model.features.doc_features computes one document's feature matrix; a decision pass calls
it once per document, and for a few hundred lines its cost is per call (some 200 numpy calls on
short arrays) and per token (tokenising, a dictionary lookup per token). batch_features gives
exactly the same rows (bit for bit) for many documents from one pass over their lines:

- The lines table. The batch's lines are concatenated, document after document; each row knows its
  document (`doc`), its index in the document (`local`) and the document's row range (`offsets`).
- Per-line work runs once over the whole batch's text: character classes from code-point lookup
  tables (the class planes packed into 64-bit words, summed per line with one reduceat per word),
  one regex pass per PATTERNS pattern over the "\\n"-joined lower-cased text, and tokens as the runs
  of regex word characters (\\w) in that text, found with a lookup table; the token strings become
  ids by one Arrow dictionary encoding, so the Python work per word (stop word, month, lexicon) is
  per DISTINCT word of the batch, not per token.
- Per-document work is segment operations on the table: sums, maxima and arg-maxima per document
  (np.*.reduceat over the document starts), running sums minus the document's start, the nearest
  textual line by running max/min checked against the document's bounds, neighbour shifts that
  stop at the document's ends, and group counts over (doc, word), (line, word) and (doc, line
  text): one stable (radix) sort by word or line id puts each group's members next to each other
  in table order, so the groups are runs (topic fit, word frequency, duplicate lines).

Exactness. Every value is computed from the same float64 inputs with the same operation as in
doc_features, then cast to float32 when written. Where doc_features sums within a document (text
mass, window sums, segment masses, line and word counts) the terms are whole numbers, so a running
sum over the batch minus the document's start gives the same float64. doc_features' own corners are
reproduced, not fixed: a non-empty line followed only by empty lines in its document loses its last
character from the class counts, an empty line reads its neighbours' first/last character class, and
pattern matches in lower-cased text whose length changed ("İ" lower-cases to two code points) are
placed by the document's unlowered line starts. Sums of values that are not whole numbers (lexicon
log-odds, log counts) are np.bincount over the tokens in text order, as in doc_features. (A
document whose every line is empty makes doc_features fail; here it simply gets rows.)

Documents are separated in the searched text by a pseudo-line "q": one letter stops the only pattern
that can run on over a line break (number_only's `[\\d\\W_]*$`) from running into the next document,
no pattern matches it, and its token is dropped. A document with a line that holds "\\n" itself is
the one input left to doc_features, per document (its text splits into more pieces than lines).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from newsclean.cleaners.corpus import DocContext
from newsclean.cleaners.model import features as fx
from newsclean.cleaners.model.features import (
    FEATURE_NAMES, LETTER, NEIGHBOUR_BASE, NEIGHBOUR_SHIFTS, OTHER_LETTER, SPACE, UPPER, _IDX, _NB_DST,
    _NB_SRC, _PLANES, _SEARCH, _SEARCH_NAMES, _lut, _word_flags,
)

Tokens = tuple[np.ndarray, np.ndarray]
DOC_SEPARATOR = "q"  # the pseudo-line after each document in the searched text (see the docstring)
BIG = 10_000.0  # doc_features' distance when a document has no textual line


@dataclass
class LinesTable:
    """The batch's lines, document after document, and where each row belongs."""

    docs: list[list[str]]
    lines: list[str]
    offsets: np.ndarray  # int64 (D+1): document k's rows are offsets[k]:offsets[k+1]
    doc: np.ndarray  # int64 per row: its document
    local: np.ndarray  # int64 per row: its index within the document
    n_lines: np.ndarray  # int64 per document
    lens: np.ndarray  # int64 per row: characters

    @property
    def n(self) -> int:
        return len(self.lines)

    @property
    def first_row(self) -> np.ndarray:
        """Per row, the row where its document starts."""
        return self.offsets[:-1][self.doc]

    @property
    def end_row(self) -> np.ndarray:
        """Per row, the row just past its document's end."""
        return self.offsets[1:][self.doc]

    def per_doc(self, ufunc: np.ufunc, values: np.ndarray, fill) -> np.ndarray:
        """ufunc.reduce of `values` (one per row) over each document's rows; `fill` for documents
        without rows."""
        out = np.full(len(self.n_lines), fill, dtype=np.result_type(values, type(fill)))
        has = self.n_lines > 0
        if has.any():
            out[has] = ufunc.reduceat(values, self.offsets[:-1][has])
        return out


def row_layout(n_lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the rows of documents of `n_lines` lines each, laid one after another, belong:
    (offsets, each row's document, each row's index within its document)."""
    offsets = np.concatenate([[0], np.cumsum(n_lines)]).astype(np.int64)
    doc = np.repeat(np.arange(len(n_lines), dtype=np.int64), n_lines)
    local = np.arange(offsets[-1], dtype=np.int64) - offsets[:-1][doc]
    return offsets, doc, local


def lines_table(docs: list[list[str]]) -> LinesTable:
    n_lines = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    offsets, doc, local = row_layout(n_lines)
    lines = list(chain.from_iterable(docs))
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    return LinesTable(docs, lines, offsets, doc, local, n_lines, lens)


# ---------------------------------------------------------------- entry point
def batch_features(docs: list[list[str]], contexts: list[DocContext | None] | None = None,
                   lexicon: dict[str, float] | None = None, want_tokens: bool = False
                   ) -> tuple[np.ndarray, np.ndarray, list[Tokens] | None]:
    """Returns (F, offsets, tokens): F float32 (sum of len(d), len(FEATURE_NAMES)) with the rows of
    docs[0] first, then docs[1], ...; offsets int64 of length len(docs)+1 (doc k's rows are
    F[offsets[k]:offsets[k+1]]); tokens, when want_tokens, for each doc the (ids, tcount) pair that
    doc_features(..., keep=keep) leaves in keep["tokens"] (ids: int64 vocabulary ids numbered in order
    of first appearance WITHIN THAT DOCUMENT, tcount: tokens per line) — else None.

    Row for row the same float32 values as doc_features(docs[k], contexts[k], None, lexicon). (A
    document without lines gets no rows, and empty token arrays: doc_features leaves no tokens.)"""
    docs = list(docs)
    contexts = list(contexts) if contexts is not None else [None] * len(docs)
    if len(contexts) != len(docs):
        raise ValueError(f"{len(contexts)} contexts for {len(docs)} documents")
    table = lines_table(docs)
    if any(map(str.__contains__, table.lines, repeat("\n"))):
        return _with_newline_fallback(table, contexts, lexicon, want_tokens)
    return _columnar(table, contexts, lexicon, want_tokens)


def _with_newline_fallback(table: LinesTable, contexts, lexicon, want_tokens):
    """The batch where some lines hold "\\n": those documents by doc_features, the rest columnar."""
    docs = table.docs
    has_nl = np.fromiter(map(str.__contains__, table.lines, repeat("\n")), dtype=bool, count=table.n)
    bad = np.bincount(table.doc[has_nl], minlength=len(docs)) > 0
    good = np.flatnonzero(~bad)
    F = np.zeros((table.n, len(FEATURE_NAMES)), dtype=np.float32)
    tokens: list[Tokens | None] = [None] * len(docs)
    F_good, off_good, tok_good = _columnar(lines_table([docs[k] for k in good]), [contexts[k] for k in good],
                                           lexicon, want_tokens)
    # whole documents are placed here: one slice copy per document (no per-line work)
    for j, k in enumerate(good):
        F[table.offsets[k]:table.offsets[k + 1]] = F_good[off_good[j]:off_good[j + 1]]
        if want_tokens:
            tokens[k] = tok_good[j]
    saved = fx._TOKENS_BY_LINE  # leave doc_features' per-process token cache as the caller had it
    try:
        for k in np.flatnonzero(bad):
            keep: dict = {}
            F[table.offsets[k]:table.offsets[k + 1]] = fx.doc_features(docs[k], contexts[k], keep, lexicon)
            tokens[k] = keep["tokens"]
    finally:
        fx._TOKENS_BY_LINE = saved
    return F, table.offsets, tokens if want_tokens else None


def _no_tokens(n: int) -> Tokens:
    return np.zeros(0, dtype=np.int64), np.zeros(n, dtype=np.int64)


def _columnar(table: LinesTable, contexts, lexicon, want_tokens):
    F = np.zeros((table.n, len(FEATURE_NAMES)), dtype=np.float32)
    if table.n == 0:
        return F, table.offsets, [_no_tokens(0) for _ in contexts] if want_tokens else None
    per_line = not _lower_lengthens(table)  # else its line columns are not its lines' alone
    part = _line_part_from_memo(table, F, lexicon) if per_line else None
    if part is None:
        part = _line_part(table, F, lexicon)
    _remember(table, F, part, lexicon, per_line)
    _doc_part(table, F, part, contexts)
    return F, table.offsets, part.tokens.per_doc(table) if want_tokens else None


@dataclass
class LinePart:
    """What each line's text gives alone, beside its LINE_COLUMNS: its tokens, its English function
    words, and the two facts number_only is counted from (a match runs on over the lines below it
    that hold only digits and non-word characters, so a line's count depends on the lines above)."""

    tokens: "TokenTable"
    english: np.ndarray  # float64 per row: English function words among its tokens
    all_number: np.ndarray  # bool per row: only digits, "_" and non-word characters (an empty line too)
    number_start: np.ndarray  # bool per row: number_only matches at its start
    word_ids: dict[str, int] | None = None  # word -> id of tokens.words, when known


# The columns a line's text (and the lexicon) decide alone, whatever lines surround it: written by
# _line_part, and read back from the last call (_LineMemo) for the lines it saw.
LINE_COLUMNS = (
    "n_chars", "n_words", "mean_word_len", "letter_ratio", "upper_ratio", "digit_ratio", "punct_ratio",
    "symbol_ratio", "other_letter_ratio", "sep_ratio", "comma_per_word", "n_sent_end", "ends_sent", "ends_colon",
    "ends_letter", "ends_digit", "starts_upper", "starts_digit", "starts_punct", "title_case_ratio", "n_stop",
    "stop_ratio", "url", "email", "date", "time", "byline", "copyright", "bullet",
    "lex_mean", "lex_max", "lex_min", "lex_known", "textual",
)
_LINE_IDX = np.array([_IDX[name] for name in LINE_COLUMNS], dtype=np.intp)


def _putter(col: np.ndarray) -> Callable[[str, object], None]:
    """put(name, values): write a feature column of F (col = F.T, views into its columns by name)."""
    def put(name: str, values) -> None:
        col[_IDX[name]] = values

    return put


def _line_part(table: LinesTable, F: np.ndarray, lexicon) -> LinePart:
    """Write the LINE_COLUMNS of every row of `table` into F; the rest of what its lines give alone."""
    col = F.T
    put = _putter(col)

    shape = _shape_features(table, put)
    searched = SearchedText.build(table)
    _pattern_features(table, searched, put)
    toks = TokenTable.build(table, searched)
    n_stop = np.bincount(toks.row, weights=toks.is_stop, minlength=table.n)
    # a month name next to a number is a date too
    n_month = np.bincount(toks.row, weights=toks.is_month, minlength=table.n)
    col[_IDX["date"]] += n_month * (col[_IDX["digit_ratio"]] > 0)
    put("n_stop", n_stop)
    put("stop_ratio", n_stop / np.maximum(toks.tcount, 1))
    if lexicon and len(toks.words):
        _lexicon_features(toks, lexicon, table.n, put)
    put("textual", ((shape.words >= 10) | (table.lens >= 80)) & (shape.n_sent_end >= 1))
    english = np.bincount(toks.row, weights=toks.is_english, minlength=table.n)
    return LinePart(toks, english, *_number_flags(table, col[_IDX["letter_ratio"]]))


def _doc_part(table: LinesTable, F: np.ndarray, part: LinePart, contexts) -> None:
    """Write every column but LINE_COLUMNS: what a line's document, neighbours and corpus say of it."""
    col = F.T
    put = _putter(col)
    toks = part.tokens
    # (the shape counts are whole numbers: exact in float32)
    shape = Shape(col[_IDX["n_words"]].astype(np.float64), col[_IDX["n_sent_end"]].astype(np.float64))
    # the page's share of English function words among its tokens, on each of its lines
    english_per_doc = table.per_doc(np.add, part.english, 0.0)
    tokens_per_doc = table.per_doc(np.add, toks.tcount.astype(np.float64), 0.0)
    put("doc_english_share", (english_per_doc / np.maximum(tokens_per_doc, 1))[table.doc])
    put("number_only", _number_only(table, part.all_number, part.number_start))
    put("dup_in_doc", _duplicates_in_doc(table))
    textual = col[_IDX["textual"]].astype(np.float64)
    _topic_fit(toks, textual, table.n, put)
    _corpus_features(table, contexts, put)
    _position_features(table, shape, put)
    _text_block_features(table, textual, put)
    _neighbour_features(table, F)


# ---------------------------------------------------------------- the last call's lines
# A decision pass after the first asks again for the lines the pass before kept (newsclean.cleaners.
# fixpoint): their LinePart and LINE_COLUMNS are read from the last call instead of computed again.
# Only a table of non-empty lines is remembered (an empty line changes what the class counts of the
# line above it read), and only one of at most MEMO_MAX_ROWS rows (a lock step group's, not a
# training set's).
MEMO_MAX_ROWS = 1 << 16
_memo = threading.local()


@dataclass
class _LineMemo:
    lexicon: object  # the lexicon the lex_* columns were computed with (compared by identity)
    row_of: dict[str, int]  # a line's text -> its row
    columns: np.ndarray  # float32 (rows, LINE_COLUMNS)
    part: LinePart  # its word_ids made when first asked


def forget_lines() -> None:
    """Drop the last call's lines (a benchmark's "new pages", a test's fresh start)."""
    _memo.last = None


def _lower_lengthens(table: LinesTable) -> bool:
    """Whether lower-casing lengthens a line of the table: "İ" (U+0130, the only character whose
    lower() is two) becomes "i̇". doc_features then places a match by the unlowered line starts,
    so the pattern columns of the lines below it in its document read their neighbours' matches
    (SearchedText.build): they are not what the line's text gives alone, so _columnar neither
    reads them from the last call nor keeps them for the next."""
    return "\u0130" in "\n".join(table.lines)


def _remember(table: LinesTable, F: np.ndarray, part: LinePart, lexicon, per_line: bool = True) -> None:
    """Keep the table's line columns for the next call; `per_line`: False where they are not what
    each line gives alone (_lower_lengthens), and then nothing is kept."""
    if table.n > MEMO_MAX_ROWS or not table.lens.all() or not per_line:
        _memo.last = None
        return
    _memo.last = _LineMemo(lexicon, dict(zip(table.lines, range(table.n))), F[:, _LINE_IDX], part)


def _line_part_from_memo(table: LinesTable, F: np.ndarray, lexicon) -> LinePart | None:
    """_line_part, the rows whose text the last call saw read from it and only the others computed;
    None when there is no usable memo or most lines are new."""
    memo: _LineMemo | None = getattr(_memo, "last", None)
    if memo is None or memo.lexicon is not lexicon or not table.lens.all():
        return None
    at = np.fromiter(map(memo.row_of.get, table.lines, repeat(-1)), dtype=np.int64, count=table.n)
    new = np.flatnonzero(at < 0)
    if 2 * len(new) > table.n:
        return None
    old = np.flatnonzero(at >= 0)
    src = at[old]
    was, seen = memo.part, memo.part.tokens
    F[old[:, None], _LINE_IDX] = memo.columns[src]
    english = np.empty(table.n)
    all_number = np.empty(table.n, dtype=bool)
    number_start = np.empty(table.n, dtype=bool)
    english[old], all_number[old], number_start[old] = was.english[src], was.all_number[src], was.number_start[src]
    tcount = np.empty(table.n, dtype=np.int64)
    tcount[old] = seen.tcount[src]
    start = np.empty(table.n, dtype=np.int64)  # each row's first token in `gids`
    start[old] = (np.cumsum(seen.tcount) - seen.tcount)[src]
    words, word_len, word_flags, gids = seen.words, seen.word_len, seen.word_flags, seen.gid
    if len(new):
        sub = lines_table([[table.lines[r] for r in new.tolist()]])
        F_sub = np.zeros((sub.n, len(FEATURE_NAMES)), dtype=np.float32)
        fresh = _line_part(sub, F_sub, lexicon)
        F[new[:, None], _LINE_IDX] = F_sub[:, _LINE_IDX]
        english[new], all_number[new], number_start[new] = fresh.english, fresh.all_number, fresh.number_start
        s = fresh.tokens
        if was.word_ids is None:
            was.word_ids = dict(zip(seen.words, range(len(seen.words))))
        ids = np.fromiter(map(was.word_ids.get, s.words, repeat(-1)), dtype=np.int64, count=len(s.words))
        unseen = np.flatnonzero(ids < 0)
        if len(unseen):  # words the last call did not hold join its vocabulary
            ids[unseen] = len(words) + np.arange(len(unseen))
            words = words + [s.words[i] for i in unseen.tolist()]
            was.word_ids.update(zip(words[len(seen.words):], ids[unseen].tolist()))
            word_len = np.concatenate([word_len, s.word_len[unseen]])
            word_flags = np.concatenate([word_flags, s.word_flags[unseen]])
        tcount[new] = s.tcount
        start[new] = len(gids) + np.cumsum(s.tcount) - s.tcount
        gids = np.concatenate([gids, ids[s.gid]])
    # every row's tokens in table order: its run of `gids`
    first = np.cumsum(tcount) - tcount
    gid = gids[np.repeat(start - first, tcount) + np.arange(int(tcount.sum()))]
    tokens = TokenTable.of(table, words, gid, tcount, word_len, word_flags)
    return LinePart(tokens, english, all_number, number_start, was.word_ids if tokens.words is words else None)


# ---------------------------------------------------------------- character classes
@dataclass
class Shape:
    words: np.ndarray  # float64 white space + 1 (0 for an empty line)
    n_sent_end: np.ndarray  # float64


_FIELDS = list(_PLANES) + [UPPER, LETTER]  # per line: each class plane, then word starts in upper case / a letter
_WORD_START_FIELDS = 2


@dataclass(frozen=True)
class ClassCodes:
    """The few distinct values of doc_features' character-class table as small codes: `code` per
    code point (uint8; index 0x10000 stands for every astral code point, which is OTHER_LETTER),
    `value` per code, white-space classes first (code < n_space), and `bits` wide enough for one
    code more (the zero entry read past the text's end)."""

    code: np.ndarray
    value: np.ndarray
    n_space: int
    bits: int


@lru_cache(maxsize=1)
def _class_codes() -> ClassCodes:
    cls = np.append(_lut(), OTHER_LETTER).astype(np.uint16)
    values = sorted(set(cls.tolist()), key=lambda v: (not v & SPACE, v))
    to_code = np.zeros(int(cls.max()) + 1, dtype=np.uint8)
    to_code[values] = np.arange(len(values))
    n_space = sum(1 for v in values if v & SPACE)
    return ClassCodes(to_code[cls], np.array(values + [0], dtype=np.uint16), n_space, len(values).bit_length())


@lru_cache(maxsize=8)
def _packed_tables(width: int) -> np.ndarray:
    """uint64 (n_words, 2 ** (bits + 1)): per class code, with the word-start flag as the high bit,
    the _FIELDS bits packed into fields of `width` bits (64 // width fields a word). Summing a
    line's entries sums every field at once, exactly, while no field's sum reaches 2 ** width (a
    line's count is at most its length)."""
    codes = _class_codes()
    per = 64 // width
    at = np.arange(2 ** (codes.bits + 1))
    code = at & ((1 << codes.bits) - 1)
    word_start = (at >> codes.bits) > 0
    value = np.where(code < len(codes.value), codes.value[np.minimum(code, len(codes.value) - 1)], 0)
    packed = np.zeros((-(-len(_FIELDS) // per), len(at)), dtype=np.uint64)
    for j, bit in enumerate(_FIELDS):
        w, f = divmod(j, per)
        on = (value & bit) != 0
        if j >= len(_FIELDS) - _WORD_START_FIELDS:
            on &= word_start
        packed[w] |= on.astype(np.uint64) << np.uint64(width * f)
    return packed


def _class_counts(table: LinesTable, code: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """(rows, _FIELDS) float64: each line's count of every class plane, and of word starts in upper
    case and in a letter: what doc_features' reduceat over its (classes, chars) bit matrix gives.
    `code`: every character's class code, then the zero entry (past the end)."""
    codes = _class_codes()
    lens = table.lens
    nonempty = lens > 0
    width = max(int(lens.max()).bit_length(), 1)
    per = 64 // width
    # a word starts after white space or at a line start
    at = np.empty(len(code), dtype=np.uint8)
    at[0] = 1
    np.less(code[:-1], codes.n_space, out=at[1:].view(bool))
    at[starts[nonempty]] = 1
    at <<= codes.bits
    at |= code
    # doc_features clips line starts to its text's last character, so a non-empty line (of 2+
    # characters) followed only by empty lines in its document is summed without its last character
    last_full = _last_nonempty_row(table, nonempty)
    cut = last_full[(last_full < table.end_row[last_full] - 1) & (lens[last_full] >= 2)]
    packed = _packed_tables(width)
    sums = _packed_line_sums(packed, at, starts, len(codes.value) - 1)
    sums[:, cut] -= packed[:, at[starts[cut] + lens[cut] - 1]]
    counts = np.empty((table.n, len(_FIELDS)))
    mask = np.uint64((1 << width) - 1)
    for j in range(len(_FIELDS)):
        w, f = divmod(j, per)
        counts[:, j] = (sums[w] >> np.uint64(width * f)) & mask
    counts[~nonempty] = 0
    return counts


_BLOCK = 1 << 16  # characters a block: its packed words stay in cache (and off fresh memory)


def _packed_line_sums(packed: np.ndarray, at: np.ndarray, starts: np.ndarray, zero: int) -> np.ndarray:
    """(n_words, rows) uint64: per line, the sum of the packed table entries of its characters.
    Lines are taken in blocks of about _BLOCK characters (a loop over blocks of the text, for
    cache, not over documents or lines); each block gets a `zero` entry past its end, so an empty
    line at the block's end still has a valid start."""
    n, N = len(starts), len(at) - 1
    sums = np.empty((len(packed), n), dtype=np.uint64)
    first_rows = np.unique(np.searchsorted(starts, np.arange(0, max(N, 1), _BLOCK), side="left"))
    bounds = np.append(first_rows[first_rows < n], n).tolist()
    ends = np.append(starts, N)
    buf = np.empty(_BLOCK + 1, dtype=np.uint8)
    vals = np.empty(_BLOCK + 1, dtype=np.uint64)
    for r0, r1 in zip(bounds[:-1], bounds[1:]):
        c0, c1 = int(starts[r0]), int(ends[r1])
        m = c1 - c0
        if m + 1 > len(buf):  # one line longer than a block
            buf, vals = np.empty(m + 1, dtype=np.uint8), np.empty(m + 1, dtype=np.uint64)
        b = buf[:m + 1]
        b[:m] = at[c0:c1]
        b[m] = zero
        local = starts[r0:r1] - c0
        for w, table_w in enumerate(packed):
            v = np.take(table_w, b, out=vals[:m + 1], mode="clip")
            sums[w, r0:r1] = np.add.reduceat(v, local)
    return sums


def _last_nonempty_row(table: LinesTable, nonempty: np.ndarray) -> np.ndarray:
    """Per document that has a non-empty line, the row of its last one."""
    rows = np.flatnonzero(nonempty)
    d = table.doc[rows]
    return rows[np.append(d[1:] != d[:-1], True)] if len(rows) else rows


def _edge_classes(table: LinesTable, code: np.ndarray, starts: np.ndarray):
    """The class of each line's last, second-last and first character, read as doc_features reads
    them within the document's own text (an empty line reads a neighbour's; 0 without any text)."""
    lens = table.lens
    char_edges = np.concatenate([[0], np.cumsum(lens)])
    d0 = char_edges[table.offsets[:-1]][table.doc]  # the document's first character
    d1 = char_edges[table.offsets[1:]][table.doc]  # just past its last
    has_text = d1 > d0
    top = max(len(code) - 2, 0)  # `code` ends with the past-the-end entry
    value = _class_codes().value

    def at(pos):
        return np.where(has_text, value[code[np.clip(pos, 0, top)]], 0).astype(np.uint16)

    return (at(np.maximum(starts + lens - 1, d0)), at(np.maximum(starts + lens - 2, d0)),
            at(np.minimum(starts, d1 - 1)))


def _shape_features(table: LinesTable, put) -> Shape:
    lens = table.lens
    cps = np.frombuffer("".join(table.lines).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    codes = _class_codes()
    code = np.empty(len(cps) + 1, dtype=np.uint8)
    np.take(codes.code, cps, out=code[:-1], mode="clip")  # (clip: every astral code point reads 0x10000)
    code[-1] = len(codes.value) - 1  # the zero entry, read past the end
    starts = np.cumsum(lens) - lens
    counts = _class_counts(table, code, starts)

    def per_line(bit: int) -> np.ndarray:
        return counts[:, _PLANES.index(bit)]

    last, last2, first = _edge_classes(table, code, starts)
    words, n_sent_end = fx.put_shape_features(put, lens, per_line, counts[:, -2], counts[:, -1], last, last2, first)
    return Shape(words, n_sent_end)


# ---------------------------------------------------------------- the searched text and patterns
@dataclass
class SearchedText:
    """The batch's lower-cased text as doc_features searches it: each document's "\\n"-joined
    lines, then the DOC_SEPARATOR pseudo-line ("pieces" are the lines and the separators)."""

    lower: str
    cps: np.ndarray  # uint32: the code points of `lower`
    piece_start: np.ndarray  # int64 per piece: where it starts in `lower`
    piece_len: np.ndarray  # int64 per piece: its length in `lower`
    piece_row: np.ndarray  # int64 per piece: its row, -1 for a separator
    doc_start: np.ndarray  # int64 per document: where its text starts in `lower`
    line_key: np.ndarray  # int64 per row: doc * stride + the line's start in its document's unlowered text
    stride: int

    @classmethod
    def build(cls, table: LinesTable) -> "SearchedText":
        D = len(table.n_lines)
        n_pieces = table.n + D
        text = "\n".join(chain.from_iterable(chain.from_iterable(zip(table.docs, repeat([DOC_SEPARATOR])))))
        lower = text.lower()
        seps = table.offsets[1:] + np.arange(D)  # document k's separator is piece offsets[k+1] + k
        real = np.ones(n_pieces, dtype=bool)
        real[seps] = False
        piece_row = np.full(n_pieces, -1, dtype=np.int64)
        piece_row[real] = np.arange(table.n)
        piece_len = np.ones(n_pieces, dtype=np.int64)
        if len(lower) == len(text):
            piece_len[real] = table.lens
        else:  # lower-casing lengthened some line: lay out the lower-cased pieces
            piece_len[real] = np.fromiter(map(len, map(str.lower, table.lines)), dtype=np.int64, count=table.n)
        piece_start = np.cumsum(piece_len + 1) - (piece_len + 1)
        doc_start = piece_start[table.offsets[:-1] + np.arange(D)]
        # doc_features places a match (in lower-cased text) by the unlowered line starts of its document
        char_start = np.cumsum(table.lens) - table.lens
        local_start_nl = char_start - char_start[table.first_row] + table.local
        stride = len(lower) + 2
        cps = np.frombuffer(lower.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        line_key = table.doc * stride + local_start_nl
        return cls(lower, cps, piece_start, piece_len, piece_row, doc_start, line_key, stride)

    def rows_of(self, pos: np.ndarray) -> np.ndarray:
        """The row each match position (in `lower`) counts for."""
        doc = np.searchsorted(self.doc_start, pos, side="right") - 1
        key = doc * self.stride + (pos - self.doc_start[doc])
        return np.searchsorted(self.line_key, key, side="right") - 1


def _pattern_features(table: LinesTable, searched: SearchedText, put) -> None:
    """PATTERNS counts per line: each pattern's one finditer over the whole batch's text."""
    text = "\n" + searched.lower
    skip = _SEARCH_NAMES.index("email") if "@" not in text else -1  # the email pattern needs an "@"
    pos: list[np.ndarray] = []
    code: list[np.ndarray] = []
    L = table.n
    for k, name in enumerate(_SEARCH_NAMES):
        if k == skip or name == "number_only":
            continue
        for pat, shift in _SEARCH[name]:
            found = [m.start() for m in pat.finditer(text)]
            pos.append(np.asarray(found, dtype=np.int64) + shift)
            code.append(np.full(len(found), k * L, dtype=np.int64))
    K = len(_SEARCH_NAMES)
    counts = np.zeros((K, L))
    if pos and sum(map(len, pos)):
        rows = searched.rows_of(np.concatenate(pos))
        counts = np.bincount(rows + np.concatenate(code), minlength=K * L).reshape(K, L).astype(np.float64)
    for k, name in enumerate(_SEARCH_NAMES):
        if name != "number_only":
            put(name, counts[k])


# number_only's pattern on one line (see _number_flags)
_ALL_NUMBER = re.compile(r"[\d\W_]*")
_NUMBER_START = re.compile(r"[^\w\n]*\d")


def _number_flags(table: LinesTable, letter_ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, (all_number, number_start) of LinePart: number_only's pattern, [^\\w\\n]*\\d[\\d\\W_]*$,
    matches from a line's start when the line holds only digits, "_" and non-word characters and its
    first word character is a digit. A line with a letter holds neither (a letter is a word
    character and no digit), so only the few lines without one are read."""
    all_number = np.zeros(table.n, dtype=bool)
    number_start = np.zeros(table.n, dtype=bool)
    for r in np.flatnonzero(letter_ratio == 0).tolist():
        line = table.lines[r].lower()
        if _ALL_NUMBER.fullmatch(line):
            all_number[r] = True
            number_start[r] = _NUMBER_START.match(line) is not None
    return all_number, number_start


def _number_only(table: LinesTable, all_number: np.ndarray, number_start: np.ndarray) -> np.ndarray:
    """number_only per row: a match from a line's start runs on over the run of all-number lines
    below it (its [\\d\\W_]* crosses line ends), so in each run of all-number lines of a document
    only the first line where the pattern matches counts."""
    n = table.n
    opens = np.ones(n, dtype=bool)
    opens[1:] = ~all_number[:-1] | (table.doc[1:] != table.doc[:-1])
    run = np.cumsum(opens)
    out = np.zeros(n)
    starts = np.flatnonzero(number_start)
    if len(starts):
        _, first = np.unique(run[starts], return_index=True)
        out[starts[first]] = 1.0
    return out


# ---------------------------------------------------------------- tokens
_WORD_CHAR = re.compile(r"\w")


@lru_cache(maxsize=1)
def _word_table() -> np.ndarray:
    """bool per BMP code point: a regex word character. doc_features' tokens (runs of [^\\w\\s]
    made spaces, then split on white space) are exactly the runs of these characters."""
    return np.fromiter((_WORD_CHAR.match(chr(cp)) is not None for cp in range(0x10000)), dtype=bool, count=0x10000)


def _word_chars(cps: np.ndarray) -> np.ndarray:
    """bool per code point of the text: a regex word character."""
    word = np.take(_word_table(), cps, mode="clip")  # (an astral code point reads 0xFFFF: no word)
    if len(cps) and cps.max() > 0xFFFF:  # few: each distinct astral code point asked once
        astral = np.flatnonzero(cps > 0xFFFF)
        uniq, inv = np.unique(cps[astral], return_inverse=True)
        word[astral] = np.fromiter((_WORD_CHAR.match(chr(c)) is not None for c in uniq.tolist()),
                                   dtype=bool, count=len(uniq))[inv]
    return word


@dataclass
class TokenTable:
    """Every token of the batch in order: its line (row) and the id of its word in the batch's
    vocabulary (numbered in order of first appearance in the batch)."""

    words: list[str]  # the vocabulary
    gid: np.ndarray  # int64 per token
    row: np.ndarray  # int64 per token
    tcount: np.ndarray  # int64 per row
    word_len: np.ndarray  # int64 per word: characters
    word_flags: np.ndarray  # int8 per word: newsclean.cleaners.model.features._word_flags
    is_stop: np.ndarray  # bool per token
    is_month: np.ndarray  # bool per token
    is_english: np.ndarray  # bool per token: an English function word
    pair: np.ndarray  # int64 per token: its (document, word), numbered in order of first appearance
    in_line: np.ndarray  # int64 per token: tokens of its word in its line

    @classmethod
    def build(cls, table: LinesTable, searched: SearchedText) -> "TokenTable":
        word = _word_chars(searched.cps)
        padded = np.zeros(len(word) + 2, dtype=np.int8)
        padded[1:-1] = word
        change = padded[1:] != padded[:-1]
        edges = np.flatnonzero(change)  # token starts and ends, alternating
        st, en = edges[0::2], edges[1::2]
        # each piece's tokens (its token starts), then each token's row
        per_piece = np.add.reduceat(change[:-1] & word, searched.piece_start, dtype=np.int64)
        per_piece[searched.piece_len == 0] = 0  # (reduceat reads an empty piece's next character)
        row = np.repeat(searched.piece_row, per_piece)
        mine = row >= 0  # not a separator's token
        st, en = st[mine], en[mine]
        tcount = np.bincount(row[mine], minlength=table.n)
        words, gid, word_len = _vocabulary(searched, st, en)
        flags = np.fromiter(map(_word_flags().get, words, repeat(0)), dtype=np.int8, count=len(words))
        return cls.of(table, words, gid, tcount, word_len, flags)

    @classmethod
    def of(cls, table: LinesTable, words: list[str], gid: np.ndarray, tcount: np.ndarray, word_len: np.ndarray,
           word_flags: np.ndarray) -> "TokenTable":
        """The table of the tokens `gid` (word ids into `words`, row after row, tcount per row)."""
        row = np.repeat(np.arange(table.n, dtype=np.int64), tcount)
        if not len(gid):
            z = np.zeros(0, dtype=np.int64)
            return cls([], z, row, tcount, z, z.astype(np.int8), z > 0, z > 0, z > 0, z, z)
        flags = word_flags[gid]
        pair, in_line = _word_runs(gid, row, table.doc[row], len(words))
        return cls(words, gid, row, tcount, word_len, word_flags, (flags & 1) > 0, (flags & 2) > 0, (flags & 4) > 0,
                   pair, in_line)

    def per_doc(self, table: LinesTable) -> list[Tokens]:
        """Each document's (ids, tcount) as doc_features keeps them: a word's id is the number of
        distinct words before its first appearance in the document."""
        tok_edges = np.concatenate([[0], np.cumsum(self.tcount)])[table.offsets]
        has = tok_edges[1:] > tok_edges[:-1]
        base = np.zeros(len(table.n_lines), dtype=np.int64)
        base[has] = self.pair[tok_edges[:-1][has]]  # a document's first token opens its first pair
        ids = self.pair - base[table.doc[self.row]]
        # one (ids, tcount) pair per document is handed out: slicing them is per-document bookkeeping
        t, r = tok_edges.tolist(), table.offsets.tolist()
        return [(ids[t[k]:t[k + 1]], self.tcount[r[k]:r[k + 1]]) for k in range(len(table.n_lines))]


def _stable_order(ids: np.ndarray, n_ids: int) -> np.ndarray:
    """np.argsort(ids, kind="stable"), as a radix sort while the ids fit 16 bits."""
    return np.argsort(ids.astype(np.uint16) if n_ids <= 1 << 16 else ids, kind="stable")


def _changes(*keys: np.ndarray) -> np.ndarray:
    """bool: the elements that differ from the one before in some key (the first one too)."""
    change = np.zeros(len(keys[0]), dtype=bool)
    change[:1] = True
    for k in keys:
        change[1:] |= k[1:] != k[:-1]
    return change


def _runs(*keys: np.ndarray) -> np.ndarray:
    """Run ids (0, 1, ...) of consecutive elements equal in every key."""
    return np.cumsum(_changes(*keys)) - 1


def _word_runs(gid: np.ndarray, row: np.ndarray, doc: np.ndarray, n_words: int) -> tuple[np.ndarray, np.ndarray]:
    """Per token: its (document, word) pair, numbered in order of first appearance (so document
    after document), and how many tokens of its word its line holds. One stable sort by word id
    puts each word's tokens together in text order, where a document's or a line's tokens of the
    word are consecutive."""
    order = _stable_order(gid, n_words)
    g = gid[order]
    opens = _changes(g, doc[order])  # a word's first token in a document opens a pair
    first = np.zeros(len(gid), dtype=bool)
    first[order[opens]] = True
    pair_at_first = np.cumsum(first) - 1  # (read at the pairs' first tokens: by first appearance)
    pair = np.empty(len(gid), dtype=np.int64)
    pair[order] = pair_at_first[order[opens]][np.cumsum(opens) - 1]
    line_run = _runs(g, row[order])
    in_line = np.empty(len(gid), dtype=np.int64)
    in_line[order] = np.bincount(line_run)[line_run]
    return pair, in_line


def _vocabulary(searched: SearchedText, st: np.ndarray, en: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The distinct token strings (first appearance order), each token's word id and each word's
    length: the tokens are slices of the text's UTF-32 bytes, hashed by one Arrow dictionary encoding."""
    if not len(st):
        return [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    data = pa.py_buffer(searched.cps)
    bounds = np.empty(2 * len(st), dtype=np.int64)  # token, gap, token, gap, ..., token
    bounds[0::2] = 4 * st
    bounds[1::2] = 4 * en
    spans = pa.Array.from_buffers(pa.large_binary(), len(bounds) - 1, [None, pa.py_buffer(bounds), data])
    enc = pc.dictionary_encode(spans.take(pa.array(np.arange(0, len(bounds), 2))))
    gid = enc.indices.to_numpy().astype(np.int64)
    vocab = enc.dictionary
    offs = np.frombuffer(vocab.buffers()[1], dtype=np.int64)[vocab.offset:vocab.offset + len(vocab) + 1]
    chars = np.frombuffer(vocab.buffers()[2], dtype=np.uint32)[offs[0] // 4:offs[-1] // 4]
    cut = (offs - offs[0]) // 4
    # one decode of all the words, "\n" between them ("\n" is no word character)
    words = np.insert(chars, cut[1:-1], 10).tobytes().decode("utf-32-le").split("\n")
    return words, gid, np.diff(cut)


def _lexicon_features(toks: TokenTable, lexicon: dict[str, float], n: int, put) -> None:
    """Learned word log-odds of debris: mean, max and min over the line's known words."""
    lex_v = np.fromiter(map(lexicon.get, toks.words, repeat(np.nan)), dtype=np.float64, count=len(toks.words))
    tv = lex_v[toks.gid]
    known = ~np.isnan(tv)
    n_known = np.bincount(toks.row, weights=known, minlength=n)
    tz = np.where(known, tv, 0.0)
    put("lex_mean", np.bincount(toks.row, weights=tz, minlength=n) / np.maximum(n_known, 1))
    has_tok = toks.tcount > 0
    st = np.concatenate([[0], np.cumsum(toks.tcount)[:-1]])[has_tok]
    mx = np.zeros(n)
    mn = np.zeros(n)
    mx[has_tok] = np.maximum.reduceat(np.where(known, tv, -np.inf), st)
    mn[has_tok] = np.minimum.reduceat(np.where(known, tv, np.inf), st)
    put("lex_max", np.where(n_known > 0, mx, 0.0))
    put("lex_min", np.where(n_known > 0, mn, 0.0))
    put("lex_known", n_known / np.maximum(toks.tcount, 1))


def _topic_fit(toks: TokenTable, textual: np.ndarray, n: int, put) -> None:
    """Share of the line's content words found in the document's OTHER textual lines (fit_*), and
    of its words found more than once anywhere in the document (freq_share)."""
    if not len(toks.words):
        put("fit_share", -np.ones(n))
        put("fit_log", -np.ones(n))
        return
    content = ~toks.is_stop & (toks.word_len > 2)[toks.gid]
    body = (textual[toks.row] > 0) & content  # content words of textual lines
    n_pairs = int(toks.pair.max()) + 1
    B = np.bincount(toks.pair[body], minlength=n_pairs).astype(np.float64)
    # minus the line's own occurrences when the line itself is textual (a line's tokens of one word
    # are all body tokens or none)
    elsewhere = B[toks.pair] - np.where(body, toks.in_line, 0)
    cw = content.astype(np.float64)
    n_content = np.bincount(toks.row, weights=cw, minlength=n)
    hit = np.bincount(toks.row, weights=cw * (elsewhere > 0), minlength=n)
    # log1p of the whole numbers 0..max, read per token: the same float64 as log1p per token
    log_table = np.log1p(np.arange(int(elsewhere.max(initial=0)) + 1, dtype=np.float64))
    log_else = log_table[np.maximum(elsewhere, 0).astype(np.intp)]
    logw = np.bincount(toks.row, weights=cw * log_else, minlength=n)
    has = n_content > 0
    put("fit_share", np.where(has, hit / np.maximum(n_content, 1), -1))
    put("fit_log", np.where(has, logw / np.maximum(n_content, 1), -1))
    # the words' frequency anywhere in the page (menus reuse a small vocabulary too)
    A = np.bincount(toks.pair, minlength=n_pairs).astype(np.float64)
    put("freq_share", np.bincount(toks.row, weights=(A[toks.pair] > 1), minlength=n) / np.maximum(toks.tcount, 1))


def _duplicates_in_doc(table: LinesTable) -> np.ndarray:
    """How many lines of the document are the same text as the line (itself included): a group
    count over (doc, line text) on the lines table."""
    line_ids: dict[str, int] = {}  # (line texts may hold lone surrogates: kept as Python strings)
    lid = np.fromiter(map(line_ids.setdefault, table.lines, map(len, repeat(line_ids))),
                      dtype=np.int64, count=table.n)
    order = _stable_order(lid, len(line_ids))  # each text's lines together, in table order
    run = _runs(lid[order], table.doc[order])
    out = np.empty(table.n)
    out[order] = np.bincount(run)[run]
    return out


# ---------------------------------------------------------------- corpus and position
def _corpus_features(table: LinesTable, contexts: list[DocContext | None], put) -> None:
    """df_* from each document's DocContext (DocContext.empty when None), n_docs_log, n_site_docs_log."""
    # one context object per document: reading its fields is per-document bookkeeping
    ctxs = [c if c is not None else DocContext.empty(int(n)) for c, n in zip(contexts, table.n_lines.tolist())]
    with_rows = [c for c, n in zip(ctxs, table.n_lines.tolist()) if n]
    n_df = np.fromiter((len(c.df) for c in with_rows), dtype=np.int64, count=len(with_rows))
    n_df_site = np.fromiter((len(c.df_site) for c in with_rows), dtype=np.int64, count=len(with_rows))
    if not (np.array_equal(n_df, table.n_lines[table.n_lines > 0]) and np.array_equal(n_df_site, n_df)):
        raise ValueError("a DocContext's df / df_site do not match its document's lines")
    df = np.concatenate([np.asarray(c.df).astype(np.float64) for c in with_rows])
    dfs = np.concatenate([np.asarray(c.df_site).astype(np.float64) for c in with_rows])
    n_docs = np.fromiter((c.n_docs for c in ctxs), dtype=np.float64, count=len(ctxs))
    n_site = np.fromiter((c.n_site_docs for c in ctxs), dtype=np.float64, count=len(ctxs))
    put("df_log", np.log1p(df - 1))
    put("df_frac", (df - 1) / np.maximum(n_docs - 1, 1)[table.doc])
    put("df_site_log", np.log1p(dfs - 1))
    put("df_site_frac", (dfs - 1) / np.maximum(n_site - 1, 1)[table.doc])
    put("n_docs_log", np.log1p(n_docs)[table.doc])
    put("n_site_docs_log", np.log1p(n_site)[table.doc])


def _position_features(table: LinesTable, shape: Shape, put) -> None:
    idx = table.local.astype(np.float64)
    n = table.n_lines[table.doc]
    put("rel_pos", idx / np.maximum(n - 1, 1))
    put("pos_from_start_log", np.log1p(idx))
    put("pos_from_end_log", np.log1p(n - 1 - idx))
    lens = table.lens
    before = np.cumsum(lens) - lens  # characters of the batch before the line
    doc_chars = table.per_doc(np.add, lens, 0)
    put("mass_before", (before - before[table.first_row]) / np.maximum(doc_chars, 1)[table.doc])
    put("n_lines_log", np.log1p(table.n_lines.astype(np.float64))[table.doc])
    put("doc_words_log", np.log1p(table.per_doc(np.add, shape.words, 0.0))[table.doc])


def _window_sums(table: LinesTable, a: np.ndarray, ws: tuple[int, ...]) -> list[np.ndarray]:
    """fx._window_sums within each document: the sum of `a` over the line and the w lines on each
    side, clipped at the document's ends (one cumulative sum over the batch; `a` holds whole
    numbers, so the differences are the document's own)."""
    c = np.concatenate([[0.0], np.cumsum(a)])
    r = np.arange(table.n)
    lo_end, hi_end = table.first_row, table.end_row
    return [c[np.minimum(r + w + 1, hi_end)] - c[np.maximum(r - w, lo_end)] for w in ws]


def _first_max_row(table: LinesTable, values: np.ndarray) -> np.ndarray:
    """Per row, the row of its document's largest value (the first of equals, as np.argmax)."""
    top = table.per_doc(np.maximum, values, -np.inf)[table.doc]
    r = np.arange(table.n)
    return table.per_doc(np.minimum, np.where(values == top, r, table.n), table.n)[table.doc]


def _text_block_features(table: LinesTable, textual: np.ndarray, put) -> None:
    """Distances to textual lines, text mass around the line, the main block and the segments of
    text, within each document; a document without a textual line gets doc_features' far
    distances and zeros."""
    far = np.full(table.n, np.log1p(BIG))
    in_text_doc = (table.per_doc(np.add, textual, 0.0) > 0)[table.doc]
    if not in_text_doc.any():
        put("dist_prev_text_log", far)
        put("dist_next_text_log", far)
        return
    r = np.arange(table.n)
    lo, hi = table.first_row, table.end_row
    is_t = textual > 0
    # the last textual row at or before each row, and the first at or after, within the document
    prev_t = np.maximum.accumulate(np.where(is_t, r, -1))
    next_t = np.minimum.accumulate(np.where(is_t, r, table.n)[::-1])[::-1]
    has_prev = prev_t >= lo
    idx = table.local.astype(np.float64)
    prv = np.where(has_prev, idx - (prev_t - lo), BIG)
    nxt = np.where(next_t < hi, (next_t - lo) - idx, BIG)
    # distance to a textual line other than itself: the nearest one strictly before / after
    prev_strict = np.concatenate([[-1], prev_t[:-1]])
    next_strict = np.concatenate([next_t[1:], [table.n]])
    prv_strict = np.where(is_t, np.where(prev_strict >= lo, idx - (prev_strict - lo), BIG), prv)
    nxt_strict = np.where(is_t, np.where(next_strict < hi, (next_strict - lo) - idx, BIG), nxt)
    first_t = table.per_doc(np.minimum, np.where(is_t, r, table.n), table.n)[table.doc]
    last_t = table.per_doc(np.maximum, np.where(is_t, r, -1), -1)[table.doc]
    tmass = textual * table.lens
    tot = np.maximum(table.per_doc(np.add, tmass, 0.0), 1)[table.doc]
    tcum_all = np.cumsum(tmass)
    tcum = tcum_all - (tcum_all - tmass)[lo]  # the document's own running sum (whole numbers)
    sum2, sum5, sum10 = _window_sums(table, tmass, (2, 5, 10))
    main = _first_max_row(table, sum5) - lo
    cols = {
        "dist_prev_text_log": np.log1p(prv_strict),
        "dist_next_text_log": np.log1p(nxt_strict),
        "inside_text_span": (r >= first_t) & (r <= last_t),
        "text_mass_before": (tcum - tmass) / tot,
        "text_mass_after": (tot - tcum) / tot,
        "text_win2": sum2 / tot,
        "text_win5": sum5 / tot,
        "text_win10": sum10 / tot,
        "dist_main_block": np.log1p(np.abs(idx - main)) * np.sign(idx - main),
        "gap_before_log": np.log1p(prv),
        "gap_after_log": np.log1p(nxt),
    }
    segs = TextSegments(table, is_t, prev_t, has_prev, tmass)
    cols.update(segs.features(3, tot, with_rank=True))
    cols.update(segs.features(6, tot, with_rank=False))
    for name, values in cols.items():
        # a document without text: far from text (as doc_features' default), 0 elsewhere
        default = far if name in ("dist_prev_text_log", "dist_next_text_log") else 0
        put(name, np.where(in_text_doc, values, default))


class TextSegments:
    """Blocks of text: textual lines separated by at most `gap` other lines form a segment (the
    article is usually the heaviest one); segments are numbered over the batch, document by
    document."""

    def __init__(self, table: LinesTable, is_t: np.ndarray, prev_t: np.ndarray, has_prev: np.ndarray,
                 tmass: np.ndarray):
        self.table = table
        self.tpos = np.flatnonzero(is_t)
        self.tdoc = table.doc[self.tpos]
        self.prev_t = prev_t
        self.has_prev = has_prev
        self.tmass = tmass

    def features(self, gap: int, tot: np.ndarray, with_rank: bool) -> dict[str, np.ndarray]:
        tpos, tdoc, table = self.tpos, self.tdoc, self.table
        brk = np.concatenate([[True], (np.diff(tpos) > gap) | (tdoc[1:] != tdoc[:-1])])
        seg_of_t = np.cumsum(brk) - 1
        S = int(seg_of_t[-1]) + 1
        seg_doc = tdoc[brk]
        seg_first = np.concatenate([[0], np.cumsum(np.bincount(seg_doc, minlength=len(table.n_lines)))])
        smass = np.bincount(seg_of_t, weights=self.tmass[tpos], minlength=S)
        # each line belongs to the segment of the nearest textual line at or before it (lines
        # before the document's first textual line: its first segment)
        seg_at_row = np.zeros(table.n, dtype=np.int64)
        seg_at_row[tpos] = seg_of_t
        doc = table.doc
        line_seg = np.where(self.has_prev, seg_at_row[np.maximum(self.prev_t, 0)],
                            np.minimum(seg_first[:-1][doc], S - 1))  # (rows of documents without text are dropped)
        top = _first_max_segment(smass, seg_doc, seg_first)[doc]
        p = "seg3" if gap == 3 else "seg6"
        out = {
            f"{p}_share": smass[line_seg] / tot,
            f"{p}_is_max": line_seg == top,
            f"{p}_after_max": np.sign(line_seg - top) * np.log1p(np.abs(line_seg - top)),
        }
        if with_rank:
            order = np.lexsort((-smass, seg_doc))  # stable: equal masses keep page order
            rank = np.empty(S)
            rank[order] = np.arange(S) - seg_first[seg_doc[order]]
            out[f"{p}_rank"] = rank[line_seg]
            out["seg3_mass_larger_before"] = _mass_larger_before(smass, seg_doc, seg_first)[line_seg] / tot
            out["seg3_n_text"] = np.log1p(np.bincount(seg_of_t, minlength=S)[line_seg])
        return out


def _first_max_segment(smass: np.ndarray, seg_doc: np.ndarray, seg_first: np.ndarray) -> np.ndarray:
    """Per document (that has segments), the batch index of its heaviest segment (first of equals)."""
    D = len(seg_first) - 1
    has = seg_first[1:] > seg_first[:-1]
    top = np.zeros(D, dtype=np.int64)
    if has.any():
        doc_max = np.full(D, np.inf)
        doc_max[has] = np.maximum.reduceat(smass, seg_first[:-1][has])
        s = np.arange(len(smass))
        top[has] = np.minimum.reduceat(np.where(smass == doc_max[seg_doc], s, len(smass)), seg_first[:-1][has])
    return top


def _mass_larger_before(smass: np.ndarray, seg_doc: np.ndarray, seg_first: np.ndarray) -> np.ndarray:
    """Per segment, the mass of heavier segments earlier in its document, for documents of at most
    400 segments (0 otherwise, as doc_features). Over all pairs (earlier, later) of a document's
    segments; the masses are whole numbers, so the sums are exact in any order."""
    S = len(smass)
    nseg = np.diff(seg_first)
    s = np.arange(S)
    k = np.where(nseg[seg_doc] <= 400, s - seg_first[seg_doc], 0)  # earlier segments in the document
    later = np.repeat(s, k)
    earlier = seg_first[seg_doc[later]] + (np.arange(len(later)) - np.repeat(np.cumsum(k) - k, k))
    heavier = smass[earlier] > smass[later]
    return np.bincount(later, weights=np.where(heavier, smass[earlier], 0.0), minlength=S)


# ---------------------------------------------------------------- neighbours
def _neighbour_features(table: LinesTable, F: np.ndarray) -> None:
    """NEIGHBOUR_BASE columns of the line `s` rows away in the same document, -1 beyond it. The
    shifts' blocks are built side by side and written into F at once (they are adjacent columns)."""
    base = F[:, _NB_SRC]
    n, width = table.n, len(NEIGHBOUR_BASE)
    blocks = np.full((n, len(NEIGHBOUR_SHIFTS), width), -1.0, dtype=np.float32)
    doc_len = table.n_lines[table.doc]
    for k, s in enumerate(NEIGHBOUR_SHIFTS):
        if 0 < s < n:
            blocks[:n - s, k] = base[s:]
        elif 0 < -s < n:
            blocks[-s:, k] = base[:n + s]
        src = table.local + s
        blocks[(src < 0) | (src >= doc_len), k] = -1.0  # beyond the line's own document
    if _NB_DST == [_NB_DST[0] + k * width for k in range(len(NEIGHBOUR_SHIFTS))]:
        F[:, _NB_DST[0]:_NB_DST[0] + blocks.shape[1] * width] = blocks.reshape(n, -1)
    else:  # (not adjacent: one block at a time)
        for k, dst in enumerate(_NB_DST):
            F[:, dst:dst + width] = blocks[:, k]
