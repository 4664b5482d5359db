"""pandera models and Arrow schemas of articles, removed, quarantine and lines.

The models are the documented contract: `newsclean schema` prints them (newsclean.schemas.describe), the
README's column tables are tested against them, and every batch is validated against them before
it is written (newsclean.schemas.validate). Checks that need two tables at once (a removed line must not be
left in its article's text, every removed row belongs to a written document, a source ends in one
place only) are in newsclean.schemas.validate as well and are listed in CROSS_TABLE_CHECKS.
"""
from __future__ import annotations

import datetime as dt
import sys
import types
from collections.abc import Sequence

# pandera registers its Dask annotation types whenever dask is installed (prefect-dask brings it),
# and that imports dask.dataframe, dask.array and scipy on the first validation: 45 MB and 0.4 s in
# every worker process, for types these models never use. Unless this process already uses Dask
# dataframes, pandera is told what it would see without dask: no Dask types (pandas validation is
# unaffected; tests/test_schemas.py checks both).
if "dask.dataframe" not in sys.modules and "pandera.typing.dask" not in sys.modules:
    _no_dask_typing = types.ModuleType("pandera.typing.dask", "pandera's Dask annotations, not loaded by newsclean")
    _no_dask_typing.DASK_INSTALLED = False
    sys.modules["pandera.typing.dask"] = _no_dask_typing

import pandas as pd  # noqa: E402
import pandera.pandas as pa  # noqa: E402
import pyarrow as pa_arrow  # noqa: E402
from pandera.typing import Series  # noqa: E402

from newsclean.cleaners.lines import has_mojibake, has_mojibake_many
from newsclean.cleaners.metadata.dates import EARLIEST
from newsclean.cleaners.metadata.outlets import registrable_domain
from newsclean.cleaners.metadata.resolve import PROVENANCE
from newsclean.cleaners.types import KINDS

HEX16 = r"^[0-9a-f]{16}$"
STAGES = ("discover", "read", "decode", "extract", "clean", "decide", "validate", "timeout")


def _missing(v) -> bool:
    return v is None or (not isinstance(v, str) and pd.isna(v))


NO_BREAK_SPACE = "contains a no-break space"
MOJIBAKE = "contains mojibake (ftfy badness)"


def _cheap_problem(t) -> str | None:
    """text_problem's checks before the mojibake search, in its order."""
    if not isinstance(t, str):
        return "not a string"
    if "\u00a0" in t:
        return NO_BREAK_SPACE
    return None


def text_problem(t) -> str | None:
    """Why a text value is not clean output, or None."""
    return _cheap_problem(t) or (MOJIBAKE if has_mojibake(t) else None)


def text_problems(values: Sequence) -> list[str | None]:
    """text_problem of each value, the mojibake search run over all the values that pass the cheap
    checks at once (has_mojibake_many: ~0.05 against ~1 CPU-ms a dev article body one by one,
    bench/mojibake_check.py)."""
    problems = [_cheap_problem(t) for t in values]
    rest = [i for i, problem in enumerate(problems) if problem is None]
    for i, bad in zip(rest, has_mojibake_many([values[i] for i in rest])):
        problems[i] = MOJIBAKE if bad else None
    return problems


def text_problem_where(t, context: int = 30) -> tuple[str, str] | None:
    """text_problem and where it is: the paragraph and the words around the first offending
    character, so that a person can find it in the source. Only for a text that failed the check."""
    problem = text_problem(t)
    if problem is None:
        return None
    if problem == NO_BREAK_SPACE:
        at = t.index("\u00a0")
    elif problem == MOJIBAKE:
        from ftfy.badness import BADNESS_RE  # what ftfy.badness.is_bad searches for

        at = BADNESS_RE.search(t).start()
    else:
        return problem, problem
    around = t[max(0, at - context): at + context].replace("\n\n", " ")  # repr shows the character itself
    paragraph = t.count("\n\n", 0, at) + 1
    return problem, f"{problem} in paragraph {paragraph}: {around!r}"


