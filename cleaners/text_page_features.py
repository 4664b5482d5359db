"""What kind of page a plain text is, as numbers: its lines' shapes, the line model's view of them
and what the decision kept.

newsclean.cleaners.page_kind reads these (text_kind_reason) to tell an article given as full-page
text from a listing of teasers, a forum thread, a product, service or documentation page, as
page_features does for an HTML page from its markup. Text has no markup, so the signals are the
shapes any such page's lines take, never one site's wording:

- line shapes: the share of short lines, of headline-shaped lines (a few title-cased words, no
  full stop: teasers, product names), of prose lines, of lines with a date or a clock time (a
  listing's or a thread's stamps), of duplicated lines (a thread's "Reply", a listing's "Read
  more"), of punctuation-heavy lines (code, paths);
- repetition of a line template: how much of the page is a sequence of three line shapes that
  recurs (headline, date, summary; author, time, post);
- the line model's P(debris) over the page: its mean, quantiles and the largest run of body lines;
- what the decision kept: its share of the page, the same line-shape shares over the kept lines
  alone (an article's are prose, a service page's short paragraphs and headings), and what it
  removed, by kind.

The line rows are the line model's own features of the first decision pass (page_rows: the line
model computes them anyway, and hands them over on request: newsclean.cleaners.engine.scoring.
with_page_rows), aggregated per page with numpy once the text is decided (text_page_features).
Counts are raw, like page_features'.
"""
from __future__ import annotations

from collections import Counter
from operator import attrgetter, itemgetter

import numpy as np


SHORT_WORDS = 3  # a label, a button, a name or a date
HEADLINE_WORDS = (4, 15)  # a teaser's headline, a product's name
HEADLINE_CASED = 0.6  # share of its words that start upper case
PROSE_WORDS = 20  # a sentence of prose, not a teaser's summary
BODY_P = 0.5  # P(debris) under this: a line the model reads as body
TEMPLATE_REPEAT = 3  # a sequence of three line shapes seen this often is a template (cards, posts)
WORD_BUCKETS = (0, 1, 4, 9, 20, 40)  # word-count classes of a line's shape
STAMP_WORDS = 10  # a line with a date or a time this short is a stamp (a post's, a teaser's, a byline's)
PUNCT_HEAVY = 0.15  # share of punctuation in a line of code, a path, a table row
# who the kept text speaks as: a post says I, a company's page we, a pitch or a manual you (English
# pronouns between spaces in the lower-cased kept text: str.count is much cheaper than a pattern)
PERSONS = {"kept_i": (" i ", " my "), "kept_we": (" we ", " our "), "kept_you": (" you ", " your ")}
QUANTILES = (0.1, 0.5, 0.9)

_PAGE = ("lines", "chars_log", "words_per_line", "dup_max", "n_dated", "n_timed", "n_headlines",
         "headline_run_max", "short_run_max", "prose_gap_max", "template_share", "template_max", "shapes_distinct",
         "p_chars_mean", "p_q10", "p_q50", "p_q90", "p_low_share", "p_high_share", "body_runs",
         "body_run_chars_share", "body_run_lines", "body_run_start", "seg3_max", "seg6_max", "stamps", "prose_runs",
         "stamps_per_prose")
# line shapes whose share of the lines (of the characters, for prose_chars) is taken over the whole
# page and over the lines the decision kept; then line-model features whose mean is, and P(debris)
_SHAPES = ("short", "headline", "prose", "prose_chars", "ends_sent", "ends_colon", "date", "time", "url",
           "number_only", "bullet", "byline", "starts_digit", "dup", "dup_short", "punct_heavy")
_MEANS_OF = ("digit_ratio", "stop_ratio", "lex_mean", "lex_min", "lex_max", "lex_known", "symbol_ratio", "sep_ratio",
             "upper_ratio", "comma_per_word", "mean_word_len", "fit_share", "p")
_PER_LINE = (*(f"{n}_share" for n in _SHAPES), *(f"{n}_mean" for n in _MEANS_OF))
_KEPT = ("kept_lines", "kept_chars_share", "kept_words_log", "kept_words_per_line", "kept_words_median", "has_title",
         "title_at", "kept_first_at", "kept_last_at", "kept_p_max", "prose_outside_chars_share", "stamps_in_kept",
         "stamps_below_kept", "title_words", "title_question", "kept_i", "kept_we", "kept_you", "removed_navigation",
         "removed_related", "removed_comments", "removed_cta", "removed_other")
