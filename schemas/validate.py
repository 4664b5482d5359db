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

import os
import re
from pathlib import Path

import pandas as pd
import pandera.errors
import pyarrow.compute as pc
import pyarrow.parquet as pq

from cleaners.batch import BatchResult
from schemas.tables import ARROW_SCHEMAS, HEX16, MODELS, STAGES

_HEX16 = re.compile(HEX16)


def frame(name: str, rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=ARROW_SCHEMAS[name].names)


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


def failing_rows(name: str, rows: list[dict]) -> dict[int, list[str]]:
    """Row index -> names of the checks it failed ("column:check"). Empty when everything passes.

    A failure pandera cannot pin on a row (a column that cannot be coerced as a whole) is pinned by
    validating the rows one at a time."""
    if not rows:
        return {}
    cases = _validate(name, frame(name, rows))
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
# (cleaners.pipeline's HTML path): their rows are exempt from the removed-line check.
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


def _quarantine_article(result: BatchResult, doc_ids: dict[str, list[str]]) -> None:
    for row in result.articles:
        if row["doc_id"] in doc_ids:
            result.quarantine.append({"source": row["source"], "doc_id": row["doc_id"], "stage": "validate",
                                      "error": "output failed schema checks: " + ", ".join(doc_ids[row["doc_id"]])
                                      + "; the document was not written, please report it with this file"})
    result.articles = [r for r in result.articles if r["doc_id"] not in doc_ids]
    result.removed = [r for r in result.removed if r["doc_id"] not in doc_ids]


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


def validate_batch(result: BatchResult) -> BatchResult:
    """Move every article that fails a check (its own row, its removed rows, or the removed-line
    check) to quarantine. Returns the same object, now valid."""
    bad: dict[str, list[str]] = {}
    for i, checks in failing_rows("articles", result.articles).items():
        bad.setdefault(result.articles[i]["doc_id"], []).extend(checks)
    for i, checks in failing_rows("removed", result.removed).items():
        listed = bad.setdefault(result.removed[i]["doc_id"], [])
        listed.extend(f"removed.{c}" for c in checks if f"removed.{c}" not in listed)
    for doc_id in removed_lines_left(result.articles, result.removed, result.kept_lines):
        bad.setdefault(doc_id, []).append("text:removed_line_not_in_text")
    known = {r["doc_id"] for r in result.articles}
    for r in result.removed:
        if r["doc_id"] not in known:
            bad.setdefault(r["doc_id"], []).append("removed:removed_doc_id_known")
    if bad:
        _quarantine_article(result, bad)
    if failing_rows("quarantine", result.quarantine):
        result.quarantine = _fix_quarantine(result.quarantine)
    return result


def check_tables(folder: Path) -> list[str]:
    """Cross-table checks over folder/{articles,removed,quarantine}.parquet (reads only key
    columns). Returns the problems; empty when the tables agree."""
    folder = Path(folder)
    arts = pq.read_table(folder / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    quar = pq.read_table(folder / "quarantine.parquet", columns=["doc_id", "source"]).to_pandas()
    problems = []
    known = set(arts["doc_id"]) | set(quar["doc_id"].dropna())
    # removed.parquet grows ~230 rows per document: its doc_ids are streamed, distinct per batch
    from cleaners.store import iter_batches

    removed_ids: set = set()
    for batch in iter_batches(folder / "removed.parquet", ["doc_id"]):
        removed_ids.update(pc.unique(batch.column(0)).to_pylist())
    orphans = sorted(removed_ids - known, key=str)
    if orphans:
        problems.append(f"removed_doc_id_known: {len(orphans)} removed doc_ids are in neither articles nor quarantine, e.g. {orphans[:3]}")
    both = sorted(set(arts["source"]) & set(quar["source"]))
    if both:
        problems.append(f"source_in_one_place: {len(both)} sources are both articles and quarantined, e.g. {both[:3]}")
    for col in ("doc_id", "source"):
        dup = arts[col][arts[col].duplicated()]
        if len(dup):
            problems.append(f"articles.{col} unique: {len(dup)} duplicates, e.g. {list(dup.head(3))}")
    dup = quar["source"][quar["source"].duplicated()]
    if len(dup):
        problems.append(f"quarantine.source unique: {len(dup)} duplicates, e.g. {list(dup.head(3))}")
    return problems


def resolve_duplicates(folder: Path) -> int:
    """Identical documents in different batches (or one carried over from the previous run and one
    new): keep the first articles row of each doc_id, move the others to quarantine (stage
    "validate", naming the kept copy) and drop their duplicate removed rows. Works on the merged
    tables in `folder`, streaming row groups; rewrites a file only when it has duplicates.
    Returns the number of rows moved."""
    import pyarrow as pa

    folder = Path(folder)
    keys = pq.read_table(folder / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    dup_mask = keys["doc_id"].duplicated(keep="first")
    if not dup_mask.any():
        return 0
    kept = keys[~dup_mask].set_index("doc_id")["source"]
    moved = keys[dup_mask]
    dup_ids = set(moved["doc_id"])

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

    drop = dup_mask.to_numpy()
    rewrite("articles", lambda rg, off: ~drop[off:off + rg.num_rows])
    seen: set[tuple] = set()

    def keep_removed(rg, off):
        mask = []
        cols = rg.select(["doc_id", "line", "start", "end", "kind", "rule"]).to_pylist()
        for r in cols:
            if r["doc_id"] not in dup_ids:
                mask.append(True)
                continue
            key = tuple(r.values())
            mask.append(key not in seen)
            seen.add(key)
        return mask

    rewrite("removed", keep_removed)
    quar = pq.read_table(folder / "quarantine.parquet")
    extra = [{"source": s, "doc_id": d, "stage": "validate",
              "error": f"same bytes as {kept[d]} (doc_id {d}), which is cleaned once; remove the duplicate file"}
             for d, s in zip(moved["doc_id"], moved["source"])]
    merged = pa.concat_tables([quar.cast(ARROW_SCHEMAS["quarantine"]), pa.Table.from_pylist(extra, schema=ARROW_SCHEMAS["quarantine"])])
    tmp = folder / ".quarantine.dedup.tmp"
    pq.write_table(merged, tmp, compression="zstd")
    os.replace(tmp, folder / "quarantine.parquet")
    return len(extra)