class Articles(pa.DataFrameModel):
    """One row per cleaned article."""

    doc_id: Series[str] = pa.Field(str_matches=HEX16, unique=True, description="first 16 hex digits of the SHA-256 of the raw bytes (an archive record's: and its URL)")
    source: Series[str] = pa.Field(unique=True, description="path relative to RAW_DIR (plus #record for record files)")
    url: Series[str] = pa.Field(nullable=True, description="the article's URL, when known")
    title: Series[str] = pa.Field(nullable=True, description='the headline, without a trailing outlet or section label ("… – Opinion", "… – Part 2"; where it is a line of the text, the label is a removed span, rule title_label)')
    title_source: Series[str] = pa.Field(nullable=True, isin=list(PROVENANCE["title"]), description="where the title came from: " + ", ".join(PROVENANCE["title"]))
    text: Series[str] = pa.Field(str_length={"min_value": 1}, description="the clean body, paragraphs joined by a blank line")
    author: Series[str] = pa.Field(nullable=True, description="the author, when a record, the HTML or a byline in the text gives one (several joined by \"; \")")
    author_source: Series[str] = pa.Field(nullable=True, isin=list(PROVENANCE["author"]), description="where the author came from: " + ", ".join(PROVENANCE["author"]))
    outlet: Series[str] = pa.Field(nullable=True, description="the publisher's canonical name")
    outlet_domain: Series[str] = pa.Field(nullable=True, description="the publisher's registrable domain")
    outlet_source: Series[str] = pa.Field(nullable=True, description="where the outlet came from: record, html, url, text")
    published: Series[pa.Date] = pa.Field(nullable=True, description="publication date")
    published_source: Series[str] = pa.Field(nullable=True, description="where the date came from: record, html, url, dateline")
    n_words: Series[int] = pa.Field(ge=1, description="white-space separated words in text")
    n_removed: Series[int] = pa.Field(ge=0, description="removed lines and spans (rows in removed)")
    language: Series[str] = pa.Field(nullable=True, str_matches=r"^[a-z]{2}$", description="the text's language, an ISO 639-1 code (py3langid on its first 2,000 characters); null when the model names none that has one")
    language_score: Series[float] = pa.Field(nullable=True, ge=0, le=1, description="the model's probability for language")
    dup_cluster: Series[str] = pa.Field(str_matches=HEX16, description="doc_id of the representative of the article's near-duplicate cluster (the member published first, else seen first); its own doc_id when it has no near duplicate")
    dup_similarity: Series[float] = pa.Field(ge=0, le=1, description="estimated Jaccard similarity of its text's word shingles to the representative's (MinHash); 1.0 for the representative")
    pipeline_version: Series[str] = pa.Field(description="newsclean version + settings hash + code hash")
    cleaned_at: Series[pd.DatetimeTZDtype] = pa.Field(dtype_kwargs={"unit": "us", "tz": "UTC"}, description="when the row was made (UTC)")

    class Config:
        strict = True
        coerce = True

    @pa.check("text", name="text_is_clean", description="no no-break space and no mojibake left (ftfy.badness.is_bad)")
    def _clean_text(cls, s: Series[str]) -> Series[bool]:
        return pd.Series([problem is None for problem in text_problems(s.tolist())], index=s.index, dtype=bool)

    @pa.check("text", name="text_has_words", description="at least one non-space character")
    def _has_words(cls, s: Series[str]) -> Series[bool]:
        return s.map(lambda t: isinstance(t, str) and bool(t.strip())).astype(bool)

    @pa.check("published", name="published_in_range", description=f"when set: between {EARLIEST.isoformat()} and today")
    def _published_range(cls, s: Series) -> Series[bool]:
        today = dt.date.today()
        return s.map(lambda d: _missing(d) or EARLIEST <= pd.Timestamp(d).date() <= today).astype(bool)

    @pa.check("outlet_domain", name="outlet_domain_is_registrable", description="when set: a registrable domain (public-suffix list), lower case")
    def _domain(cls, s: Series[str]) -> Series[bool]:
        return s.map(lambda d: _missing(d) or registrable_domain(d) == d).astype(bool)

    @pa.dataframe_check(name="representative_similarity_is_1", description="dup_similarity == 1.0 where dup_cluster == doc_id")
    def _representative(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["dup_cluster"] != df["doc_id"]) | (df["dup_similarity"] == 1.0)

    @pa.dataframe_check(name="n_words_matches_text", description="n_words == len(text.split())")
    def _n_words(cls, df: pd.DataFrame) -> Series[bool]:
        return df["text"].map(lambda t: len(t.split()) if isinstance(t, str) else -1) == df["n_words"]


