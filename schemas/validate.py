"""Validate a batch's rows against the models before they are written, and the written tables
against each other.

Validation is lazy: pandera collects every failure at once. An article row that fails a check
moves to quarantine (stage "validate") with the names of the checks it failed, together with its
removed rows, and the run goes on and counts it. So does an article whose removed rows fail, or
whose text still holds a line the removed table says was removed. A quarantine row that fails its
own checks is rewritten into a valid one that keeps the original message.

`check_tables` runs the cross-table checks over the merged tables; the write step calls it before
anything is renamed into OUT_DIR.
"""
from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.errors
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from newsclean.cleaners.batch import BatchResult, duplicate_reason
from newsclean.schemas.tables import ARROW_SCHEMAS, HEX16, MODELS, MOJIBAKE, STAGES, text_problem_where

_HEX16 = re.compile(HEX16)


def to_arrow(name: str, rows: list[dict]) -> pa.Table:
    """The rows as table `name` is written."""
    return pa.Table.from_pylist(rows, schema=ARROW_SCHEMAS[name])


# Each table's date columns: pyarrow writes a datetime there as its own calendar day (a time zone's
# day, silently), where pandera's date type refuses it
_DATE_COLUMNS = {name: [f.name for f in schema if pa.types.is_date(f.type)] for name, schema in ARROW_SCHEMAS.items()}


def arrow_table(name: str, rows: list[dict]) -> pa.Table | None:
    """to_arrow, or None when a value does not fit its column (a row that fails its checks:
    pandera then reads the rows as given, and says which). A datetime in a date column does not
    fit it."""
    dates = _DATE_COLUMNS[name]
    if dates and any(isinstance(row.get(column), dt.datetime) for column in dates for row in rows):
        return None
    try:
        return to_arrow(name, rows)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return None


def frame(name: str, rows: list[dict], table: pa.Table | None = None) -> pd.DataFrame:
    """The rows as pandera validates them: from their Arrow table (`table`, or built here), which
    the writer then writes as it is; pandas builds a frame from a list of dicts ~10x slower."""
    table = arrow_table(name, rows) if table is None else table
    if table is None:
        return pd.DataFrame(rows, columns=ARROW_SCHEMAS[name].names)
    return table.to_pandas()


def _validate(name: str, df: pd.DataFrame) -> pd.DataFrame | None:
    """pandera's failure cases, or None when the frame passes."""
    try:
        MODELS[name].validate(df, lazy=True)
        return None
    except pandera.errors.SchemaErrors as exc:
        return exc.failure_cases


def _check_name(case) -> str:
    """"column:check" for a column's check, the check's name alone for a check on whole rows."""
    if case.get("schema_context") == "Column" and case.get("column"):
        return f"{case['column']}:{case.get('check')}"
    return str(case.get("check"))


def failing_rows(name: str, rows: list[dict], table: pa.Table | None = None) -> dict[int, list[str]]:
    """Row index -> names of the checks it failed ("column:check"). Empty when everything passes.
    `table`: the rows' Arrow table (arrow_table), when the caller has it.

    A failure pandera cannot pin on a row (a column that cannot be coerced as a whole) is pinned by
    validating the rows one at a time."""
    if not rows:
        return {}
    cases = _validate(name, frame(name, rows, table))
    if cases is None:
        return {}
    fails: dict[int, list[str]] = {}
    unpinned = False
    for _, case in cases.iterrows():
        idx = case.get("index")
        if idx is None or pd.isna(idx):
            unpinned = True
            continue
        check = _check_name(case)
        fails.setdefault(int(idx), [])
        if check not in fails[int(idx)]:
            fails[int(idx)].append(check)
    if unpinned:
        for i, row in enumerate(rows):
            one = _validate(name, frame(name, [row]))
            if one is None:
                continue
            for _, case in one.iterrows():
                check = _check_name(case)
                fails.setdefault(i, [])
                if check not in fails[i]:
                    fails[i].append(check)
    return fails


# Rules that remove a repeated copy of a paragraph whose first copy stays in the text by design
# (newsclean.cleaners.decide and newsclean.cleaners.pipeline's HTML path): their rows are exempt from the removed-line
# check.
COPY_RULES = frozenset({"repeated_paragraph"})