TEXT_FEATURE_NAMES: tuple[str, ...] = (*_PAGE, *_PER_LINE, *(f"kept_{n}" for n in _PER_LINE), *_KEPT)
INDEX = {name: i for i, name in enumerate(TEXT_FEATURE_NAMES)}
# the line model's feature columns a page's rows carry (newsclean.cleaners.model.features), then P(debris)
COLUMNS = ("n_chars", "n_words", "ends_sent", "ends_colon", "title_case_ratio", "date", "time", "url",
           "number_only", "bullet", "byline", "starts_digit", "dup_in_doc", "punct_ratio", "seg3_share", "seg6_share",
           *_MEANS_OF[:-1])
_REMOVED = {"navigation": "removed_navigation", "tag_list": "removed_navigation",
            "related_headline": "removed_related", "comments": "removed_comments",
            "call_to_action": "removed_cta"}
_C = {name: i for i, name in enumerate(COLUMNS)}
# the COLUMNS whose share of lines with a value over zero is a _SHAPES entry, in _SHAPES order
_FLAGS = [_C[c] for c in ("ends_sent", "ends_colon", "date", "time", "url", "number_only", "bullet", "byline",
                          "starts_digit")]
_MEANS = [_C[c] for c in _MEANS_OF[:-1]]  # the rows' columns of _MEANS_OF (P(debris) is the rows' last)
_STAMP = len(_PER_LINE)  # the per-line matrix's column after the _PER_LINE values: the stamps


def page_rows(X: np.ndarray, p: np.ndarray, names: dict[str, int]) -> np.ndarray:
    """A page's rows for text_page_features: its non-empty lines' COLUMNS of the line model's
    features `X` (columns named by `names`) and their P(debris) `p`, float64. What the line model
    hands over on request (newsclean.cleaners.model.LineModel.analyse_many)."""
    return np.column_stack([X[:, [names[c] for c in COLUMNS]].astype(np.float64), p])


_NO = np.zeros(1, dtype=bool)