class Removed(pa.DataFrameModel):
    """One row per removed line or span."""

    doc_id: Series[str] = pa.Field(str_matches=HEX16, description="the article (or quarantined document) it was removed from")
    line: Series[int] = pa.Field(ge=1, description="1-based line number in the raw text")
    start: Series[int] = pa.Field(ge=0, description="start offset in the normalised line")
    end: Series[int] = pa.Field(ge=1, description="end offset in the normalised line (exclusive)")
    text: Series[str] = pa.Field(description="the removed text, normalised")
    kind: Series[str] = pa.Field(isin=list(KINDS), description="debris kind")
    rule: Series[str] = pa.Field(description="the rule (or model) that proposed the removal")
    whole_line: Series[bool] = pa.Field(description="the whole line was removed")

    class Config:
        strict = True
        coerce = True

    @pa.dataframe_check(name="start_before_end", description="start < end")
    def _order(cls, df: pd.DataFrame) -> Series[bool]:
        return df["start"] < df["end"]

    @pa.dataframe_check(name="text_matches_offsets", description="len(text) == end - start")
    def _length(cls, df: pd.DataFrame) -> Series[bool]:
        return df["text"].str.len() == df["end"] - df["start"]

    @pa.dataframe_check(name="whole_line_starts_at_0", description="a whole-line removal starts at offset 0")
    def _whole(cls, df: pd.DataFrame) -> Series[bool]:
        return ~df["whole_line"].astype(bool) | (df["start"] == 0)


class Quarantine(pa.DataFrameModel):
    """One row per document that could not be cleaned."""

    source: Series[str] = pa.Field(unique=True, description="the input file (plus #record for record files)")
    doc_id: Series[str] = pa.Field(nullable=True, str_matches=HEX16, description="doc_id when the bytes could be read")
    stage: Series[str] = pa.Field(isin=list(STAGES), description="the step that failed")
    error: Series[str] = pa.Field(str_length={"min_value": 10}, description="what went wrong and what to do about it")

    class Config:
        strict = True
        coerce = True


class Lines(pa.DataFrameModel):
    """One row per non-empty normalised input line of each article (of an HTML page: of its extracted body): what removed's line, start and end index. Empty when the setting audit_lines is off."""

    doc_id: Series[str] = pa.Field(str_matches=HEX16, description="the article the line belongs to")
    line: Series[int] = pa.Field(ge=1, description="1-based line number in the raw text (removed.line)")
    text: Series[str] = pa.Field(str_length={"min_value": 1}, description="the normalised line (removed.start and removed.end are offsets into it)")

    class Config:
        strict = True
        coerce = True

    @pa.dataframe_check(name="one_row_per_line", description="no two rows share doc_id and line")
    def _once(cls, df: pd.DataFrame) -> Series[bool]:
        return ~df.duplicated(["doc_id", "line"], keep=False)


MODELS = {"articles": Articles, "removed": Removed, "quarantine": Quarantine, "lines": Lines}

# Checks over more than one table (implemented in newsclean.schemas.validate): name -> (tables, meaning).
CROSS_TABLE_CHECKS = {
    "removed_line_not_in_text": (("articles", "removed"), "no whole line that removed lists for a document is one of the lines its text was made from (positional; the same words may rightly stay elsewhere, e.g. a subheading repeated in a table of contents)"),
    "removed_doc_id_known": (("removed", "articles", "quarantine"), "every removed.doc_id is an articles.doc_id or a quarantine.doc_id"),
    "source_in_one_place": (("articles", "quarantine"), "no source is both an article and quarantined"),
    "lines_doc_id_known": (("lines", "articles"), "every lines.doc_id is an articles.doc_id"),
    "removed_span_in_lines": (("removed", "lines"), "where lines holds a document's lines, every removed row's text is its line's text from start to end"),
    "dup_cluster_is_an_article": (("articles",), "every dup_cluster is the doc_id of an article that is its own representative (its dup_cluster is its doc_id)"),
}

_str = pa_arrow.string()
ARROW_SCHEMAS = {
    "articles": pa_arrow.schema([
        ("doc_id", _str), ("source", _str), ("url", _str), ("title", _str), ("title_source", _str), ("text", _str),
        ("author", _str), ("author_source", _str),
        ("outlet", _str), ("outlet_domain", _str), ("outlet_source", _str), ("published", pa_arrow.date32()),
        ("published_source", _str), ("n_words", pa_arrow.int64()), ("n_removed", pa_arrow.int64()),
        ("language", _str), ("language_score", pa_arrow.float64()), ("dup_cluster", _str), ("dup_similarity", pa_arrow.float64()),
        ("pipeline_version", _str), ("cleaned_at", pa_arrow.timestamp("us", tz="UTC")),
    ]),
    "removed": pa_arrow.schema([
        ("doc_id", _str), ("line", pa_arrow.int64()), ("start", pa_arrow.int64()), ("end", pa_arrow.int64()),
        ("text", _str), ("kind", _str), ("rule", _str), ("whole_line", pa_arrow.bool_()),
    ]),
    "quarantine": pa_arrow.schema([("source", _str), ("doc_id", _str), ("stage", _str), ("error", _str)]),
    "lines": pa_arrow.schema([("doc_id", _str), ("line", pa_arrow.int64()), ("text", _str)]),
}