def removed_lines_left(articles: list[dict], removed: list[dict],
                       kept_lines: dict[str, tuple[int, ...]] | None = None) -> set[str]:
    """doc_ids whose text still holds a whole line the removed table lists.

    Where the pipeline reported which raw lines it kept (`kept_lines`), the check is positional:
    a removed line must not be a kept one. The same words may rightly stay elsewhere (a table of
    contents above the article repeats its subheadings; the copy in the contents is debris, the
    subheading is not). Without positions, a removed line's text must not be a paragraph of the
    text (other than a removed repeated copy, see COPY_RULES)."""
    kept_lines = kept_lines or {}
    kept = {doc_id: set(lines) for doc_id, lines in kept_lines.items()}
    paragraphs = {a["doc_id"]: set(a["text"].split("\n\n")) for a in articles
                  if isinstance(a.get("text"), str) and a["doc_id"] not in kept}
    left = set()
    for r in removed:
        if not r.get("whole_line"):
            continue
        doc_id = r["doc_id"]
        if doc_id in kept:
            if r["line"] in kept[doc_id]:
                left.add(doc_id)
        elif r.get("rule") not in COPY_RULES and doc_id in paragraphs and r["text"] in paragraphs[doc_id]:
            left.add(doc_id)
    return left


# Mojibake left in a cleaned text is mojibake ftfy could not undo: bytes of a character were lost
# or changed before the file reached newsclean (a UTF-8 check mark cut to its first two bytes reads
# "âœ"). The person can act on the source; anything else failing a check is a bug to report.
MOJIBAKE_ADVICE = ("ftfy could not repair it: bytes of a character were lost or changed before the file was saved; "
                   "check how the source was fetched, decoded and saved")


def article_failure(row: dict, checks: list[str]) -> str:
    """The quarantine reason for an article row that failed `checks`: what failed, where in the
    text when the text is not clean, and what a person can do about it."""
    reason = "output failed schema checks: " + ", ".join(checks)
    problem, where = (text_problem_where(row.get("text")) if "text:text_is_clean" in checks else None) or (None, "")
    if where:
        reason += f" ({where})"
    advice = MOJIBAKE_ADVICE if problem == MOJIBAKE else "please report it with this file"
    return reason + "; the document was not written, " + advice


def spans_not_in_lines(removed: list[dict], lines: list[dict]) -> set[str]:
    """doc_ids with lines rows where a removed row's text is not its line's text[start:end] (a
    removed row must be resolvable from the output alone). Documents without lines rows are not
    checked (Settings.audit_lines off)."""
    text_of = {(r["doc_id"], r["line"]): r["text"] for r in lines}
    with_lines = {doc_id for doc_id, _ in text_of}
    return {r["doc_id"] for r in removed if r["doc_id"] in with_lines
            and (text_of.get((r["doc_id"], r["line"])) or "")[r["start"]:r["end"]] != r["text"]}


def _quarantine_article(result: BatchResult, doc_ids: dict[str, list[str]]) -> None:
    for row in result.articles:
        if row["doc_id"] in doc_ids:
            result.quarantine.append({"source": row["source"], "doc_id": row["doc_id"], "stage": "validate",
                                      "error": article_failure(row, doc_ids[row["doc_id"]])})
    result.articles = [r for r in result.articles if r["doc_id"] not in doc_ids]
    result.removed = [r for r in result.removed if r["doc_id"] not in doc_ids]
    result.lines = [r for r in result.lines if r["doc_id"] not in doc_ids]


def _fix_quarantine(rows: list[dict]) -> list[dict]:
    """Make bookkeeping rows valid without losing what they say: one row per source."""
    out: dict[str, dict] = {}
    for row in rows:
        source = str(row.get("source") or "<unknown source>")
        doc_id = row.get("doc_id") if isinstance(row.get("doc_id"), str) and _HEX16.match(row["doc_id"]) else None
        stage, error = row.get("stage"), str(row.get("error") or "")
        if stage not in STAGES:
            error, stage = f"[{stage}] {error}", "validate"
        if len(error) < 10:
            error = f"failed with no usable message ({error!r}); please report it with this file"
        if source in out:
            out[source]["error"] += f"; also {stage}: {error}"
            continue
        out[source] = {"source": source, "doc_id": doc_id, "stage": stage, "error": error}
    return list(out.values())