def _runs(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends (exclusive) of the runs of True in a 1-d bool array."""
    edges = np.diff(np.concatenate((_NO, flags, _NO)).view(np.int8))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


def _gaps(at: np.ndarray, n: int) -> np.ndarray:
    """The distances between consecutive positions `at` of a 1-d array of n, from -1 to n."""
    return np.diff(np.concatenate(((-1,), at, (n,))))


def _longest_run(flags: np.ndarray) -> int:
    return int(_gaps(np.flatnonzero(~flags), len(flags)).max()) - 1


def text_page_features(rows: np.ndarray, decision, lines: list[str]) -> tuple[float, ...]:
    """TEXT_FEATURE_NAMES of a decided page: `rows` (page_rows, one per non-empty line of
    `lines`, the normalised lines), and what the decision (newsclean.cleaners.decide.Decision)
    kept of them and removed. Per-line values are one matrix, summed over the page and over the
    kept lines in one call each."""
    f = dict.fromkeys(TEXT_FEATURE_NAMES, 0.0)
    n = len(rows)
    if not n:
        return tuple(f.values())
    chars = np.expm1(rows[:, _C["n_chars"]])  # the features hold log1p(characters)
    words, cased, dup, p = rows[:, _C["n_words"]], rows[:, _C["title_case_ratio"]], rows[:, _C["dup_in_doc"]], rows[:, -1]
    flags = rows[:, _FLAGS] > 0
    ends, dated, timed = flags[:, 0], flags[:, 2], flags[:, 3]
    total = max(float(chars.sum()), 1.0)
    short = words <= SHORT_WORDS
    headline = (words >= HEADLINE_WORDS[0]) & (words <= HEADLINE_WORDS[1]) & (cased >= HEADLINE_CASED) & ~ends
    prose = (words >= PROSE_WORDS) & ends
    dupd = dup > 1
    m = np.empty((n, len(_PER_LINE) + 1))  # the _PER_LINE values per line, then whether the line is a stamp
    m[:, 0], m[:, 1], m[:, 2], m[:, 3] = short, headline, prose, chars * prose
    m[:, 4:13] = flags
    m[:, 13], m[:, 14], m[:, 15] = dupd, dupd & short, rows[:, _C["punct_ratio"]] >= PUNCT_HEAVY
    m[:, len(_SHAPES):_STAMP - 1] = rows[:, _MEANS]
    m[:, _STAMP - 1] = p
    m[:, _STAMP] = (dated | timed) & (words <= STAMP_WORDS)
    sums = m.sum(axis=0)
    shares = sums[:_STAMP] / n
    shares[3] = sums[3] / total
    # a line's shape: its word-count class, whether it ends a sentence, is title-cased, has a date
    # or a time; three consecutive shapes that recur TEMPLATE_REPEAT times make a template
    shape = (np.searchsorted(WORD_BUCKETS, words, side="right") * 16 + ends * 8 + (cased >= HEADLINE_CASED) * 4
             + dated * 2 + timed)
    if n >= 3:
        _, counts = np.unique(shape[:-2] * 16384 + shape[1:-1] * 128 + shape[2:], return_counts=True)
        f["template_share"] = float(counts[counts >= TEMPLATE_REPEAT].sum()) / (n - 2)
        f["template_max"] = float(counts.max())
    starts, ends_ = _runs(p < BODY_P)
    if len(starts):
        cum = np.concatenate(([0.0], np.cumsum(chars)))
        mass = cum[ends_] - cum[starts]
        k = int(np.argmax(mass))
        f["body_run_chars_share"], f["body_run_lines"], f["body_run_start"] = \
            float(mass[k]) / total, float(ends_[k] - starts[k]), float(starts[k]) / n
    prose_at = np.flatnonzero(prose)
    p_sorted = np.sort(p)
    f.update(
        lines=n, chars_log=np.log1p(total), words_per_line=float(words.mean()),
        dup_max=float(dup.max()), n_dated=int(dated.sum()),
        n_timed=int(timed.sum()), n_headlines=sums[1], headline_run_max=_longest_run(headline),
        short_run_max=_longest_run(short),
        prose_gap_max=float(_gaps(prose_at, n).max()) / n,
        shapes_distinct=int(np.count_nonzero(np.bincount(shape, minlength=128))) / n,
        p_chars_mean=float(p @ chars) / total,
        **dict(zip(("p_q10", "p_q50", "p_q90"), p_sorted[[int(q * (n - 1)) for q in QUANTILES]].tolist())),
        p_low_share=float(np.count_nonzero(p < 0.2)) / n, p_high_share=float(np.count_nonzero(p > 0.8)) / n,
        body_runs=len(starts), seg3_max=float(rows[:, _C["seg3_share"]].max()),
        seg6_max=float(rows[:, _C["seg6_share"]].max()), stamps=sums[_STAMP],
        prose_runs=int(np.count_nonzero(np.diff(prose_at) > 1)) + bool(len(prose_at)),
        stamps_per_prose=sums[_STAMP] / (sums[2] + 1.0),
    )
    f.update(zip(_PER_LINE, shares.tolist()))
    # the rows of the kept lines: a line's row is its place among the non-empty lines
    numbers = np.flatnonzero(np.fromiter(map(bool, lines), dtype=bool, count=len(lines))) + 1
    kept_rows = np.searchsorted(numbers, np.fromiter(map(attrgetter("number"), map(itemgetter(0), decision.kept)),
                                                     dtype=np.int64, count=len(decision.kept)))
    kept_rows = kept_rows[kept_rows < n]
    if len(kept_rows):
        kept = m[kept_rows].sum(axis=0)
        k = len(kept_rows)
        kept_chars = float(chars[kept_rows].sum())
        kept_shares = kept[:_STAMP] / k
        kept_shares[3] = kept[3] / max(kept_chars, 1.0)
        f.update(zip((f"kept_{name}" for name in _PER_LINE), kept_shares.tolist()))
        kw = words[kept_rows]
        kept_words = float(kw.sum())
        kept_text = " " + " ".join(map(itemgetter(1), decision.kept)).lower() + " "
        f.update(
            kept_lines=k, kept_chars_share=kept_chars / total, kept_words_log=np.log1p(kept_words),
            kept_words_per_line=kept_words / k, kept_words_median=float(np.sort(kw)[k // 2]),
            kept_first_at=kept_rows[0] / n, kept_last_at=kept_rows[-1] / n, kept_p_max=float(p[kept_rows].max()),
            prose_outside_chars_share=(sums[3] - kept[3]) / total, stamps_in_kept=kept[_STAMP],
            stamps_below_kept=float(m[kept_rows[-1] + 1:, _STAMP].sum()),
            **{name: sum(map(kept_text.count, words_of)) / max(kept_words, 1.0) for name, words_of in PERSONS.items()},
        )
    if decision.title is not None:
        title = decision.title.text
        f.update(has_title=1.0, title_at=min(1.0, np.searchsorted(numbers, decision.title.number) / n),
                 title_words=len(title.split()), title_question=float(title.rstrip().endswith("?")))
    for kind, count in Counter(map(attrgetter("kind"), decision.spans)).items():
        f[_REMOVED.get(kind, "removed_other")] += count
    return tuple(map(float, f.values()))


def feature(values: tuple[float, ...], name: str) -> float:
    """One named value of text_page_features' tuple."""
    return values[INDEX[name]]