def validate_batch(result: BatchResult, tables: dict[str, pa.Table | None] | None = None) -> BatchResult:
    """Move every article that fails a check (its own row, its removed or lines rows, the
    removed-line check, or a removed span its lines do not hold) to quarantine. Returns the same
    object, now valid. `tables`: the Arrow table of each table's rows (arrow_table), validated
    in their place; the tables whose rows change here are dropped from it."""
    tables = {} if tables is None else tables
    bad: dict[str, list[str]] = {}
    for i, checks in failing_rows("articles", result.articles, tables.get("articles")).items():
        bad.setdefault(result.articles[i]["doc_id"], []).extend(checks)
    for name in ("removed", "lines"):
        rows = getattr(result, name)
        for i, checks in failing_rows(name, rows, tables.get(name)).items():
            listed = bad.setdefault(rows[i]["doc_id"], [])
            listed.extend(f"{name}.{c}" for c in checks if f"{name}.{c}" not in listed)
    for doc_id in removed_lines_left(result.articles, result.removed, result.kept_lines):
        bad.setdefault(doc_id, []).append("text:removed_line_not_in_text")
    for doc_id in spans_not_in_lines(result.removed, result.lines):
        bad.setdefault(doc_id, []).append("removed:removed_span_in_lines")
    known = {r["doc_id"] for r in result.articles}
    for name, check in (("removed", "removed:removed_doc_id_known"), ("lines", "lines:lines_doc_id_known")):
        for r in getattr(result, name):
            if r["doc_id"] not in known and check not in bad.get(r["doc_id"], ()):
                bad.setdefault(r["doc_id"], []).append(check)
    if bad:
        _quarantine_article(result, bad)
        for name in ("articles", "removed", "lines", "quarantine"):
            tables.pop(name, None)
    if failing_rows("quarantine", result.quarantine, tables.get("quarantine")):
        result.quarantine = _fix_quarantine(result.quarantine)
        tables.pop("quarantine", None)
    return result


KEY_BATCH_ROWS = 200_000


def string_array(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """A key column (doc_id, source, kind) as one plain string array: chunks combined, dictionary
    encoding and other types cast to string; nulls stay null."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    return col if pa.types.is_string(col.type) else col.cast(pa.string())


def _key_column(path: Path, name: str) -> pa.Array:
    """One key column of a table as a single pyarrow string array (the table's other columns are
    not read). A missing file or column is an error, as it was for pq.read_table."""
    pf = pq.ParquetFile(path, pre_buffer=False)
    chunks = [b.column(0) for b in pf.iter_batches(batch_size=KEY_BATCH_ROWS, columns=[name])]
    if not chunks:
        return pa.array([], pa.string())
    return string_array(pa.chunked_array(chunks))


def _later_copies(col: pa.Array) -> np.ndarray:
    """Bool mask of the rows whose value occurred in an earlier row (pandas' duplicated(keep="first");
    nulls are equal to each other, as there). No Python object per row: the column is dictionary
    encoded and each code's first row found with numpy."""
    codes = pc.dictionary_encode(col, null_encoding="encode").indices.to_numpy(zero_copy_only=False)
    later = np.ones(len(codes), dtype=bool)
    later[np.unique(codes, return_index=True)[1]] = False
    return later


def _duplicates_problem(label: str, col: pa.Array) -> str | None:
    """"<label> unique: N duplicates, e.g. [first three later copies, in row order]" or None."""
    later = _later_copies(col)
    n = int(later.sum())
    if not n:
        return None
    first3 = col.take(np.flatnonzero(later)[:3]).to_pylist()
    return f"{label} unique: {n} duplicates, e.g. {first3}"


def _unknown_ids_problem(parts: list[pa.Array], has_null: bool, check: str, what: str) -> str | None:
    """"<check>: N <what>, e.g. [first three]" for the doc_ids in `parts` (and a null one), or None."""
    orphans = pc.unique(pa.concat_arrays(parts)) if parts else pa.array([], pa.string())
    if not len(orphans) and not has_null:
        return None
    first = orphans.take(pc.sort_indices(orphans)[:3]).to_pylist()
    # a null doc_id is unknown too; it sorts as the string "None" would
    shown = sorted(first + [None], key=str)[:3] if has_null else first
    return f"{check}: {len(orphans) + has_null} {what}, e.g. {shown}"


def check_tables(folder: Path) -> list[str]:
    """Cross-table checks over folder/{articles,removed,quarantine,lines}.parquet (lines when it
    is there). Returns the problems; empty when the tables agree.

    Bounded memory at any corpus size: key columns are read one at a time as arrow arrays and
    compared with arrow set look-ups (`is_in`) and numpy; removed.parquet (~230 rows per document)
    is streamed; nothing is held as a Python object per row."""
    from newsclean.cleaners.store import iter_batches

    folder = Path(folder)
    arts_path, quar_path = folder / "articles.parquet", folder / "quarantine.parquet"
    problems = []
    art_ids = _key_column(arts_path, "doc_id")
    known = pc.unique(pa.concat_arrays([art_ids.drop_null(), _key_column(quar_path, "doc_id").drop_null()]))
    # removed doc_ids in neither table: distinct per batch, looked up in the known ones
    orphan_parts, orphan_null = [], False
    for batch in iter_batches(folder / "removed.parquet", ["doc_id"]):
        ids = string_array(pc.unique(batch.column(0)))
        orphan_null |= ids.null_count > 0
        ids = ids.drop_null()
        orphan_parts.append(ids.filter(pc.invert(pc.is_in(ids, value_set=known))))
    del known
    problem = _unknown_ids_problem(orphan_parts, orphan_null, "removed_doc_id_known",
                                   "removed doc_ids are in neither articles nor quarantine")
    if problem:
        problems.append(problem)
    if (folder / "lines.parquet").exists():  # lines.doc_id in articles.doc_id, distinct per batch as above
        orphan_parts, orphan_null = [], False
        for batch in iter_batches(folder / "lines.parquet", ["doc_id"]):
            ids = string_array(pc.unique(batch.column(0)))
            orphan_null |= ids.null_count > 0
            ids = ids.drop_null()
            orphan_parts.append(ids.filter(pc.invert(pc.is_in(ids, value_set=art_ids.drop_null()))))
        problem = _unknown_ids_problem(orphan_parts, orphan_null, "lines_doc_id_known", "lines doc_ids are not in articles")
        if problem:
            problems.append(problem)
    art_sources = _key_column(arts_path, "source")
    quar_sources = _key_column(quar_path, "source")
    both = pc.unique(quar_sources.filter(pc.is_in(quar_sources, value_set=art_sources.drop_null())))
    if len(both):
        problems.append(f"source_in_one_place: {len(both)} sources are both articles and quarantined, e.g. {both.take(pc.sort_indices(both)[:3]).to_pylist()}")
    problem = _dup_cluster_problem(arts_path, art_ids)
    if problem:
        problems.append(problem)
    for label, col in (("articles.doc_id", art_ids), ("articles.source", art_sources)):
        problem = _duplicates_problem(label, col)
        if problem:
            problems.append(problem)
    del art_ids, art_sources
    problem = _duplicates_problem("quarantine.source", quar_sources)
    if problem:
        problems.append(problem)
    return problems


def _dup_cluster_problem(arts_path: Path, art_ids: pa.Array) -> str | None:
    """dup_cluster_is_an_article: every cluster's representative is an article of the table that
    is its own representative."""
    clusters = _key_column(arts_path, "dup_cluster")
    own = pc.fill_null(pc.equal(art_ids, clusters), False)
    representatives = art_ids.filter(own)
    named = pc.unique(clusters.drop_null())
    unknown = named.filter(pc.invert(pc.is_in(named, value_set=representatives)))
    if not len(unknown) and not clusters.null_count:
        return None
    first = unknown.take(pc.sort_indices(unknown)[:3]).to_pylist()
    return (f"dup_cluster_is_an_article: {len(unknown) + (clusters.null_count > 0)} dup_cluster values are not "
            f"the doc_id of an article that represents itself, e.g. {first}")


def resolve_duplicates(folder: Path) -> int:
    """Identical documents in different batches (or one carried over from the previous run and one
    new): keep the first articles row of each doc_id, move the others to quarantine (stage
    "validate", naming the kept copy) and drop their duplicate removed and lines rows. Works on the merged
    tables in `folder`, streaming row groups; rewrites a file only when it has duplicates.
    Returns the number of rows moved.

    Finding none (the usual case) reads only the articles' doc_id column as an arrow array; the
    Python objects made are for the duplicates and their removed rows only."""
    folder = Path(folder)
    ids = _key_column(folder / "articles.parquet", "doc_id")
    drop = _later_copies(ids)
    if not drop.any():
        return 0
    sources = _key_column(folder / "articles.parquet", "source")
    moved_at = np.flatnonzero(drop)
    moved_ids = ids.take(moved_at).to_pylist()
    moved_sources = sources.take(moved_at).to_pylist()
    dup_ids = set(moved_ids)
    first_at = np.flatnonzero(~drop)
    firsts = ids.take(first_at)
    in_dup = pc.is_in(firsts, value_set=pa.array(sorted(dup_ids, key=str), pa.string())).to_numpy(zero_copy_only=False)
    kept = dict(zip(firsts.filter(pa.array(in_dup)).to_pylist(), sources.take(first_at[in_dup]).to_pylist()))
    del ids, sources, firsts
    dup_value_set = pa.array(sorted(d for d in dup_ids if d is not None), pa.string())

    def rewrite(name: str, keep_rows) -> None:
        src = folder / f"{name}.parquet"
        tmp = folder / f".{name}.dedup.tmp"
        pf = pq.ParquetFile(src)
        offset = 0
        with pq.ParquetWriter(tmp, ARROW_SCHEMAS[name], compression="zstd") as writer:
            for i in range(pf.num_row_groups):
                rg = pf.read_row_group(i)
                mask = keep_rows(rg, offset)
                offset += rg.num_rows
                sel = rg.filter(pa.array(mask, pa.bool_()))
                if sel.num_rows:
                    writer.write_table(sel.cast(ARROW_SCHEMAS[name]))
        os.replace(tmp, src)

    rewrite("articles", lambda rg, off: ~drop[off:off + rg.num_rows])

    def first_rows(key: list[str]):
        """A row mask keeping the first row of each `key` among the duplicated documents' rows."""
        seen: set[tuple] = set()

        def keep(rg, off):
            # only rows of duplicated documents become Python tuples; every other row is kept as is
            ids_rg = rg.column("doc_id")
            is_dup = pc.fill_null(pc.is_in(string_array(ids_rg), value_set=dup_value_set), False)
            if None in dup_ids:
                is_dup = pc.or_(is_dup, pc.is_null(ids_rg))
            mask = np.ones(rg.num_rows, dtype=bool)
            at = np.flatnonzero(is_dup.to_numpy(zero_copy_only=False))
            if len(at):
                cols = rg.select(key).take(pa.array(at)).to_pylist()
                for j, r in zip(at, cols):
                    k = tuple(r.values())
                    mask[j] = k not in seen
                    seen.add(k)
            return mask
        return keep

    rewrite("removed", first_rows(["doc_id", "line", "start", "end", "kind", "rule"]))
    if (folder / "lines.parquet").exists():
        rewrite("lines", first_rows(["doc_id", "line"]))
    quar = pq.read_table(folder / "quarantine.parquet")
    extra = [{"source": s, "doc_id": d, "stage": "validate",
              "error": duplicate_reason(s, kept[d], d)}
             for d, s in zip(moved_ids, moved_sources)]
    merged = pa.concat_tables([quar.cast(ARROW_SCHEMAS["quarantine"]), pa.Table.from_pylist(extra, schema=ARROW_SCHEMAS["quarantine"])])
    tmp = folder / ".quarantine.dedup.tmp"
    pq.write_table(merged, tmp, compression="zstd")
    os.replace(tmp, folder / "quarantine.parquet")
    return len(extra)
